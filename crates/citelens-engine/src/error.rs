//! Typed errors: bad input is reported, never a panic.

use citelens_types::InputError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum EngineError {
    #[error("input is not valid JSON for a citelens document: {0}")]
    Json(String),
    /// A size cap was exceeded; `cap` names it as it appears in `Caps`.
    #[error("{what} is {actual}, over the cap `{cap}` = {limit}")]
    TooLarge { what: String, cap: &'static str, actual: usize, limit: usize },
    /// A citation's `document` cannot be read as text (empty, binary, too large).
    #[error("citation {citation:?}'s document: {error}")]
    Document { citation: String, error: citelens_types::DocumentError },
    #[cfg(feature = "nli")]
    #[error("the NLI model failed: {0}")]
    Nli(#[from] citelens_nli::NliError),
}

/// The input's own errors keep their variants here, so a caller matches one error type.
impl From<InputError> for EngineError {
    fn from(e: InputError) -> Self {
        match e {
            InputError::Json(m) => EngineError::Json(m),
            InputError::TooLarge { what, cap, actual, limit } => EngineError::TooLarge { what, cap, actual, limit },
            InputError::Document { citation, error } => EngineError::Document { citation, error },
        }
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;
