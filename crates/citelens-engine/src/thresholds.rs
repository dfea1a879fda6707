//! Every number the decision rules use, in one place, with where it came from.

use serde::{Deserialize, Serialize};

/// Decision thresholds on the calibrated probabilities. Defaults come from dev data (see docs/HISTORY.md).
/// `require_entities` off still reports the names an entailed claim's evidence lacks
/// (`missing_entities`), without downgrading the claim.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// P(entailment) at or above which a claim is supported.
    pub entailment: f32,
    /// P(contradiction) at or above which a relevant claim is contradicted, when a typed check
    /// found something wrong with it (a value the evidence lacks or gives otherwise).
    pub contradiction: f32,
    /// P(contradiction) the model alone must reach to contradict a claim whose every value the
    /// evidence states: the small model's high contradiction scores on paraphrases are its most
    /// harmful error (a supported sentence struck through).
    #[serde(default = "strong_contradiction")]
    pub strong_contradiction: f32,
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
    /// A typed check's probe (the claim with the evidence's value put in) confirms a conflict when
    /// the model entails it at least this much …
    #[serde(default = "probe_entailment")]
    pub probe_entailment: f32,
    /// … and by this much more than the claim itself.
    #[serde(default = "probe_margin")]
    pub probe_margin: f32,
    /// A claim whose values all match its evidence is supported at this lower P(entailment), when
    /// its coverage is at least `values_coverage` and the model does not lean to contradiction.
    #[serde(default = "values_entailment")]
    pub values_entailment: f32,
    #[serde(default = "values_coverage")]
    pub values_coverage: f32,
    /// P(entailment) at which an unconfirmed opposite or swapped name no longer blocks support, and
    /// at which a claim is supported whatever its word coverage (abstractive paraphrase: on
    /// AttributionBench dev, answers entailed at ≥ 0.8 with under 0.4 coverage are attributable 22
    /// times in 27).
    #[serde(default = "clear_entailment")]
    pub clear_entailment: f32,
    /// Below this confidence a verdict is shown as unsure (`uncertain: true`). Chosen on
    /// AttributionBench dev (first 500): answers whose least confident claim is below 0.6 are right
    /// 47.1 % of the time (n 170, a coin toss for two classes), those at or above it 81.6 % (n 315);
    /// at 0.5 the split is 42.1 % / 80.6 %, at 0.7 51.6 % / 84.0 %.
    #[serde(default = "unsure_below")]
    pub unsure_below: f32,
    /// The four-way head's probability for its category at or above which it decides a sentence
    /// against the rules (see `verdict::combine`); above 1 the head is never used.
    #[serde(default = "four_way_confident")]
    pub four_way_confident: f32,
    /// The stricter bars for a head reading of supportive or contradictory: a wrong one is a flip
    /// (the worst error a verdict can make), a wrong partial or irrelevant is not.
    #[serde(default = "four_way_supportive_confident")]
    pub four_way_supportive_confident: f32,
    #[serde(default = "four_way_contradictory_confident")]
    pub four_way_contradictory_confident: f32,
    /// The bar for the head to make the rules' contradiction partially supportive: it stands unless
    /// the head is all but certain.
    #[serde(default = "four_way_contradictory_to_partial")]
    pub four_way_contradictory_to_partial: f32,
    /// The four-way head reading one claim against its evidence (the claim's own pair, not the
    /// whole sentence): a claim the NLI head entails only weakly (below `clear_entailment`, no value
    /// of it matched) that the head reads as partially supportive or irrelevant at this bar is
    /// missing, not supported. Above 1: never.
    #[serde(default = "claim_head_missing")]
    pub claim_head_missing: f32,
    /// The same, for the head's reading of anything but supportive (a contradiction included) at
    /// this bar: when the two heads disagree this way the claim is not supported, and the NLI head's
    /// weak entailment is no contradiction either. Above 1: never.
    #[serde(default = "claim_head_not_supportive")]
    pub claim_head_not_supportive: f32,
    /// A claim the NLI head contradicts at `claim_head_contradiction_nli` or more, with no typed check
    /// behind it, is a sure contradiction (not a model-only one) when the four-way head, reading the
    /// same claim, calls it contradictory at this bar: two readings agree. Above 1: never.
    #[serde(default = "claim_head_contradiction")]
    pub claim_head_contradiction: f32,
    #[serde(default = "claim_head_contradiction_nli")]
    pub claim_head_contradiction_nli: f32,
    /// A claim the NLI head contradicts at `contradiction` or more, that the four-way head reading
    /// the claim calls contradictory at this bar, in a sentence of several claims that the head
    /// reading the whole sentence calls contradictory (first, at `sentence_head_contradiction`), is
    /// a sure contradiction: three readings agree. Above 1: never.
    #[serde(default = "claim_head_leans_contradiction")]
    pub claim_head_leans_contradiction: f32,
    #[serde(default = "sentence_head_contradiction")]
    pub sentence_head_contradiction: f32,
    /// Long documents (`evidence`), with the model's evidence head: a retrieved sentence is evidence
    /// when it states the claim at this P(entailment) (above 1: never by entailment alone) …
    #[serde(default = "evidence_entailment")]
    pub evidence_entailment: f32,
    /// Without the evidence head: when none states the claim, a sentence bears on it (states part of
    /// it, or denies it) at this 1 − P(neutral).
    #[serde(default = "evidence_relevance")]
    pub evidence_relevance: f32,
    /// Evidence sentences kept per claim and document.
    #[serde(default = "evidence_max")]
    pub evidence_max: usize,
    /// With the model's evidence head: a candidate is evidence at this P(evidence).
    #[serde(default = "evidence_head")]
    pub evidence_head: f32,
    /// … and the head's best candidate is evidence at this lower P(evidence).
    #[serde(default = "evidence_floor")]
    pub evidence_floor: f32,
    /// … ranked by P(evidence) plus this weight times BM25's rank (1 for the first candidate, falling
    /// to 0 for the last).
    #[serde(default = "evidence_rank_weight")]
    pub evidence_rank_weight: f32,
    /// Found evidence is completed from the other candidates (`evidence::complete`): a candidate is
    /// added when the names and numbers it gives that the chosen sentences do not are at least this
    /// share of the claim's term weight (IDF) (above 1: never) …
    #[serde(default = "evidence_cover_gain")]
    pub evidence_cover_gain: f32,
    /// … up to this many evidence sentences per claim and document in all.
    #[serde(default = "evidence_cover_max")]
    pub evidence_cover_max: usize,
    /// … and, with the evidence head, only a candidate it rates at this P(evidence) or more.
    #[serde(default = "evidence_cover_head")]
    pub evidence_cover_head: f32,
}

fn evidence_cover_head() -> f32 {
    Thresholds::default().evidence_cover_head
}

fn evidence_cover_gain() -> f32 {
    Thresholds::default().evidence_cover_gain
}

fn evidence_cover_max() -> usize {
    Thresholds::default().evidence_cover_max
}

fn evidence_rank_weight() -> f32 {
    Thresholds::default().evidence_rank_weight
}

fn evidence_floor() -> f32 {
    Thresholds::default().evidence_floor
}

fn evidence_head() -> f32 {
    Thresholds::default().evidence_head
}

fn evidence_entailment() -> f32 {
    Thresholds::default().evidence_entailment
}
fn evidence_relevance() -> f32 {
    Thresholds::default().evidence_relevance
}
fn evidence_max() -> usize {
    Thresholds::default().evidence_max
}

fn yes() -> bool {
    true
}
fn strong_contradiction() -> f32 {
    Thresholds::default().strong_contradiction
}
fn probe_entailment() -> f32 {
    Thresholds::default().probe_entailment
}
fn probe_margin() -> f32 {
    Thresholds::default().probe_margin
}
fn values_entailment() -> f32 {
    Thresholds::default().values_entailment
}
fn values_coverage() -> f32 {
    Thresholds::default().values_coverage
}
fn clear_entailment() -> f32 {
    Thresholds::default().clear_entailment
}
fn four_way_confident() -> f32 {
    Thresholds::default().four_way_confident
}
fn four_way_supportive_confident() -> f32 {
    Thresholds::default().four_way_supportive_confident
}
fn four_way_contradictory_confident() -> f32 {
    Thresholds::default().four_way_contradictory_confident
}
fn four_way_contradictory_to_partial() -> f32 {
    Thresholds::default().four_way_contradictory_to_partial
}
fn claim_head_missing() -> f32 {
    Thresholds::default().claim_head_missing
}
fn claim_head_not_supportive() -> f32 {
    Thresholds::default().claim_head_not_supportive
}
fn claim_head_contradiction() -> f32 {
    Thresholds::default().claim_head_contradiction
}
fn claim_head_contradiction_nli() -> f32 {
    Thresholds::default().claim_head_contradiction_nli
}
fn claim_head_leans_contradiction() -> f32 {
    Thresholds::default().claim_head_leans_contradiction
}
fn sentence_head_contradiction() -> f32 {
    Thresholds::default().sentence_head_contradiction
}
fn unsure_below() -> f32 {
    Thresholds::default().unsure_below
}

// The four-way bars: chosen on the cited-answer suite (tests/fixtures/cases.jsonl) for zero flips and
// no sentence lost against the rules, then on the generated CAQA dev split (seed 7) for micro-F1:
// 0.8 / 0.97 / 0.95 keep the suite at the rules' 82.87 % with 0 flips and give 86.50 % on dev; a
// supportive bar of 0.9 flips a suite sentence, a contradictory one of 0.9 loses one (docs/HISTORY.md).
// Seventh session: once a check that doubts support (an opposite or a value the model could not
// weigh: `TypedCheck::Doubted`) keeps the head from making a sentence supportive, the flip is gone and
// the supportive bar comes down to 0.85: suite 83.98 % with 0 flips, CAQA dev 87.63 (was 85.63),
// AttributionBench binary F1 79.25 (77.22), ExpertQA 69.08 (65.62), WiCE binary 57.14 (57.00). 0.8
// gives dev 88.00 and loses WiCE's 3-way macro-F1 a little (49.56 against 49.71); 0.85 is the
// more cautious of two near-equal bars.
// Eighth session, after the three-readings rule, the clause fixes and the rival-name guard: supportive
// 0.85 -> 0.8 with contradictory 0.95 -> 0.92 give CAQA dev 89.63 -> 90.75, the suite 152 -> 153/181
// with 0 flips ("It hangs in the Louvre in Paris." becomes supportive), AttributionBench binary F1
// 79.25 -> 79.75, ExpertQA 69.08 -> 69.59, WiCE 3-way macro-F1 51.60 -> 51.45. Contradictory 0.9 gives
// dev 91.13 but makes the suite's "She died in 1852 at the age of 36." (partial) contradictory.
/// Default for `four_way_confident`.
pub const FOUR_WAY_CONFIDENT: f32 = 0.8;
/// Default for `four_way_supportive_confident`.
pub const FOUR_WAY_SUPPORTIVE_CONFIDENT: f32 = 0.8;
/// Default for `four_way_contradictory_confident`.
pub const FOUR_WAY_CONTRADICTORY_CONFIDENT: f32 = 0.92;
// A contradiction made partial: chosen the same way (suite first, then the generated dev split, seed
// 7, after the generator stopped restating deleted facts): 0.99 keeps the suite at 82.87 % with 0
// flips; 0.95 loses a sentence ("He served two terms, until 2004.", a contradiction the head read
// partial at 0.98). Making a supportive reading partial was measured too and left out: at any bar up
// to 0.99 it cost WiCE dev supported claims (binary F1 56.04 -> 55.34).
// Seventh session: a number or date check the model could not confirm now keeps the contradiction
// (`decide`: `doubted_value`; `verdict::combine`: `TypedCheck::Doubted`), which is what the Mandela
// sentence needed; 0.97 then keeps the suite at 83.98 % with 0 flips and gives CAQA dev 89.00 (0.99:
// 88.38), WiCE 3-way macro-F1 50.83 (49.71); 0.95 gives dev 89.13, the same elsewhere.
/// Default for `four_way_contradictory_to_partial`.
pub const FOUR_WAY_CONTRADICTORY_TO_PARTIAL: f32 = 0.97;

// The claim-level head bars (issue 12, fifth session): chosen on the generated dev split (seed 7)
// with the cited-answer suite, WiCE dev, AttributionBench dev and ExpertQA lfqa_domain_test held to
// no flips and no loss (docs/HISTORY.md, "Claim-level head readings").
/// Default for `claim_head_missing`.
pub const CLAIM_HEAD_MISSING: f32 = 0.9;
/// Default for `claim_head_not_supportive` (sixth session): chosen on the generated dev split
/// (85.25 → 85.63 micro-F1 against 1.01, off; 0.8 gives the same, 0.9 and 0.95 nothing), then checked
/// on the suite (unchanged, no flips), WiCE dev (binary F1 56.73 → 57.00), AttributionBench dev
/// (macro-F1 70.05 → 70.11) and ExpertQA lfqa_domain_test (55.67 → 56.25); at 0.8 WiCE fell to 56.31.
pub const CLAIM_HEAD_NOT_SUPPORTIVE: f32 = 0.85;
/// Default for `claim_head_contradiction`.
pub const CLAIM_HEAD_CONTRADICTION: f32 = 0.95;
/// Default for `claim_head_contradiction_nli`.
pub const CLAIM_HEAD_CONTRADICTION_NLI: f32 = 0.8;
// Three readings (eighth session): chosen on the generated dev split (seed 7) with the suite, WiCE
// dev, AttributionBench dev and ExpertQA held unchanged (they were, at every pair of bars tried).
// Claim head 0.9 with sentence head 0.7: dev 89.00 -> 89.25, test 89.38 -> 90.50. A claim-head bar of
// 0.8 gives dev 89.38 (0.95: 89.25, test 89.88); the sentence bar gives the same at 0.5 and 0.7, and
// less at 0.8. 0.9 is the more cautious of two near-equal claim-head bars.
/// Default for `claim_head_leans_contradiction`.
pub const CLAIM_HEAD_LEANS_CONTRADICTION: f32 = 0.9;
/// Default for `sentence_head_contradiction`.
pub const SENTENCE_HEAD_CONTRADICTION: f32 = 0.7;

/// A name check's probe (the claim with the evidence's name in its place) entailed within this much
/// of the claim itself: the model reads the two names alike, so it cannot support the claim's.
/// Eighth session, on the generated splits: every supported claim whose probe came this close had a
/// contradictory gold ("East Orange is in the Eastern Time Zone" against the Central Time Zone, both
/// at 0.86); probes further behind (0.79 against 0.88) were right to leave the support.
pub const INDISTINCT_NAME_MARGIN: f32 = 0.05;

// The evidence bars: chosen with `citelens bench --sweep-evidence` for the best mean evidence F1 of
// Evidence Inference validation and WiCE dev's first half (175 claims): max 2, head 0.6, floor 0.1,
// BM25 rank weight 0.5, entailment off give 66.13 and 50.34 (without the rank prior: 63.42 on
// Evidence Inference at its best, 45.16 on WiCE). The floor leaves room for `not_found`.
/// Default for `evidence_entailment` (with the evidence head, entailment adds nothing: above 1, off).
pub const EVIDENCE_ENTAILMENT: f32 = 1.01;
/// Default for `evidence_relevance`.
pub const EVIDENCE_RELEVANCE: f32 = 0.9;
/// Default for `evidence_max`.
pub const EVIDENCE_MAX: usize = 2;
/// Default for `evidence_head`.
pub const EVIDENCE_HEAD: f32 = 0.6;
/// Default for `evidence_floor`.
pub const EVIDENCE_FLOOR: f32 = 0.1;
/// Default for `evidence_rank_weight`.
pub const EVIDENCE_RANK_WEIGHT: f32 = 0.5;
// Coverage: WiCE claims are compound ("married in December 2012, and their son, Bear, was born the
// next year") and their gold evidence is a sentence per part. Chosen on the same two sets as the
// bars above (docs/HISTORY.md, "Long documents"): gain 0.05, at most 3, head 0.3 give Evidence Inference
// validation 65.91 and WiCE dev 52.13 (without: 66.05 and 48.66); a head bar of 0.2 gave 64.68 and
// 53.27, none 55.35 and 54.99; counting every word of the claim, not only names and numbers,
// cost Evidence Inference more (head 0.3: 63.38).
/// Default for `evidence_cover_gain`.
pub const EVIDENCE_COVER_GAIN: f32 = 0.05;
/// Default for `evidence_cover_max`.
pub const EVIDENCE_COVER_MAX: usize = 3;
/// Default for `evidence_cover_head`.
pub const EVIDENCE_COVER_HEAD: f32 = 0.3;

impl Default for Thresholds {
    fn default() -> Self {
        // `entailment`, `coverage_power`, `relevance`: chosen with `citelens bench --tune` on WiCE
        // claim dev (oracle chunks), binary F1 (power 1 at 0.32 gives 57.41, none 55.02), and kept
        // where AttributionBench dev (first 500) did not fall (68.18 macro-F1).
        // `strong_contradiction`, `probe_*`, `values_*` and `unsure_below`: chosen on the cited-answer
        // suite (tests/fixtures/cases.jsonl) for zero flips first, then sentence accuracy, and checked
        // on WiCE dev (see docs/BENCHMARKS.md).
        Thresholds {
            entailment: 0.32,
            contradiction: 0.5,
            strong_contradiction: 0.9,
            relevance: 0.4,
            require_entities: false,
            require_question_subject: true,
            coverage_power: 1.0,
            probe_entailment: 0.5,
            probe_margin: 0.25,
            values_entailment: 0.1,
            values_coverage: 0.8,
            clear_entailment: 0.85,
            unsure_below: 0.6,
            four_way_confident: FOUR_WAY_CONFIDENT,
            four_way_supportive_confident: FOUR_WAY_SUPPORTIVE_CONFIDENT,
            four_way_contradictory_confident: FOUR_WAY_CONTRADICTORY_CONFIDENT,
            four_way_contradictory_to_partial: FOUR_WAY_CONTRADICTORY_TO_PARTIAL,
            claim_head_missing: CLAIM_HEAD_MISSING,
            claim_head_not_supportive: CLAIM_HEAD_NOT_SUPPORTIVE,
            claim_head_contradiction: CLAIM_HEAD_CONTRADICTION,
            claim_head_contradiction_nli: CLAIM_HEAD_CONTRADICTION_NLI,
            claim_head_leans_contradiction: CLAIM_HEAD_LEANS_CONTRADICTION,
            sentence_head_contradiction: SENTENCE_HEAD_CONTRADICTION,
            evidence_entailment: EVIDENCE_ENTAILMENT,
            evidence_relevance: EVIDENCE_RELEVANCE,
            evidence_max: EVIDENCE_MAX,
            evidence_head: EVIDENCE_HEAD,
            evidence_floor: EVIDENCE_FLOOR,
            evidence_rank_weight: EVIDENCE_RANK_WEIGHT,
            evidence_cover_gain: EVIDENCE_COVER_GAIN,
            evidence_cover_max: EVIDENCE_COVER_MAX,
            evidence_cover_head: EVIDENCE_COVER_HEAD,
        }
    }
}

impl Thresholds {
    /// Checks that the thresholds describe a usable rule (probabilities in [0, 1], the model-only
    /// contradiction at least as strict as the checked one).
    pub fn validate(&self) -> Result<(), String> {
        let probs = [
            ("entailment", self.entailment),
            ("contradiction", self.contradiction),
            ("strong_contradiction", self.strong_contradiction),
            ("relevance", self.relevance),
            ("probe_entailment", self.probe_entailment),
            ("probe_margin", self.probe_margin),
            ("values_entailment", self.values_entailment),
            ("values_coverage", self.values_coverage),
            ("unsure_below", self.unsure_below),
            ("clear_entailment", self.clear_entailment),
            ("evidence_relevance", self.evidence_relevance),
            ("evidence_head", self.evidence_head),
            ("evidence_floor", self.evidence_floor),
            ("evidence_cover_head", self.evidence_cover_head),
            ("claim_head_contradiction_nli", self.claim_head_contradiction_nli),
        ];
        for (name, v) in probs {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("threshold {name} = {v} is not within [0, 1]"));
            }
        }
        // Above 1 the head never decides (and entailment never makes evidence), so these may exceed
        // 1; they must still be numbers.
        for (name, v) in [
            ("four_way_confident", self.four_way_confident),
            ("four_way_supportive_confident", self.four_way_supportive_confident),
            ("four_way_contradictory_confident", self.four_way_contradictory_confident),
            ("four_way_contradictory_to_partial", self.four_way_contradictory_to_partial),
            ("claim_head_missing", self.claim_head_missing),
            ("claim_head_not_supportive", self.claim_head_not_supportive),
            ("claim_head_contradiction", self.claim_head_contradiction),
            ("claim_head_leans_contradiction", self.claim_head_leans_contradiction),
            ("sentence_head_contradiction", self.sentence_head_contradiction),
            ("evidence_entailment", self.evidence_entailment),
            ("evidence_rank_weight", self.evidence_rank_weight),
            ("evidence_cover_gain", self.evidence_cover_gain),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("threshold {name} = {v} is not a non-negative number"));
            }
        }
        if self.strong_contradiction < self.contradiction {
            return Err("strong_contradiction must be at least contradiction".into());
        }
        if self.evidence_max == 0 {
            return Err("evidence_max must be at least 1".into());
        }
        if !(0.0..=4.0).contains(&self.coverage_power) {
            return Err(format!("coverage_power = {} is not within [0, 4]", self.coverage_power));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_ordered() {
        let t = Thresholds::default();
        t.validate().unwrap();
        // Support from matching values needs less of the model than support from the model alone.
        assert!(t.values_entailment < t.entailment);
        // A model-only contradiction needs more than a checked one.
        assert!(t.strong_contradiction > t.contradiction);
        assert!(t.probe_entailment >= t.entailment);
    }

    #[test]
    fn old_threshold_files_still_read_and_bad_ones_are_refused() {
        let old = r#"{"entailment":0.32,"contradiction":0.5,"relevance":0.4,"require_entities":false,"coverage_power":1.0}"#;
        let t: Thresholds = serde_json::from_str(old).unwrap();
        assert_eq!(t.probe_margin, Thresholds::default().probe_margin);
        let bad = Thresholds { entailment: 1.5, ..Thresholds::default() };
        assert!(bad.validate().unwrap_err().contains("entailment"));
        let bad = Thresholds { strong_contradiction: 0.2, ..Thresholds::default() };
        assert!(bad.validate().is_err());
    }
}
