//! citelens' types: the input document (a question, an answer with citation markers, the cited
//! evidence) and the versioned JSON report, with the enums that name what decided, what a check
//! found and what a finding is about.
//!
//! The engine's stages (text → plan → score → decide → report, `citelens-engine`) produce these;
//! the widget, the wasm binding, the worker and the CLI read them. This crate has no rules and no
//! model, so a UI compiles the report without the engine.

pub mod document_text;
pub mod error;
pub mod input;
pub mod offsets;
pub mod probs;
pub mod report;

pub use document_text::DocumentError;
pub use error::InputError;
pub use input::{input_schema, Caps, Citation, Cut, Input, Triple};
pub use offsets::CharIndex;
pub use probs::Probs;
pub use report::*;
