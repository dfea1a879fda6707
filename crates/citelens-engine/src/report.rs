//! The report: one versioned JSON format for the CLI, the widget, the worker and the extension.
//! Offsets are in characters (Unicode scalar values) of the original answer or citation text.

use serde::{Deserialize, Serialize};

/// Bumped when a field changes meaning or disappears.
pub const REPORT_VERSION: &str = "1.1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Supportive,
    PartiallySupportive,
    Contradictory,
    Irrelevant,
}

impl Category {
    pub const ALL: [Category; 4] = [Category::Supportive, Category::PartiallySupportive, Category::Contradictory, Category::Irrelevant];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Supportive => "supportive",
            Category::PartiallySupportive => "partially_supportive",
            Category::Contradictory => "contradictory",
            Category::Irrelevant => "irrelevant",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ComplexityType {
    Single,
    Union,
    Intersection,
    Concatenation,
}

impl ComplexityType {
    pub fn as_str(self) -> &'static str {
        match self {
            ComplexityType::Single => "single",
            ComplexityType::Union => "union",
            ComplexityType::Intersection => "intersection",
            ComplexityType::Concatenation => "concatenation",
        }
    }
}

/// What the evidence says about one claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimStatus {
    Supported,
    /// Entailed, but a name, number or date of the claim is absent from the evidence.
    PartiallySupported,
    /// The evidence is about the claim but does not state it.
    Missing,
    Contradicted,
    /// The evidence has nothing to do with the claim.
    Unrelated,
    /// Marked `[NA]`: knowledge the graph cannot cover; not counted against the answer.
    NotVerifiable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpanLabel {
    Supported,
    Missing,
    Contradicted,
    NotVerifiable,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Probs {
    pub entailment: f32,
    pub neutral: f32,
    pub contradiction: f32,
    /// The four-way head's probabilities (supportive, partially supportive, contradictory,
    /// irrelevant), when the model has one: read in the same pass as the three NLI labels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub four_way: Option<[f32; 4]>,
    /// The evidence head's probability that the premise is evidence for the claim (states, partly
    /// states or denies it), when the model has one: ranks a long document's sentences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<f32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub category: Category,
    pub confidence: f32,
    /// The evidence does not decide clearly: shown as unsure. A contradictory or supportive verdict
    /// never rests on unsure claims alone (those give an unsure partially supportive verdict).
    #[serde(default)]
    pub uncertain: bool,
    /// What decided the category.
    #[serde(default)]
    pub decided_by: DecidedBy,
}

/// What decided a verdict: a trained model or a named rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// CAQA's rule over the claims' statuses (supportive when all are supported, contradictory when
    /// one is, …), the claims decided by the rule decider.
    #[default]
    Rules,
    /// The four-way head overrode the rules' reading (`verify::combine`; only without the combiner).
    FourWayHead,
    /// The learned combiner over the engine's readings (`combiner.rs`).
    Combiner,
    /// An answer's verdict gathered from its sentences' by CAQA's rule.
    Sentences,
}

impl DecidedBy {
    pub fn as_str(self) -> &'static str {
        match self {
            DecidedBy::Rules => "rules",
            DecidedBy::FourWayHead => "four_way_head",
            DecidedBy::Combiner => "combiner",
            DecidedBy::Sentences => "sentences",
        }
    }
}

/// What a typed check found; a lower-case string in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckResult {
    /// The source states the value.
    Match,
    /// The source does not give it.
    Absent,
    /// The source gives another, confirmed by the model.
    Mismatch,
    /// Another value nearby, not clearly the same fact.
    Unconfirmed,
}

/// One typed check between a claim and its evidence (numbers, dates, polarity, names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    pub kind: crate::checks::CheckKind,
    pub result: CheckResult,
    pub answer_says: String,
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub source_says: String,
    /// For the reader: "the source says 21 July; the answer says 20 July".
    pub message: String,
    /// P(entailment) of the claim rewritten with the source's value, when the check asked the model.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub probe_entailment: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Range {
    pub start: usize,
    pub end: usize,
}

/// A piece of evidence: a sentence of a passage (character offsets into its `text`) or a triple.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvidenceRef {
    pub citation: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triple: Option<[String; 3]>,
    pub text: String,
    pub probabilities: Probs,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitationScore {
    pub citation: String,
    pub probabilities: Probs,
}

/// What the model read for one claim across every pair planned for it, beyond the deciding
/// reading: what the learned combiner reads (`combiner::features`); not part of the JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ClaimSignals {
    /// Over the claim's evidence sentences and each citation alone.
    pub entailment_max: f32,
    pub contradiction_max: f32,
    /// The four-way head over the same pairs (0 without the head).
    pub four_way_contradictory_max: f32,
    pub four_way_supportive_max: f32,
    /// Over the typed checks' probes: how much better the model reads the claim with the evidence's
    /// value than the claim itself (0 without a probe).
    pub probe_gain_max: f32,
    pub probe_entailment_max: f32,
    pub probes: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimReport {
    pub text: String,
    /// The answer's characters this claim was built from.
    pub parts: Vec<Range>,
    pub status: ClaimStatus,
    /// The deciding probabilities (the best single citation, or all cited passages read together).
    pub probabilities: Probs,
    /// `"joint"` when all cited passages read together decided, else the citation id.
    pub decided_by: String,
    pub by_citation: Vec<CitationScore>,
    /// Evidence sentences (or triples) that decided it, best first.
    pub evidence: Vec<EvidenceRef>,
    /// Share of the claim's names, numbers and dates that the cited evidence mentions.
    pub relevance: f32,
    /// Share of the claim's content words that the cited evidence contains: a fact the evidence
    /// lacks usually brings words it lacks, which the small model tends to read past.
    #[serde(default = "one")]
    pub coverage: f32,
    pub missing_entities: Vec<String>,
    /// How strongly the deciding evidence backs `status`, in [0, 1].
    #[serde(default = "one")]
    pub confidence: f32,
    /// `confidence` is below the unsure level (`Thresholds::unsure_below`).
    #[serde(default)]
    pub uncertain: bool,
    /// Typed checks of the claim's numbers, dates, polarity and names against the evidence.
    #[serde(default)]
    pub checks: Vec<CheckReport>,
    /// Cited long documents only: no sentence of any of them states or denies the claim (the
    /// claim was read against the nearest sentences, which are not listed as evidence).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_found: bool,
    #[serde(skip)]
    pub signals: ClaimSignals,
}

fn one() -> f32 {
    1.0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitationVerdict {
    pub citation: String,
    pub category: Category,
    pub confidence: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentenceReport {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub citations: Vec<String>,
    /// `None` for a sentence that cites nothing or only `[NA]`.
    pub verdict: Option<Verdict>,
    pub per_citation: Vec<CitationVerdict>,
    pub complexity: Option<ComplexityType>,
    pub claims: Vec<ClaimReport>,
    /// The sentence abstains ("The document does not say…"): whether the cited evidence really
    /// lacks the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstention: Option<crate::abstain::AbstentionCheck>,
    /// What the combiner read for this sentence (`combiner::FEATURE_NAMES`); not part of the JSON.
    #[serde(skip)]
    pub features: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub label: SpanLabel,
    pub text: String,
    pub evidence: Vec<EvidenceRef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphNode {
    pub id: String,
    /// `answer`, `citation`, `entity` (shared by citations and named in the answer) or `bridge`
    /// (shared by citations, absent from the answer: a link in a chain).
    pub kind: String,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphEdge {
    pub from: String,
    pub to: String,
    /// `supports`, `partially_supports`, `contradicts`, `cited` (citation → answer), `mentions`
    /// (citation → entity), `leads_to` (bridge → citation), `names` (entity → answer).
    pub kind: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ReasoningGraph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Complexity {
    #[serde(rename = "type")]
    pub kind: ComplexityType,
    pub graph: ReasoningGraph,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CitedFact {
    pub sentence: usize,
    pub entity: String,
    pub relation: String,
    pub value: String,
    /// The triple in the given graph it matched, if any.
    pub matched: Option<[String; 3]>,
    /// P(entailment) that the sentence implies the verbalised triple.
    pub alignment: f32,
}

/// KaLMA's citation metrics, when citations are knowledge-graph triples.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KgMetrics {
    /// Share of cited facts that exist in the given graph.
    pub correctness: f32,
    pub precision: f32,
    /// Against `minimum_knowledge`; `None` when the input gives none.
    pub recall: Option<f32>,
    /// Share of cited facts the citing sentence entails (P(entailment) >= 0.5).
    pub alignment: f32,
    pub cited_facts: Vec<CitedFact>,
    /// Sentences (indices) with `[NA]`: not verifiable from the graph, not counted as unsupported.
    pub not_verifiable_sentences: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// `unknown_marker`, `uncited_citation`, `empty_answer`, `uncited_sentence`, `empty_citation`,
    /// `truncated`.
    pub kind: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub version: String,
    pub model: String,
    pub overall: Verdict,
    pub complexity: Complexity,
    pub sentences: Vec<SentenceReport>,
    pub citations: Vec<CitationVerdict>,
    pub spans: Vec<Span>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kg: Option<KgMetrics>,
    pub findings: Vec<Finding>,
    /// Premise/claim pairs the model scored (with long documents, round one's candidates included).
    pub pairs_scored: usize,
}
