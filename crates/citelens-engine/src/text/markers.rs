//! Citation markers in the answer: `[1]`, `[1][2]`, `[1, 2]`, `[NA]`, and KaLMA-style
//! knowledge-graph citations `[Q212657, occupation: painter, place of birth: Rome]`.
//!
//! Markers are cut out of the answer to give the clean text the model reads; `CleanAnswer` maps clean
//! byte offsets back to the original answer, and to its characters.

use std::sync::OnceLock;

use citelens_types::CharIndex;
use regex::Regex;

#[derive(Debug, Clone, PartialEq)]
pub enum MarkerKind {
    /// Plain citation ids, `[1]` or `[1, 2]`.
    Ids(Vec<String>),
    /// `[NA]`: the claim before it is knowledge the graph cannot cover.
    NotAvailable,
    /// `[Q212657, occupation: painter]`: an entity and the facts cited from it.
    Graph { entity: String, facts: Vec<(String, String)> },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    pub kind: MarkerKind,
    /// Byte range in the original answer.
    pub start: usize,
    pub end: usize,
    /// Byte offset in the clean text where the marker stood.
    pub clean_at: usize,
}

/// The answer without its markers, and how to map offsets back.
#[derive(Debug, Clone)]
pub struct CleanAnswer {
    pub text: String,
    pub markers: Vec<Marker>,
    /// (clean offset, original offset) at the start of each kept piece, ascending.
    pieces: Vec<(usize, usize)>,
    /// The original answer's character offsets, for the report (which counts characters).
    original_chars: CharIndex,
}

impl CleanAnswer {
    /// The character offset in the original answer of an original byte offset: O(1).
    pub fn original_char(&self, original_byte: usize) -> usize {
        self.original_chars.char_of_byte(original_byte)
    }

    /// A clean byte range as character offsets of the original answer (the report's sentences,
    /// claims and spans): the start after any marker there, the end before one.
    pub fn original_char_range(&self, clean_start: usize, clean_end: usize) -> (usize, usize) {
        (self.original_char(self.to_original(clean_start)), self.original_char(self.to_original_end(clean_end)))
    }

    /// Original byte offset of a clean byte offset (a range's start: after any marker there).
    pub fn to_original(&self, clean: usize) -> usize {
        let i = self.pieces.partition_point(|(c, _)| *c <= clean).saturating_sub(1);
        let (c, o) = self.pieces.get(i).copied().unwrap_or((0, 0));
        o + (clean - c)
    }

    /// Original byte offset of a range's end (before any marker there).
    pub fn to_original_end(&self, clean: usize) -> usize {
        let i = self.pieces.partition_point(|(c, _)| *c < clean).saturating_sub(1);
        let (c, o) = self.pieces.get(i).copied().unwrap_or((0, 0));
        o + (clean - c)
    }
}

fn bracket() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\[([^\[\]\n]{1,400})\]").expect("static regex"))
}

/// Reads one bracket's content; `None` when it is not a citation marker (e.g. `[sic]`).
pub fn classify(content: &str, known_ids: &[&str]) -> Option<MarkerKind> {
    let c = content.trim();
    if c.eq_ignore_ascii_case("NA") || c.eq_ignore_ascii_case("N/A") {
        return Some(MarkerKind::NotAvailable);
    }
    let parts: Vec<&str> = c.split(',').map(str::trim).collect();
    if parts.iter().all(|p| !p.is_empty() && (p.chars().all(|ch| ch.is_ascii_digit()) || known_ids.contains(p)))
        && !parts.iter().any(|p| p.contains(':'))
    {
        return Some(MarkerKind::Ids(parts.iter().map(|p| p.to_string()).collect()));
    }
    let first = parts[0];
    let is_qid = first.len() > 1 && first.starts_with('Q') && first[1..].chars().all(|ch| ch.is_ascii_digit());
    if is_qid || (known_ids.contains(&first) && parts.len() > 1) {
        let mut facts: Vec<(String, String)> = Vec::new();
        for part in &parts[1..] {
            match part.split_once(':') {
                Some((rel, val)) => facts.push((rel.trim().to_string(), val.trim().to_string())),
                // A value with a comma in it ("Rome, Italy") continues the previous fact.
                None => match facts.last_mut() {
                    Some(last) => {
                        last.1.push_str(", ");
                        last.1.push_str(part);
                    }
                    None => return None,
                },
            }
        }
        return Some(MarkerKind::Graph { entity: first.to_string(), facts });
    }
    None
}

/// Cuts the markers (and the spaces before them) out of the answer.
pub fn strip(answer: &str, known_ids: &[&str]) -> CleanAnswer {
    let mut text = String::with_capacity(answer.len());
    let mut markers = Vec::new();
    let mut pieces = vec![(0, 0)];
    let mut last = 0;
    // Spaces before a marker are dropped; one is put back if a word follows the marker(s).
    let mut pending_space = false;
    let push_kept = |text: &mut String, pieces: &mut Vec<(usize, usize)>, kept: &str, orig_at: usize, pending: bool| {
        if pending && kept.starts_with(|c: char| !c.is_whitespace() && !".,;:!?)]".contains(c)) {
            text.push(' ');
        }
        pieces.push((text.len(), orig_at));
        text.push_str(kept);
    };
    for m in bracket().captures_iter(answer) {
        let whole = m.get(0).expect("group 0");
        let Some(kind) = classify(&m[1], known_ids) else { continue };
        let kept = &answer[last..whole.start()];
        let trimmed = kept.trim_end();
        push_kept(&mut text, &mut pieces, trimmed, last, pending_space);
        pending_space = pending_space && trimmed.is_empty() || kept.len() != trimmed.len();
        markers.push(Marker { kind, start: whole.start(), end: whole.end(), clean_at: text.len() });
        last = whole.end();
    }
    push_kept(&mut text, &mut pieces, &answer[last..], last, pending_space);
    CleanAnswer { text, markers, pieces, original_chars: CharIndex::new(answer) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_marker_form() {
        let a = "A [1][2]. B [1, 2]. C [NA] in Rome [Q212657, citizen: Italy, place of birth: Rome, Italy]. D [sic].";
        let c = strip(a, &[]);
        assert_eq!(c.text, "A. B. C in Rome. D [sic].");
        let kinds: Vec<_> = c.markers.iter().map(|m| m.kind.clone()).collect();
        assert_eq!(kinds[0], MarkerKind::Ids(vec!["1".into()]));
        assert_eq!(kinds[2], MarkerKind::Ids(vec!["1".into(), "2".into()]));
        assert_eq!(kinds[3], MarkerKind::NotAvailable);
        assert_eq!(
            kinds[4],
            MarkerKind::Graph {
                entity: "Q212657".into(),
                facts: vec![("citizen".into(), "Italy".into()), ("place of birth".into(), "Rome, Italy".into())]
            }
        );
        assert_eq!(c.markers.len(), 5);
    }

    #[test]
    fn maps_clean_offsets_back() {
        let a = "Rick attended X [1] and Y [2].";
        let c = strip(a, &[]);
        assert_eq!(c.text, "Rick attended X and Y.");
        let y = c.text.find('Y').unwrap();
        assert_eq!(&a[c.to_original(y)..c.to_original(y) + 1], "Y");
        let and = c.text.find("and").unwrap();
        assert_eq!(&a[c.to_original(and)..c.to_original(and) + 3], "and");
        let x_end = c.text.find('X').unwrap() + 1;
        assert_eq!(&a[..c.to_original_end(x_end)], "Rick attended X");
        assert_eq!(strip("Jobs [1][2].", &[]).text, "Jobs.");
        assert_eq!(strip("A [1] b.", &[]).text, "A b.");
    }
}
