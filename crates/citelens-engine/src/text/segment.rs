//! The text stage's units: `Piece`, the one offset type (a byte range in the text it came from;
//! the report turns it into characters of the original answer once), and sentences.

use crate::text::words::{self, WordList};
use unicode_segmentation::UnicodeSegmentation;

/// A byte range in the text it came from.
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
        // "John A. Roebling", "Dr. Smith", "reactor No. 4": an abbreviation's full stop ends no sentence.
        if let Some(last) = out.last_mut() {
            if ends_in_abbreviation(&text[last.start..last.end], trimmed) {
                last.end = piece.end;
                continue;
            }
        }
        out.push(piece);
    }
    out
}

/// Titles and short forms whose full stop is not a sentence end.
static ABBREVIATIONS: WordList = WordList::new(|| words::list("abbreviations"));
/// Short forms that end sentences as often as not ("… in the U.S. The company …"): joined only when
/// the next piece does not start like a sentence.
static AMBIGUOUS_ABBREVIATIONS: WordList = WordList::new(|| words::list("ambiguous_abbreviations"));

fn ends_in_abbreviation(sentence: &str, next: &str) -> bool {
    let Some(body) = sentence.strip_suffix('.') else { return false };
    let last = body.rsplit(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    let next_starts_lower = next.chars().next().is_some_and(|c| c.is_lowercase() || c.is_ascii_digit());
    // Roman numerals end names that end sentences ("World War I.").
    let initial = last.chars().count() == 1 && last.chars().all(char::is_uppercase) && !matches!(last, "I" | "V" | "X");
    initial || ABBREVIATIONS.contains(&last) || (next_starts_lower && AMBIGUOUS_ABBREVIATIONS.contains(&last))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_and_initials_end_no_sentence() {
        let t = "It was designed by John A. Roebling. Reactor No. 4 exploded. He moved to the U.S. The end.";
        let got: Vec<&str> = sentences(t).iter().map(|p| &t[p.start..p.end]).collect();
        assert_eq!(got, ["It was designed by John A. Roebling.", "Reactor No. 4 exploded.", "He moved to the U.S.", "The end."]);
    }

    #[test]
    fn sentences_absorb_stray_punctuation() {
        let t = "First one. Second one. .";
        let s = sentences(t);
        assert_eq!(s.len(), 2);
        assert_eq!(&t[s[1].start..s[1].end], "Second one. .");
    }
}
