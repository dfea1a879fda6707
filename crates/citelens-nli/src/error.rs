//! Typed errors: every failure a caller can meet, none of them a panic.

use std::path::PathBuf;

/// Which side of a pair an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Premise,
    Hypothesis,
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Side::Premise => "premise",
            Side::Hypothesis => "hypothesis",
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum NliError {
    #[error("model file not found: {path}")]
    MissingFile { path: PathBuf },
    #[error("could not read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("invalid model config: {0}")]
    Config(String),
    #[error("could not load the ONNX model: {0}")]
    ModelLoad(String),
    #[error("the model's inputs are {found:?}; citelens needs {expected:?} (token_type_ids optional) and one logits output of {labels} labels (and, optionally, a second of 4)")]
    WrongInputs { expected: Vec<String>, found: Vec<String>, labels: usize },
    #[error("could not load the tokenizer: {0}")]
    Tokenizer(String),
    #[error("the {0} is empty")]
    EmptyText(Side),
    #[error("the {side} is {actual} {unit} long; the limit is {limit}")]
    TooLong { side: Side, actual: usize, limit: usize, unit: &'static str },
    #[error("onnxruntime was not found ({why}): pass --ort-library PATH or set ORT_DYLIB_PATH to the libonnxruntime shared library (`pip install onnxruntime` puts it in site-packages/onnxruntime/capi/)")]
    OrtMissing { why: String },
    #[error("inference failed: {0}")]
    Inference(String),
}

impl NliError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        if source.kind() == std::io::ErrorKind::NotFound {
            NliError::MissingFile { path: path.to_path_buf() }
        } else {
            NliError::Io { path: path.to_path_buf(), source }
        }
    }
}

pub type Result<T, E = NliError> = std::result::Result<T, E>;
