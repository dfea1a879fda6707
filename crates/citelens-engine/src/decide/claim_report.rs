//! One claim decided: the reading that decides it (one citation, an evidence sentence, or all cited
//! passages together), the decider's status on it, the evidence shown, and the same claim decided
//! against each citation alone.

use crate::plan::evidence::ClaimEvidence;
use crate::plan::ClaimPlan;
use crate::score::Scores;
use crate::text::analysed::Analysed;
use crate::text::entities::Mentions;
use crate::text::markers::CleanAnswer;
use citelens_types::input::Citation;
use citelens_types::report::{CitationScore, ClaimDecider, ClaimReport, ClaimSignals, Probs, Range};

use super::evidence_pick::{self, CitedSources};
use super::verdict;
use super::{ClaimFacts, Decider};

/// What every claim of one cited sentence is decided against.
pub(crate) struct SentenceFacts<'a> {
    pub scores: &'a Scores,
    pub decider: &'a dyn Decider,
    pub question: &'a Analysed,
    pub clean: &'a CleanAnswer,
    pub citations: &'a [Citation],
    pub cited: CitedSources<'a>,
    /// The names and words of all the sentence's evidence together.
    pub evidence: &'a Mentions,
    /// The same, of each cited source alone (by position in `cited`).
    pub alone: &'a [Analysed],
    /// The four-way head's reading of the whole sentence, when it has more than one claim.
    pub sentence_reading: Option<[f32; 4]>,
}

impl SentenceFacts<'_> {
    fn id_at(&self, pos: usize) -> String {
        self.citations[self.cited.cited[pos]].id.clone()
    }
}

/// The claim's report: decided on its deciding reading against the whole sentence's evidence.
pub(crate) fn decide_claim(s: &SentenceFacts, cw: &ClaimPlan, found_in: Option<&[ClaimEvidence]>) -> ClaimReport {
    let t = s.decider.thresholds();
    let by_citation: Vec<CitationScore> = cw
        .indiv
        .iter()
        .enumerate()
        .map(|(pos, &pair)| CitationScore { citation: s.id_at(pos), probabilities: s.scores.get(pair) })
        .collect();
    let (decided_by, probs) = deciding_reading(s, cw, &by_citation);
    let probes: Vec<Option<(f32, f32)>> =
        cw.probes.iter().map(|pr| Some((s.scores.get(pr.probe).entailment, s.scores.get(pr.original).entailment))).collect();
    let signals = claim_signals(cw, s.scores, &probes);
    let d = s.decider.decide(&ClaimFacts {
        claim: &cw.analysed,
        question: s.question,
        probs,
        evidence: s.evidence,
        checks: &cw.checks,
        probes: &probes,
        sentence_reading: s.sentence_reading,
    });
    let (evidence, not_found) = evidence_pick::pick(cw, s.scores, &s.cited, &d, found_in);
    ClaimReport {
        text: cw.claim.text.clone(),
        parts: cw
            .claim
            .parts
            .iter()
            .map(|p| {
                let (start, end) = s.clean.original_char_range(p.start, p.end);
                Range { start, end }
            })
            .collect(),
        status: d.status,
        probabilities: probs,
        decided_by,
        by_citation,
        evidence,
        relevance: d.relevance,
        coverage: d.coverage,
        uncertain: d.uncertain(t),
        confidence: d.confidence,
        missing_entities: d.missing_entities,
        checks: d.checks,
        not_found,
        rule: Some(d.rule),
        signals,
    }
}

/// The reading a claim is decided on: the best-entailing of each citation alone (a union's
/// independent fact), each evidence sentence, all together and the claim without what it copied from
/// the question; without a clear entailment, all together, or the least contradicting citation.
fn deciding_reading(s: &SentenceFacts, cw: &ClaimPlan, by_citation: &[CitationScore]) -> (ClaimDecider, Probs) {
    let t = s.decider.thresholds();
    let mut candidates: Vec<(ClaimDecider, Probs)> =
        by_citation.iter().map(|c| (ClaimDecider::Citation(c.citation.clone()), c.probabilities)).collect();
    // A single evidence sentence can entail what a long passage dilutes.
    for &(pos, _, pair) in &cw.units {
        candidates.push((ClaimDecider::Citation(s.id_at(pos)), s.scores.get(pair)));
    }
    if let Some(j) = cw.joint {
        candidates.push((ClaimDecider::Joint, s.scores.get(j)));
    }
    for &(pos, pair) in &cw.restated {
        let by = pos.map_or(ClaimDecider::Joint, |pos| ClaimDecider::Citation(s.id_at(pos)));
        candidates.push((by, s.scores.get(pair)));
    }
    let best = candidates
        .into_iter()
        .fold(None::<(ClaimDecider, Probs)>, |b, c| match b {
            Some(b) if b.1.entailment >= c.1.entailment => Some(b),
            _ => Some(c),
        })
        .expect("a cited sentence has at least one citation");
    // Without entailment, several citations are judged together: one alone "contradicting" a fact
    // another states is not a contradiction.
    if best.1.entailment >= t.values_entailment.min(t.entailment) && best.1.entailment >= best.1.contradiction {
        best
    } else if let Some(j) = cw.joint {
        (ClaimDecider::Joint, s.scores.get(j))
    } else {
        // Passages too long to read together: the least contradicting one speaks for them.
        by_citation
            .iter()
            .min_by(|a, b| a.probabilities.contradiction.total_cmp(&b.probabilities.contradiction))
            .map(|c| (ClaimDecider::Citation(c.citation.clone()), c.probabilities))
            .expect("a cited sentence has at least one citation")
    }
}

/// The claim against each citation alone (by position): alone, a citation may only contradict what
/// the sentence's evidence as a whole contradicts (`whole`, the claim's report).
pub(crate) fn decide_per_citation(s: &SentenceFacts, cw: &ClaimPlan, whole: &ClaimReport) -> Vec<ClaimReport> {
    let t = s.decider.thresholds();
    (0..s.cited.cited.len())
        .map(|pos| {
            let mut p = s.scores.get(cw.indiv[pos]);
            for &(upos, _, pair) in &cw.units {
                let q = s.scores.get(pair);
                if upos == pos && q.entailment > p.entailment {
                    p = q;
                }
            }
            let probes: Vec<Option<(f32, f32)>> = cw
                .probes
                .iter()
                .map(|pr| (pr.source_pos == pos).then(|| (s.scores.get(pr.probe).entailment, s.scores.get(pr.original).entailment)))
                .collect();
            let d = s.decider.decide(&ClaimFacts {
                claim: &cw.analysed,
                question: s.question,
                probs: p,
                evidence: s.alone[pos].mentions(),
                checks: &cw.checks,
                probes: &probes,
                sentence_reading: s.sentence_reading,
            });
            let status = verdict::citation_claim_status(&d, whole.status, t);
            ClaimReport {
                status,
                probabilities: p,
                coverage: d.coverage,
                uncertain: d.uncertain(t),
                confidence: d.confidence,
                ..whole.clone()
            }
        })
        .collect()
}

/// The model's readings of a claim over all its planned pairs (each citation alone and each evidence
/// sentence), and over its probes: the combiner's inputs beyond the deciding reading.
fn claim_signals(cw: &ClaimPlan, scores: &Scores, probes: &[Option<(f32, f32)>]) -> ClaimSignals {
    let readings: Vec<Probs> =
        cw.indiv.iter().copied().chain(cw.units.iter().map(|u| u.2)).chain(cw.joint).map(|p| scores.get(p)).collect();
    let max = |f: &dyn Fn(&Probs) -> f32| readings.iter().map(f).fold(0.0, f32::max);
    let probes: Vec<(f32, f32)> = probes.iter().flatten().copied().collect();
    ClaimSignals {
        entailment_max: max(&|p| p.entailment),
        contradiction_max: max(&|p| p.contradiction),
        four_way_contradictory_max: max(&|p| p.four_way.map_or(0.0, |f| f[2])),
        four_way_supportive_max: max(&|p| p.four_way.map_or(0.0, |f| f[0])),
        probe_gain_max: probes.iter().map(|(probe, claim)| (probe - claim).max(0.0)).fold(0.0, f32::max),
        probe_entailment_max: probes.iter().map(|p| p.0).fold(0.0, f32::max),
        probes: probes.len(),
    }
}
