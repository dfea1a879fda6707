//! Scoring a verification with long documents takes two rounds: round one scores each claim's
//! candidate evidence sentences (BM25 over each cited document), its answers choose the evidence, and
//! round two plans the claims against that evidence, keeping round one's answers. Without documents
//! there is one plan and one round.

use crate::error::Result;
use crate::plan::evidence::{self, ChosenEvidence};
use crate::plan::retrieve::{Bm25, WordOverlap};
use crate::plan::{DocumentStage, Plan};
use crate::score::{Scorer, Scores};
use crate::thresholds::Thresholds;
use citelens_types::input::{Caps, Input};
use citelens_types::report::{Finding, FindingKind, Probs};

/// The plan `input` is decided on: round two's when a citation is a long document (round one scored
/// here by `scorer`), else the one plan.
pub fn final_plan(input: &Input, caps: &Caps, t: &Thresholds, scorer: &dyn Scorer) -> Result<Plan> {
    match round_one(input, caps, scorer)? {
        None => Plan::with_whole_sentences(input, caps, &WordOverlap, scorer.sentence_pairs()),
        Some(first) => {
            let scores = Scores::all(&first, scorer);
            round_two(input, caps, t, scorer, &first, &scores)
        }
    }
}

/// Round one: each claim's candidate evidence sentences as a plan whose pairs are to be scored, by
/// `scorer` or elsewhere (the browser's worker pool). `None` when no citation is a document.
pub fn round_one(input: &Input, caps: &Caps, scorer: &dyn Scorer) -> Result<Option<Plan>> {
    if !Plan::has_documents(input) {
        return Ok(None);
    }
    let stage = DocumentStage::Candidates { joint: !scorer.has_evidence() };
    Plan::with_stage(input, caps, &Bm25::default(), scorer.sentence_pairs(), stage).map(Some)
}

/// Round two: the plan that reads each claim against the evidence chosen from round one's `scores`;
/// round one's answers are kept in it (never asked again), and pairs round one could not score are a
/// finding.
pub fn round_two(input: &Input, caps: &Caps, t: &Thresholds, scorer: &dyn Scorer, first: &Plan, scores: &Scores) -> Result<Plan> {
    let chosen = choose_evidence(first, scores, t);
    let mut plan = Plan::with_stage(input, caps, &WordOverlap, scorer.sentence_pairs(), DocumentStage::Chosen(chosen))?;
    let known: Vec<Option<Probs>> = plan.pairs().iter().map(|key| first.pair_id(key).and_then(|i| scores.answer(i))).collect();
    let not_listed = first.pairs().iter().filter(|key| plan.pair_id(key).is_none()).count();
    plan.prescore(known, not_listed);
    if let Some(e) = scores.errors.first() {
        plan.findings.push(Finding {
            kind: FindingKind::Truncated,
            message: format!("{} candidate evidence pair(s) could not be scored and count as neutral: {e}", scores.errors.len()),
        });
    }
    Ok(plan)
}

/// Round one's choice of evidence from its scores: per claim and cited document, the sentences that
/// state or deny the claim, or the nearest ones and `found: false`.
pub fn choose_evidence(first: &Plan, scores: &Scores, t: &Thresholds) -> ChosenEvidence {
    let mut chosen = ChosenEvidence::default();
    for (si, w) in first.sentences.iter().enumerate() {
        for (ci, c) in w.claims.iter().enumerate() {
            let per_document = c
                .candidates
                .iter()
                .map(|d| {
                    let scored: Vec<(usize, Probs)> = d.units.iter().map(|&(u, pair)| (u, scores.get(pair))).collect();
                    let joint = d.joint.as_ref().map(|(units, pair)| (units.as_slice(), scores.get(*pair)));
                    let mut found = evidence::choose(d.pos, &scored, joint, t);
                    evidence::complete(&mut found, &scored, &d.terms, t);
                    found
                })
                .collect();
            chosen.claims.insert((si, ci), per_document);
        }
    }
    chosen
}
