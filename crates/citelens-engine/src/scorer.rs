//! The NLI question the engine asks, behind a trait so the engine does not care where it is answered
//! (the shipped model in-process, or a worker), and unit tests can use a double.

use std::collections::HashMap;

use crate::report::Probs;

pub trait Scorer {
    /// Probabilities for each (premise, hypothesis) pair, in order.
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, String>>;
    /// A name for the report (`citelens-nli-minilm`).
    fn name(&self) -> String;
}

#[cfg(feature = "nli")]
impl Scorer for citelens_nli::NliModel {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, String>> {
        self.predict_batch(pairs)
            .into_iter()
            .map(|r| {
                r.map(|p| Probs {
                    entailment: p.probabilities.entailment,
                    neutral: p.probabilities.neutral,
                    contradiction: p.probabilities.contradiction,
                })
                .map_err(|e| e.to_string())
            })
            .collect()
    }

    fn name(&self) -> String {
        self.config().name.clone()
    }
}

/// Collects pairs, scores each distinct pair once, and hands the results back by key.
#[derive(Default)]
pub struct PairBook {
    index: HashMap<(String, String), usize>,
    pairs: Vec<(String, String)>,
    results: Vec<Option<Probs>>,
    pub errors: Vec<String>,
}

impl PairBook {
    pub fn ask(&mut self, premise: &str, hypothesis: &str) -> usize {
        let key = (premise.to_string(), hypothesis.to_string());
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.pairs.push(key.clone());
        self.index.insert(key, self.pairs.len() - 1);
        self.pairs.len() - 1
    }

    pub fn run(&mut self, scorer: &dyn Scorer) {
        let refs: Vec<(&str, &str)> = self.pairs.iter().map(|(p, h)| (p.as_str(), h.as_str())).collect();
        self.results = scorer
            .score(&refs)
            .into_iter()
            .map(|r| match r {
                Ok(p) => Some(p),
                Err(e) => {
                    self.errors.push(e);
                    None
                }
            })
            .collect();
    }

    /// The answer to pair `i`; a pair the model refused (too long, empty) counts as fully neutral.
    pub fn get(&self, i: usize) -> Probs {
        self.results.get(i).copied().flatten().unwrap_or(Probs { entailment: 0.0, neutral: 1.0, contradiction: 0.0 })
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}
