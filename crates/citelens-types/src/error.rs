//! Why an input document is refused: named, never a panic.

use thiserror::Error;

use crate::document_text::DocumentError;

#[derive(Debug, Error)]
pub enum InputError {
    #[error("input is not valid JSON for a citelens document: {0}")]
    Json(String),
    /// A size cap was exceeded; `cap` names it as it appears in `Caps`.
    #[error("{what} is {actual}, over the cap `{cap}` = {limit}")]
    TooLarge { what: String, cap: &'static str, actual: usize, limit: usize },
    /// A citation's `document` cannot be read as text (empty, binary, too large).
    #[error("citation {citation:?}'s document: {error}")]
    Document { citation: String, error: DocumentError },
}
