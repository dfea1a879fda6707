//! Whether a cited long document is usable text: checked when the input is, before any stage runs.

use thiserror::Error;

/// Cap on a document's text, in bytes: LAB's articles are well under it, and a scored sentence costs
/// a model pass, so a bigger page is refused with an error rather than verified for minutes.
pub const MAX_DOCUMENT_BYTES: usize = 2 * 1024 * 1024;
/// Share of control characters (other than tab, newline, carriage return, form feed) above which the
/// text is taken for binary data read as text (a PDF or an image passed as `.txt`).
pub const MAX_CONTROL_SHARE: f32 = 0.01;

/// Why a document cannot be verified against.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DocumentError {
    #[error("the document is empty (no letters or digits)")]
    Empty,
    #[error("the document is {actual} bytes, over the cap of {limit} bytes")]
    TooLarge { actual: usize, limit: usize },
    #[error("the document looks like binary data, not text ({control} control characters in {chars})")]
    Binary { control: usize, chars: usize },
}

/// Whether `text` can be verified against: not empty, not binary, under the cap.
pub fn check(text: &str) -> Result<(), DocumentError> {
    if text.len() > MAX_DOCUMENT_BYTES {
        return Err(DocumentError::TooLarge { actual: text.len(), limit: MAX_DOCUMENT_BYTES });
    }
    let chars = text.chars().count();
    let control = text.chars().filter(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{c}')).count();
    if chars > 0 && control as f32 / chars as f32 > MAX_CONTROL_SHARE {
        return Err(DocumentError::Binary { control, chars });
    }
    if !text.chars().any(char::is_alphanumeric) {
        return Err(DocumentError::Empty);
    }
    Ok(())
}
