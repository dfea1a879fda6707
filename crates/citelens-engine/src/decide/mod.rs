//! The decide stage: typed checks of each claim against its evidence, the rules (or a trained
//! model) that give a claim its status, and the verdicts of citations, sentences and the answer.

pub mod abstain;
pub mod checks;
mod claim;
pub mod combiner;
pub mod complexity;
pub mod kg;
pub mod thresholds;
pub(crate) mod verdict;

pub use claim::*;
