//! The engine's stages run text → plan → score → decide → report (`assemble/`), and a stage imports
//! only the stages before it (docs/ARCHITECTURE.md). This reads every source file's `crate::` paths
//! and names each import of a later stage.

use std::path::Path;

mod common;

/// The stages in order, by folder; `engine.rs` and `lib.rs` compose them all.
const STAGES: [&str; 5] = ["text", "plan", "score", "decide", "assemble"];

/// The stage a `crate::NAME` path reaches: a stage folder, or a module the crate root re-exports
/// under its short name (`crate::checks` is `plan::checks`).
fn stage_of_path(name: &str) -> Option<usize> {
    let folder = match name {
        "claims" | "entities" | "kg" | "markers" | "segment" => "text",
        "abstain" | "checks" | "document" | "evidence" | "retrieve" => "plan",
        "scorer" => "score",
        "combiner" | "complexity" => "decide",
        other => other,
    };
    STAGES.iter().position(|s| *s == folder)
}

/// Every `crate::NAME` a source text names, outside comments.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().map(|l| l.split("//").next().unwrap_or("")) {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.push(name);
            }
            rest = after;
        }
        // `use crate::{plan, score}` names several at once.
        if let Some(group) = line.split("crate::{").nth(1) {
            let group = group.split('}').next().unwrap_or("");
            out.extend(group.split(',').map(|n| n.trim().split("::").next().unwrap_or("").to_string()).filter(|n| !n.is_empty()));
        }
    }
    out
}

#[test]
fn no_stage_imports_a_later_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = common::rust_files(&src);
    let mut wrong = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let Some(own) = rel.components().next().and_then(|c| STAGES.iter().position(|s| *s == c.as_os_str())) else { continue };
        let text = std::fs::read_to_string(file).unwrap();
        for name in crate_paths(&text) {
            if let Some(stage) = stage_of_path(&name).filter(|s| *s > own) {
                wrong.push(format!("{} ({}) imports crate::{name} ({})", rel.display(), STAGES[own], STAGES[stage]));
            }
        }
    }
    wrong.dedup();
    assert!(wrong.is_empty(), "a stage imports a later one:\n{}", wrong.join("\n"));
    assert!(files.len() > 30, "the engine's sources were read ({} files)", files.len());
}

#[test]
fn the_reader_sees_imports_of_every_form() {
    let text = "use crate::score::Scores;\nuse crate::{plan, decide::Decisions};\n// crate::assemble in a comment\nlet x = crate::checks::check(a, b);";
    assert_eq!(crate_paths(text), ["score", "plan", "decide", "checks"]);
    assert_eq!(stage_of_path("checks"), Some(1));
    assert_eq!(stage_of_path("thresholds"), None);
}
