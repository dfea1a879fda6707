//! Sentence-by-sentence verification for UIs that show results as they come: one plan per request,
//! scored in sentence order, and the report of the first 1, 2, … sentences after each step. Each
//! pair is scored once; nothing is re-planned.

use crate::engine::Engine;
use crate::error::Result;
use crate::score::{Scorer, Scores};
use crate::text::{markers, segment};
use citelens_types::input::Input;
use citelens_types::report::Report;

/// Partial reports per verification at most: a long answer streams in steps of several sentences.
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

/// The sentence counts after which a streaming UI shows a partial report (at most `MAX_PARTIALS`;
/// the last is every sentence).
pub fn report_steps(sentences: usize) -> Vec<usize> {
    if sentences == 0 {
        return vec![0];
    }
    let step = sentences.div_ceil(MAX_PARTIALS).max(1);
    (1..=sentences).filter(|n| n % step == 0 || *n == sentences).collect()
}

impl<S: Scorer> Engine<S> {
    /// Verifies `input`, calling `on_partial(report, done, total)` after each step with the report
    /// of the answer so far; returns the full report (the same as `verify`).
    pub fn verify_progressive(&self, input: &Input, mut on_partial: impl FnMut(&Report, usize, usize)) -> Result<Report> {
        let plan = self.plan(input)?;
        let by_sentence = plan.pairs_by_sentence();
        let steps = report_steps(plan.sentences.len());
        let total = steps.len();
        let mut scores = Scores::default();
        let mut done_sentences = 0;
        let mut report = None;
        for (k, &upto) in steps.iter().enumerate() {
            let ids: Vec<usize> = by_sentence[done_sentences..upto].iter().flatten().copied().collect();
            scores.fill(&plan, &ids, &self.scorer);
            done_sentences = upto;
            let r = self.report(&plan, &scores, upto);
            on_partial(&r, k + 1, total);
            report = Some(r);
        }
        Ok(report.unwrap_or_else(|| self.report(&plan, &scores, plan.sentences.len())))
    }
}
