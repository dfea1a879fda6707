//! The report: one versioned JSON format for the CLI, the widget, the worker and the extension.
//! Offsets are in characters (Unicode scalar values) of the original answer or citation text.

use serde::{Deserialize, Serialize};

pub use crate::probs::Probs;

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
    /// The four-way head overrode the rules' reading (`decide::verdict::combine`; only without the combiner).
    FourWayHead,
    /// The model's sentence head alone: its reading of the whole sentence against its cited evidence.
    Model,
    /// The learned combiner over the engine's readings (`decide/combiner.rs`).
    Combiner,
    /// An answer's verdict gathered from its sentences' by CAQA's rule.
    Sentences,
}

/// What kind of value a typed check compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    Number,
    Date,
    Polarity,
    Name,
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
    pub kind: CheckKind,
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
    pub decided_by: ClaimDecider,
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
    /// The rule that gave `status` (absent in reports written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<ClaimRule>,
    #[serde(skip)]
    pub signals: ClaimSignals,
}

/// Which rule of the engine's `RuleDecider` decided a claim: each way out of its `decide`, by name, in
/// the order they are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimRule {
    /// A typed check's conflict (a value, a negation, an opposite, a name) that the model's probe
    /// confirmed: contradicted.
    CheckConfirmedConflict,
    /// A contradiction no value check confirmed, which the four-way head reading the claim alone
    /// all but certainly calls a missing fact: missing.
    HeadReadsMissingNotContradicted,
    /// The model entails the claim, or the evidence states every value of it: supported, or
    /// partially supported / missing for what the checks found absent.
    Entailed,
    /// Entailed, but two of its names stand only in passages nothing links: missing.
    UnlinkedNames,
    /// Entailed only weakly, and the four-way head reads the claim as lacking a fact: missing.
    HeadReadsMissing,
    /// The evidence names too little of the claim, and no check found it on the same topic: unrelated.
    Unrelated,
    /// A check's doubt (a value plausibly otherwise, an unconfirmed opposite) and the model's
    /// contradiction agree: contradicted.
    CheckedDoubtContradicted,
    /// The NLI head and the four-way head both contradict the claim clearly: contradicted.
    TwoHeadsContradict,
    /// The NLI head, the claim's four-way reading and the sentence's all lean contradictory: contradicted.
    ThreeReadingsContradict,
    /// The model's strong contradiction alone, nothing a check found: contradicted, shown unsure.
    ModelOnlyContradiction,
    /// None of the above: the evidence does not state it (missing).
    NotStated,
}

/// Which reading decided a claim: one citation, or all cited passages read together. A string in
/// the JSON (`"joint"` or the citation's id), as before it was a type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ClaimDecider {
    Joint,
    Citation(String),
}

impl ClaimDecider {
    pub fn as_str(&self) -> &str {
        match self {
            ClaimDecider::Joint => "joint",
            ClaimDecider::Citation(id) => id,
        }
    }
}

impl std::fmt::Display for ClaimDecider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ClaimDecider {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ClaimDecider {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(if s == "joint" { ClaimDecider::Joint } else { ClaimDecider::Citation(s) })
    }
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
    pub abstention: Option<AbstentionCheck>,
    /// What the combiner read for this sentence (`combiner::FEATURE_NAMES`); not part of the JSON.
    #[serde(skip)]
    pub features: Vec<f32>,
}

/// A sentence of a cited document, for the reader.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Quote {
    pub citation: String,
    /// Character offsets into the citation's document (or text).
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// The check of an abstaining sentence ("The document does not say…").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AbstentionCheck {
    /// The document very likely lacks the answer (no sentence carries what is asked about).
    pub unanswerable: bool,
    /// Share of the asked-about words the best sentence carries.
    pub coverage: f32,
    /// Where the answer may be (best first); empty when `unanswerable`.
    pub nearest: Vec<Quote>,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub label: SpanLabel,
    pub text: String,
    pub evidence: Vec<EvidenceRef>,
}

/// A node of the reasoning graph; a lower-case string in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Answer,
    Citation,
    /// Shared by citations and named in the answer.
    Entity,
    /// Shared by citations, absent from the answer: a link in a chain.
    Bridge,
}

/// An edge of the reasoning graph; a lower-case string in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    Supports,
    PartiallySupports,
    Contradicts,
    /// Citation → answer.
    Cited,
    /// Citation → entity.
    Mentions,
    /// Bridge → citation.
    LeadsTo,
    /// Entity → answer.
    Names,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphNode {
    pub id: String,
    pub kind: NodeKind,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphEdge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
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

/// What a finding is about; a lower-case string in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// A marker that names no citation.
    UnknownMarker,
    /// A citation no marker names.
    UncitedCitation,
    EmptyAnswer,
    /// A sentence that cites nothing: not verified.
    UncitedSentence,
    /// A citation with no text, document or triples.
    EmptyCitation,
    /// Something was cut to fit a cap, or the model refused pairs (they count as neutral).
    Truncated,
    /// A sentence abstains; what its check found.
    Abstention,
    /// The four-way head's reading, where it disagreed with the rules.
    FourWay,
    /// Pairs nobody scored (a table of answers computed elsewhere lacks them): they count as neutral.
    NotScored,
}

/// The JSON names of the enums that stand for what were strings, for text output (`Display`).
macro_rules! json_names {
    ($($ty:ident { $($variant:ident => $name:literal),+ $(,)? })+) => {$(
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The name the JSON gives it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )+};
}

json_names! {
    ComplexityType { Single => "single", Union => "union", Intersection => "intersection", Concatenation => "concatenation" }
    DecidedBy { Rules => "rules", FourWayHead => "four_way_head", Model => "model", Combiner => "combiner", Sentences => "sentences" }
    CheckKind { Number => "number", Date => "date", Polarity => "polarity", Name => "name" }
    CheckResult { Match => "match", Absent => "absent", Mismatch => "mismatch", Unconfirmed => "unconfirmed" }
    NodeKind { Answer => "answer", Citation => "citation", Entity => "entity", Bridge => "bridge" }
    EdgeKind {
        Supports => "supports",
        PartiallySupports => "partially_supports",
        Contradicts => "contradicts",
        Cited => "cited",
        Mentions => "mentions",
        LeadsTo => "leads_to",
        Names => "names",
    }
    FindingKind {
        UnknownMarker => "unknown_marker",
        UncitedCitation => "uncited_citation",
        EmptyAnswer => "empty_answer",
        UncitedSentence => "uncited_sentence",
        EmptyCitation => "empty_citation",
        Truncated => "truncated",
        Abstention => "abstention",
        FourWay => "four_way",
        NotScored => "not_scored",
    }
    ClaimRule {
        CheckConfirmedConflict => "check_confirmed_conflict",
        HeadReadsMissingNotContradicted => "head_reads_missing_not_contradicted",
        Entailed => "entailed",
        UnlinkedNames => "unlinked_names",
        HeadReadsMissing => "head_reads_missing",
        Unrelated => "unrelated",
        CheckedDoubtContradicted => "checked_doubt_contradicted",
        TwoHeadsContradict => "two_heads_contradict",
        ThreeReadingsContradict => "three_readings_contradict",
        ModelOnlyContradiction => "model_only_contradiction",
        NotStated => "not_stated",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub kind: FindingKind,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn json_name<T: Serialize>(value: T) -> String {
        serde_json::to_value(value).expect("serialises").as_str().expect("a string").to_string()
    }

    /// The text names (`Display`, `as_str`) and the JSON's are one list: a variant added to one is
    /// added to the other, or this fails.
    #[test]
    fn text_names_are_the_json_names() {
        for k in CheckKind::ALL {
            assert_eq!(k.as_str(), json_name(k));
        }
        for r in CheckResult::ALL {
            assert_eq!(r.as_str(), json_name(r));
        }
        for n in NodeKind::ALL {
            assert_eq!(n.as_str(), json_name(n));
        }
        for e in EdgeKind::ALL {
            assert_eq!(e.as_str(), json_name(e));
        }
        for f in FindingKind::ALL {
            assert_eq!(f.as_str(), json_name(f));
        }
        for r in ClaimRule::ALL {
            assert_eq!(r.as_str(), json_name(r));
        }
        for c in ComplexityType::ALL {
            assert_eq!(c.as_str(), json_name(c));
        }
        for d in DecidedBy::ALL {
            assert_eq!(d.as_str(), json_name(d));
        }
        for c in Category::ALL {
            assert_eq!(c.as_str(), json_name(c));
        }
    }

    #[test]
    fn a_claim_decider_is_the_string_it_was() {
        assert_eq!(serde_json::to_string(&ClaimDecider::Joint).unwrap(), "\"joint\"");
        assert_eq!(serde_json::to_string(&ClaimDecider::Citation("2".into())).unwrap(), "\"2\"");
        let back: ClaimDecider = serde_json::from_str("\"joint\"").unwrap();
        assert_eq!(back, ClaimDecider::Joint);
        let back: ClaimDecider = serde_json::from_str("\"Q42\"").unwrap();
        assert_eq!(back, ClaimDecider::Citation("Q42".into()));
    }

    /// The npm package's declarations (packaging/npm/citelens.d.ts) name every value these enums take
    /// in the JSON, so a variant added here is added there.
    #[test]
    fn the_npm_declarations_name_every_json_value() {
        let dts = include_str!("../../../packaging/npm/citelens.d.ts");
        let quoted = |name: &str| format!("\"{name}\"");
        let mut names: Vec<&str> = Vec::new();
        names.extend(FindingKind::ALL.iter().map(|k| k.as_str()));
        names.extend(ClaimRule::ALL.iter().map(|k| k.as_str()));
        names.extend(DecidedBy::ALL.iter().map(|k| k.as_str()));
        names.extend(ComplexityType::ALL.iter().map(|k| k.as_str()));
        for name in names {
            assert!(dts.contains(&quoted(name)), "citelens.d.ts does not name {name:?}");
        }
    }
}
