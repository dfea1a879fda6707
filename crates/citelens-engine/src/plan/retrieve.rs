//! Candidate evidence by BM25 (the `bm25` crate's embedder and scorer) over a long document's
//! sentences: the cheap first stage before the NLI model reranks a handful of them.
//!
//! Also the evidence unit (`Unit`, a sentence or triple of a source), the `Retriever` seam the plan
//! stage calls, and `WordOverlap`, the retriever for short passages.
//!
//! Tokens are the engine's content words (the same normalisation the typed checks use) cut to
//! their Porter2 stems, so "launched" finds "launch" and "studies" finds "study".

use std::cell::RefCell;

use bm25::{Embedder, EmbedderBuilder, Scorer, Tokenizer};
use rust_stemmers::{Algorithm, Stemmer};

use std::sync::Arc;

use crate::plan::checks;
use crate::text::analysed::Analysed;

#[derive(Clone, Debug)]
pub struct Unit {
    pub range: Option<(usize, usize)>,
    /// The same range in characters (what the report and the browser use).
    pub chars: Option<(usize, usize)>,
    pub triple: Option<[String; 3]>,
    /// As written.
    pub text: String,
    /// As the model reads it: a sentence-initial "It" or "He" replaced by what it refers to (the
    /// passage's own subject, or failing that the question's).
    pub resolved: String,
    /// Resolved from the passage alone: the names the evidence itself gives. A passage that only says
    /// "the Authority" does not name the question's "Maryland Transportation Authority".
    pub named: String,
    /// `resolved`, analysed once per answer for the typed checks of every claim that cites it
    /// (shared, so the sentences that cite it read one analysis).
    pub analysed: Arc<Analysed>,
}

/// Picks the evidence units worth scoring against a claim. The seam for long documents: BM25 or
/// dense retrieval over thousands of sentences plug in here.
pub trait Retriever {
    /// Indices of at most `k` units of `units` for `claim`, best first.
    fn retrieve(&self, units: &[Unit], claim: &str, k: usize) -> Vec<usize>;
}

/// Ranks units by the claim's content words they share (passages are short: a few sentences each).
pub struct WordOverlap;

impl Retriever for WordOverlap {
    fn retrieve(&self, units: &[Unit], claim: &str, k: usize) -> Vec<usize> {
        if units.len() <= 1 {
            return Vec::new(); // the unit is the whole source, already scored
        }
        let words: std::collections::HashSet<String> = checks::content_words(claim).into_iter().collect();
        let mut scored: Vec<(usize, usize)> =
            units.iter().enumerate().map(|(i, u)| (shared_words(&words, u.analysed.content_words()), i)).filter(|(n, _)| *n > 0).collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(k).map(|(_, i)| i).collect()
    }
}

/// How many of `words` (a claim's or a sentence's content words) are among `content_words` (a unit's,
/// from its analysis: read once per answer): `WordOverlap`'s score, and the sentence head's choice of
/// evidence (`Plan::sentence_evidence`).
pub(crate) fn shared_words(words: &std::collections::HashSet<String>, content_words: &[String]) -> usize {
    content_words.iter().filter(|w| words.contains(*w)).count()
}

/// Content words, stemmed.
pub struct StemmedWords {
    stemmer: Stemmer,
}

impl Default for StemmedWords {
    fn default() -> Self {
        StemmedWords { stemmer: Stemmer::create(Algorithm::English) }
    }
}

impl Tokenizer for StemmedWords {
    fn tokenize(&self, text: &str) -> Vec<String> {
        checks::content_words(text).iter().map(|w| self.stemmer.stem(w).into_owned()).collect()
    }
}

/// A BM25 index over one list of texts (a document's sentences), built once and searched per claim.
pub struct Bm25Index {
    embedder: Embedder<u32, StemmedWords>,
    scorer: Scorer<usize, u32>,
    len: usize,
}

impl Bm25Index {
    pub fn new(texts: &[&str]) -> Bm25Index {
        let embedder: Embedder<u32, StemmedWords> =
            EmbedderBuilder::with_tokenizer_and_fit_to_corpus(StemmedWords::default(), texts).build();
        let mut scorer = Scorer::new();
        for (i, t) in texts.iter().enumerate() {
            scorer.upsert(&i, embedder.embed(t));
        }
        Bm25Index { embedder, scorer, len: texts.len() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// At most `k` texts sharing a term with `query`, best first (ties: earlier text first, so the
    /// same query always gives the same list).
    pub fn search(&self, query: &str, k: usize) -> Vec<(usize, f32)> {
        let mut hits: Vec<(usize, f32)> = self.scorer.matches(&self.embedder.embed(query)).into_iter().map(|d| (d.id, d.score)).collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(k);
        hits
    }
}

/// The `Retriever` seam over BM25: indexes the units it is given (a document's sentences) once and
/// reuses the index while the same units come back (every claim of an answer asks about the same
/// documents); one index per distinct list of units.
#[derive(Default)]
pub struct Bm25 {
    cached: RefCell<Vec<(Vec<String>, Bm25Index)>>,
}

impl Retriever for Bm25 {
    fn retrieve(&self, units: &[Unit], claim: &str, k: usize) -> Vec<usize> {
        let same = |texts: &[String]| texts.len() == units.len() && texts.iter().zip(units).all(|(t, u)| *t == u.resolved);
        let mut cached = self.cached.borrow_mut();
        let at = match cached.iter().position(|c| same(&c.0)) {
            Some(i) => i,
            None => {
                let texts: Vec<&str> = units.iter().map(|u| u.resolved.as_str()).collect();
                let index = Bm25Index::new(&texts);
                cached.push((units.iter().map(|u| u.resolved.clone()).collect(), index));
                cached.len() - 1
            }
        };
        cached[at].1.search(claim, k).into_iter().map(|(i, _)| i).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_the_sentence_sharing_rare_stemmed_terms_first() {
        let texts = [
            "The museum opened in 1901 and was enlarged twice.",
            "Its collection includes paintings by Rembrandt.",
            "The bridge was launched by the city council in 1998.",
            "The city council meets every month.",
        ];
        let index = Bm25Index::new(&texts);
        let hits = index.search("When did the council launch the bridge?", 3);
        assert_eq!(hits[0].0, 2, "{hits:?}");
        assert!(hits.iter().all(|h| h.0 != 1), "a sentence sharing no term is not a candidate: {hits:?}");
        assert!(index.search("quantum chromodynamics", 3).is_empty());
    }

    #[test]
    fn ties_break_by_position_and_k_bounds_the_list() {
        let texts = ["Rain fell.", "Rain fell.", "Rain fell."];
        let index = Bm25Index::new(&texts);
        assert_eq!(index.search("rain", 2).iter().map(|h| h.0).collect::<Vec<_>>(), vec![0, 1]);
    }
}
