//! The engine: plan → score → decide → report. `Plan` (plan/) cuts the answer into claims and
//! lists the model's pairs; any `Scorer` fills `Scores`; a `Decider` (decide/) turns each claim's
//! scores and typed checks into a status; this file assembles the report.

mod agree;
pub(crate) mod progressive;

use std::collections::HashMap;

use crate::decide::combiner::{self, Combiner, SentenceSignals};
use crate::decide::complexity::{self, SentenceEvidence};
use crate::decide::verdict::{self, categorize};
use crate::decide::{ClaimFacts, Decider, Decision, RuleDecider};
use crate::error::Result;
use crate::plan::evidence::ClaimEvidence;
use crate::plan::retrieve::Bm25;
use crate::plan::retrieve::{Unit, WordOverlap};
use crate::plan::{ClaimPlan, DocumentStage, Plan, Scores, Source};
use crate::score::{ScoreTable, Scorer};
use crate::text::entities::{self, Mentions};
use crate::text::kg;
use crate::text::markers::CleanAnswer;
use crate::text::segment::Piece;
pub use crate::thresholds::Thresholds;
use citelens_types::input::{Caps, Input};
use citelens_types::report::*;

pub struct Engine<S: Scorer> {
    pub scorer: S,
    pub thresholds: Thresholds,
    pub caps: Caps,
    /// Decides each sentence's category from the engine's readings (`Combiner::shipped()`, or its
    /// sentence head alone: `Combiner::head_only`); `None`, the default, leaves it to the rules and the
    /// four-way head (`combine`). docs/COMBINER.md has the figures on both sides, and issue 43's
    /// end-to-end model (MODEL.md) those of a combiner retrained on it.
    pub combiner: Option<Combiner>,
}

impl<S: Scorer> Engine<S> {
    pub fn new(scorer: S) -> Self {
        Engine { scorer, thresholds: Thresholds::default(), caps: Caps::default(), combiner: None }
    }

    /// The same thresholds and caps over another scorer.
    pub fn with_scorer<T: Scorer>(&self, scorer: T) -> Engine<T> {
        Engine { scorer, thresholds: self.thresholds, caps: self.caps, combiner: self.combiner.clone() }
    }

    /// The plan stage: sentences, claims, typed checks and the pairs to score. With long documents
    /// this scores round one here (each claim's BM25 candidates, see `evidence`) and plans round two
    /// on the evidence chosen; round one's answers come with the plan and are not asked again.
    pub fn plan(&self, input: &Input) -> Result<Plan> {
        match self.round_one(input)? {
            None => Plan::with_whole_sentences(input, &self.caps, &WordOverlap, self.scorer.sentence_pairs()),
            Some(first) => {
                let scores = first.score(&self.scorer);
                self.round_two(input, &first, &scores)
            }
        }
    }

    /// Round one of a verification with long documents: each claim's candidate evidence sentences
    /// (BM25 over each cited document) as a plan whose pairs are to be scored, by this engine's
    /// scorer or elsewhere (the browser's worker pool). `None` when no citation is a document: then
    /// there is no round one.
    pub fn round_one(&self, input: &Input) -> Result<Option<Plan>> {
        if !Plan::has_documents(input) {
            return Ok(None);
        }
        let stage = DocumentStage::Candidates { joint: !self.scorer.has_evidence() };
        Plan::with_stage(input, &self.caps, &Bm25::default(), self.scorer.sentence_pairs(), stage).map(Some)
    }

    /// Round two: the plan that reads each claim against the evidence chosen from round one's
    /// `scores`; round one's answers are kept in it (never asked again), and pairs round one could
    /// not score are a finding.
    pub fn round_two(&self, input: &Input, first: &Plan, scores: &Scores) -> Result<Plan> {
        let chosen = first.choose_evidence(scores, &self.thresholds);
        let mut plan = Plan::with_stage(input, &self.caps, &WordOverlap, self.scorer.sentence_pairs(), DocumentStage::Chosen(chosen))?;
        plan.prescore(first, scores);
        if let Some(e) = scores.errors.first() {
            plan.findings.push(Finding {
                kind: FindingKind::Truncated,
                message: format!("{} candidate evidence pair(s) could not be scored and count as neutral: {e}", scores.errors.len()),
            });
        }
        Ok(plan)
    }

    pub fn verify(&self, input: &Input) -> Result<Report> {
        let plan = self.plan(input)?;
        let scores = plan.score(&self.scorer);
        Ok(self.report(&plan, &scores, plan.sentences.len()))
    }

    /// The distinct (premise, hypothesis) pairs `verify(input)` asks the model, in order.
    pub fn pairs_needed(&self, input: &Input) -> Result<Vec<(String, String)>> {
        Ok(self.plan(input)?.pairs().to_vec())
    }

    /// The report `verify(input)` would give, from `scores` of the pairs `pairs_needed(input)` listed.
    pub fn verify_with_scores(&self, input: &Input, scores: &ScoreTable) -> Result<Report> {
        let plan = self.plan(input)?;
        let scores = plan.scores_from(scores);
        Ok(self.report(&plan, &scores, plan.sentences.len()))
    }

    /// The report stage for the first `upto` sentences of the plan (all of them for the full report).
    pub fn report(&self, plan: &Plan, book: &Scores, upto: usize) -> Report {
        let decider = RuleDecider { thresholds: self.thresholds };
        report_with(plan, book, upto, &decider, self.combiner.as_ref(), self.scorer.name())
    }
}

/// The report of the first `upto` sentences of `plan`: claims decided by `decider`, sentences by
/// `combiner` when there is one (else by the rules and the four-way head).
pub fn report_with(plan: &Plan, book: &Scores, upto: usize, decider: &dyn Decider, combiner: Option<&Combiner>, model: String) -> Report {
    let t = *decider.thresholds();
    let input = &plan.input;
    let clean = &plan.clean;
    let sources = &plan.sources;
    let question = plan.question.clone();
    let works = &plan.sentences[..upto.min(plan.sentences.len())];
    let mut findings = plan.findings.clone();
    if !book.errors.is_empty() {
        findings.push(Finding {
            kind: FindingKind::Truncated,
            message: format!("{} pair(s) could not be scored and count as neutral: {}", book.errors.len(), book.errors[0]),
        });
    }
    let mut sentence_reports = Vec::new();
    let mut graph = ReasoningGraph::default();
    let mut kinds = Vec::new();
    let mut labels: Vec<Option<(SpanLabel, usize)>> = vec![None; clean.text.len()];
    let mut all_claims: Vec<ClaimReport> = Vec::new();
    let mut per_citation_claims: HashMap<(usize, usize), Vec<ClaimReport>> = HashMap::new();
    let mut cited_facts = Vec::new();
    let mut not_verifiable_sentences = Vec::new();
    let mut sentence_verdicts: Vec<Option<Verdict>> = Vec::new();
    let mut four_way_changed = false;
    for (si, w) in works.iter().enumerate() {
        for na in &w.na {
            mark(&mut labels, na, SpanLabel::NotVerifiable, usize::MAX);
        }
        if !w.na.is_empty() {
            not_verifiable_sentences.push(si);
        }
        let text = clean.text[w.piece.start..w.piece.end].to_string();
        let (start, end) = (clean.to_original(w.piece.start), clean.to_original_end(w.piece.end));
        let citation_ids: Vec<String> = w.cited.iter().map(|&ix| input.citations[ix].id.clone()).collect();
        // A sentence with nothing to verify: it cites nothing, or it abstains.
        if w.cited.is_empty() || w.abstention.is_some() {
            match &w.abstention {
                Some(a) => findings.push(Finding { kind: FindingKind::Abstention, message: format!("sentence {si}: {}", a.message) }),
                None if w.na.is_empty() && !text.trim().is_empty() => findings.push(Finding {
                    kind: FindingKind::UncitedSentence,
                    message: format!("sentence {si} cites nothing and is not verified"),
                }),
                None => {}
            }
            sentence_reports.push(SentenceReport {
                start: clean.original_char(start),
                end: clean.original_char(end),
                text,
                citations: citation_ids,
                verdict: None,
                per_citation: vec![],
                complexity: None,
                claims: vec![],
                abstention: w.abstention.clone(),
                features: vec![],
            });
            continue;
        }
        let evidence_text: String = (0..w.cited.len()).map(|pos| read_premise(w, pos, sources)).collect::<Vec<_>>().join(" ");
        // The evidence's names include those its pronouns refer to ("The painting was stolen" names the Mona Lisa).
        let resolved: String =
            (0..w.cited.len()).flat_map(|pos| read_units(w, pos, sources)).map(|u| u.named.as_str()).collect::<Vec<_>>().join(" ");
        let evidence_mentions = Mentions::new(&format!("{evidence_text} {resolved} {}", titles(&w.cited, input)));
        // Each cited source's own words (its names, and those its pronouns refer to), once per sentence.
        let alone: Vec<Mentions> = (0..w.cited.len())
            .map(|pos| {
                let named: String = read_units(w, pos, sources).map(|u| u.named.as_str()).collect::<Vec<_>>().join(" ");
                Mentions::new(&format!("{} {named}", read_premise(w, pos, sources)))
            })
            .collect();
        let mut claims = Vec::new();
        let first_claim = all_claims.len();
        // The four-way head's reading of the whole sentence, a reading apart from each claim's own
        // only when the sentence has more than one claim (one claim's pair is the sentence's).
        let sentence_reading = w.whole.filter(|_| w.claims.len() > 1).and_then(|i| book.get(i).four_way);
        for (ci, cw) in w.claims.iter().enumerate() {
            let found_in = plan.chosen.claims.get(&(si, ci)).map(Vec::as_slice);
            let report =
                decide_claim(cw, book, decider, &evidence_mentions, sentence_reading, &w.cited, input, sources, clean, &question, found_in);
            let label = match report.status {
                ClaimStatus::Supported => SpanLabel::Supported,
                ClaimStatus::Contradicted => SpanLabel::Contradicted,
                ClaimStatus::NotVerifiable => SpanLabel::NotVerifiable,
                _ => SpanLabel::Missing,
            };
            let claim_ix = all_claims.len();
            // Supported words first; missing / contradicted names then overwrite them.
            let lacking = missing_pieces(&clean.text, &cw.claim, &report.missing_entities);
            for p in &cw.claim.parts {
                mark(&mut labels, p, SpanLabel::Supported, claim_ix);
            }
            if label != SpanLabel::Supported {
                let targets = if let Some(v) = mismatched_pieces(&clean.text, &cw.claim, &report.checks) {
                    v
                } else if !lacking.is_empty() && label == SpanLabel::Missing {
                    lacking.clone()
                } else if let Some(c) = &cw.claim.conjunct {
                    vec![c.clone()]
                } else {
                    cw.claim.parts.clone()
                };
                for p in &targets {
                    mark(&mut labels, p, label, claim_ix);
                }
            }
            // Per-citation statuses: each citation alone; alone it may only contradict what
            // the sentence's evidence as a whole contradicts.
            for pos in 0..w.cited.len() {
                let mut p = book.get(cw.indiv[pos]);
                for &(upos, _, pair) in &cw.units {
                    let q = book.get(pair);
                    if upos == pos && q.entailment > p.entailment {
                        p = q;
                    }
                }
                let probes: Vec<Option<(f32, f32)>> = cw
                    .probes
                    .iter()
                    .map(|pr| (pr.source_pos == pos).then(|| (book.get(pr.probe).entailment, book.get(pr.original).entailment)))
                    .collect();
                let d = decider.decide(&ClaimFacts {
                    claim: &cw.analysed,
                    question: &question,
                    probs: p,
                    evidence: &alone[pos],
                    checks: &cw.checks,
                    probes: &probes,
                    sentence_reading,
                });
                let status = verdict::citation_claim_status(&d, report.status, &t);
                per_citation_claims.entry((si, pos)).or_default().push(ClaimReport {
                    status,
                    probabilities: p,
                    coverage: d.coverage,
                    uncertain: d.uncertain(&t),
                    confidence: d.confidence,
                    ..report.clone()
                });
            }
            all_claims.push(report.clone());
            claims.push(report);
        }
        let four_way = w.whole.and_then(|i| book.get(i).four_way);
        // What the combiner reads, computed whether or not it decides (`citelens bench` writes it out
        // for training).
        let rules = categorize(&claims);
        let features = rules
            .map(|rules| combiner::features(&SentenceSignals { claims: &claims, rules, four_way, citations: w.cited.len() }))
            .unwrap_or_default();
        let decided = verdict::sentence_verdict(rules, &claims, four_way, &features, combiner, &t);
        let verdict = decided.verdict;
        if let (Some(rules), Some(head)) = (decided.head_overrode, verdict) {
            findings.push(Finding {
                kind: FindingKind::FourWay,
                message: format!(
                    "sentence {si}: the four-way head reads {} ({:.2}) where the rules read {}",
                    head.category.as_str(),
                    head.confidence,
                    rules.category.as_str()
                ),
            });
            four_way_changed = true;
        }
        if let Some(v) = verdict {
            // The words agree with the decision (agree.rs); the claims keep their statuses as its explanation.
            let pieces = |ix: usize| {
                let (cw, report) = (&w.claims[ix - first_claim], &all_claims[ix]);
                mismatched_pieces(&clean.text, &cw.claim, &report.checks).unwrap_or_else(|| cw.claim.parts.clone())
            };
            let mut spans = agree::SentenceSpans { labels: &mut labels, claims: first_claim..all_claims.len() };
            agree::agree_with_verdict(&mut spans, v.category, &all_claims, &pieces);
        }
        sentence_verdicts.push(verdict);
        let per_citation: Vec<CitationVerdict> = w
            .cited
            .iter()
            .enumerate()
            .filter_map(|(pos, &ix)| {
                let v = categorize(per_citation_claims.get(&(si, pos))?)?;
                Some(CitationVerdict { citation: input.citations[ix].id.clone(), category: v.category, confidence: v.confidence })
            })
            .collect();

        // Complexity and graph.
        let conjuncts: Vec<(String, ClaimDecider)> = w
            .claims
            .iter()
            .zip(&claims)
            .filter_map(|(cw, r)| cw.claim.conjunct.as_ref().map(|c| (clean.text[c.start..c.end].to_string(), r.decided_by.clone())))
            .collect();
        let ev = SentenceEvidence {
            citations: w
                .cited
                .iter()
                .enumerate()
                .map(|(pos, &ix)| (input.citations[ix].id.as_str(), read_premise(w, pos, sources)))
                .collect(),
            sentence: &text,
            question: &question,
            conjuncts,
        };
        let shared = complexity::shared_entities(&ev);
        let kind = complexity::classify(&ev, &shared);
        kinds.push(kind);
        let edges: Vec<(String, EdgeKind)> =
            per_citation.iter().map(|v| (v.citation.clone(), complexity::citation_edge(v.category))).collect();
        complexity::add_to_graph(&mut graph, &ev, &shared, &edges);

        // Knowledge-graph facts cited by this sentence.
        for ((ix, entity, rel, val), &pair) in w.graph_facts.iter().zip(&w.alignment) {
            let triples = input.citations[*ix].triples.as_deref().unwrap_or(&[]);
            cited_facts.push(CitedFact {
                sentence: si,
                entity: entity.clone(),
                relation: rel.clone(),
                value: val.clone(),
                matched: kg::find(triples, rel, val).cloned(),
                alignment: book.get(pair).entailment,
            });
        }
        sentence_reports.push(SentenceReport {
            start: clean.original_char(start),
            end: clean.original_char(end),
            text,
            citations: citation_ids,
            verdict,
            per_citation,
            complexity: Some(kind),
            claims,
            abstention: None,
            features,
        });
    }

    // Overall.
    let overall = verdict::overall_verdict(four_way_changed || combiner.is_some(), &sentence_verdicts, &all_claims);
    let distinct: std::collections::HashSet<usize> = works.iter().flat_map(|w| w.cited.iter().copied()).collect();
    let overall_kind = complexity::overall(&kinds, distinct.len());
    let citations = input
        .citations
        .iter()
        .enumerate()
        .filter(|(i, _)| plan.used[*i])
        .filter_map(|(i, c)| {
            // The citation alone, over every sentence that cites it: the same judgement as the
            // sentences' per-citation verdicts (a citation that only helps another is partial).
            let mine: Vec<ClaimReport> = works
                .iter()
                .enumerate()
                .flat_map(|(si, w)| w.cited.iter().enumerate().filter(|(_, &ix)| ix == i).map(move |(pos, _)| (si, pos)))
                .filter_map(|key| per_citation_claims.get(&key))
                .flatten()
                .cloned()
                .collect();
            let v = categorize(&mine)?;
            Some(CitationVerdict { citation: c.id.clone(), category: v.category, confidence: v.confidence })
        })
        .collect();
    let spans = spans_of(&labels, clean, &input.answer, &all_claims);
    let kg = (!cited_facts.is_empty() || input.citations.iter().any(|c| c.triples.is_some()))
        .then(|| kg_metrics(cited_facts, not_verifiable_sentences, input));
    Report {
        version: REPORT_VERSION.into(),
        model,
        overall,
        complexity: Complexity { kind: overall_kind, graph },
        sentences: sentence_reports,
        citations,
        spans,
        kg,
        findings,
        pairs_scored: plan.pairs_read(),
    }
}

fn titles(cited: &[usize], input: &Input) -> String {
    cited.iter().filter_map(|&ix| input.citations[ix].title.clone()).collect::<Vec<_>>().join(" ")
}

#[allow(clippy::too_many_arguments)]
fn decide_claim(
    cw: &ClaimPlan,
    book: &Scores,
    decider: &dyn Decider,
    evidence: &Mentions,
    sentence_reading: Option<[f32; 4]>,
    cited: &[usize],
    input: &Input,
    sources: &[Source],
    clean: &CleanAnswer,
    question: &str,
    found_in: Option<&[ClaimEvidence]>,
) -> ClaimReport {
    let t = decider.thresholds();
    let by_citation: Vec<CitationScore> = cw
        .indiv
        .iter()
        .zip(cited)
        .map(|(&pair, &ix)| CitationScore { citation: input.citations[ix].id.clone(), probabilities: book.get(pair) })
        .collect();
    // The best-entailing reading: one citation alone (a union's independent fact) or all together.
    let mut candidates: Vec<(ClaimDecider, Probs)> =
        by_citation.iter().map(|s| (ClaimDecider::Citation(s.citation.clone()), s.probabilities)).collect();
    // A single evidence sentence can entail what a long passage dilutes.
    for &(pos, _, pair) in &cw.units {
        candidates.push((ClaimDecider::Citation(input.citations[cited[pos]].id.clone()), book.get(pair)));
    }
    if let Some(j) = cw.joint {
        candidates.push((ClaimDecider::Joint, book.get(j)));
    }
    for &(pos, pair) in &cw.restated {
        let by = pos.map_or(ClaimDecider::Joint, |pos| ClaimDecider::Citation(input.citations[cited[pos]].id.clone()));
        candidates.push((by, book.get(pair)));
    }
    let best = candidates
        .iter()
        .cloned()
        .fold(None::<(ClaimDecider, Probs)>, |b, c| match b {
            Some(b) if b.1.entailment >= c.1.entailment => Some(b),
            _ => Some(c),
        })
        .expect("a cited sentence has at least one citation");
    // Without entailment, several citations are judged together: one alone "contradicting" a fact
    // another states is not a contradiction.
    let (decided_by, probs) = if best.1.entailment >= t.values_entailment.min(t.entailment) && best.1.entailment >= best.1.contradiction {
        best
    } else if let Some(j) = cw.joint {
        (ClaimDecider::Joint, book.get(j))
    } else {
        // Passages too long to read together: the least contradicting one speaks for them.
        by_citation
            .iter()
            .min_by(|a, b| a.probabilities.contradiction.total_cmp(&b.probabilities.contradiction))
            .map(|s| (ClaimDecider::Citation(s.citation.clone()), s.probabilities))
            .expect("a cited sentence has at least one citation")
    };
    let probes: Vec<Option<(f32, f32)>> =
        cw.probes.iter().map(|pr| Some((book.get(pr.probe).entailment, book.get(pr.original).entailment))).collect();
    let signals = claim_signals(cw, book, &probes);
    let d: Decision = decider.decide(&ClaimFacts {
        claim: &cw.analysed,
        question,
        probs,
        evidence,
        checks: &cw.checks,
        probes: &probes,
        sentence_reading,
    });
    let status = d.status;
    // Evidence units, best first for the status.
    let key = |p: &Probs| if status == ClaimStatus::Contradicted { p.contradiction } else { p.entailment };
    let mut units: Vec<(f32, EvidenceRef)> = cw
        .units
        .iter()
        .map(|&(pos, u, pair)| {
            let src = &sources[cited[pos]];
            let unit = &src.units[u];
            let p = book.get(pair);
            (key(&p), evidence_ref(src, unit, p))
        })
        .collect();
    // The sentence a confirmed typed check found the conflict in is the evidence for it.
    if status == ClaimStatus::Contradicted {
        for (c, pr) in cw.checks.conflicts.iter().zip(&cw.probes) {
            if d.checks.iter().any(|r| r.result == CheckResult::Mismatch && r.answer_says == c.claim_says) {
                let src = &sources[cited[pr.source_pos]];
                if let Some(unit) = src.units.get(pr.unit) {
                    units.push((2.0, evidence_ref(src, unit, book.get(pr.original))));
                }
            }
        }
    }
    if units.is_empty() {
        // Single-sentence sources: the source itself is the evidence.
        for (pos, &ix) in cited.iter().enumerate() {
            let src = &sources[ix];
            if let Some(unit) = src.units.first() {
                let p = book.get(cw.indiv[pos]);
                units.push((key(&p), evidence_ref(src, unit, p)));
            }
        }
    }
    units.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut evidence: Vec<EvidenceRef> = Vec::new();
    for (s, e) in units {
        if s >= 0.5
            && evidence.len() < 3
            && !evidence.iter().any(|x| x.citation == e.citation && x.start == e.start && x.triple == e.triple)
        {
            evidence.push(e);
        }
    }
    // In a long document the evidence is what retrieval and the model found for this claim (its
    // offsets point into the document); nothing found is said, not guessed.
    let mut not_found = false;
    if let Some(found) = found_in.filter(|f| !f.is_empty()) {
        evidence = found
            .iter()
            .filter(|f| f.found)
            .flat_map(|f| f.units.iter().map(move |&(u, p)| evidence_ref(&sources[cited[f.pos]], &sources[cited[f.pos]].units[u], p)))
            .collect();
        evidence.sort_by(|a, b| {
            key(&b.probabilities).max(b.probabilities.entailment).total_cmp(&key(&a.probabilities).max(a.probabilities.entailment))
        });
        not_found = found.iter().all(|f| !f.found);
    }
    ClaimReport {
        text: cw.claim.text.clone(),
        parts: cw
            .claim
            .parts
            .iter()
            .map(|p| {
                let (start, end) = clean.original_char_range(p.start, p.end);
                Range { start, end }
            })
            .collect(),
        status,
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
        signals,
    }
}

/// The model's readings of a claim over all its planned pairs (each citation alone and each evidence
/// sentence), and over its probes: the combiner's inputs beyond the deciding reading.
fn claim_signals(cw: &ClaimPlan, book: &Scores, probes: &[Option<(f32, f32)>]) -> ClaimSignals {
    let readings: Vec<Probs> = cw.indiv.iter().copied().chain(cw.units.iter().map(|u| u.2)).chain(cw.joint).map(|p| book.get(p)).collect();
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

/// The premise sentence `w` reads from its cited source at `pos`: a document's chosen sentences, or
/// the whole source.
fn read_premise<'a>(w: &'a crate::plan::SentencePlan, pos: usize, sources: &'a [Source]) -> &'a str {
    match w.views.get(pos) {
        Some(Some(_)) => &w.premises[pos],
        _ => &sources[w.cited[pos]].premise,
    }
}

/// The units sentence `w` reads from its cited source at `pos`.
fn read_units<'a>(w: &'a crate::plan::SentencePlan, pos: usize, sources: &'a [Source]) -> impl Iterator<Item = &'a Unit> + 'a {
    let src = &sources[w.cited[pos]];
    let ids: Vec<usize> = match w.views.get(pos) {
        Some(Some(units)) => units.clone(),
        _ => (0..src.units.len()).collect(),
    };
    ids.into_iter().filter_map(move |u| src.units.get(u))
}

fn evidence_ref(src: &Source, unit: &Unit, p: Probs) -> EvidenceRef {
    EvidenceRef {
        citation: src.citation.id.clone(),
        start: unit.chars.map(|r| r.0),
        end: unit.chars.map(|r| r.1),
        triple: unit.triple.clone(),
        text: unit.text.clone(),
        probabilities: p,
    }
}

/// Clean-text ranges of the claim's words a confirmed typed check found wrong.
fn mismatched_pieces(text: &str, claim: &crate::text::claims::Claim, checks: &[CheckReport]) -> Option<Vec<Piece>> {
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

fn mark(labels: &mut [Option<(SpanLabel, usize)>], p: &Piece, label: SpanLabel, claim: usize) {
    let rank = |l: SpanLabel| match l {
        SpanLabel::Supported => 0,
        SpanLabel::Missing => 2,
        SpanLabel::Contradicted => 3,
        SpanLabel::NotVerifiable => 1,
    };
    let n = labels.len();
    for slot in labels[p.start.min(n)..p.end.min(n)].iter_mut() {
        match slot {
            Some((old, _)) if rank(*old) > rank(label) => {}
            _ => *slot = Some((label, claim)),
        }
    }
}

/// Clean-text ranges of the claim's names that the evidence lacks.
fn missing_pieces(text: &str, claim: &crate::text::claims::Claim, missing: &[String]) -> Vec<Piece> {
    let mut out = Vec::new();
    for p in &claim.parts {
        for e in entities::extract(&text[p.start..p.end]) {
            if missing.contains(&e.text) {
                out.push(Piece { start: p.start + e.start, end: p.start + e.end });
            }
        }
    }
    out
}

fn spans_of(labels: &[Option<(SpanLabel, usize)>], clean: &CleanAnswer, answer: &str, claims: &[ClaimReport]) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut i = 0;
    // Marker positions split spans so that no span covers a marker.
    let cuts: Vec<usize> = clean.markers.iter().map(|m| m.clean_at).collect();
    while i < labels.len() {
        let Some(cur) = labels[i] else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < labels.len() && labels[j] == Some(cur) && !cuts.contains(&j) {
            j += 1;
        }
        let text = clean.text.get(i..j).unwrap_or("").trim();
        if !text.is_empty() && clean.text.is_char_boundary(i) && clean.text.is_char_boundary(j) {
            let lead = clean.text[i..j].len() - clean.text[i..j].trim_start().len();
            let (s, e) = (i + lead, i + lead + text.len());
            let (os, oe) = (clean.to_original(s), clean.to_original_end(e));
            let evidence = if cur.1 < claims.len() { claims[cur.1].evidence.clone() } else { vec![] };
            out.push(Span {
                start: clean.original_char(os),
                end: clean.original_char(oe),
                label: cur.0,
                text: answer.get(os..oe).unwrap_or(text).to_string(),
                evidence,
            });
        }
        i = j;
    }
    out
}

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
