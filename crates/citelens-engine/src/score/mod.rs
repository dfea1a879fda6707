//! The NLI question the engine asks, behind a trait so the engine does not care where it is answered
//! (the shipped model in-process, or a worker), and unit tests can use a double.

use citelens_types::report::Probs;

pub trait Scorer {
    /// Probabilities for each (premise, hypothesis) pair, in order.
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, String>>;
    /// A name for the report (`citelens-nli-minilm`).
    fn name(&self) -> String;
    /// Its answers carry the four-way head's probabilities (`Probs::four_way`).
    fn has_four_way(&self) -> bool {
        false
    }
    /// Its answers carry the evidence head's probability (`Probs::evidence`).
    fn has_evidence(&self) -> bool {
        false
    }
}

#[cfg(feature = "nli")]
use citelens_nli::NliModel;

/// What the engine reads of the model's verdict on a pair (the CLI's scorer and the worker's batcher).
#[cfg(feature = "nli")]
pub fn probs_of(p: &citelens_nli::Prediction) -> Probs {
    Probs {
        entailment: p.probabilities.entailment,
        neutral: p.probabilities.neutral,
        contradiction: p.probabilities.contradiction,
        four_way: p.four_way,
        evidence: p.evidence,
    }
}

#[cfg(feature = "nli")]
impl Scorer for NliModel {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, String>> {
        self.predict_batch(pairs).into_iter().map(|r| r.map(|p| probs_of(&p)).map_err(|e| e.to_string())).collect()
    }

    fn name(&self) -> String {
        self.config().name.clone()
    }

    fn has_four_way(&self) -> bool {
        NliModel::has_four_way(self)
    }

    fn has_evidence(&self) -> bool {
        NliModel::has_evidence(self)
    }
}
