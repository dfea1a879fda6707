//! The decide stage: the rules (or a trained model) that give a claim its status from its scores
//! and its typed checks, and the verdicts of citations, sentences and the answer.

mod claim;
pub mod combiner;
pub mod complexity;
pub(crate) mod verdict;

pub use claim::*;
