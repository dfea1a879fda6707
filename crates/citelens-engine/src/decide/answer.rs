//! The whole answer decided: each cited sentence (`sentence`), then the answer's verdict, the
//! reasoning it needs, each citation's verdict over every sentence that cites it, and KaLMA's
//! knowledge-graph metrics.

use std::collections::HashSet;

use citelens_types::input::Input;
use citelens_types::report::*;

use crate::decide::combiner::Combiner;
use crate::decide::complexity;
use crate::decide::verdict::{self, categorize};
use crate::plan::Plan;
use crate::score::Scores;
use crate::text::kg;

use super::sentence::{decide_sentence, Deciding, SentenceDecision};
use super::Decider;

/// Everything the decide stage gives the report, for the first `len()` sentences of a plan.
pub struct Decisions {
    /// By sentence: `None` for a sentence with nothing to verify (it cites nothing, or abstains).
    pub sentences: Vec<Option<SentenceDecision>>,
    pub overall: Verdict,
    pub complexity: Complexity,
    /// The verdict of each citation some decided sentence cites, in citation order.
    pub citations: Vec<CitationVerdict>,
    pub kg: Option<KgMetrics>,
}

/// Decides the first `upto` sentences of `plan` from its `scores`: claims by `decider`, sentences by
/// `combiner` when there is one (else by the rules and the four-way head).
pub fn decide(plan: &Plan, scores: &Scores, upto: usize, decider: &dyn Decider, combiner: Option<&Combiner>) -> Decisions {
    let works = &plan.sentences[..upto.min(plan.sentences.len())];
    let deciding = Deciding { plan, scores, decider, combiner };
    let mut graph = ReasoningGraph::default();
    let sentences: Vec<Option<SentenceDecision>> = works
        .iter()
        .enumerate()
        .map(|(si, w)| (!w.cited.is_empty() && w.abstention.is_none()).then(|| decide_sentence(&deciding, si, &mut graph)))
        .collect();
    let decided = || sentences.iter().flatten();
    let four_way_changed = decided().any(|s| s.head_overrode.is_some() && s.verdict.is_some());
    let verdicts: Vec<Option<Verdict>> = decided().map(|s| s.verdict).collect();
    let all_claims: Vec<ClaimReport> = decided().flat_map(|s| s.claims.iter().cloned()).collect();
    let overall = verdict::overall_verdict(four_way_changed || combiner.is_some(), &verdicts, &all_claims);
    let kinds: Vec<ComplexityType> = decided().map(|s| s.kind).collect();
    let distinct: HashSet<usize> = works.iter().flat_map(|w| w.cited.iter().copied()).collect();
    let kind = complexity::overall(&kinds, distinct.len());
    let citations = citation_verdicts(plan, &sentences);
    let not_verifiable: Vec<usize> = works.iter().enumerate().filter(|(_, w)| !w.na.is_empty()).map(|(si, _)| si).collect();
    let facts: Vec<CitedFact> = decided().flat_map(|s| s.cited_facts.iter().cloned()).collect();
    let input = &plan.input;
    let kg = (!facts.is_empty() || input.citations.iter().any(|c| c.triples.is_some())).then(|| kg_metrics(facts, not_verifiable, input));
    Decisions { sentences, overall, complexity: Complexity { kind, graph }, citations, kg }
}

/// Each used citation alone, over every sentence that cites it: the same judgement as the sentences'
/// per-citation verdicts (a citation that only helps another is partial).
fn citation_verdicts(plan: &Plan, sentences: &[Option<SentenceDecision>]) -> Vec<CitationVerdict> {
    plan.input
        .citations
        .iter()
        .enumerate()
        .filter(|(i, _)| plan.used[*i])
        .filter_map(|(i, c)| {
            let mine: Vec<ClaimReport> = plan
                .sentences
                .iter()
                .zip(sentences)
                .filter_map(|(w, s)| Some((w, s.as_ref()?)))
                .flat_map(|(w, s)| w.cited.iter().zip(&s.alone).filter(|(&ix, _)| ix == i).flat_map(|(_, claims)| claims.iter().cloned()))
                .collect();
            let v = categorize(&mine)?;
            Some(CitationVerdict { citation: c.id.clone(), category: v.category, confidence: v.confidence })
        })
        .collect()
}

/// KaLMA's citation metrics over the cited knowledge-graph facts.
fn kg_metrics(facts: Vec<CitedFact>, not_verifiable_sentences: Vec<usize>, input: &Input) -> KgMetrics {
    let n = facts.len().max(1) as f32;
    let correct = facts.iter().filter(|f| f.matched.is_some()).count() as f32;
    let aligned = facts.iter().filter(|f| f.alignment >= 0.5).count() as f32;
    let recall = input.minimum_knowledge.as_ref().map(|need| {
        if need.is_empty() {
            return 1.0;
        }
        let hit = need
            .iter()
            .filter(|t| {
                facts.iter().any(|f| {
                    f.matched.as_ref().is_some_and(|m| m == *t)
                        || (kg::relation_matches(&f.relation, &t[1]) && kg::value_matches(&f.value, &t[2]))
                })
            })
            .count();
        hit as f32 / need.len() as f32
    });
    KgMetrics {
        correctness: if facts.is_empty() { 0.0 } else { correct / n },
        // Precision: cited facts that are correct and the sentence states (KaLMA counts a citation
        // precise when it is in the graph and supports its sentence).
        precision: if facts.is_empty() {
            0.0
        } else {
            facts.iter().filter(|f| f.matched.is_some() && f.alignment >= 0.5).count() as f32 / n
        },
        recall,
        alignment: if facts.is_empty() { 0.0 } else { aligned / n },
        cited_facts: facts,
        not_verifiable_sentences,
    }
}
