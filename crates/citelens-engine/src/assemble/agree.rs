//! Spans that agree with their sentence's verdict. The claims paint the words (supported, missing,
//! contradicted) before the sentence is decided; the decision (the learned combiner or the sentence
//! head) may read the sentence otherwise, and a reader must never see a struck-through span inside a
//! sentence called supportive, nor a contradicted sentence with nothing marked. This pass runs after
//! the decision and only repaints the sentence's own words; the claims keep their statuses as the
//! explanation.

use citelens_types::report::{Category, ClaimReport, SpanLabel};

use crate::text::segment::Piece;

/// One sentence's words as the claims painted them: `labels[i]` is the label and the claim (an index
/// into the answer's claims) of clean-text byte `i`; `claims` are this sentence's claim indices.
pub(crate) struct SentenceSpans<'a> {
    pub labels: &'a mut [Option<(SpanLabel, usize)>],
    pub claims: std::ops::Range<usize>,
}

impl SentenceSpans<'_> {
    fn slots(&mut self) -> impl Iterator<Item = &mut (SpanLabel, usize)> + '_ {
        let claims = self.claims.clone();
        self.labels.iter_mut().flatten().filter(move |(_, c)| claims.contains(c))
    }

    fn any(&mut self, label: SpanLabel) -> bool {
        self.slots().any(|(l, _)| *l == label)
    }

    fn relabel(&mut self, from: &[SpanLabel], to: SpanLabel) {
        for (l, _) in self.slots() {
            if from.contains(l) {
                *l = to;
            }
        }
    }

    fn paint(&mut self, pieces: &[Piece], label: SpanLabel, claim: usize) {
        let n = self.labels.len();
        for p in pieces {
            for slot in self.labels[p.start.min(n)..p.end.min(n)].iter_mut() {
                if slot.is_some_and(|(l, _)| l != SpanLabel::NotVerifiable) {
                    *slot = Some((label, claim));
                }
            }
        }
    }
}

/// Repaints a sentence's spans to agree with its verdict `category`:
/// - supportive: nothing contradicted or missing (the decision read the words as stated);
/// - partially supportive or irrelevant: nothing contradicted (a contradiction would be a stronger
///   verdict than the one given), and at least one missing span (the least entailed claim's pieces)
///   so the reader sees what the evidence lacks;
/// - contradictory: at least one contradicted span: when no claim was contradicted, the pieces of the
///   claim the readings contradict most, with its evidence.
///
/// `pieces(claim)` gives the words that stand for a claim (its mismatched values, else its parts).
pub(crate) fn agree_with_verdict(
    spans: &mut SentenceSpans,
    category: Category,
    claims: &[ClaimReport],
    pieces: &dyn Fn(usize) -> Vec<Piece>,
) {
    if spans.claims.is_empty() {
        return;
    }
    match category {
        Category::Supportive => spans.relabel(&[SpanLabel::Contradicted, SpanLabel::Missing], SpanLabel::Supported),
        Category::PartiallySupportive | Category::Irrelevant => {
            spans.relabel(&[SpanLabel::Contradicted], SpanLabel::Missing);
            if !spans.any(SpanLabel::Missing) {
                let weakest = pick(&spans.claims, claims, |c| -c.probabilities.entailment);
                spans.paint(&pieces(weakest), SpanLabel::Missing, weakest);
            }
        }
        Category::Contradictory => {
            if !spans.any(SpanLabel::Contradicted) {
                let most =
                    pick(&spans.claims, claims, |c| c.probabilities.contradiction.max(c.probabilities.four_way.map_or(0.0, |f| f[2])));
                spans.paint(&pieces(most), SpanLabel::Contradicted, most);
            }
        }
    }
}

/// The claim of `range` with the highest `score` (the first on a tie).
fn pick(range: &std::ops::Range<usize>, claims: &[ClaimReport], score: impl Fn(&ClaimReport) -> f32) -> usize {
    range.clone().fold(range.start, |best, i| if score(&claims[i]) > score(&claims[best]) { i } else { best })
}

#[cfg(test)]
mod tests {
    use super::*;
    use citelens_types::report::{ClaimDecider, ClaimStatus, Probs};

    fn claim(entailment: f32, contradiction: f32) -> ClaimReport {
        ClaimReport {
            text: String::new(),
            parts: vec![],
            status: ClaimStatus::Supported,
            probabilities: Probs { entailment, neutral: 1.0 - entailment - contradiction, contradiction, four_way: None, evidence: None },
            decided_by: ClaimDecider::Joint,
            by_citation: vec![],
            evidence: vec![],
            relevance: 1.0,
            coverage: 1.0,
            missing_entities: vec![],
            confidence: 1.0,
            uncertain: false,
            checks: vec![],
            not_found: false,
            rule: None,
            signals: Default::default(),
        }
    }

    /// Bytes 0..4 are claim 0's, 5..9 claim 1's (one sentence).
    fn painted(a: SpanLabel, b: SpanLabel) -> Vec<Option<(SpanLabel, usize)>> {
        let mut v = vec![None; 10];
        for i in 0..4 {
            v[i] = Some((a, 0));
        }
        for i in 5..9 {
            v[i] = Some((b, 1));
        }
        v
    }

    fn labels_of(v: &[Option<(SpanLabel, usize)>]) -> Vec<SpanLabel> {
        let mut out: Vec<SpanLabel> = v.iter().flatten().map(|(l, _)| *l).collect();
        out.dedup();
        out
    }

    fn parts(c: usize) -> Vec<Piece> {
        if c == 0 {
            vec![Piece { start: 0, end: 4 }]
        } else {
            vec![Piece { start: 5, end: 9 }]
        }
    }

    #[test]
    fn a_supportive_sentence_has_no_contradicted_or_missing_span() {
        let claims = [claim(0.9, 0.0), claim(0.1, 0.8)];
        let mut v = painted(SpanLabel::Supported, SpanLabel::Contradicted);
        agree_with_verdict(&mut SentenceSpans { labels: &mut v, claims: 0..2 }, Category::Supportive, &claims, &parts);
        assert_eq!(labels_of(&v), vec![SpanLabel::Supported]);
    }

    #[test]
    fn a_contradicted_sentence_shows_the_claim_read_as_most_contradicted() {
        let claims = [claim(0.9, 0.0), claim(0.2, 0.6)];
        let mut v = painted(SpanLabel::Supported, SpanLabel::Missing);
        agree_with_verdict(&mut SentenceSpans { labels: &mut v, claims: 0..2 }, Category::Contradictory, &claims, &parts);
        assert_eq!(v[6], Some((SpanLabel::Contradicted, 1)));
        assert_eq!(v[1], Some((SpanLabel::Supported, 0)), "the other claim's words keep their label");
    }

    #[test]
    fn a_partial_sentence_keeps_a_missing_span_and_no_contradiction() {
        let claims = [claim(0.9, 0.0), claim(0.4, 0.0)];
        let mut all_supported = painted(SpanLabel::Supported, SpanLabel::Supported);
        agree_with_verdict(&mut SentenceSpans { labels: &mut all_supported, claims: 0..2 }, Category::PartiallySupportive, &claims, &parts);
        assert_eq!(all_supported[6], Some((SpanLabel::Missing, 1)), "the least entailed claim is what is missing");
        let mut contradicted = painted(SpanLabel::Supported, SpanLabel::Contradicted);
        agree_with_verdict(&mut SentenceSpans { labels: &mut contradicted, claims: 0..2 }, Category::PartiallySupportive, &claims, &parts);
        assert_eq!(labels_of(&contradicted), vec![SpanLabel::Supported, SpanLabel::Missing]);
    }

    #[test]
    fn other_sentences_and_unverifiable_words_are_left_alone() {
        let claims = [claim(0.9, 0.0), claim(0.1, 0.8)];
        let mut v = painted(SpanLabel::Supported, SpanLabel::Contradicted);
        v[9] = Some((SpanLabel::NotVerifiable, usize::MAX));
        // Only claim 0 is this sentence's: claim 1's contradicted words belong to another sentence.
        agree_with_verdict(&mut SentenceSpans { labels: &mut v, claims: 0..1 }, Category::Supportive, &claims, &parts);
        assert_eq!(v[6], Some((SpanLabel::Contradicted, 1)));
        assert_eq!(v[9], Some((SpanLabel::NotVerifiable, usize::MAX)));
    }
}
