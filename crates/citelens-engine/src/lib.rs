//! citelens' verification engine: a question, an answer with citation markers and the cited
//! evidence in; a versioned JSON report out (categories, spans, complexity, knowledge-graph
//! metrics). No browser or I/O dependencies: the CLI, the widget, the worker and the extension
//! share it.
//!
//! The stages, in the order [`Engine::verify`] runs them (`docs/ARCHITECTURE.md` draws them):
//! - **text**: [`markers`] cuts the citation markers out, [`segment`] finds the sentences,
//!   [`claims`] splits them into atomic claims, [`entities`] names the names, numbers and dates;
//! - **plan**: [`plan`] lists every (evidence, claim) pair to score once, with [`retrieve`] and
//!   [`evidence`] choosing a long [`document`]'s sentences;
//! - **score**: a [`Scorer`] (the model, `citelens-nli`, behind the `nli` feature) fills the
//!   score table ([`Scores`]);
//! - **decide**: [`checks`] compares values, [`decide`] applies the rules (or [`combiner`] the
//!   learned combiner), [`abstain`] checks abstentions, [`complexity`] names the reasoning;
//! - **report**: the report assembled in `verify.rs`, in `citelens-types`' [`Report`].

// Rules read as their sentence ("a name word, joined, and not a number after a word"), and loops walk
// parallel arrays by position: clippy's rewrites of both read worse here.
#![allow(clippy::nonminimal_bool, clippy::needless_range_loop)]

pub mod abstain;
pub mod checks;
pub mod claims;
pub mod combiner;
pub mod complexity;
pub mod decide;
pub mod document;
pub mod entities;
mod error;
pub mod evidence;
pub mod kg;
pub mod markers;
pub mod plan;
mod progressive;
mod question;
pub mod retrieve;
pub mod scorer;
pub mod segment;
pub mod thresholds;
mod verdict;
mod verify;
mod words;

pub use combiner::{Combiner, CombinerError};
pub use decide::{ClaimFacts, ClaimRule, Decider, Decision, RuleDecider};
pub use document::{Document, DocumentError};
pub use error::{EngineError, Result};
pub use plan::{DocumentStage, Plan, Scores};
pub use progressive::{report_steps, sentence_prefix_ends};
// The input and report types live in `citelens-types` (a UI needs them without the rules); their
// old paths (`citelens_engine::report::…`, `citelens_engine::input::…`) still resolve.
pub use citelens_types::report::*;
pub use citelens_types::{input, input_schema, report, Caps, CharIndex, Citation, Cut, Input, InputError, Probs, Triple};
pub use retrieve::{Bm25, Bm25Index};
pub use retrieve::{Retriever, WordOverlap};
pub use scorer::Scorer;
pub use thresholds::Thresholds;
pub use verdict::{categorize, combine, TypedCheck};
pub use verify::{report_with, Engine};
