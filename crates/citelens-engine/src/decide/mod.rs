//! The decide stage: the rules (or a trained model) that give a claim its status from its scores
//! and its typed checks (`claim`), the reading each claim is decided on and the evidence it shows
//! (`claim_report`, `evidence_pick`), the verdicts of citations, sentences and the answer (`verdict`,
//! `sentence`, `answer`) and the reasoning the citations need (`complexity`). What it decides is one
//! `Decisions` value, which the report stage only formats.

pub mod answer;
mod claim;
mod claim_report;
pub mod combiner;
pub mod complexity;
mod evidence_pick;
mod sentence;
pub(crate) mod verdict;

pub use answer::{decide, Decisions};
pub use claim::*;
pub use evidence_pick::{EVIDENCE_MIN_READING, EVIDENCE_SHOWN};
pub use sentence::{ClaimMarks, SentenceDecision};
