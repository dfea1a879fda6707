//! The answer's words as spans: each clean-text byte takes the label (and claim) of the strongest
//! mark on it, and runs of one label become the report's spans, cut at citation markers.

use std::ops::Range;

use citelens_types::report::{Category, ClaimReport, Span, SpanLabel};

use crate::decide::{ClaimMarks, SentenceDecision};
use crate::text::markers::CleanAnswer;
use crate::text::segment::Piece;

use super::agree::{self, SentenceSpans};

/// Claim index for words no claim marked (`[NA]` segments).
const NO_CLAIM: usize = usize::MAX;

/// Per clean-text byte: its label and the claim (an index into the answer's claims) that set it.
pub(crate) struct Labels(Vec<Option<(SpanLabel, usize)>>);

impl Labels {
    pub fn new(len: usize) -> Labels {
        Labels(vec![None; len])
    }

    /// The words an `[NA]` marker says cannot be verified.
    pub fn mark_not_verifiable(&mut self, na: &[Piece]) {
        for p in na {
            self.mark(p, SpanLabel::NotVerifiable, NO_CLAIM);
        }
    }

    /// A sentence's claims (the first is claim `first` of the answer): supported words first; missing
    /// or contradicted words then overwrite them.
    pub fn mark_claims(&mut self, first: usize, marks: &[ClaimMarks]) {
        for (i, m) in marks.iter().enumerate() {
            for p in &m.parts {
                self.mark(p, SpanLabel::Supported, first + i);
            }
            if m.label != SpanLabel::Supported {
                for p in &m.targets {
                    self.mark(p, m.label, first + i);
                }
            }
        }
    }

    /// Repaints the sentence's words to agree with its verdict (`agree`); `claims` are the answer's
    /// claims so far, the sentence's the last of them.
    pub fn agree_with_verdict(
        &mut self,
        claims_of_sentence: Range<usize>,
        claims: &[ClaimReport],
        d: &SentenceDecision,
        category: Category,
    ) {
        let first = claims_of_sentence.start;
        let pieces = |ix: usize| d.marks[ix - first].stands_for.clone();
        let mut spans = SentenceSpans { labels: &mut self.0, claims: claims_of_sentence };
        agree::agree_with_verdict(&mut spans, category, claims, &pieces);
    }

    fn mark(&mut self, p: &Piece, label: SpanLabel, claim: usize) {
        let rank = |l: SpanLabel| match l {
            SpanLabel::Supported => 0,
            SpanLabel::Missing => 2,
            SpanLabel::Contradicted => 3,
            SpanLabel::NotVerifiable => 1,
        };
        let n = self.0.len();
        for slot in self.0[p.start.min(n)..p.end.min(n)].iter_mut() {
            match slot {
                Some((old, _)) if rank(*old) > rank(label) => {}
                _ => *slot = Some((label, claim)),
            }
        }
    }

    /// The report's spans: runs of one label and claim, trimmed, never across a marker, each with its
    /// claim's evidence.
    pub fn spans(&self, clean: &CleanAnswer, answer: &str, claims: &[ClaimReport]) -> Vec<Span> {
        let labels = &self.0;
        let mut out: Vec<Span> = Vec::new();
        let mut i = 0;
        // Marker positions split spans so that no span covers a marker.
        let cuts: Vec<usize> = clean.markers.iter().map(|m| m.clean_at).collect();
        while i < labels.len() {
            let Some(cur) = labels[i] else {
                i += 1;
                continue;
            };
            let mut j = i + 1;
            while j < labels.len() && labels[j] == Some(cur) && !cuts.contains(&j) {
                j += 1;
            }
            let text = clean.text.get(i..j).unwrap_or("").trim();
            if !text.is_empty() && clean.text.is_char_boundary(i) && clean.text.is_char_boundary(j) {
                let lead = clean.text[i..j].len() - clean.text[i..j].trim_start().len();
                let (s, e) = (i + lead, i + lead + text.len());
                let (os, oe) = (clean.to_original(s), clean.to_original_end(e));
                let evidence = if cur.1 < claims.len() { claims[cur.1].evidence.clone() } else { vec![] };
                out.push(Span {
                    start: clean.original_char(os),
                    end: clean.original_char(oe),
                    label: cur.0,
                    text: answer.get(os..oe).unwrap_or(text).to_string(),
                    evidence,
                });
            }
            i = j;
        }
        out
    }
}
