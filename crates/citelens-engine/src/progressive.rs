//! Sentence-by-sentence verification for UIs that show results as they come: the report of the answer
//! up to sentence 1, then up to sentence 2, and so on, each pair scored once.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::error::Result;
use crate::input::Input;
use crate::report::{Probs, Report};
use crate::scorer::Scorer;
use crate::verify::Engine;
use crate::{markers, segment};

/// Remembers every pair's answer so the report of a longer prefix re-scores nothing.
struct Memo<'a, S: Scorer> {
    inner: &'a S,
    seen: RefCell<HashMap<(String, String), Probs>>,
}

impl<S: Scorer> Scorer for Memo<'_, S> {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<std::result::Result<Probs, String>> {
        let mut seen = self.seen.borrow_mut();
        let todo: Vec<(&str, &str)> = pairs.iter().copied().filter(|(p, h)| !seen.contains_key(&(p.to_string(), h.to_string()))).collect();
        let mut fresh: HashMap<(String, String), std::result::Result<Probs, String>> = HashMap::new();
        for ((p, h), r) in todo.iter().zip(self.inner.score(&todo)) {
            if let Ok(probs) = &r {
                seen.insert((p.to_string(), h.to_string()), *probs);
            }
            fresh.insert((p.to_string(), h.to_string()), r);
        }
        pairs
            .iter()
            .map(|(p, h)| {
                let key = (p.to_string(), h.to_string());
                seen.get(&key).copied().map(Ok).unwrap_or_else(|| fresh.remove(&key).unwrap_or_else(|| Err("not scored".into())))
            })
            .collect()
    }

    fn name(&self) -> String {
        self.inner.name()
    }
}

/// Partial reports per verification at most: each one re-plans the answer so far, so a long answer
/// streams in steps of several sentences instead of one (keeps the work linear, not quadratic).
pub const MAX_PARTIALS: usize = 12;

/// Where each prefix of the answer ends (original byte offsets): after sentence 1, after sentence 2, ...
/// (every k-th sentence when there are more than `MAX_PARTIALS`; the last is always the whole answer).
/// A prefix runs up to the start of the next sentence, so markers after a full stop stay with it.
pub fn sentence_prefix_ends(input: &Input) -> Vec<usize> {
    let ids: Vec<&str> = input.citations.iter().map(|c| c.id.as_str()).collect();
    let clean = markers::strip(&input.answer, &ids);
    let pieces = segment::sentences(&clean.text);
    let mut ends: Vec<usize> = pieces.iter().skip(1).map(|p| clean.to_original(p.start)).collect();
    ends.push(input.answer.len());
    ends.dedup();
    let step = ends.len().div_ceil(MAX_PARTIALS).max(1);
    let last = ends.len() - 1;
    ends.into_iter().enumerate().filter(|(i, _)| (i + 1) % step == 0 || *i == last).map(|(_, e)| e).collect()
}

impl<S: Scorer> Engine<S> {
    /// Verifies `input`, calling `on_partial(report, done, total)` after each sentence with the report
    /// of the answer so far; returns the full report (the same as `verify`).
    pub fn verify_progressive(&self, input: &Input, mut on_partial: impl FnMut(&Report, usize, usize)) -> Result<Report> {
        input.check(&self.caps)?;
        let memo = self.with_scorer(Memo { inner: &self.scorer, seen: RefCell::new(HashMap::new()) });
        let ends = sentence_prefix_ends(input);
        let total = ends.len();
        for (k, &end) in ends.iter().enumerate().take(total.saturating_sub(1)) {
            let prefix = Input { answer: input.answer[..end].trim_end().to_string(), ..input.clone() };
            on_partial(&memo.verify(&prefix)?, k + 1, total);
        }
        let report = memo.verify(input)?;
        on_partial(&report, total, total);
        Ok(report)
    }
}
