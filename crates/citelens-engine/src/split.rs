//! Verification in two halves, so the model's pairs can be scored elsewhere (several Web Workers in
//! parallel): first the pairs `verify` would ask, then the report from their answers.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::error::Result;
use crate::input::Input;
use crate::report::{Probs, Report};
use crate::scorer::Scorer;
use crate::verify::Engine;

/// Records the pairs it is asked and answers "neutral" (the answers are thrown away).
struct Recorder(RefCell<Vec<(String, String)>>);

impl Scorer for Recorder {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<std::result::Result<Probs, String>> {
        self.0.borrow_mut().extend(pairs.iter().map(|(p, h)| (p.to_string(), h.to_string())));
        pairs.iter().map(|_| Ok(Probs { entailment: 0.0, neutral: 1.0, contradiction: 0.0 })).collect()
    }
    fn name(&self) -> String {
        String::new()
    }
}

/// Answers from a table filled elsewhere; a pair not in it is an error (scored as neutral, reported).
struct Table<'a> {
    scores: &'a HashMap<(String, String), Probs>,
    name: String,
}

impl Scorer for Table<'_> {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<std::result::Result<Probs, String>> {
        pairs
            .iter()
            .map(|(p, h)| self.scores.get(&(p.to_string(), h.to_string())).copied().ok_or_else(|| "pair was not scored".to_string()))
            .collect()
    }
    fn name(&self) -> String {
        self.name.clone()
    }
}

impl<S: Scorer> Engine<S> {
    /// The distinct (premise, hypothesis) pairs `verify(input)` asks the model, in order.
    pub fn pairs_needed(&self, input: &Input) -> Result<Vec<(String, String)>> {
        let rec = self.with_scorer(Recorder(RefCell::new(Vec::new())));
        rec.verify(input)?;
        Ok(rec.scorer.0.into_inner())
    }

    /// The report `verify(input)` would give, from `scores` of the pairs `pairs_needed(input)` listed.
    pub fn verify_with_scores(&self, input: &Input, scores: &HashMap<(String, String), Probs>) -> Result<Report> {
        self.with_scorer(Table { scores, name: self.scorer.name() }).verify(input)
    }
}
