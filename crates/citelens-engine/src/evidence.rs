//! Evidence in a long document, found after the fact (LAB's post-hoc retrieval): BM25 proposes a
//! few sentences per claim (`retrieve`), the NLI model reads each against the claim, and this stage
//! keeps those that state or deny it — or says that nothing in the document bears on the claim.
//!
//! The chosen sentences then stand in for the document: the rest of the engine reads them as it
//! reads a cited passage.

use std::collections::HashMap;

use crate::report::Probs;
use crate::thresholds::Thresholds;

/// Sentences per claim and document that BM25 hands to the model. A model pass per candidate is the
/// cost; see the README's long-document table for what fewer or more gave.
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
    let not_found = |key: &dyn Fn(usize, &Probs) -> f32| ClaimEvidence { pos, units: ranked(candidates.to_vec(), key, NEAREST_WHEN_NOT_FOUND), found: false };
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
            .filter(|(u, p)| (scores[u] >= top && ev(p) >= t.evidence_floor) || ev(p) >= t.evidence_head || p.entailment >= t.evidence_entailment)
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
    fn a_sentence_reads_every_claims_evidence_in_document_order() {
        let mut chosen = ChosenEvidence::default();
        chosen.claims.insert((0, 0), vec![ClaimEvidence { pos: 0, units: vec![(9, p(0.9, 0.0))], found: true }]);
        chosen.claims.insert((0, 1), vec![ClaimEvidence { pos: 0, units: vec![(2, p(0.8, 0.0)), (9, p(0.6, 0.0))], found: true }]);
        assert_eq!(chosen.sentence_units(0, 2, 0), vec![2, 9]);
        assert!(chosen.sentence_units(0, 2, 1).is_empty());
    }
}
