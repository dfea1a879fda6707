//! Evidence in a long document, found after the fact (LAB's post-hoc retrieval): BM25 proposes a
//! few sentences per claim (`retrieve`), the NLI model reads each against the claim, and this stage
//! keeps those that state or deny it — or says that nothing in the document bears on the claim.
//!
//! The chosen sentences then stand in for the document: the rest of the engine reads them as it
//! reads a cited passage.

use std::collections::{HashMap, HashSet};

use bm25::Tokenizer;

use crate::plan::retrieve::StemmedWords;
use crate::text::analysed::Analysed;
use crate::thresholds::Thresholds;
use citelens_types::report::Probs;

/// Sentences per claim and document that BM25 hands to the model. A model pass per candidate is the
/// cost; see the long-document table in docs/HISTORY.md for what fewer or more gave.
pub const CANDIDATES: usize = 12;
/// Candidates read together as one premise, for a claim whose facts sit in different sentences.
pub const JOINT_CANDIDATES: usize = 3;
/// Without the evidence head: a candidate states the claim at this P(entailment) (`--sweep-evidence`
/// on Evidence Inference validation before the head: 0.5 to 0.8 within 0.5 points of each other).
pub const NLI_STATES: f32 = 0.5;
/// When nothing is found, the claim is still read against the sentences closest to it (so the
/// report can say "not found" with the model's reading of the nearest text).
pub const NEAREST_WHEN_NOT_FOUND: usize = 2;

/// What one document says about one claim.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimEvidence {
    /// Position of the citation among the sentence's cited sources.
    pub pos: usize,
    /// Document sentences (unit indices) with the model's reading of each against the claim: the
    /// evidence when `found`, else the nearest sentences read.
    pub units: Vec<(usize, Probs)>,
    pub found: bool,
}

/// Chooses a claim's evidence from its scored candidates (BM25 order) and the reading of the top
/// candidates together (`joint`: their units and probabilities): the sentences that state the claim;
/// failing those, the sentences that bear on it (a part of it, or its denial: the model is seldom
/// neutral about those); failing those, the candidates together when they state it; else nothing.
pub fn choose(pos: usize, candidates: &[(usize, Probs)], joint: Option<(&[usize], Probs)>, t: &Thresholds) -> ClaimEvidence {
    // Best first by `key` (ties: earlier in the document), at most `max`.
    let ranked = |mut units: Vec<(usize, Probs)>, key: &dyn Fn(usize, &Probs) -> f32, max: usize| {
        units.sort_by(|a, b| key(b.0, &b.1).total_cmp(&key(a.0, &a.1)).then(a.0.cmp(&b.0)));
        units.truncate(max);
        units
    };
    let found = |units| ClaimEvidence { pos, units, found: true };
    let not_found = |key: &dyn Fn(usize, &Probs) -> f32| ClaimEvidence {
        pos,
        units: ranked(candidates.to_vec(), key, NEAREST_WHEN_NOT_FOUND),
        found: false,
    };
    // A model with the evidence head ranks by it: trained on annotated evidence, it knows a
    // methods sentence naming the same drugs is no evidence, which the NLI head reads as a
    // contradiction.
    if candidates.iter().any(|(_, p)| p.evidence.is_some()) {
        let ev = |p: &Probs| p.evidence.unwrap_or(0.0);
        // The head's reading, with BM25's order as a prior (candidates come best first): the head
        // learnt evidence mostly from clinical trials, and on web pages BM25's order still knows
        // something it does not.
        let n = candidates.len() as f32;
        let scores: HashMap<usize, f32> =
            candidates.iter().enumerate().map(|(rank, (u, p))| (*u, ev(p) + t.evidence_rank_weight * (1.0 - rank as f32 / n))).collect();
        let score = |u: usize, _: &Probs| scores[&u];
        // The head's first choice is kept at a low bar (a claim usually has evidence somewhere in
        // the document it cites), the others only when they are clearly evidence too.
        let top = scores.values().copied().fold(f32::MIN, f32::max);
        let picked: Vec<(usize, Probs)> = candidates
            .iter()
            .copied()
            .filter(|(u, p)| {
                (scores[u] >= top && ev(p) >= t.evidence_floor) || ev(p) >= t.evidence_head || p.entailment >= t.evidence_entailment
            })
            .collect();
        if !picked.is_empty() {
            return found(ranked(picked, &score, t.evidence_max));
        }
        return not_found(&|_, p| ev(p));
    }
    let bearing = |_: usize, p: &Probs| 1.0 - p.neutral;
    let stating: Vec<(usize, Probs)> = candidates.iter().copied().filter(|(_, p)| p.entailment >= NLI_STATES).collect();
    if !stating.is_empty() {
        return found(ranked(stating, &|_, p| p.entailment, t.evidence_max));
    }
    let bearing_units: Vec<(usize, Probs)> = candidates.iter().copied().filter(|(u, p)| bearing(*u, p) >= t.evidence_relevance).collect();
    if !bearing_units.is_empty() {
        return found(ranked(bearing_units, &bearing, t.evidence_max));
    }
    if let Some((units, p)) = joint {
        if p.entailment >= NLI_STATES {
            return found(units.iter().map(|u| (*u, candidates.iter().find(|c| c.0 == *u).map_or(p, |c| c.1))).collect());
        }
    }
    not_found(&|_, p| p.entailment)
}

/// A document's words weighted by how rare they are among its sentences (BM25's inverse document
/// frequency, over the same stemmed content words): built once per document, asked per claim.
pub struct Coverage {
    words: StemmedWords,
    /// Each sentence's words (tokenized once, here: claims ask about candidates by index).
    sentence_words: Vec<HashSet<String>>,
    sentences_with: HashMap<String, usize>,
}

impl Coverage {
    pub fn new(sentences: &[&str]) -> Coverage {
        let words = StemmedWords::default();
        let sentence_words: Vec<HashSet<String>> = sentences.iter().map(|s| words.tokenize(s).into_iter().collect()).collect();
        let mut sentences_with: HashMap<String, usize> = HashMap::new();
        for w in sentence_words.iter().flatten() {
            *sentences_with.entry(w.clone()).or_default() += 1;
        }
        Coverage { words, sentence_words, sentences_with }
    }

    fn weight(&self, term: &str) -> f32 {
        let n = self.sentence_words.len() as f32;
        let df = self.sentences_with.get(term).copied().unwrap_or(0) as f32;
        (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
    }

    /// The claim's terms with their weights, and which of them each candidate (a sentence index)
    /// names.
    pub fn claim_terms(&self, claim: &Analysed, candidates: &[usize]) -> ClaimTerms {
        let mut terms: Vec<String> = self.words.tokenize(claim.text());
        terms.sort();
        terms.dedup();
        // Only names and numbers pin a part of the claim down: a sentence naming the claim's other
        // common words (a trial's comparator, "placebo") is seldom evidence of another part.
        let pinning: HashSet<String> = claim
            .names()
            .iter()
            .flat_map(|e| self.words.tokenize(&e.text))
            .chain(terms.iter().filter(|w| w.chars().any(|c| c.is_ascii_digit())).cloned())
            .collect();
        let weights = terms.iter().map(|t| if pinning.contains(t) { self.weight(t) } else { 0.0 }).collect();
        let named = candidates
            .iter()
            .map(|&c| {
                let words = &self.sentence_words[c];
                (0..terms.len()).filter(|&i| words.contains(&terms[i])).collect()
            })
            .collect();
        let total = terms.iter().map(|t| self.weight(t)).sum();
        ClaimTerms { weights, total, named }
    }
}

/// A claim's terms and, per candidate in BM25's order, the terms it names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClaimTerms {
    /// Per term: its weight when it belongs to a name or number of the claim, else 0.
    pub weights: Vec<f32>,
    /// The weight of all the claim's terms.
    pub total: f32,
    pub named: Vec<Vec<usize>>,
}

/// Completes found evidence with the candidates that name what the chosen sentences do not: a
/// compound claim ("married in December 2012, and their son, Bear, was born the next year") has
/// its parts in different sentences, and the model's choice, reading each sentence against the
/// whole claim, favours one part. A candidate is added, the one naming most of the claim's
/// uncovered names and numbers (by weight) first, while that is at least `evidence_cover_gain` of
/// the whole claim's weight and the evidence head rates it at `evidence_cover_head`, up to
/// `evidence_cover_max` sentences. Without the head nothing is added: with no bar, completion had
/// the model entail most flipped Evidence Inference claims (docs/HISTORY.md, "Long documents").
pub fn complete(found: &mut ClaimEvidence, candidates: &[(usize, Probs)], terms: &ClaimTerms, t: &Thresholds) {
    let total = terms.total;
    if !found.found || total <= 0.0 || terms.named.len() != candidates.len() {
        return;
    }
    let mut covered = vec![false; terms.weights.len()];
    let cover = |i: usize, covered: &mut [bool]| terms.named[i].iter().for_each(|&w| covered[w] = true);
    for (u, _) in &found.units {
        if let Some(i) = candidates.iter().position(|c| c.0 == *u) {
            cover(i, &mut covered);
        }
    }
    while found.units.len() < t.evidence_cover_max {
        let gain = |i: usize| terms.named[i].iter().filter(|&&w| !covered[w]).map(|&w| terms.weights[w]).sum::<f32>();
        let best = (0..candidates.len())
            .filter(|&i| !found.units.iter().any(|u| u.0 == candidates[i].0))
            .filter(|&i| candidates[i].1.evidence.is_some_and(|e| e >= t.evidence_cover_head))
            .map(|i| (i, gain(i)))
            .fold(None, |best: Option<(usize, f32)>, x| if best.is_none_or(|b| x.1 > b.1) { Some(x) } else { best });
        match best {
            Some((i, g)) if g / total >= t.evidence_cover_gain => {
                cover(i, &mut covered);
                found.units.push(candidates[i]);
            }
            _ => break,
        }
    }
}

/// The evidence chosen for a plan's claims (round one of a verification with documents), read by
/// the second plan: per (sentence, claim), one entry per cited document.
#[derive(Debug, Clone, Default)]
pub struct ChosenEvidence {
    pub claims: HashMap<(usize, usize), Vec<ClaimEvidence>>,
}

impl ChosenEvidence {
    /// The document units a sentence reads from the citation at `pos`: every claim's evidence (or
    /// nearest sentences), in document order.
    pub fn sentence_units(&self, sentence: usize, claims: usize, pos: usize) -> Vec<usize> {
        let mut units: Vec<usize> = (0..claims)
            .filter_map(|c| self.claims.get(&(sentence, c)))
            .flatten()
            .filter(|e| e.pos == pos)
            .flat_map(|e| e.units.iter().map(|u| u.0))
            .collect();
        units.sort_unstable();
        units.dedup();
        units
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(e: f32, c: f32) -> Probs {
        Probs { entailment: e, neutral: 1.0 - e - c, contradiction: c, four_way: None, evidence: None }
    }

    #[test]
    fn keeps_the_stating_sentences_best_first_and_ignores_contradiction_beside_them() {
        let got = choose(0, &[(4, p(0.1, 0.8)), (9, p(0.7, 0.1)), (2, p(0.9, 0.0)), (5, p(0.2, 0.1))], None, &Thresholds::default());
        assert!(got.found);
        assert_eq!(got.units.iter().map(|u| u.0).collect::<Vec<_>>(), vec![2, 9]);
    }

    #[test]
    fn a_denying_sentence_is_evidence_when_none_states_the_claim() {
        let got = choose(1, &[(4, p(0.1, 0.8)), (7, p(0.3, 0.5))], None, &Thresholds::default());
        assert!(got.found);
        assert_eq!(got.units.iter().map(|u| u.0).collect::<Vec<_>>(), vec![4]);
        assert_eq!(got.pos, 1);
    }

    #[test]
    fn sentences_read_together_can_be_the_evidence() {
        let cands = [(3, p(0.3, 0.0)), (8, p(0.2, 0.1)), (1, p(0.1, 0.0))];
        let got = choose(0, &cands, Some((&[1, 3, 8], p(0.8, 0.0))), &Thresholds::default());
        assert!(got.found);
        assert_eq!(got.units.iter().map(|u| u.0).collect::<Vec<_>>(), vec![1, 3, 8]);
    }

    #[test]
    fn nothing_bearing_on_the_claim_is_not_found_with_the_nearest_sentences_read() {
        let cands = [(3, p(0.3, 0.2)), (8, p(0.45, 0.1)), (1, p(0.1, 0.0))];
        let got = choose(0, &cands, Some((&[1, 3, 8], p(0.4, 0.1))), &Thresholds::default());
        assert!(!got.found);
        assert_eq!(got.units.iter().map(|u| u.0).collect::<Vec<_>>(), vec![8, 3]);
        assert!(!choose(0, &[], None, &Thresholds::default()).found);
    }

    #[test]
    fn the_evidence_head_ranks_when_the_model_has_one() {
        let with = |e: f32, c: f32, ev: f32| Probs { evidence: Some(ev), ..p(e, c) };
        // The NLI head's "contradiction" of a methods sentence (BM25's first) does not make it evidence.
        let cands = [(1, with(0.05, 0.9, 0.1)), (6, with(0.2, 0.3, 0.8)), (9, with(0.1, 0.2, 0.6))];
        let got = choose(0, &cands, None, &Thresholds::default());
        assert!(got.found);
        assert_eq!(got.units.iter().map(|u| u.0).collect::<Vec<_>>(), vec![6, 9]);
        // Nothing the head rates at the floor: not found, whatever BM25's order says.
        let none = [(1, with(0.05, 0.9, 0.05)), (6, with(0.2, 0.3, 0.08))];
        let got = choose(0, &none, None, &Thresholds::default());
        assert!(!got.found);
        assert_eq!(got.units[0].0, 6, "the nearest by the head");
    }

    #[test]
    fn a_compound_claims_other_part_is_added_from_the_candidates() {
        let doc = [
            "Kate Winslet explained her son's name: Bear Blaze Winslet, whom she welcomed in December 2013.",
            "Winslet wed Rocknroll, the nephew of Richard Branson, in December 2012.",
            "The actress has won an Academy Award.",
            "Rocknroll works for Virgin Galactic.",
            "The couple keeps a house in Sussex.",
        ];
        let claim = "Winslet and Rocknroll married in New York in December 2012, and their son, Bear, was born the next year.";
        let coverage = Coverage::new(&doc);
        // BM25's order: the wedding first.
        let order = [1usize, 0, 3, 4, 2];
        let terms = coverage.claim_terms(&Analysed::new(claim), &order);
        let with = |ev: f32| Probs { evidence: Some(ev), ..p(0.4, 0.1) };
        let candidates: Vec<(usize, Probs)> = order.iter().map(|&u| (u, with(if u == 2 { 0.05 } else { 0.5 }))).collect();
        let t = Thresholds::default();
        let mut found = ClaimEvidence { pos: 0, units: vec![candidates[0]], found: true };
        complete(&mut found, &candidates, &terms, &t);
        let units: Vec<usize> = found.units.iter().map(|u| u.0).collect();
        assert_eq!(units[..2], [1, 0], "the son's sentence (Bear, Winslet) comes next: {units:?}");
        assert!(units.len() <= t.evidence_cover_max);
        assert!(!units.contains(&2), "a sentence naming none of the claim's names adds nothing: {units:?}");
        // The head's bar, the gain's bar, and not-found evidence are each left alone.
        let low_head: Vec<(usize, Probs)> = candidates.iter().map(|&(u, _)| (u, with(if u == 1 { 0.9 } else { 0.1 }))).collect();
        let mut alone = ClaimEvidence { pos: 0, units: vec![low_head[0]], found: true };
        complete(&mut alone, &low_head, &terms, &t);
        assert_eq!(alone.units.len(), 1, "the head rates the others below evidence_cover_head");
        let mut strict = ClaimEvidence { pos: 0, units: vec![candidates[0]], found: true };
        complete(&mut strict, &candidates, &terms, &Thresholds { evidence_cover_gain: 1.01, ..t });
        assert_eq!(strict.units.len(), 1, "a gain above 1 turns completion off");
        let headless: Vec<(usize, Probs)> = order.iter().map(|&u| (u, p(0.4, 0.1))).collect();
        let mut without_head = ClaimEvidence { pos: 0, units: vec![headless[0]], found: true };
        complete(&mut without_head, &headless, &terms, &t);
        assert_eq!(without_head.units.len(), 1, "a model without the evidence head adds nothing");
        let mut nothing = ClaimEvidence { pos: 0, units: vec![candidates[0]], found: false };
        complete(&mut nothing, &candidates, &terms, &t);
        assert_eq!(nothing.units.len(), 1, "nearest sentences of a claim not found stay as they are");
    }

    #[test]
    fn only_names_and_numbers_of_the_claim_weigh() {
        let doc = ["Metformin lowered HbA1c in 2019.", "Patients received placebo tablets daily.", "Placebo was given to 400 patients."];
        let terms = Coverage::new(&doc)
            .claim_terms(&Analysed::new("Metformin significantly lowered HbA1c compared with placebo in 400 patients."), &[0, 1, 2]);
        assert!(terms.total > 0.0);
        // The second sentence names only common words of the claim ("placebo", "patients").
        let gain = |i: usize| terms.named[i].iter().map(|&w| terms.weights[w]).sum::<f32>();
        assert_eq!(gain(1), 0.0);
        assert!(gain(2) > 0.0, "400 is a number of the claim");
        assert!(gain(0) > gain(2), "Metformin and HbA1c are names of the claim");
    }

    #[test]
    fn a_sentence_reads_every_claims_evidence_in_document_order() {
        let mut chosen = ChosenEvidence::default();
        chosen.claims.insert((0, 0), vec![ClaimEvidence { pos: 0, units: vec![(9, p(0.9, 0.0))], found: true }]);
        chosen.claims.insert((0, 1), vec![ClaimEvidence { pos: 0, units: vec![(2, p(0.8, 0.0)), (9, p(0.6, 0.0))], found: true }]);
        assert_eq!(chosen.sentence_units(0, 2, 0), vec![2, 9]);
        assert!(chosen.sentence_units(0, 2, 1).is_empty());
    }
}
