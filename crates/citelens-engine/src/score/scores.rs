//! The score table of one plan: the model's answer to each of its pairs, by `PairId`, filled all at
//! once, in sentence order (streaming), or from answers computed elsewhere.

use crate::plan::{PairId, Plan};
use crate::score::{ScoreError, ScoreTable, Scorer};
use citelens_types::report::Probs;

/// The model's answers to a plan's pairs, by `PairId`.
#[derive(Default, Clone)]
pub struct Scores {
    results: Vec<Option<Probs>>,
    /// Why pairs have no answer, one entry per pair, in the order they were asked.
    pub errors: Vec<ScoreError>,
}

/// What a pair the model refused (too long, empty) or nobody scored counts as: fully neutral.
const NEUTRAL: Probs = Probs { entailment: 0.0, neutral: 1.0, contradiction: 0.0, four_way: None, evidence: None };

impl Scores {
    /// Every pair of `plan` scored by `scorer` (each distinct pair once; answers the plan already
    /// holds are not asked again).
    pub fn all(plan: &Plan, scorer: &dyn Scorer) -> Scores {
        let mut scores = Scores::default();
        let all: Vec<PairId> = (0..plan.pairs().len()).collect();
        scores.fill(plan, &all, scorer);
        scores
    }

    /// Scores from a table filled elsewhere (other workers): a pair not in it counts as neutral and
    /// is reported.
    pub fn from_table(plan: &Plan, table: &ScoreTable) -> Scores {
        let mut scores = Scores::default();
        for (i, key) in plan.pairs().iter().enumerate() {
            match table.get(key).or_else(|| plan.known(i)) {
                Some(p) => scores.results.push(Some(p)),
                None => {
                    scores.results.push(None);
                    scores.errors.push(ScoreError::NotScored);
                }
            }
        }
        scores
    }

    /// Scores the plan's pairs `ids` with `scorer` and keeps the answers (streaming fills these in
    /// sentence order).
    pub fn fill(&mut self, plan: &Plan, ids: &[PairId], scorer: &dyn Scorer) {
        let pairs = plan.pairs();
        if self.results.len() < pairs.len() {
            self.results.resize(pairs.len(), None);
        }
        let mut todo = Vec::new();
        for &i in ids {
            match plan.known(i) {
                Some(p) => self.results[i] = Some(p),
                None => todo.push(i),
            }
        }
        if todo.is_empty() {
            return;
        }
        let refs: Vec<(&str, &str)> = todo.iter().map(|&i| (pairs[i].0.as_str(), pairs[i].1.as_str())).collect();
        for (&i, r) in todo.iter().zip(scorer.score(&refs)) {
            match r {
                Ok(p) => self.results[i] = Some(p),
                Err(e) => self.errors.push(e),
            }
        }
    }

    /// The answer to pair `i`; a pair the model refused (too long, empty) counts as fully neutral.
    pub fn get(&self, i: PairId) -> Probs {
        self.answer(i).unwrap_or(NEUTRAL)
    }

    /// The answer to pair `i` when there is one.
    pub fn answer(&self, i: PairId) -> Option<Probs> {
        self.results.get(i).copied().flatten()
    }
}
