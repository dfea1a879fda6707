//! The one score cache: a scorer that remembers every answer, so that a pair is asked once however
//! often the engine needs it (a data set whose examples share pairs, a benchmark run again on the
//! answers a file kept).

use std::cell::RefCell;
use std::collections::HashMap;

use citelens_types::report::Probs;

use crate::score::{ScoreError, Scorer};

/// An answer by (premise, hypothesis): the model's probabilities, or why it gave none.
pub type Answer = Result<Probs, ScoreError>;

/// `inner`, asked only for the pairs it was not asked before (each distinct pair of a call once).
pub struct Cached<S> {
    inner: S,
    answers: RefCell<HashMap<(String, String), Answer>>,
}

impl<S> Cached<S> {
    pub fn new(inner: S) -> Self {
        Cached { inner, answers: RefCell::default() }
    }

    /// The scorer behind the cache.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Keeps an answer found elsewhere (a file of an earlier run): the pair is not asked again.
    pub fn remember(&self, premise: String, hypothesis: String, answer: Answer) {
        self.answers.borrow_mut().insert((premise, hypothesis), answer);
    }

    /// Every answer kept, in no particular order.
    pub fn answers(&self) -> Vec<((String, String), Answer)> {
        self.answers.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    pub fn len(&self) -> usize {
        self.answers.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.answers.borrow().is_empty()
    }
}

impl<S: Scorer> Scorer for Cached<S> {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Answer> {
        let todo: Vec<(&str, &str)> = {
            let answers = self.answers.borrow();
            let mut seen = std::collections::HashSet::new();
            pairs.iter().copied().filter(|p| !answers.contains_key(&(p.0.to_string(), p.1.to_string())) && seen.insert(*p)).collect()
        };
        if !todo.is_empty() {
            let got = self.inner.score(&todo);
            let mut answers = self.answers.borrow_mut();
            for (p, r) in todo.iter().zip(got) {
                answers.insert((p.0.to_string(), p.1.to_string()), r);
            }
        }
        let answers = self.answers.borrow();
        pairs.iter().map(|p| answers[&(p.0.to_string(), p.1.to_string())].clone()).collect()
    }

    crate::forward_scorer_info!(inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts the pairs it is asked; entails everything.
    struct Counting(RefCell<Vec<String>>);

    impl Scorer for Counting {
        fn score(&self, pairs: &[(&str, &str)]) -> Vec<Answer> {
            self.0.borrow_mut().extend(pairs.iter().map(|p| p.1.to_string()));
            pairs.iter().map(|_| Ok(Probs { entailment: 1.0, neutral: 0.0, contradiction: 0.0, four_way: None, evidence: None })).collect()
        }
        fn name(&self) -> String {
            "counting".into()
        }
    }

    #[test]
    fn each_distinct_pair_is_asked_once_and_answers_come_back_in_order() {
        let cached = Cached::new(Counting(RefCell::default()));
        cached.remember("p".into(), "known".into(), Err(ScoreError::Refused("too long".into())));
        let got = cached.score(&[("p", "a"), ("p", "known"), ("p", "a"), ("p", "b")]);
        assert_eq!(got.len(), 4);
        assert_eq!(got[1], Err(ScoreError::Refused("too long".into())));
        assert_eq!(got[0], got[2]);
        cached.score(&[("p", "b"), ("p", "c")]);
        assert_eq!(*cached.inner().0.borrow(), ["a", "b", "c"]);
        assert_eq!(cached.len(), 4);
    }
}
