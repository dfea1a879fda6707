//! The pipeline: markers → sentences → claims → NLI pairs → claim statuses → categories, spans,
//! complexity and knowledge-graph metrics.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::complexity::{self, SentenceEvidence};
use crate::entities::{self, Mentions};
use crate::error::Result;
use crate::input::{Caps, Citation, Input};
use crate::kg;
use crate::markers::{self, CleanAnswer, MarkerKind};
use crate::question;
use crate::report::*;
use crate::scorer::{PairBook, Scorer};
use crate::segment::{self, Claim, Piece};

/// Decision thresholds on the calibrated probabilities. Defaults come from dev data (see README).
/// `require_entities` off still reports the names an entailed claim's evidence lacks
/// (`missing_entities`), without downgrading the claim.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Thresholds {
    /// P(entailment) at or above which a claim is supported.
    pub entailment: f32,
    /// P(contradiction) at or above which a relevant claim is contradicted.
    pub contradiction: f32,
    /// Share of a claim's names the evidence must mention for it to bear on the claim at all.
    pub relevance: f32,
    /// Downgrade an entailed claim whose names, numbers or dates the evidence lacks.
    pub require_entities: bool,
    /// Downgrade an entailed claim about a name the question asks about and the evidence never
    /// names (CAQA: the evidence must be about the question's subject). No effect without a question.
    #[serde(default = "yes")]
    pub require_question_subject: bool,
    /// A claim is supported when P(entailment) × coverage^`coverage_power` reaches `entailment`
    /// (coverage: the share of its content words the evidence contains). 0 ignores coverage.
    #[serde(default)]
    pub coverage_power: f32,
}

fn yes() -> bool {
    true
}

impl Default for Thresholds {
    fn default() -> Self {
        // Chosen with `citelens bench --tune` on WiCE claim dev (oracle chunks), binary F1:
        // requiring every name to appear cost 12 points there (43.33 vs 55.02), so it is off.
        // Weighing P(entailment) by word coverage raised it: power 1 at 0.32 gives 57.41, power 2
        // at 0.18 gives 57.80, none 55.02. Power 2 cost AttributionBench dev (first 500) two points
        // of macro-F1 (65.58, against 67.65 without coverage); power 1 raised it (68.18), so power 1.
        // The question rules (`question.rs`) leave WiCE, which has no questions, unchanged.
        Thresholds { entailment: 0.32, contradiction: 0.5, relevance: 0.4, require_entities: false, require_question_subject: true, coverage_power: 1.0 }
    }
}

pub struct Engine<S: Scorer> {
    pub scorer: S,
    pub thresholds: Thresholds,
    pub caps: Caps,
}

/// One source as the model reads it.
struct Source<'a> {
    citation: &'a Citation,
    /// Premise text (passage, or triples as sentences).
    premise: String,
    /// Evidence units: (byte range into `citation.text`, or a triple) and their text.
    units: Vec<Unit>,
}

#[derive(Clone)]
struct Unit {
    range: Option<(usize, usize)>,
    triple: Option<[String; 3]>,
    text: String,
}

struct ClaimWork {
    claim: Claim,
    /// Pair index per cited source, in the sentence's citation order.
    indiv: Vec<usize>,
    joint: Option<usize>,
    /// (source position, unit index, pair index) for evidence units.
    units: Vec<(usize, usize, usize)>,
    /// The claim read without what it copied from the question: (source position, or `None` for
    /// the joint reading, pair index).
    restated: Vec<(Option<usize>, usize)>,
}

struct SentenceWork {
    piece: Piece,
    cited: Vec<usize>,
    na: Vec<Piece>,
    graph_facts: Vec<(usize, String, String, String)>,
    claims: Vec<ClaimWork>,
    alignment: Vec<usize>,
}

const UNITS_PER_SOURCE: usize = 3;
/// About one 128-token window of English text.
const JOINT_MAX_BYTES: usize = 600;

impl<S: Scorer> Engine<S> {
    pub fn new(scorer: S) -> Self {
        Engine { scorer, thresholds: Thresholds::default(), caps: Caps::default() }
    }

    /// The same thresholds and caps over another scorer (memoising, recording or table scorers).
    pub(crate) fn with_scorer<T: Scorer>(&self, scorer: T) -> Engine<T> {
        Engine { scorer, thresholds: self.thresholds, caps: self.caps }
    }

    pub fn verify(&self, input: &Input) -> Result<Report> {
        input.check(&self.caps)?;
        let mut findings = Vec::new();
        let ids: Vec<&str> = input.citations.iter().map(|c| c.id.as_str()).collect();
        let clean = markers::strip(&input.answer, &ids);
        let question = input.question.clone().unwrap_or_default();
        if clean.text.trim().is_empty() {
            findings.push(Finding { kind: "empty_answer".into(), message: "the answer has no text to verify".into() });
        }
        let sources: Vec<Source> = input.citations.iter().map(source_of).collect();
        for s in &sources {
            if s.premise.trim().is_empty() {
                findings.push(Finding {
                    kind: "empty_citation".into(),
                    message: format!("citation {:?} has neither text nor triples", s.citation.id),
                });
            }
        }
        let by_id: HashMap<&str, usize> = input.citations.iter().enumerate().map(|(i, c)| (c.id.as_str(), i)).collect();
        let entity_of = |e: &str| {
            by_id.get(e).copied().or_else(|| input.citations.iter().position(|c| c.entity.as_deref() == Some(e)))
        };

        // Sentences and the markers in them.
        let pieces = segment::sentences(&clean.text);
        let mut works: Vec<SentenceWork> = pieces
            .iter()
            .map(|p| SentenceWork { piece: p.clone(), cited: vec![], na: vec![], graph_facts: vec![], claims: vec![], alignment: vec![] })
            .collect();
        let mut used = vec![false; input.citations.len()];
        for m in &clean.markers {
            let Some(si) = sentence_of(&pieces, m.clean_at) else { continue };
            let w = &mut works[si];
            let mut cite = |w: &mut SentenceWork, ix: usize| {
                used[ix] = true;
                if !w.cited.contains(&ix) {
                    w.cited.push(ix);
                }
            };
            match &m.kind {
                MarkerKind::Ids(list) => {
                    for id in list {
                        match by_id.get(id.as_str()) {
                            Some(&ix) => cite(w, ix),
                            None => findings.push(Finding {
                                kind: "unknown_marker".into(),
                                message: format!("marker [{id}] names no citation"),
                            }),
                        }
                    }
                }
                MarkerKind::NotAvailable => {
                    let seg = na_segment(&clean, &w.piece, m.clean_at);
                    w.na.push(seg);
                }
                MarkerKind::Graph { entity, facts } => match entity_of(entity) {
                    Some(ix) => {
                        cite(w, ix);
                        for (rel, val) in facts {
                            w.graph_facts.push((ix, entity.clone(), rel.clone(), val.clone()));
                        }
                    }
                    None => findings.push(Finding {
                        kind: "unknown_marker".into(),
                        message: format!("knowledge-graph marker names {entity}, which no citation describes"),
                    }),
                },
            }
        }
        for (i, c) in input.citations.iter().enumerate() {
            if !used[i] {
                findings.push(Finding { kind: "uncited_citation".into(), message: format!("citation {:?} is never cited", c.id) });
            }
        }

        // Ask the model.
        let mut book = PairBook::default();
        for w in works.iter_mut() {
            if w.cited.is_empty() {
                continue;
            }
            let parts = minus(&w.piece, &w.na);
            let premises: Vec<String> = w.cited.iter().map(|&ix| premise_for(&sources[ix], &w.graph_facts, ix)).collect();
            // Read together only when the passages fit one model window: longer ones are read in
            // windows anyway, which joining would only repeat.
            let joint_premise = (premises.len() > 1 && premises.iter().map(|p| p.len()).sum::<usize>() <= JOINT_MAX_BYTES)
                .then(|| join_passages(&premises));
            let cited_words = Mentions::new(&premises.join(" "));
            for claim in segment::claims_of_parts(&clean.text, &parts) {
                let indiv = premises.iter().map(|p| book.ask(p, &claim.text)).collect();
                let joint = joint_premise.as_ref().map(|p| book.ask(p, &claim.text));
                let mut restated = Vec::new();
                if let Some(plain) = question::without_question_descriptors(&claim.text, &question, &cited_words) {
                    restated.extend(premises.iter().enumerate().map(|(pos, p)| (Some(pos), book.ask(p, &plain))));
                    restated.extend(joint_premise.as_ref().map(|p| (None, book.ask(p, &plain))));
                }
                let mut units = Vec::new();
                for (pos, &ix) in w.cited.iter().enumerate() {
                    for u in best_units(&sources[ix].units, &claim.text, UNITS_PER_SOURCE) {
                        units.push((pos, u, book.ask(&sources[ix].units[u].text, &claim.text)));
                    }
                }
                w.claims.push(ClaimWork { claim, indiv, joint, units, restated });
            }
            let sentence_text = w.claims.iter().map(|c| c.claim.text.as_str()).collect::<Vec<_>>().join(" ");
            for (ix, entity, rel, val) in &w.graph_facts {
                let subject = subject_label(&input.citations[*ix], entity);
                w.alignment.push(book.ask(&sentence_text, &kg::verbalize(&subject, rel, val)));
            }
        }
        book.run(&self.scorer);
        if !book.errors.is_empty() {
            findings.push(Finding {
                kind: "truncated".into(),
                message: format!("{} pair(s) could not be scored and count as neutral: {}", book.errors.len(), book.errors[0]),
            });
        }

        // Decide.
        let t = self.thresholds;
        let mut sentence_reports = Vec::new();
        let mut graph = ReasoningGraph::default();
        let mut kinds = Vec::new();
        let mut labels: Vec<Option<(SpanLabel, usize)>> = vec![None; clean.text.len()];
        let mut all_claims: Vec<(ClaimReport, Vec<usize>)> = Vec::new();
        let mut per_citation_claims: HashMap<(usize, usize), Vec<ClaimReport>> = HashMap::new();
        let mut cited_facts = Vec::new();
        let mut not_verifiable_sentences = Vec::new();
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
            if w.cited.is_empty() {
                if w.na.is_empty() && !text.trim().is_empty() {
                    findings.push(Finding {
                        kind: "uncited_sentence".into(),
                        message: format!("sentence {si} cites nothing and is not verified"),
                    });
                }
                sentence_reports.push(SentenceReport {
                    start: char_at(&input.answer, start),
                    end: char_at(&input.answer, end),
                    text,
                    citations: citation_ids,
                    verdict: None,
                    per_citation: vec![],
                    complexity: None,
                    claims: vec![],
                });
                continue;
            }
            let evidence_text: String = w.cited.iter().map(|&ix| sources[ix].premise.as_str()).collect::<Vec<_>>().join(" ");
            let evidence_mentions = Mentions::new(&format!("{evidence_text} {}", titles(&w.cited, input)));
            let mut claims = Vec::new();
            for cw in &w.claims {
                let report = decide_claim(cw, &book, &t, &evidence_mentions, &w.cited, input, &sources, (&clean, &input.answer));
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
                    let targets = if !lacking.is_empty() {
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
                for (pos, &ix) in w.cited.iter().enumerate() {
                    let p = book.get(cw.indiv[pos]);
                    let alone = Mentions::new(&sources[ix].premise);
                    let rel = relevance(&report.text, &alone);
                    let cov = coverage(&report.text, &alone);
                    let lacks = !missing_in(&report.text, &alone).is_empty();
                    let mut status = subject_rule(status_of(p, rel, cov, &t, lacks), &report.text, &question, &alone, &t);
                    if status == ClaimStatus::Contradicted && report.status != ClaimStatus::Contradicted {
                        status = if rel >= t.relevance { ClaimStatus::Missing } else { ClaimStatus::Unrelated };
                    }
                    per_citation_claims.entry((si, pos)).or_default().push(ClaimReport {
                        status,
                        probabilities: p,
                        coverage: cov,
                        ..report.clone()
                    });
                }
                all_claims.push((report.clone(), w.cited.clone()));
                claims.push(report);
            }
            let verdict = categorize(&claims);
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
            let conjuncts: Vec<(String, String)> = w
                .claims
                .iter()
                .zip(&claims)
                .filter_map(|(cw, r)| cw.claim.conjunct.as_ref().map(|c| (clean.text[c.start..c.end].to_string(), r.decided_by.clone())))
                .collect();
            let ev = SentenceEvidence {
                citations: w.cited.iter().map(|&ix| (input.citations[ix].id.as_str(), sources[ix].premise.as_str())).collect(),
                sentence: &text,
                question: &question,
                conjuncts,
            };
            let shared = complexity::shared_entities(&ev);
            let kind = complexity::classify(&ev, &shared);
            kinds.push(kind);
            let edges: Vec<(String, &'static str)> = per_citation
                .iter()
                .map(|v| {
                    let e = match v.category {
                        Category::Supportive => "supports",
                        Category::PartiallySupportive => "partially_supports",
                        Category::Contradictory => "contradicts",
                        Category::Irrelevant => "cited",
                    };
                    (v.citation.clone(), e)
                })
                .collect();
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
                start: char_at(&input.answer, start),
                end: char_at(&input.answer, end),
                text,
                citations: citation_ids,
                verdict,
                per_citation,
                complexity: Some(kind),
                claims,
            });
        }

        // Overall.
        let claim_reports: Vec<ClaimReport> = all_claims.iter().map(|(c, _)| c.clone()).collect();
        let overall = categorize(&claim_reports).unwrap_or(Verdict { category: Category::Irrelevant, confidence: 0.0 });
        let distinct: std::collections::HashSet<usize> = works.iter().flat_map(|w| w.cited.iter().copied()).collect();
        let overall_kind = [ComplexityType::Concatenation, ComplexityType::Intersection, ComplexityType::Union]
            .into_iter()
            .find(|k| kinds.contains(k))
            .unwrap_or(if distinct.len() > 1 { ComplexityType::Union } else { ComplexityType::Single });
        let citations = input
            .citations
            .iter()
            .enumerate()
            .filter(|(i, _)| used[*i])
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
        let spans = spans_of(&labels, &clean, &input.answer, &claim_reports);
        let kg = (!cited_facts.is_empty() || input.citations.iter().any(|c| c.triples.is_some()))
            .then(|| kg_metrics(cited_facts, not_verifiable_sentences, input));
        Ok(Report {
            version: REPORT_VERSION.into(),
            model: self.scorer.name(),
            overall,
            complexity: Complexity { kind: overall_kind, graph },
            sentences: sentence_reports,
            citations,
            spans,
            kg,
            findings,
            pairs_scored: book.len(),
        })
    }
}

fn source_of(c: &Citation) -> Source<'_> {
    if let Some(text) = c.text.as_deref().filter(|t| !t.trim().is_empty()) {
        let units = segment::sentences(text)
            .into_iter()
            .map(|p| Unit { range: Some((p.start, p.end)), triple: None, text: text[p.start..p.end].to_string() })
            .collect();
        let premise = match c.title.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(title) if !text.starts_with(title) => format!("{title}. {text}"),
            _ => text.to_string(),
        };
        return Source { citation: c, premise, units };
    }
    let units: Vec<Unit> = c
        .triples
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|t| Unit { range: None, triple: Some(t.clone()), text: kg::verbalize(&t[0], &t[1], &t[2]) })
        .collect();
    let premise = units.iter().map(|u| u.text.as_str()).collect::<Vec<_>>().join(" ");
    Source { citation: c, premise, units }
}

/// The premise for a cited source: for knowledge-graph markers, the facts the sentence cites
/// (those that exist in the graph); otherwise the whole source.
fn premise_for(source: &Source, facts: &[(usize, String, String, String)], ix: usize) -> String {
    let mine: Vec<&(usize, String, String, String)> = facts.iter().filter(|f| f.0 == ix).collect();
    let triples = source.citation.triples.as_deref().unwrap_or(&[]);
    if mine.is_empty() || triples.is_empty() {
        return source.premise.clone();
    }
    let found: Vec<String> =
        mine.iter().filter_map(|(_, _, r, v)| kg::find(triples, r, v)).map(|t| kg::verbalize(&t[0], &t[1], &t[2])).collect();
    if found.is_empty() {
        source.premise.clone()
    } else {
        found.join(" ")
    }
}

/// Cited passages read together, each ending as a sentence (snippets are often cut mid-sentence,
/// and without a full stop the model reads two passages as one run-on sentence).
fn join_passages(premises: &[String]) -> String {
    let mut out = String::new();
    for p in premises {
        let p = p.trim();
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(p.trim_end_matches(','));
        if !p.ends_with(['.', '!', '?', '"', '\'']) {
            out.push('.');
        }
    }
    out
}

fn subject_label(c: &Citation, entity: &str) -> String {
    c.triples
        .as_ref()
        .and_then(|t| t.first())
        .map(|t| t[0].clone())
        .or_else(|| c.entity.clone())
        .unwrap_or_else(|| entity.to_string())
}

fn titles(cited: &[usize], input: &Input) -> String {
    cited.iter().filter_map(|&ix| input.citations[ix].title.clone()).collect::<Vec<_>>().join(" ")
}

fn sentence_of(pieces: &[Piece], at: usize) -> Option<usize> {
    // A marker belongs to the sentence it ends or sits in.
    pieces.iter().position(|p| at > p.start && at <= p.end).or_else(|| pieces.iter().rposition(|p| p.start <= at))
}

/// What `[NA]` at `at` marks: the clause just before it, from the nearest preposition, relative
/// pronoun or comma (the last one whose clause names something), e.g. "on July 8, 1596".
fn na_segment(clean: &CleanAnswer, sentence: &Piece, at: usize) -> Piece {
    let text = &clean.text[sentence.start..at.min(sentence.end)];
    const OPENERS: &[&str] = &[" on ", " in ", " at ", " from ", " born ", " who ", " which ", " since ", " during ", " with "];
    let mut best = 0;
    for (i, _) in text.char_indices() {
        if OPENERS.iter().any(|o| text[i..].starts_with(o)) && !entities::extract(&text[i..]).is_empty() {
            best = i + 1;
        }
    }
    Piece { start: sentence.start + best, end: sentence.start + text.len() }
}

/// `piece` less the given sub-ranges.
fn minus(piece: &Piece, holes: &[Piece]) -> Vec<Piece> {
    let mut out = vec![piece.clone()];
    for h in holes {
        out = out
            .into_iter()
            .flat_map(|p| {
                if h.end <= p.start || h.start >= p.end {
                    return vec![p];
                }
                vec![Piece { start: p.start, end: h.start.max(p.start) }, Piece { start: h.end.min(p.end), end: p.end }]
            })
            .filter(|p| p.end > p.start)
            .collect();
    }
    out
}

/// Indices of the evidence units that share the most words with the claim.
fn best_units(units: &[Unit], claim: &str, k: usize) -> Vec<usize> {
    if units.len() <= 1 {
        return Vec::new(); // the unit is the whole source, already scored
    }
    let words: std::collections::HashSet<String> = content_words(claim).into_iter().collect();
    let mut scored: Vec<(usize, usize)> = units
        .iter()
        .enumerate()
        .map(|(i, u)| (content_words(&u.text).iter().filter(|w| words.contains(*w)).count(), i))
        .filter(|(n, _)| *n > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(k).map(|(_, i)| i).collect()
}

const STOPWORDS: &[&str] = &[
    "the", "and", "for", "was", "were", "that", "this", "with", "from", "which", "who", "are", "has", "had", "have",
    "its", "his", "her", "their", "been", "also", "into", "than", "then", "they", "there", "what", "when", "where",
    "about", "after", "before", "such", "other", "some", "more", "most", "called",
];

fn content_words(text: &str) -> Vec<String> {
    entities::norm_words(text).into_iter().filter(|w| w.len() > 2 && !STOPWORDS.contains(&w.as_str())).collect()
}

/// Share of the claim's names (or, without names, content words) that the evidence mentions.
fn relevance(claim: &str, evidence: &Mentions) -> f32 {
    let ents = entities::extract(claim);
    if !ents.is_empty() {
        return ents.iter().filter(|e| evidence.mentions(&e.text)).count() as f32 / ents.len() as f32;
    }
    if content_words(claim).is_empty() {
        return 0.0;
    }
    coverage(claim, evidence)
}

fn missing_in(claim: &str, evidence: &Mentions) -> Vec<String> {
    entities::extract(claim).into_iter().filter(|e| !evidence.mentions(&e.text)).map(|e| e.text).collect()
}

/// An entailed claim about a question's subject that the evidence never names is only partly
/// supported: the evidence may be about something else.
fn subject_rule(status: ClaimStatus, claim: &str, question: &str, evidence: &Mentions, t: &Thresholds) -> ClaimStatus {
    if t.require_question_subject && status == ClaimStatus::Supported && !question::missing_subjects(claim, question, evidence).is_empty() {
        ClaimStatus::PartiallySupported
    } else {
        status
    }
}

/// Share of the claim's content words that the evidence contains (1 for a claim without any).
fn coverage(claim: &str, evidence: &Mentions) -> f32 {
    let words = content_words(claim);
    if words.is_empty() {
        return 1.0;
    }
    words.iter().filter(|w| evidence.contains_word(w)).count() as f32 / words.len() as f32
}

fn status_of(p: Probs, relevance: f32, coverage: f32, t: &Thresholds, lacks_entities: bool) -> ClaimStatus {
    let support = if t.coverage_power > 0.0 { p.entailment * coverage.powf(t.coverage_power) } else { p.entailment };
    if support >= t.entailment && p.entailment >= p.contradiction {
        if t.require_entities && lacks_entities {
            ClaimStatus::PartiallySupported
        } else {
            ClaimStatus::Supported
        }
    } else if relevance < t.relevance {
        ClaimStatus::Unrelated
    } else if p.contradiction >= t.contradiction {
        ClaimStatus::Contradicted
    } else {
        ClaimStatus::Missing
    }
}

#[allow(clippy::too_many_arguments)]
fn decide_claim(
    cw: &ClaimWork,
    book: &PairBook,
    t: &Thresholds,
    evidence: &Mentions,
    cited: &[usize],
    input: &Input,
    sources: &[Source],
    (clean, answer): (&CleanAnswer, &str),
) -> ClaimReport {
    let by_citation: Vec<CitationScore> = cw
        .indiv
        .iter()
        .zip(cited)
        .map(|(&pair, &ix)| CitationScore { citation: input.citations[ix].id.clone(), probabilities: book.get(pair) })
        .collect();
    // The best-entailing reading: one citation alone (a union's independent fact) or all together.
    let mut candidates: Vec<(String, Probs)> =
        by_citation.iter().map(|s| (s.citation.clone(), s.probabilities)).collect();
    // A single evidence sentence can entail what a long passage dilutes.
    for &(pos, _, pair) in &cw.units {
        candidates.push((input.citations[cited[pos]].id.clone(), book.get(pair)));
    }
    if let Some(j) = cw.joint {
        candidates.push(("joint".into(), book.get(j)));
    }
    for &(pos, pair) in &cw.restated {
        let by = pos.map_or_else(|| "joint".to_string(), |pos| input.citations[cited[pos]].id.clone());
        candidates.push((by, book.get(pair)));
    }
    let best = candidates
        .iter()
        .cloned()
        .fold(None::<(String, Probs)>, |b, c| match b {
            Some(b) if b.1.entailment >= c.1.entailment => Some(b),
            _ => Some(c),
        })
        .expect("a cited sentence has at least one citation");
    // Without entailment, several citations are judged together: one alone "contradicting" a fact
    // another states is not a contradiction.
    let (decided_by, probs) = if best.1.entailment >= t.entailment {
        best
    } else if let Some(j) = cw.joint {
        ("joint".into(), book.get(j))
    } else {
        // Passages too long to read together: the least contradicting one speaks for them.
        by_citation
            .iter()
            .min_by(|a, b| a.probabilities.contradiction.total_cmp(&b.probabilities.contradiction))
            .map(|s| (s.citation.clone(), s.probabilities))
            .expect("a cited sentence has at least one citation")
    };
    let rel = relevance(&cw.claim.text, evidence);
    let missing = missing_in(&cw.claim.text, evidence);
    let question = input.question.as_deref().unwrap_or("");
    let cov = coverage(&cw.claim.text, evidence);
    let status = subject_rule(status_of(probs, rel, cov, t, !missing.is_empty()), &cw.claim.text, question, evidence, t);
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
    let evidence: Vec<EvidenceRef> = units.into_iter().filter(|(s, _)| *s >= 0.5).map(|(_, e)| e).take(3).collect();
    ClaimReport {
        text: cw.claim.text.clone(),
        parts: cw
            .claim
            .parts
            .iter()
            .map(|p| Range { start: char_at(answer, clean.to_original(p.start)), end: char_at(answer, clean.to_original_end(p.end)) })
            .collect(),
        status,
        probabilities: probs,
        decided_by,
        by_citation,
        evidence,
        relevance: rel,
        coverage: cov,
        missing_entities: missing,
    }
}

fn evidence_ref(src: &Source, unit: &Unit, p: Probs) -> EvidenceRef {
    let text = src.citation.text.as_deref().unwrap_or("");
    EvidenceRef {
        citation: src.citation.id.clone(),
        start: unit.range.map(|r| char_at(text, r.0)),
        end: unit.range.map(|r| char_at(text, r.1)),
        triple: unit.triple.clone(),
        text: unit.text.clone(),
        probabilities: p,
    }
}

/// CAQA's rule: supportive when every claim is supported; contradictory when any is contradicted;
/// partially supportive when the evidence bears on some; irrelevant when it bears on none.
pub fn categorize(claims: &[ClaimReport]) -> Option<Verdict> {
    let counted: Vec<&ClaimReport> = claims.iter().filter(|c| c.status != ClaimStatus::NotVerifiable).collect();
    if counted.is_empty() {
        return None;
    }
    let mean = |f: &dyn Fn(&ClaimReport) -> f32| counted.iter().map(|c| f(c)).sum::<f32>() / counted.len() as f32;
    let v = if counted.iter().any(|c| c.status == ClaimStatus::Contradicted) {
        let conf = counted.iter().filter(|c| c.status == ClaimStatus::Contradicted).map(|c| c.probabilities.contradiction).fold(0.0, f32::max);
        Verdict { category: Category::Contradictory, confidence: conf }
    } else if counted.iter().all(|c| c.status == ClaimStatus::Supported) {
        let conf = counted.iter().map(|c| c.probabilities.entailment).fold(1.0, f32::min);
        Verdict { category: Category::Supportive, confidence: conf }
    } else if counted.iter().any(|c| matches!(c.status, ClaimStatus::Supported | ClaimStatus::PartiallySupported | ClaimStatus::Missing)) {
        Verdict {
            category: Category::PartiallySupportive,
            confidence: mean(&|c| match c.status {
                ClaimStatus::Supported | ClaimStatus::PartiallySupported => c.probabilities.entailment,
                ClaimStatus::Unrelated => 1.0 - c.relevance,
                _ => c.probabilities.neutral.max(c.relevance),
            }),
        }
    } else {
        Verdict { category: Category::Irrelevant, confidence: mean(&|c| 1.0 - c.relevance) }
    };
    Some(v)
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
fn missing_pieces(text: &str, claim: &Claim, missing: &[String]) -> Vec<Piece> {
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
                start: char_at(answer, os),
                end: char_at(answer, oe),
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
            .filter(|t| facts.iter().any(|f| f.matched.as_ref().is_some_and(|m| m == *t) || (kg::relation_matches(&f.relation, &t[1]) && kg::value_matches(&f.value, &t[2]))))
            .count();
        hit as f32 / need.len() as f32
    });
    KgMetrics {
        correctness: if facts.is_empty() { 0.0 } else { correct / n },
        // Precision: cited facts that are correct and the sentence states (KaLMA counts a citation
        // precise when it is in the graph and supports its sentence).
        precision: if facts.is_empty() { 0.0 } else { facts.iter().filter(|f| f.matched.is_some() && f.alignment >= 0.5).count() as f32 / n },
        recall,
        alignment: if facts.is_empty() { 0.0 } else { aligned / n },
        cited_facts: facts,
        not_verifiable_sentences,
    }
}

/// Character offset of a byte offset.
fn char_at(text: &str, byte: usize) -> usize {
    let b = byte.min(text.len());
    text.char_indices().take_while(|(i, _)| *i < b).count()
}

