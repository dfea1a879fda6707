//! The report stage: the plan's sentences and the decide stage's `Decisions` formatted as
//! `citelens-types`' `Report`. Nothing here decides: it lays out the findings, the sentences, the
//! spans (painted from each claim's marks, then made to agree with the sentence's verdict) and the
//! answer's figures.

mod agree;
pub(crate) mod progressive;
mod spans;

use crate::decide::{Decisions, SentenceDecision};
use crate::plan::{Plan, SentencePlan};
use crate::score::{ScoreError, Scores};
use citelens_types::report::*;

use spans::Labels;

/// The report of the decided sentences of `plan` (`decisions` covers the first
/// `decisions.sentences.len()` of them).
pub fn report_with(plan: &Plan, scores: &Scores, decisions: &Decisions, model: String) -> Report {
    let clean = &plan.clean;
    let mut findings = plan.findings.clone();
    findings.extend(unscored(scores));
    let mut labels = Labels::new(clean.text.len());
    let mut all_claims: Vec<ClaimReport> = Vec::new();
    let mut sentences = Vec::new();
    for (si, (w, decided)) in plan.sentences.iter().zip(&decisions.sentences).enumerate() {
        labels.mark_not_verifiable(&w.na);
        let Some(d) = decided else {
            findings.extend(nothing_to_verify(plan, w, si));
            sentences.push(sentence_report(plan, w, None));
            continue;
        };
        let first_claim = all_claims.len();
        all_claims.extend(d.claims.iter().cloned());
        labels.mark_claims(first_claim, &d.marks);
        if let (Some(rules), Some(head)) = (d.head_overrode, d.verdict) {
            findings.push(Finding {
                kind: FindingKind::FourWay,
                message: format!(
                    "sentence {si}: the four-way head reads {} ({:.2}) where the rules read {}",
                    head.category.as_str(),
                    head.confidence,
                    rules.category.as_str()
                ),
            });
        }
        if let Some(v) = d.verdict {
            labels.agree_with_verdict(first_claim..all_claims.len(), &all_claims, d, v.category);
        }
        sentences.push(sentence_report(plan, w, Some(d)));
    }
    Report {
        version: REPORT_VERSION.into(),
        model,
        overall: decisions.overall,
        complexity: decisions.complexity.clone(),
        sentences,
        citations: decisions.citations.clone(),
        spans: labels.spans(clean, &plan.input.answer, &all_claims),
        kg: decisions.kg.clone(),
        findings,
        pairs_scored: plan.pairs_read(),
    }
}

/// What is said of pairs without an answer: those the model refused, and those nobody scored (a
/// partial table of answers computed elsewhere, which a streaming UI drops until the last step).
fn unscored(scores: &Scores) -> Vec<Finding> {
    let (not_scored, refused): (Vec<&ScoreError>, Vec<&ScoreError>) = scores.errors.iter().partition(|e| **e == ScoreError::NotScored);
    let mut out = Vec::new();
    if let Some(e) = refused.first() {
        out.push(Finding {
            kind: FindingKind::Truncated,
            message: format!("{} pair(s) could not be scored and count as neutral: {e}", refused.len()),
        });
    }
    if !not_scored.is_empty() {
        out.push(Finding {
            kind: FindingKind::NotScored,
            message: format!("{} pair(s) were not scored and count as neutral", not_scored.len()),
        });
    }
    out
}

/// What is said of a sentence with nothing to verify: it abstains, or it cites nothing.
fn nothing_to_verify(plan: &Plan, w: &SentencePlan, si: usize) -> Option<Finding> {
    let text = &plan.clean.text[w.piece.start..w.piece.end];
    match &w.abstention {
        Some(a) => Some(Finding { kind: FindingKind::Abstention, message: format!("sentence {si}: {}", a.message) }),
        None if w.na.is_empty() && !text.trim().is_empty() => {
            Some(Finding { kind: FindingKind::UncitedSentence, message: format!("sentence {si} cites nothing and is not verified") })
        }
        None => None,
    }
}

/// One sentence's report, with its decisions when it had any.
fn sentence_report(plan: &Plan, w: &SentencePlan, decided: Option<&SentenceDecision>) -> SentenceReport {
    let clean = &plan.clean;
    let (start, end) = (clean.to_original(w.piece.start), clean.to_original_end(w.piece.end));
    SentenceReport {
        start: clean.original_char(start),
        end: clean.original_char(end),
        text: clean.text[w.piece.start..w.piece.end].to_string(),
        citations: w.cited.iter().map(|&ix| plan.input.citations[ix].id.clone()).collect(),
        verdict: decided.and_then(|d| d.verdict),
        per_citation: decided.map(|d| d.per_citation.clone()).unwrap_or_default(),
        complexity: decided.map(|d| d.kind),
        claims: decided.map(|d| d.claims.clone()).unwrap_or_default(),
        abstention: if decided.is_some() { None } else { w.abstention.clone() },
        features: decided.map(|d| d.features.clone()).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decide::{decide, RuleDecider};
    use crate::plan::retrieve::WordOverlap;
    use crate::plan::SentencePairs;
    use crate::score::ScoreTable;
    use crate::thresholds::Thresholds;
    use citelens_types::input::{Caps, Citation, Input};

    const ENTAILED: Probs = Probs { entailment: 0.97, neutral: 0.02, contradiction: 0.01, four_way: None, evidence: None };

    fn plan(answer: &str) -> Plan {
        let input = Input {
            question: None,
            answer: answer.into(),
            citations: vec![Citation {
                id: "1".into(),
                text: Some("The Brooklyn Bridge opened on May 24, 1883.".into()),
                ..Default::default()
            }],
            minimum_knowledge: None,
        };
        Plan::with_whole_sentences(&input, &Caps::default(), &WordOverlap, SentencePairs::None).unwrap()
    }

    fn report(plan: &Plan, scores: &Scores) -> Report {
        let decider = RuleDecider { thresholds: Thresholds::default() };
        report_with(plan, scores, &decide(plan, scores, plan.sentences.len(), &decider, None), "test".into())
    }

    fn all_entailed(plan: &Plan) -> Scores {
        let table: ScoreTable = plan.pairs().iter().map(|k| (k.clone(), ENTAILED)).collect();
        Scores::from_table(plan, &table)
    }

    #[test]
    fn every_sentence_is_reported_and_one_that_cites_nothing_is_said_so() {
        let p = plan("The Brooklyn Bridge opened in 1883 [1]. It is in New York.");
        let r = report(&p, &all_entailed(&p));
        assert_eq!(r.sentences.len(), 2);
        assert!(r.sentences[0].verdict.is_some() && r.sentences[1].verdict.is_none());
        assert_eq!(r.sentences[1].text, "It is in New York.");
        assert!(
            r.findings.iter().any(|f| f.kind == FindingKind::UncitedSentence && f.message.starts_with("sentence 1")),
            "{:?}",
            r.findings
        );
        assert_eq!(r.pairs_scored, p.pairs().len());
    }

    #[test]
    fn spans_stop_at_markers_and_point_into_the_answer() {
        let answer = "The Brooklyn Bridge opened in 1883 [1]. It opened on May 24 [1].";
        let p = plan(answer);
        let r = report(&p, &all_entailed(&p));
        assert!(!r.spans.is_empty());
        let chars: Vec<char> = answer.chars().collect();
        for s in &r.spans {
            let text: String = chars[s.start..s.end].iter().collect();
            assert_eq!(text, s.text, "a span's offsets are the answer's characters");
            assert!(!s.text.contains('['), "no span covers a marker: {:?}", s.text);
        }
    }

    #[test]
    fn unscored_and_refused_pairs_are_two_findings() {
        let p = plan("The Brooklyn Bridge opened in 1883 [1].");
        let bare = report(&p, &Scores::from_table(&p, &ScoreTable::default()));
        let kinds: Vec<FindingKind> = bare.findings.iter().map(|f| f.kind).collect();
        assert_eq!(kinds.iter().filter(|k| **k == FindingKind::NotScored).count(), 1, "{:?}", bare.findings);
        assert!(!kinds.contains(&FindingKind::Truncated));
        let mut refused = Scores::default();
        refused.errors.push(ScoreError::Refused("too long".into()));
        let r = report(&p, &refused);
        let truncated = r.findings.iter().find(|f| f.kind == FindingKind::Truncated).expect("a refused pair is said");
        assert!(truncated.message.ends_with("too long"), "{}", truncated.message);
    }
}
