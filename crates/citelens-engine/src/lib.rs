//! citelens' verification engine: a question, an answer with citation markers and the cited
//! evidence in; a versioned JSON report out (categories, spans, complexity, knowledge-graph
//! metrics). No browser or I/O dependencies: the CLI, the widget, the worker and the extension
//! share it.
//!
//! The stages, one folder each, in the order [`Engine::verify`] runs them (`docs/ARCHITECTURE.md`
//! draws them):
//! - **text** ([`text`]): [`markers`] cuts the citation markers out, [`segment`] finds the
//!   sentences, [`claims`] splits them into atomic claims, [`entities`] names the names, numbers
//!   and dates;
//! - **plan** ([`plan`]): every (evidence, claim) pair to score once, with [`retrieve`] and
//!   [`evidence`] choosing a long [`document`]'s sentences, the typed [`checks`] and their probes,
//!   and [`abstain`]'s check of abstaining sentences;
//! - **score** ([`score`]): a [`Scorer`] (the model, `citelens-nli`, behind the `nli` feature)
//!   answers the plan's pairs ([`Scores`]; [`score::rounds`] with long documents, [`Cached`] to ask
//!   each pair once);
//! - **decide** ([`decide`]): each claim's reading and status (the rules, [`RuleDecider`]), each
//!   sentence's and citation's verdict ([`combiner`] the learned combiner), [`complexity`] the
//!   reasoning, as one [`Decisions`] value;
//! - **report** (`assemble/`): the plan and the decisions laid out as `citelens-types`' [`Report`]
//!   ([`report_with`]); nothing there decides.
//!
//! A stage imports only the stages before it ([`thresholds`] and the types are read by all;
//! `tests/stage_order.rs` checks it); [`Engine`] runs them in order.

// Rules read as their sentence ("a name word, joined, and not a number after a word"), and loops walk
// parallel arrays by position: clippy's rewrites of both read worse here.
#![allow(clippy::nonminimal_bool, clippy::needless_range_loop)]

mod assemble;
pub mod decide;
mod engine;
mod error;
pub mod plan;
pub mod score;
pub mod text;
pub mod thresholds;

// The stages' modules by their short names (`crate::text::markers`, `citelens_engine::checks`, …), as
// before they had folders.
pub use decide::{combiner, complexity};
pub use plan::{abstain, checks, document, evidence, retrieve};
pub use score as scorer;
pub use text::{claims, entities, kg, markers, segment};

pub use assemble::progressive::{report_steps, sentence_prefix_ends};
pub use combiner::{Combiner, CombinerError};
pub use decide::{ClaimFacts, ClaimRule, Decider, Decision, Decisions, RuleDecider};
pub use document::{Document, DocumentError};
pub use error::{EngineError, Result};
pub use plan::{DocumentStage, Plan, SentencePairs};
// The input and report types live in `citelens-types` (a UI needs them without the rules); their
// old paths (`citelens_engine::report::…`, `citelens_engine::input::…`) still resolve.
pub use assemble::report_with;
pub use citelens_types::report::*;
pub use citelens_types::{input, input_schema, report, Caps, CharIndex, Citation, Cut, Input, InputError, Probs, Triple};
pub use decide::verdict::{categorize, combine, TypedCheck};
pub use engine::Engine;
pub use retrieve::{Bm25, Bm25Index};
pub use retrieve::{Retriever, WordOverlap};
pub use score::{Cached, RowLengthError, ScoreError, ScoreTable, Scorer, Scores};
pub use thresholds::Thresholds;
