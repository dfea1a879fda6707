//! What the model read for one (premise, hypothesis) pair: the one value every stage passes on.

use serde::{Deserialize, Serialize};

/// The NLI model's three probabilities for a pair, and its extra heads' when the model has them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Probs {
    pub entailment: f32,
    pub neutral: f32,
    pub contradiction: f32,
    /// The four-way head's probabilities (supportive, partially supportive, contradictory,
    /// irrelevant), when the model has one: read in the same pass as the three NLI labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub four_way: Option<[f32; 4]>,
    /// The evidence head's probability that the premise is evidence for the claim (states, partly
    /// states or denies it), when the model has one: ranks a long document's sentences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<f32>,
}
