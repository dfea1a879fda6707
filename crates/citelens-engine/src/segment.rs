//! Sentences, and atomic claims within a sentence.
//!
//! Claims split coordinated names ("X attended A and B" → "X attended A", "X attended B"), the
//! case the CAQA categories turn on. Coordinated verbs or clauses are left whole.

use unicode_segmentation::UnicodeSegmentation;

use crate::entities;

/// A byte range and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub start: usize,
    pub end: usize,
}

/// Sentence byte ranges of `text`, trimmed, empty ones dropped.
pub fn sentences(text: &str) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for (at, s) in text.split_sentence_bound_indices() {
        let lead = s.len() - s.trim_start().len();
        let trimmed = s.trim();
        if trimmed.is_empty() {
            continue;
        }
        let piece = Piece { start: at + lead, end: at + lead + trimmed.len() };
        // A "sentence" of only punctuation (a stray "." after a marker) joins the one before it.
        if !trimmed.chars().any(char::is_alphanumeric) {
            if let Some(last) = out.last_mut() {
                last.end = piece.end;
                continue;
            }
        }
        out.push(piece);
    }
    out
}

/// One atomic claim: its text as the model reads it, and the sentence ranges it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub text: String,
    /// Byte ranges (in the text the sentence came from) that this claim consists of.
    pub parts: Vec<Piece>,
    /// The coordinated name this claim is about, when it came from splitting one.
    pub conjunct: Option<Piece>,
}

const MAX_CLAIMS_PER_SENTENCE: usize = 8;

/// Splits a sentence (`text[range]`) into claims.
pub fn claims(text: &str, sentence: &Piece) -> Vec<Claim> {
    claims_of_parts(text, std::slice::from_ref(sentence))
}

/// Splits the text made of `parts` (a sentence less what `[NA]` marks) into claims.
pub fn claims_of_parts(text: &str, parts: &[Piece]) -> Vec<Claim> {
    let parts: Vec<Piece> = parts.iter().filter(|p| p.end > p.start).cloned().collect();
    if parts.is_empty() {
        return Vec::new();
    }
    let whole = Claim { text: join(text, &parts), parts, conjunct: None };
    let mut done = Vec::new();
    let mut todo = vec![whole];
    while let Some(claim) = todo.pop() {
        if done.len() + todo.len() + 1 >= MAX_CLAIMS_PER_SENTENCE {
            done.push(claim);
            continue;
        }
        match split_once(text, &claim) {
            Some((a, b)) => {
                todo.push(b);
                todo.push(a);
            }
            None => done.push(claim),
        }
    }
    // Splitting a list pairwise can reach the same claim twice.
    let mut seen = std::collections::HashSet::new();
    done.retain(|c| seen.insert(c.text.clone()));
    done
}

/// The first "A and B" of names in the claim, as two claims.
fn split_once(text: &str, claim: &Claim) -> Option<(Claim, Claim)> {
    // Work on each part: coordinated names sit inside one part.
    for (pi, part) in claim.parts.iter().enumerate() {
        let s = &text[part.start..part.end];
        let ents = entities::extract(s);
        let link = |i: usize| -> Link {
            let between = &s[ents[i].end..ents[i + 1].start];
            match between.trim_matches(|c: char| c == ',' || c.is_whitespace()) {
                "and" | "and the" | "or" | "as well as" => Link::And,
                "" if between.contains(',') => Link::Comma,
                _ => Link::None,
            }
        };
        for i in 0..ents.len().saturating_sub(1) {
            let (l, r) = (&ents[i], &ents[i + 1]);
            // "A, B and C": a comma counts when the list it starts ends in "and".
            let coordinated = match link(i) {
                Link::And => true,
                Link::Comma => (i + 1..ents.len() - 1).map(link).take_while(|k| *k != Link::None).any(|k| k == Link::And),
                Link::None => false,
            };
            if !coordinated {
                continue;
            }
            // "James and Oliver Phelps", "Fred and George Weasley": one surname shared, not two names.
            let shared_surname = !l.text.contains(' ') && r.text.split(' ').count() == 2 && r.text.split(' ').all(|w| w.chars().next().is_some_and(char::is_uppercase));
            if shared_surname {
                continue;
            }
            let abs = |x: usize| part.start + x;
            let mut left_parts = claim.parts[..pi].to_vec();
            left_parts.push(Piece { start: part.start, end: abs(l.end) });
            left_parts.push(Piece { start: abs(r.end), end: part.end });
            left_parts.extend_from_slice(&claim.parts[pi + 1..]);
            let mut right_parts = claim.parts[..pi].to_vec();
            right_parts.push(Piece { start: part.start, end: abs(l.start) });
            right_parts.push(Piece { start: abs(r.start), end: part.end });
            right_parts.extend_from_slice(&claim.parts[pi + 1..]);
            let mk = |parts: Vec<Piece>, conj: Piece| {
                let parts: Vec<Piece> = parts.into_iter().filter(|p| p.end > p.start).collect();
                Claim { text: join(text, &parts), parts, conjunct: Some(conj) }
            };
            return Some((
                mk(left_parts, Piece { start: abs(l.start), end: abs(l.end) }),
                mk(right_parts, Piece { start: abs(r.start), end: abs(r.end) }),
            ));
        }
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Link {
    And,
    Comma,
    None,
}

fn join(text: &str, parts: &[Piece]) -> String {
    let mut out = String::new();
    for p in parts {
        let piece = &text[p.start..p.end];
        if !out.is_empty() && !out.ends_with(' ') && !piece.starts_with([' ', ',', '.', ';', ':', '!', '?']) {
            out.push(' ');
        }
        out.push_str(piece);
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim_texts(s: &str) -> Vec<String> {
        let sent = Piece { start: 0, end: s.len() };
        claims(s, &sent).into_iter().map(|c| c.text).collect()
    }

    #[test]
    fn splits_coordinated_names() {
        assert_eq!(
            claim_texts("Rick Scott attended the University of Missouri–Kansas City and Southern Methodist University."),
            [
                "Rick Scott attended the University of Missouri–Kansas City.",
                "Rick Scott attended the Southern Methodist University."
            ]
        );
        assert_eq!(claim_texts("It was in Paris, London and Rome.").len(), 3);
    }

    #[test]
    fn keeps_shared_surnames_and_verb_phrases_whole() {
        assert_eq!(claim_texts("James and Oliver Phelps played the twins.").len(), 1);
        assert_eq!(claim_texts("He was born in 1950 and died young.").len(), 1);
    }

    #[test]
    fn sentences_absorb_stray_punctuation() {
        let t = "First one. Second one. .";
        let s = sentences(t);
        assert_eq!(s.len(), 2);
        assert_eq!(&t[s[1].start..s[1].end], "Second one. .");
    }
}
