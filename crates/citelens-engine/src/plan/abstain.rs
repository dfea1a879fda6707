//! Answers that abstain — "The document does not say when…", "I could not find…", "There is no
//! information about…" — are not claims to verify. They are recognised here and checked the other
//! way round: does the document really lack what the question (or the abstaining sentence) asks?
//!
//! The check is retrieval, not the model: the NLI model reads statements, and an abstention states
//! nothing it could entail. A sentence of the document that carries most of what is asked about
//! means the document may well answer it; none means it very likely does not.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;

use crate::plan::retrieve::{Bm25Index, StemmedWords};

/// Share of the asked-about words (stemmed content words) one document sentence must carry for
/// the document to count as possibly answering.
pub const ANSWER_COVERAGE: f32 = 0.75;
/// Sentences of the document shown to the reader as where an answer may be.
pub const NEAREST: usize = 2;

fn abstention_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // Verbose mode (`x`) ignores literal spaces: every space is `\s+`.
        let source = r"(?:document|article|text|source|sources|passage|page|paper|report|context|material|provided\s+information|web\s?page|website)";
        let not = r"(?:does\s+not|doesn't|do\s+not|don't|did\s+not|didn't)";
        let say = r"(?:say|mention|state|specify|provide|contain|include|give|discuss|address|indicate|describe|list|report|tell|reveal|disclose|answer)";
        Regex::new(&format!(
            r"(?ix)
            \b(?:the|this|these|that|provided|given|cited)\s+(?:\w+\s+)?{source}\s+{not}\s+(?:\w+\s+)?{say}\b
          | \b(?:i|we)\s+(?:could\s*not|couldn't|cannot|can't|was\s+unable\s+to|were\s+unable\s+to|am\s+unable\s+to|did\s+not|didn't)\s+(?:find|locate|determine|identify|see|confirm)\b
          | \bthere\s+(?:is|are|was|'s)\s+no\s+(?:\w+\s+)?(?:information|mention|data|details?|evidence|indication|record)\b
          | \bno\s+(?:information|details?|data)\s+(?:is|are|was|were)\s+(?:provided|given|available|mentioned)\b
          | \b(?:is|are|was|were)\s+not\s+(?:mentioned|stated|specified|provided|given|discussed|described|reported|listed)\s+in\s+the\s+(?:\w+\s+)?{source}\b
          | \b{source}\s+(?:is\s+silent|makes\s+no\s+mention|provides?\s+no|gives?\s+no|contains?\s+no)\b
          | \b(?:not\s+enough|insufficient)\s+information\b
          | \bunanswerable\b"
        ))
        .expect("static regex")
    })
}

/// Whether `sentence` abstains from answering rather than stating something.
pub fn is_abstention(sentence: &str) -> bool {
    abstention_re().is_match(sentence)
}

/// What asking about is left when the abstaining phrase is taken out: "The article does not say
/// when the bridge opened" → "when the bridge opened".
pub fn asked_about(sentence: &str) -> String {
    abstention_re().replace_all(sentence, " ").trim().to_string()
}

pub use citelens_types::{AbstentionCheck, Quote};

/// Checks an abstention asking about `query` against sentences (`(citation, char start, char end,
/// text)` of the cited documents).
pub fn check(query: &str, sentences: &[(String, usize, usize, String)]) -> AbstentionCheck {
    let tokenizer = StemmedWords::default();
    let asked: HashSet<String> = bm25::Tokenizer::tokenize(&tokenizer, query).into_iter().collect();
    if asked.is_empty() || sentences.is_empty() {
        return AbstentionCheck {
            unanswerable: true,
            coverage: 0.0,
            nearest: vec![],
            message: "nothing to look for: the abstention names no topic and there is no question".into(),
        };
    }
    let texts: Vec<&str> = sentences.iter().map(|s| s.3.as_str()).collect();
    let index = Bm25Index::new(&texts);
    let mut best: Vec<(f32, usize)> = index
        .search(query, 20)
        .into_iter()
        .map(|(i, _)| {
            let words: HashSet<String> = bm25::Tokenizer::tokenize(&tokenizer, texts[i]).into_iter().collect();
            (asked.intersection(&words).count() as f32 / asked.len() as f32, i)
        })
        .collect();
    best.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let coverage = best.first().map_or(0.0, |b| b.0);
    let unanswerable = coverage < ANSWER_COVERAGE;
    let nearest: Vec<Quote> = if unanswerable {
        vec![]
    } else {
        best.iter()
            .take_while(|b| b.0 >= ANSWER_COVERAGE)
            .take(NEAREST)
            .map(|&(_, i)| {
                let (c, s, e, t) = &sentences[i];
                Quote { citation: c.clone(), start: *s, end: *e, text: t.clone() }
            })
            .collect()
    };
    let message = if unanswerable {
        format!(
            "the answer abstains, and no sentence of the cited document carries most of what is asked (best: {:.0} % of its words)",
            coverage * 100.0
        )
    } else {
        format!(
            "the answer abstains, but the cited document may answer this: a sentence carries {:.0} % of what is asked",
            coverage * 100.0
        )
    };
    AbstentionCheck { unanswerable, coverage, nearest, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_abstentions_and_not_statements() {
        for s in [
            "The document does not say when the bridge opened.",
            "The article doesn't mention the architect.",
            "I could not find the population in the source.",
            "There is no information about his children.",
            "The cited report makes no mention of costs.",
            "Its opening date is not stated in the provided text.",
            "There is not enough information to answer.",
        ] {
            assert!(is_abstention(s), "{s}");
        }
        for s in [
            "The bridge opened in 1998.",
            "The document was signed in 1776.",
            "He did not find the treasure until 1922.",
            "There is no bridge across the strait.",
            "The report says costs rose.",
        ] {
            assert!(!is_abstention(s), "{s}");
        }
    }

    #[test]
    fn the_asked_topic_is_what_remains() {
        assert_eq!(asked_about("The document does not say when the bridge opened."), "when the bridge opened.");
    }

    fn sentences(texts: &[&str]) -> Vec<(String, usize, usize, String)> {
        let mut at = 0;
        texts
            .iter()
            .map(|t| {
                let s = (String::from("1"), at, at + t.chars().count(), t.to_string());
                at += t.chars().count() + 1;
                s
            })
            .collect()
    }

    #[test]
    fn a_document_carrying_the_asked_words_may_answer_and_one_without_them_does_not() {
        let doc =
            sentences(&["The bridge spans the river.", "The bridge was opened to traffic in 1998 by the mayor.", "Tolls were abolished."]);
        let c = check("When was the bridge opened to traffic?", &doc);
        assert!(!c.unanswerable, "{c:?}");
        assert_eq!(c.nearest[0].text, "The bridge was opened to traffic in 1998 by the mayor.");
        let c = check("Who designed the lighthouse?", &doc);
        assert!(c.unanswerable, "{c:?}");
        assert!(c.nearest.is_empty());
        assert!(check("", &doc).unanswerable);
    }
}
