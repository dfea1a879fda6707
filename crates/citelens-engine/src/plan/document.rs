//! Long documents (issue 13's first stage): one cited web page, paper or report as plain text, checked
//! once and cut into paragraphs and sentences with character offsets, so that retrieval can rank
//! thousands of sentences and the report can point into the document.
//!
//! Turning HTML or PDF into text happens before this stage (in the browser or the CLI); this one
//! only refuses what is not usable text.

use serde::{Deserialize, Serialize};

use crate::text::segment;

pub use citelens_types::document_text::{DocumentError, MAX_CONTROL_SHARE, MAX_DOCUMENT_BYTES};

/// A sentence of the document: character offsets (not bytes) into the document's text, for the
/// report and the browser, and the paragraph it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocSentence {
    pub start: usize,
    pub end: usize,
    pub paragraph: usize,
    pub text: String,
    /// The same range in bytes, for slicing the text.
    #[serde(skip)]
    pub bytes: (usize, usize),
}

/// A document cut into paragraphs (blank-line separated) and sentences.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub text: String,
    /// Character ranges of the paragraphs.
    pub paragraphs: Vec<(usize, usize)>,
    pub sentences: Vec<DocSentence>,
}

impl Document {
    /// Checks `text` and cuts it. Line endings are kept as they are, so offsets match the input.
    pub fn new(text: &str) -> Result<Document, DocumentError> {
        Self::check(text)?;
        // The sentence cutter works in bytes; the offsets it gives come in increasing order, so one
        // pass through the text turns them into characters (a count from the
        // start each time: quadratic over thousands of sentences).
        let mut cursor = CharCursor { text, byte: 0, chars: 0 };
        let mut paragraphs = Vec::new();
        let mut sentences = Vec::new();
        for (start, end) in paragraph_ranges(text) {
            let p = paragraphs.len();
            let para_start = cursor.at(start);
            for s in segment::sentences(&text[start..end]) {
                let (bs, be) = (start + s.start, start + s.end);
                sentences.push(DocSentence {
                    start: cursor.at(bs),
                    end: cursor.at(be),
                    paragraph: p,
                    text: text[bs..be].to_string(),
                    bytes: (bs, be),
                });
            }
            paragraphs.push((para_start, cursor.at(end)));
        }
        Ok(Document { text: text.to_string(), paragraphs, sentences })
    }

    /// Whether `text` can be verified against: not empty, not binary, under the cap.
    pub fn check(text: &str) -> Result<(), DocumentError> {
        citelens_types::document_text::check(text)
    }
}

/// Character offsets of byte offsets asked in increasing order, counted once through the text.
struct CharCursor<'a> {
    text: &'a str,
    byte: usize,
    chars: usize,
}

impl CharCursor<'_> {
    fn at(&mut self, byte: usize) -> usize {
        // A step back (never taken today) costs a recount of the gap, not a panic.
        if byte >= self.byte {
            self.chars += self.text[self.byte..byte].chars().count();
        } else {
            self.chars -= self.text[byte..self.byte].chars().count();
        }
        self.byte = byte;
        self.chars
    }
}

/// Byte ranges of the paragraphs: runs of lines separated by one or more blank lines, trimmed.
fn paragraph_ranges(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim();
        if content.is_empty() {
            if let Some(s) = start.take() {
                out.push((s, end));
            }
        } else {
            let lead = line.len() - line.trim_start().len();
            if start.is_none() {
                start = Some(at + lead);
            }
            end = at + lead + content.len();
        }
        at += line.len();
    }
    if let Some(s) = start {
        out.push((s, end));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_and_sentences_carry_character_offsets() {
        let text = "Café Müller opened in 1921. It closed in 1990.\r\n\r\n  The owner moved to Köln.\n";
        let d = Document::new(text).unwrap();
        assert_eq!(d.paragraphs.len(), 2);
        assert_eq!(d.sentences.len(), 3);
        let chars: Vec<char> = text.chars().collect();
        for s in &d.sentences {
            assert_eq!(chars[s.start..s.end].iter().collect::<String>(), s.text);
        }
        assert_eq!(d.sentences[2].text, "The owner moved to Köln.");
        assert_eq!(d.sentences[2].paragraph, 1);
    }

    #[test]
    fn empty_binary_and_oversized_documents_are_refused_by_name() {
        assert_eq!(Document::new(" \n\n ... \n"), Err(DocumentError::Empty));
        let binary = "%PDF-1.7\u{0}\u{1}\u{2}\u{3}stream\u{0}\u{0}\u{7}endstream";
        assert!(matches!(Document::new(binary), Err(DocumentError::Binary { .. })));
        let big = "word ".repeat(MAX_DOCUMENT_BYTES / 5 + 1);
        assert!(matches!(Document::new(&big), Err(DocumentError::TooLarge { .. })));
        // Tabs and form feeds are text.
        assert!(Document::new("a\tb\u{c}c. Next sentence.").is_ok());
    }
}
