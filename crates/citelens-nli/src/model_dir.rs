//! Finding the shipped model without configuration (the CLI and the worker).

use std::path::{Path, PathBuf};

pub const MODEL_NAME: &str = "citelens-nli-minilm";

/// Candidate directories, in order: `$CITELENS_MODEL_DIR`; `models/<name>` in the current directory
/// or any parent (running from the repo); beside the executable or in a parent of it (a cargo target
/// dir inside the repo); `<prefix>/share/citelens/models/<name>` for an installed binary; and the
/// source tree this binary was built from.
pub fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(dir) = std::env::var_os("CITELENS_MODEL_DIR") {
        out.push(PathBuf::from(dir));
    }
    let mut push_ancestors = |start: &Path| {
        for dir in start.ancestors() {
            out.push(dir.join("models").join(MODEL_NAME));
        }
    };
    if let Ok(cwd) = std::env::current_dir() {
        push_ancestors(&cwd);
    }
    if let Some(exe_dir) = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf)) {
        push_ancestors(&exe_dir);
        out.push(exe_dir.join("../share/citelens/models").join(MODEL_NAME));
    }
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models").join(MODEL_NAME));
    out
}

/// The first candidate holding a `config.json`; the error lists where it looked.
pub fn find() -> Result<PathBuf, String> {
    let all = candidates();
    all.iter().find(|d| d.join("config.json").is_file()).cloned().ok_or_else(|| {
        let tried: Vec<String> = all.iter().map(|p| format!("  {}", p.display())).collect();
        format!("no model directory found (pass --model DIR or set CITELENS_MODEL_DIR); looked in:\n{}", tried.join("\n"))
    })
}
