//! Which evidence sentences (or triples) a claim's report shows, best first for its status.

use crate::plan::evidence::ClaimEvidence;
use crate::plan::retrieve::Unit;
use crate::plan::{ClaimPlan, Source};
use crate::score::Scores;
use citelens_types::report::{CheckResult, ClaimStatus, EvidenceRef, Probs};

use super::Decision;

/// Evidence shown per claim at most.
pub const EVIDENCE_SHOWN: usize = 3;
/// A unit is shown when the model reads it as backing the claim's status at least this strongly
/// (entailment for a stated claim, contradiction for a contradicted one).
pub const EVIDENCE_MIN_READING: f32 = 0.5;
/// Where a confirmed typed check's sentence ranks: above any model reading (at most 1), so the
/// sentence a conflict was found in is shown first.
const CONFIRMED_CONFLICT_RANK: f32 = 2.0;

/// The units a claim's sentence reads, with the sources they come from.
pub(crate) struct CitedSources<'a> {
    pub sources: &'a [Source],
    /// The sentence's cited source indices, in marker order.
    pub cited: &'a [usize],
}

/// A claim's evidence, best first for `d.status`, and whether a cited long document had nothing on
/// it (`found_in`: what retrieval and the model found in each cited document; its offsets point into
/// the document, and nothing found is said, not guessed).
pub(crate) fn pick(
    cw: &ClaimPlan,
    scores: &Scores,
    cited: &CitedSources,
    d: &Decision,
    found_in: Option<&[ClaimEvidence]>,
) -> (Vec<EvidenceRef>, bool) {
    let status = d.status;
    let key = |p: &Probs| if status == ClaimStatus::Contradicted { p.contradiction } else { p.entailment };
    if let Some(found) = found_in.filter(|f| !f.is_empty()) {
        let mut evidence: Vec<EvidenceRef> = found
            .iter()
            .filter(|f| f.found)
            .flat_map(|f| {
                let src = &cited.sources[cited.cited[f.pos]];
                f.units.iter().map(move |&(u, p)| evidence_ref(src, &src.units[u], p))
            })
            .collect();
        evidence.sort_by(|a, b| {
            key(&b.probabilities).max(b.probabilities.entailment).total_cmp(&key(&a.probabilities).max(a.probabilities.entailment))
        });
        return (evidence, found.iter().all(|f| !f.found));
    }
    let mut units = ranked_units(cw, scores, cited, d, &key);
    units.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut evidence: Vec<EvidenceRef> = Vec::new();
    for (s, e) in units {
        if s >= EVIDENCE_MIN_READING
            && evidence.len() < EVIDENCE_SHOWN
            && !evidence.iter().any(|x| x.citation == e.citation && x.start == e.start && x.triple == e.triple)
        {
            evidence.push(e);
        }
    }
    (evidence, false)
}

/// Every unit the claim was read against, each with its rank for the claim's status.
fn ranked_units(
    cw: &ClaimPlan,
    scores: &Scores,
    cited: &CitedSources,
    d: &Decision,
    key: &dyn Fn(&Probs) -> f32,
) -> Vec<(f32, EvidenceRef)> {
    let mut units: Vec<(f32, EvidenceRef)> = cw
        .units
        .iter()
        .map(|&(pos, u, pair)| {
            let src = &cited.sources[cited.cited[pos]];
            let p = scores.get(pair);
            (key(&p), evidence_ref(src, &src.units[u], p))
        })
        .collect();
    // The sentence a confirmed typed check found the conflict in is the evidence for it.
    if d.status == ClaimStatus::Contradicted {
        for (c, pr) in cw.checks.conflicts.iter().zip(&cw.probes) {
            if d.checks.iter().any(|r| r.result == CheckResult::Mismatch && r.answer_says == c.claim_says) {
                let src = &cited.sources[cited.cited[pr.source_pos]];
                if let Some(unit) = src.units.get(pr.unit) {
                    units.push((CONFIRMED_CONFLICT_RANK, evidence_ref(src, unit, scores.get(pr.original))));
                }
            }
        }
    }
    if units.is_empty() {
        // Single-sentence sources: the source itself is the evidence.
        for (pos, &ix) in cited.cited.iter().enumerate() {
            let src = &cited.sources[ix];
            if let Some(unit) = src.units.first() {
                let p = scores.get(cw.indiv[pos]);
                units.push((key(&p), evidence_ref(src, unit, p)));
            }
        }
    }
    units
}

pub(crate) fn evidence_ref(src: &Source, unit: &Unit, p: Probs) -> EvidenceRef {
    EvidenceRef {
        citation: src.citation.id.clone(),
        start: unit.chars.map(|r| r.0),
        end: unit.chars.map(|r| r.1),
        triple: unit.triple.clone(),
        text: unit.text.clone(),
        probabilities: p,
    }
}
