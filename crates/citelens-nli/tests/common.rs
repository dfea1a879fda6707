//! Paths shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn model_dir() -> PathBuf {
    repo().join("models/citelens-nli-minilm")
}

pub fn fixtures() -> PathBuf {
    repo().join("tests/fixtures")
}

/// `../shared/data` beside the repo (CI clones the project with shared/ beside it).
pub fn shared_data() -> PathBuf {
    std::env::var_os("CITELENS_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("../shared/data"))
}

pub fn model() -> citelens_nli::NliModel {
    citelens_nli::NliModel::from_dir(model_dir()).expect("the shipped model loads")
}

pub fn jsonl(path: PathBuf) -> Vec<serde_json::Value> {
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("fixture line is JSON"))
        .collect()
}
