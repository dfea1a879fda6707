//! One cited sentence decided: its claims (each against the whole evidence and each citation alone),
//! its verdict, its citations' verdicts, the reasoning its citations need, its knowledge-graph facts,
//! and which of its words each claim's status marks.

use citelens_types::report::*;

use crate::decide::combiner::{self, Combiner, SentenceSignals};
use crate::decide::complexity::{self, SentenceEvidence};
use crate::decide::verdict::{self, categorize};
use crate::plan::{ClaimPlan, EvidenceWords, Plan, SentencePlan};
use crate::text::claims::Claim;
use crate::text::kg;
use crate::text::segment::Piece;

use super::claim_report::{self, SentenceFacts};
use super::evidence_pick::CitedSources;
use super::Decider;

/// A cited sentence's decisions.
pub struct SentenceDecision {
    /// Its claims, as decided against all its evidence.
    pub claims: Vec<ClaimReport>,
    /// Its claims against each citation alone, by the citation's position in the sentence.
    pub alone: Vec<Vec<ClaimReport>>,
    /// Its citations' verdicts (each alone, over its claims).
    pub per_citation: Vec<CitationVerdict>,
    /// What the combiner reads of it, whether or not the combiner decides.
    pub features: Vec<f32>,
    pub verdict: Option<Verdict>,
    /// The rules' verdict, when the four-way head changed it.
    pub head_overrode: Option<Verdict>,
    /// The reasoning its citations need.
    pub kind: ComplexityType,
    /// The knowledge-graph facts it cites, each matched against its citation's triples.
    pub cited_facts: Vec<CitedFact>,
    /// Which words each claim's status marks (same order as `claims`).
    pub marks: Vec<ClaimMarks>,
}

/// The words of the answer (clean-text byte ranges) a claim's decision marks.
pub struct ClaimMarks {
    pub label: SpanLabel,
    /// All its words: marked supported first.
    pub parts: Vec<Piece>,
    /// The words its label marks when it is not supported: a confirmed check's mismatched values, the
    /// names the evidence lacks, its conjunct, or all its words.
    pub targets: Vec<Piece>,
    /// The words that stand for it when the sentence's verdict repaints the sentence: its mismatched
    /// values, else its parts.
    pub stands_for: Vec<Piece>,
}

/// What the sentence decision reads beyond the plan: the scores, the decider, the combiner.
pub(crate) struct Deciding<'a> {
    pub plan: &'a Plan,
    pub scores: &'a crate::score::Scores,
    pub decider: &'a dyn Decider,
    pub combiner: Option<&'a Combiner>,
}

/// Decides sentence `si` of the plan (one that cites evidence and does not abstain), adding its
/// citations' edges to `graph`.
pub(crate) fn decide_sentence(d: &Deciding, si: usize, graph: &mut ReasoningGraph) -> SentenceDecision {
    let plan = d.plan;
    let w = &plan.sentences[si];
    let t = d.decider.thresholds();
    let words = w.evidence.as_ref().expect("a cited sentence's evidence is analysed with its claims");
    let facts = SentenceFacts {
        scores: d.scores,
        decider: d.decider,
        question: &plan.question,
        clean: &plan.clean,
        citations: &plan.input.citations,
        cited: CitedSources { sources: &plan.sources, cited: &w.cited },
        evidence: words.together.mentions(),
        alone: &words.alone,
        // The four-way head's reading of the whole sentence, a reading apart from each claim's own
        // only when the sentence has more than one claim (one claim's pair is the sentence's).
        sentence_reading: w.whole.filter(|_| w.claims.len() > 1).and_then(|i| d.scores.get(i).four_way),
    };
    let mut claims = Vec::new();
    let mut by_citation: Vec<Vec<ClaimReport>> = vec![Vec::new(); w.cited.len()];
    for (ci, cw) in w.claims.iter().enumerate() {
        let found_in = plan.chosen.claims.get(&(si, ci)).map(Vec::as_slice);
        let report = claim_report::decide_claim(&facts, cw, found_in);
        for (pos, r) in claim_report::decide_per_citation(&facts, cw, &report).into_iter().enumerate() {
            by_citation[pos].push(r);
        }
        claims.push(report);
    }
    let four_way = w.whole.and_then(|i| d.scores.get(i).four_way);
    let rules = categorize(&claims);
    let features = rules
        .map(|rules| combiner::features(&SentenceSignals { claims: &claims, rules, four_way, citations: w.cited.len() }))
        .unwrap_or_default();
    let decided = verdict::sentence_verdict(rules, &claims, four_way, &features, d.combiner, t);
    let per_citation: Vec<CitationVerdict> = w
        .cited
        .iter()
        .zip(&by_citation)
        .filter_map(|(&ix, mine)| {
            let v = categorize(mine)?;
            Some(CitationVerdict { citation: plan.input.citations[ix].id.clone(), category: v.category, confidence: v.confidence })
        })
        .collect();
    let kind = reasoning(plan, w, words, &claims, &per_citation, graph);
    let marks = w.claims.iter().zip(&claims).map(|(cw, r)| claim_marks(&plan.clean.text, cw, r)).collect();
    SentenceDecision {
        cited_facts: cited_facts(plan, w, si, d.scores),
        claims,
        alone: by_citation,
        per_citation,
        features,
        verdict: decided.verdict,
        head_overrode: decided.head_overrode,
        kind,
        marks,
    }
}

/// The reasoning the sentence's citations need, with their edges added to `graph`.
fn reasoning(
    plan: &Plan,
    w: &SentencePlan,
    words: &EvidenceWords,
    claims: &[ClaimReport],
    per_citation: &[CitationVerdict],
    graph: &mut ReasoningGraph,
) -> ComplexityType {
    let conjuncts: Vec<(String, ClaimDecider)> = w
        .claims
        .iter()
        .zip(claims)
        .filter_map(|(cw, r)| cw.claim.conjunct.as_ref().map(|c| (plan.clean.text[c.start..c.end].to_string(), r.decided_by.clone())))
        .collect();
    let ev = SentenceEvidence {
        citations: w.cited.iter().enumerate().map(|(pos, &ix)| (plan.input.citations[ix].id.as_str(), &words.premises[pos])).collect(),
        sentence: &words.sentence,
        question: &plan.question,
        conjuncts,
    };
    let shared = complexity::shared_entities(&ev);
    let kind = complexity::classify(&ev, &shared);
    let edges: Vec<(String, EdgeKind)> = per_citation.iter().map(|v| (v.citation.clone(), complexity::citation_edge(v.category))).collect();
    complexity::add_to_graph(graph, &ev, &shared, &edges);
    kind
}

/// The knowledge-graph facts sentence `si` cites, each matched against its citation's triples and
/// read by the model against its sentence.
fn cited_facts(plan: &Plan, w: &SentencePlan, si: usize, scores: &crate::score::Scores) -> Vec<CitedFact> {
    w.graph_facts
        .iter()
        .zip(&w.alignment)
        .map(|((ix, entity, rel, val), &pair)| {
            let triples = plan.input.citations[*ix].triples.as_deref().unwrap_or(&[]);
            CitedFact {
                sentence: si,
                entity: entity.clone(),
                relation: rel.clone(),
                value: val.clone(),
                matched: kg::find(triples, rel, val).cloned(),
                alignment: scores.get(pair).entailment,
            }
        })
        .collect()
}

/// Which words a claim's decision marks.
fn claim_marks(text: &str, cw: &ClaimPlan, report: &ClaimReport) -> ClaimMarks {
    let claim = &cw.claim;
    let label = match report.status {
        ClaimStatus::Supported => SpanLabel::Supported,
        ClaimStatus::Contradicted => SpanLabel::Contradicted,
        ClaimStatus::NotVerifiable => SpanLabel::NotVerifiable,
        _ => SpanLabel::Missing,
    };
    let mismatched = mismatched_pieces(text, claim, &report.checks);
    // The claim's names the evidence lacks, where the answer has them.
    let lacking: Vec<Piece> =
        cw.part_names.iter().filter(|(_, name)| report.missing_entities.contains(name)).map(|(p, _)| p.clone()).collect();
    let targets = if let Some(v) = &mismatched {
        v.clone()
    } else if !lacking.is_empty() && label == SpanLabel::Missing {
        lacking
    } else if let Some(c) = &claim.conjunct {
        vec![c.clone()]
    } else {
        claim.parts.clone()
    };
    ClaimMarks { label, parts: claim.parts.clone(), targets, stands_for: mismatched.unwrap_or_else(|| claim.parts.clone()) }
}

/// Clean-text ranges of the claim's words a confirmed typed check found wrong.
fn mismatched_pieces(text: &str, claim: &Claim, checks: &[CheckReport]) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    for c in checks.iter().filter(|c| matches!(c.result, CheckResult::Mismatch | CheckResult::Absent)) {
        for p in &claim.parts {
            if let Some(i) = text[p.start..p.end].find(&c.answer_says) {
                out.push(Piece { start: p.start + i, end: p.start + i + c.answer_says.len() });
            }
        }
    }
    (!out.is_empty()).then_some(out)
}
