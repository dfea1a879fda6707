//! The answer cut into plain and highlighted pieces by the report's spans (character offsets).

use citelens_types::{Span, SpanLabel};

#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub text: String,
    /// Index into the report's spans, for a highlighted piece.
    pub span: Option<usize>,
    pub label: Option<SpanLabel>,
}

pub fn segments(text: &str, spans: &[Span]) -> Vec<Segment> {
    let chars: Vec<char> = text.chars().collect();
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| spans[i].start);
    let mut out = Vec::new();
    let mut at = 0;
    for i in order {
        let s = &spans[i];
        // Overlapping or out-of-range spans are skipped rather than trusted.
        if s.start < at || s.end > chars.len() || s.start >= s.end {
            continue;
        }
        if s.start > at {
            out.push(Segment { text: chars[at..s.start].iter().collect(), span: None, label: None });
        }
        out.push(Segment { text: chars[s.start..s.end].iter().collect(), span: Some(i), label: Some(s.label) });
        at = s.end;
    }
    if at < chars.len() {
        out.push(Segment { text: chars[at..].iter().collect(), span: None, label: None });
    }
    out
}

/// `text` cut at character range `[start, end)` into (before, inside, after), clamped to the text.
pub fn split3(text: &str, start: usize, end: usize) -> (String, String, String) {
    let chars: Vec<char> = text.chars().collect();
    let s = start.min(chars.len());
    let e = end.clamp(s, chars.len());
    (chars[..s].iter().collect(), chars[s..e].iter().collect(), chars[e..].iter().collect())
}

/// `text` cut into pieces at the character `ranges` (sorted by start): `(piece, inside a range)`.
/// Overlapping or out-of-range ranges are clamped or skipped, so a bad offset never panics.
pub fn mark_ranges(text: &str, ranges: &[(usize, usize)]) -> Vec<(String, bool)> {
    if ranges.is_empty() {
        return vec![(text.to_string(), false)];
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    for &(s, e) in ranges {
        let (s, e) = (s.max(at).min(chars.len()), e.min(chars.len()));
        if s >= e {
            continue;
        }
        if s > at {
            out.push((chars[at..s].iter().collect(), false));
        }
        out.push((chars[s..e].iter().collect(), true));
        at = e;
    }
    if at < chars.len() {
        out.push((chars[at..].iter().collect(), false));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: usize, end: usize, label: SpanLabel) -> Span {
        Span { start, end, label, text: String::new(), evidence: vec![] }
    }

    #[test]
    fn cuts_by_characters_not_bytes() {
        let segs = segments("Été à Paris.", &[span(6, 11, SpanLabel::Supported), span(0, 3, SpanLabel::Missing)]);
        let texts: Vec<(&str, Option<usize>)> = segs.iter().map(|s| (s.text.as_str(), s.span)).collect();
        assert_eq!(texts, [("Été", Some(1)), (" à ", None), ("Paris", Some(0)), (".", None)]);
    }

    #[test]
    fn bad_spans_are_skipped() {
        let segs = segments("abc", &[span(1, 9, SpanLabel::Supported), span(2, 1, SpanLabel::Missing)]);
        assert_eq!(segs.len(), 1);
        assert_eq!(split3("héllo", 1, 3), ("h".into(), "él".into(), "lo".into()));
        assert_eq!(split3("ab", 5, 9), ("ab".into(), "".into(), "".into()));
    }

    #[test]
    fn marks_several_ranges_and_survives_bad_ones() {
        let pieces = mark_ranges("Été. Deux. Trois.", &[(0, 4), (3, 9), (11, 17), (40, 50)]);
        let got: Vec<(&str, bool)> = pieces.iter().map(|(t, m)| (t.as_str(), *m)).collect();
        assert_eq!(got, [("Été.", true), (" Deux", true), (". ", false), ("Trois.", true)]);
        assert_eq!(mark_ranges("abc", &[]), vec![("abc".to_string(), false)]);
    }
}
