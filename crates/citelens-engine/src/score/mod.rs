//! The score stage: the NLI question the engine asks, behind a trait so the engine does not care
//! where it is answered (the shipped model in-process, or a worker), and unit tests can use a double;
//! the plan's answers (`Scores`), and the two rounds of a verification with long documents (`rounds`).

mod cached;
pub mod rounds;
mod scores;

use std::collections::HashMap;

use citelens_types::report::Probs;
use thiserror::Error;

pub use cached::{Answer, Cached};
pub use rounds::{choose_evidence, final_plan, round_one, round_two};
pub use scores::Scores;

/// Why a pair has no answer. Its text is what the report's finding says of it.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ScoreError {
    /// The model (or the worker serving it) refused the pair: too long, empty, or the runtime failed.
    #[error("{0}")]
    Refused(String),
    /// Nobody scored the pair: the table of answers computed elsewhere lacks it.
    #[error("pair was not scored")]
    NotScored,
}

/// A row of answers computed elsewhere has a length no head layout gives.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("a score has {0} numbers; 3, 4, 7 or 8 expected")]
pub struct RowLengthError(pub usize);

/// The model's answers by (premise, hypothesis): what a browser's scoring workers or another
/// machine send back, read into a plan's `Scores` (`Scores::from_table`, `Engine::verify_with_scores`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoreTable {
    by_pair: HashMap<(String, String), Probs>,
}

impl ScoreTable {
    pub fn insert(&mut self, premise: impl Into<String>, hypothesis: impl Into<String>, probs: Probs) {
        self.by_pair.insert((premise.into(), hypothesis.into()), probs);
    }

    pub fn get(&self, pair: &(String, String)) -> Option<Probs> {
        self.by_pair.get(pair).copied()
    }

    pub fn len(&self) -> usize {
        self.by_pair.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_pair.is_empty()
    }

    /// From `[[premise, hypothesis, [e, n, c] (+ four-way ×4) (+ evidence)], ...]`: the numbers as
    /// `Nli::score` writes them for JavaScript. A row of another length is an error naming it.
    pub fn from_rows(rows: Vec<(String, String, Vec<f32>)>) -> Result<Self, RowLengthError> {
        let mut table = ScoreTable::default();
        for (p, h, v) in rows {
            let (four_way, evidence) = match v.len() {
                3 => (None, None),
                4 => (None, Some(v[3])),
                7 => (Some([v[3], v[4], v[5], v[6]]), None),
                8 => (Some([v[3], v[4], v[5], v[6]]), Some(v[7])),
                n => return Err(RowLengthError(n)),
            };
            table.insert(p, h, Probs { entailment: v[0], neutral: v[1], contradiction: v[2], four_way, evidence });
        }
        Ok(table)
    }
}

impl FromIterator<((String, String), Probs)> for ScoreTable {
    fn from_iter<I: IntoIterator<Item = ((String, String), Probs)>>(iter: I) -> Self {
        ScoreTable { by_pair: iter.into_iter().collect() }
    }
}

/// The `Scorer` methods a scorer wrapping another (`field`) forwards unchanged: its name and which
/// heads its answers carry. Used inside an `impl Scorer` block, beside its own `score`.
#[macro_export]
macro_rules! forward_scorer_info {
    ($field:ident) => {
        fn name(&self) -> String {
            self.$field.name()
        }

        fn has_four_way(&self) -> bool {
            self.$field.has_four_way()
        }

        fn sentence_pairs(&self) -> $crate::SentencePairs {
            self.$field.sentence_pairs()
        }

        fn has_evidence(&self) -> bool {
            self.$field.has_evidence()
        }
    };
}

pub trait Scorer {
    /// Probabilities for each (premise, hypothesis) pair, in order.
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, ScoreError>>;
    /// A name for the report (`citelens-nli-minilm`).
    fn name(&self) -> String;
    /// Its answers carry the four-way head's probabilities (`Probs::four_way`).
    fn has_four_way(&self) -> bool {
        false
    }
    /// The whole-sentence pairs its sentence head reads (none without a four-way head).
    fn sentence_pairs(&self) -> crate::plan::SentencePairs {
        if self.has_four_way() {
            crate::plan::SentencePairs::Passages
        } else {
            crate::plan::SentencePairs::None
        }
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
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, ScoreError>> {
        self.predict_batch(pairs).into_iter().map(|r| r.map(|p| probs_of(&p)).map_err(|e| ScoreError::Refused(e.to_string()))).collect()
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

    /// What the model's config says its sentence head was trained on (`sentence_pairs`).
    fn sentence_pairs(&self) -> crate::plan::SentencePairs {
        match (self.has_four_way(), self.config().sentence_pairs) {
            (false, _) => crate::plan::SentencePairs::None,
            (true, citelens_nli::SentenceEvidence::Selected) => crate::plan::SentencePairs::Selected,
            (true, citelens_nli::SentenceEvidence::Passages) => crate::plan::SentencePairs::Passages,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_every_head_layout_read_and_a_wrong_length_is_named() {
        let rows = vec![
            ("p".to_string(), "h3".to_string(), vec![0.7, 0.2, 0.1]),
            ("p".to_string(), "h4".to_string(), vec![0.7, 0.2, 0.1, 0.9]),
            ("p".to_string(), "h7".to_string(), vec![0.7, 0.2, 0.1, 0.6, 0.2, 0.1, 0.1]),
            ("p".to_string(), "h8".to_string(), vec![0.7, 0.2, 0.1, 0.6, 0.2, 0.1, 0.1, 0.9]),
        ];
        let t = ScoreTable::from_rows(rows).unwrap();
        assert_eq!(t.len(), 4);
        let h8 = t.get(&("p".into(), "h8".into())).unwrap();
        assert_eq!((h8.four_way, h8.evidence), (Some([0.6, 0.2, 0.1, 0.1]), Some(0.9)));
        assert_eq!(t.get(&("p".into(), "h4".into())).unwrap().evidence, Some(0.9));
        let err = ScoreTable::from_rows(vec![("p".into(), "h".into(), vec![0.5, 0.5])]).unwrap_err();
        assert_eq!(err, RowLengthError(2));
        assert!(err.to_string().contains("has 2 numbers"), "{err}");
    }
}
