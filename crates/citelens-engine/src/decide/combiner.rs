//! The learned combiner: a sentence's category from what the engine computed for it, decided by a
//! model trained on cited answers (`training/combiner.py`, on `citelens_synth` train) instead of
//! hand-written precedence rules.
//!
//! Its inputs are the engine's own readings, each a named feature: the four-way head on the whole
//! sentence, the rules' verdict (CAQA's rule over the claims' statuses), the NLI distributions of
//! the claims' deciding readings and of each citation alone, word coverage and relevance, and what
//! the typed checks found (confirmed or unconfirmed, values or names). Typed checks stay as features
//! and as the reader's explanation; they no longer decide alone.
//!
//! The model is multinomial logistic regression over standardised features: small enough to ship
//! inside the engine (`data/combiner.json`, read with `include_str!`) and to evaluate without a new
//! dependency, and its weights can be read. The category is the one of least expected cost under a
//! cost matrix that prices a flip (supportive for contradictory or back) above other errors; a
//! verdict whose top probability is below `unsure_below` is shown as unsure. Both were chosen on
//! data (see `training/combiner.py`) and live in the same file.

use serde::Deserialize;

use crate::plan::checks::CheckKind;
use citelens_types::report::{Category, CheckResult, ClaimReport, ClaimStatus, DecidedBy, Verdict};

/// The shipped combiner, trained by `training/combiner.py`.
const SHIPPED: &str = include_str!("../../data/combiner.json");

/// Names of the features, in the order `features` computes them; the model file lists the same.
pub const FEATURE_NAMES: [&str; 51] = [
    "four_way_supportive",
    "four_way_partially_supportive",
    "four_way_contradictory",
    "four_way_irrelevant",
    "four_way_absent",
    "rules_supportive",
    "rules_partially_supportive",
    "rules_contradictory",
    "rules_irrelevant",
    "rules_confidence",
    "rules_unsure",
    "claims_log",
    "entailment_min",
    "entailment_max",
    "entailment_mean",
    "contradiction_max",
    "contradiction_mean",
    "neutral_mean",
    "coverage_min",
    "coverage_mean",
    "relevance_min",
    "relevance_mean",
    "share_supported",
    "share_partially_supported",
    "share_missing",
    "share_contradicted",
    "share_unrelated",
    "share_unsure",
    "claim_confidence_min",
    "claim_confidence_mean",
    "checks_value_mismatch",
    "checks_name_mismatch",
    "checks_value_unconfirmed",
    "checks_name_unconfirmed",
    "checks_absent",
    "probe_entailment_max",
    "missing_names_max",
    "citation_entailment_max",
    "citation_contradiction_max",
    "claims_four_way_supportive_min",
    "claims_four_way_contradictory_max",
    "claims_four_way_irrelevant_mean",
    "claims_four_way_partial_mean",
    "citations_log",
    "readings_entailment_max_min",
    "readings_contradiction_max",
    "readings_four_way_contradictory_max",
    "readings_four_way_supportive_max_min",
    "probe_gain_max",
    "probe_any_entailment_max",
    "probes_log",
];

/// What the engine computed for one sentence, before anything decides its category.
pub struct SentenceSignals<'a> {
    pub claims: &'a [ClaimReport],
    /// The rules' verdict: CAQA's rule over the claims' statuses (`categorize`).
    pub rules: Verdict,
    /// The four-way head's reading of the whole sentence against its cited evidence.
    pub four_way: Option<[f32; 4]>,
    pub citations: usize,
}

/// The sentence's features, in `FEATURE_NAMES` order. Counts are capped so that one odd sentence
/// cannot push a linear model far outside what it was trained on.
pub fn features(s: &SentenceSignals) -> Vec<f32> {
    let claims: Vec<&ClaimReport> = s.claims.iter().filter(|c| c.status != ClaimStatus::NotVerifiable).collect();
    let n = claims.len().max(1) as f32;
    let over = |f: &dyn Fn(&ClaimReport) -> f32| claims.iter().map(|c| f(c)).collect::<Vec<f32>>();
    let min = |v: &[f32]| v.iter().copied().reduce(f32::min).unwrap_or(0.0);
    let max = |v: &[f32]| v.iter().copied().reduce(f32::max).unwrap_or(0.0);
    let mean = |v: &[f32]| if v.is_empty() { 0.0 } else { v.iter().sum::<f32>() / v.len() as f32 };
    let share = |st: ClaimStatus| claims.iter().filter(|c| c.status == st).count() as f32 / n;
    let count = |pred: &dyn Fn(&citelens_types::report::CheckReport) -> bool| {
        (claims.iter().flat_map(|c| c.checks.iter()).filter(|k| pred(k)).count() as f32).min(3.0)
    };
    let four_way = s.four_way.unwrap_or([0.25; 4]);
    let rules = |c: Category| (s.rules.category == c) as u8 as f32;
    let ent = over(&|c| c.probabilities.entailment);
    let con = over(&|c| c.probabilities.contradiction);
    let neu = over(&|c| c.probabilities.neutral);
    let cov = over(&|c| c.coverage);
    let rel = over(&|c| c.relevance);
    let conf = over(&|c| c.confidence);
    let probe = over(&|c| c.checks.iter().filter_map(|k| k.probe_entailment).fold(0.0, f32::max));
    let missing = over(&|c| (c.missing_entities.len() as f32).min(3.0));
    let cit_ent = over(&|c| c.by_citation.iter().map(|b| b.probabilities.entailment).fold(0.0, f32::max));
    let cit_con = over(&|c| c.by_citation.iter().map(|b| b.probabilities.contradiction).fold(0.0, f32::max));
    let claim_four_way = |i: usize| over(&|c| c.probabilities.four_way.unwrap_or([0.25; 4])[i]);
    let is_value = |k: &citelens_types::report::CheckReport| k.kind != CheckKind::Name;
    vec![
        four_way[0],
        four_way[1],
        four_way[2],
        four_way[3],
        s.four_way.is_none() as u8 as f32,
        rules(Category::Supportive),
        rules(Category::PartiallySupportive),
        rules(Category::Contradictory),
        rules(Category::Irrelevant),
        s.rules.confidence,
        s.rules.uncertain as u8 as f32,
        (1.0 + claims.len() as f32).ln(),
        min(&ent),
        max(&ent),
        mean(&ent),
        max(&con),
        mean(&con),
        mean(&neu),
        min(&cov),
        mean(&cov),
        min(&rel),
        mean(&rel),
        share(ClaimStatus::Supported),
        share(ClaimStatus::PartiallySupported),
        share(ClaimStatus::Missing),
        share(ClaimStatus::Contradicted),
        share(ClaimStatus::Unrelated),
        claims.iter().filter(|c| c.uncertain).count() as f32 / n,
        min(&conf),
        mean(&conf),
        count(&|k| k.result == CheckResult::Mismatch && is_value(k)),
        count(&|k| k.result == CheckResult::Mismatch && !is_value(k)),
        count(&|k| k.result == CheckResult::Unconfirmed && is_value(k)),
        count(&|k| k.result == CheckResult::Unconfirmed && !is_value(k)),
        count(&|k| k.result == CheckResult::Absent),
        max(&probe),
        max(&missing),
        max(&cit_ent),
        max(&cit_con),
        min(&claim_four_way(0)),
        max(&claim_four_way(2)),
        mean(&claim_four_way(3)),
        mean(&claim_four_way(1)),
        (1.0 + s.citations as f32).ln(),
        min(&over(&|c| c.signals.entailment_max)),
        max(&over(&|c| c.signals.contradiction_max)),
        max(&over(&|c| c.signals.four_way_contradictory_max)),
        min(&over(&|c| c.signals.four_way_supportive_max)),
        max(&over(&|c| c.signals.probe_gain_max)),
        max(&over(&|c| c.signals.probe_entailment_max)),
        (1.0 + claims.iter().map(|c| c.signals.probes).sum::<usize>() as f32).ln(),
    ]
}

/// A trained combiner (the file `training/combiner.py` writes).
#[derive(Debug, Clone, Deserialize)]
pub struct Combiner {
    /// Must equal `FEATURE_NAMES`: a model trained on other features is refused.
    pub features: Vec<String>,
    pub mean: Vec<f32>,
    pub scale: Vec<f32>,
    /// One row per category (supportive, partially supportive, contradictory, irrelevant).
    pub weights: Vec<Vec<f32>>,
    pub bias: [f32; 4],
    /// `costs[gold][predicted]`: what a wrong verdict costs; a flip costs most.
    pub costs: [[f32; 4]; 4],
    /// A verdict whose top probability is below this is shown as unsure.
    pub unsure_below: f32,
    /// What it was trained on, and its figures there (for the reader; not used).
    #[serde(default)]
    pub trained_on: serde_json::Value,
    /// Decide by the sentence head's reading alone (`Combiner::head_only`), not by the weights.
    #[serde(skip)]
    pub head_only: bool,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("combiner model: {0}")]
pub struct CombinerError(pub String);

impl Combiner {
    /// The combiner shipped with the engine.
    pub fn shipped() -> Combiner {
        Combiner::from_json(SHIPPED).expect("the shipped combiner matches the engine's features (a unit test checks it)")
    }

    pub fn from_json(text: &str) -> Result<Combiner, CombinerError> {
        let c: Combiner = serde_json::from_str(text).map_err(|e| CombinerError(e.to_string()))?;
        let n = FEATURE_NAMES.len();
        if c.features.iter().map(String::as_str).ne(FEATURE_NAMES.iter().copied()) {
            return Err(CombinerError(format!("its features are not the engine's {n} (retrain it with training/combiner.py)")));
        }
        if c.mean.len() != n || c.scale.len() != n || c.weights.len() != 4 || c.weights.iter().any(|w| w.len() != n) {
            return Err(CombinerError(format!("expected mean, scale and 4 weight rows of {n} values")));
        }
        let finite = c.mean.iter().chain(&c.scale).chain(c.weights.iter().flatten()).chain(&c.bias).chain(c.costs.iter().flatten());
        if finite.clone().any(|x| !x.is_finite()) || c.scale.iter().any(|&s| s <= 0.0) {
            return Err(CombinerError("a weight is not finite, or a scale is not positive".into()));
        }
        Ok(c)
    }

    /// P(category) for a sentence's features (softmax over the four categories).
    pub fn probabilities(&self, x: &[f32]) -> [f32; 4] {
        let z: Vec<f32> = x.iter().zip(&self.mean).zip(&self.scale).map(|((v, m), s)| (v - m) / s).collect();
        let mut logits = self.bias;
        for (k, w) in self.weights.iter().enumerate() {
            logits[k] += w.iter().zip(&z).map(|(a, b)| a * b).sum::<f32>();
        }
        let top = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e = logits.map(|l| (l - top).exp());
        let sum: f32 = e.iter().sum();
        e.map(|v| v / sum)
    }

    /// The model's sentence head alone (`--decide model`): the four-way reading of the whole sentence
    /// (the first four features) in place of the learned probabilities, under the same costs and
    /// unsure level; `decided_by: model`. Where the sentence has no reading, the combiner decides.
    pub fn head_only(&self) -> Combiner {
        Combiner { head_only: true, ..self.clone() }
    }

    /// The category of least expected cost, with its probability as the confidence.
    pub fn decide(&self, x: &[f32]) -> Verdict {
        let absent = x.get(4).is_some_and(|&a| a > 0.5);
        if self.head_only && !absent && x.len() >= 4 {
            let p = [x[0], x[1], x[2], x[3]];
            return Verdict { decided_by: DecidedBy::Model, ..self.least_cost(p) };
        }
        self.least_cost(self.probabilities(x))
    }

    fn least_cost(&self, p: [f32; 4]) -> Verdict {
        let cost = |pred: usize| (0..4).map(|gold| p[gold] * self.costs[gold][pred]).sum::<f32>();
        let best = (0..4).fold(0, |b, i| if cost(i) < cost(b) { i } else { b });
        let top = p.iter().copied().fold(0.0, f32::max);
        Verdict { category: Category::ALL[best], confidence: p[best], uncertain: top < self.unsure_below, decided_by: DecidedBy::Combiner }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy(costs: [[f32; 4]; 4], unsure_below: f32) -> Combiner {
        let n = FEATURE_NAMES.len();
        // Leans on one feature: the four-way head's contradictory probability.
        let mut weights = vec![vec![0.0; n]; 4];
        weights[2][2] = 4.0;
        weights[0][2] = -4.0;
        Combiner {
            features: FEATURE_NAMES.iter().map(|s| s.to_string()).collect(),
            mean: vec![0.0; n],
            scale: vec![1.0; n],
            weights,
            bias: [0.0; 4],
            costs,
            unsure_below,
            trained_on: serde_json::Value::Null,
            head_only: false,
        }
    }

    #[test]
    fn the_head_alone_decides_by_its_reading_and_says_so_and_falls_back_without_one() {
        let c = toy(PLAIN, 0.6).head_only();
        let mut x = vec![0.0; FEATURE_NAMES.len()];
        // The head reads partial at 0.7; the weights (on feature 2) would say otherwise.
        x[..4].copy_from_slice(&[0.1, 0.7, 0.15, 0.05]);
        let v = c.decide(&x);
        assert_eq!((v.category, v.decided_by, v.uncertain), (Category::PartiallySupportive, DecidedBy::Model, false));
        x[..4].copy_from_slice(&[0.5, 0.1, 0.3, 0.1]);
        assert!(c.decide(&x).uncertain, "below the unsure level");
        // No sentence reading (four_way_absent): the combiner's weights decide.
        x[4] = 1.0;
        assert_eq!(c.decide(&x).decided_by, DecidedBy::Combiner);
    }

    const PLAIN: [[f32; 4]; 4] = [[0.0, 1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0]];

    #[test]
    fn the_shipped_combiner_loads_and_gives_a_distribution() {
        let c = Combiner::shipped();
        let x = vec![0.5; FEATURE_NAMES.len()];
        let p = c.probabilities(&x);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{p:?}");
        assert!(c.unsure_below > 0.0 && c.unsure_below < 1.0);
    }

    #[test]
    fn a_model_of_other_features_or_shapes_is_refused() {
        let mut c: serde_json::Value = serde_json::from_str(SHIPPED).unwrap();
        c["features"][0] = "something_else".into();
        assert!(Combiner::from_json(&c.to_string()).unwrap_err().0.contains("features"));
        let mut c: serde_json::Value = serde_json::from_str(SHIPPED).unwrap();
        c["weights"].as_array_mut().unwrap().pop();
        assert!(Combiner::from_json(&c.to_string()).is_err());
        let mut c: serde_json::Value = serde_json::from_str(SHIPPED).unwrap();
        c["scale"][3] = 0.0.into();
        assert!(Combiner::from_json(&c.to_string()).is_err());
        assert!(Combiner::from_json("not json").is_err());
    }

    #[test]
    fn a_costly_flip_moves_a_close_call_off_the_flip() {
        let n = FEATURE_NAMES.len();
        let mut x = vec![0.0; n];
        x[2] = 0.1; // contradictory slightly ahead of supportive
        assert_eq!(toy(PLAIN, 0.0).decide(&x).category, Category::Contradictory);
        // With a flip priced at 4, the close call goes to a category that is no flip either way.
        let mut costs = PLAIN;
        costs[0][2] = 4.0;
        costs[2][0] = 4.0;
        let v = toy(costs, 0.0).decide(&x);
        assert!(matches!(v.category, Category::PartiallySupportive | Category::Irrelevant), "{v:?}");
        assert_eq!(v.decided_by, DecidedBy::Combiner);
    }

    #[test]
    fn unsure_below_the_level_and_sure_above_it() {
        let n = FEATURE_NAMES.len();
        let mut x = vec![0.0; n];
        x[2] = 2.0; // clearly contradictory
        assert!(!toy(PLAIN, 0.5).decide(&x).uncertain);
        x[2] = 0.05;
        assert!(toy(PLAIN, 0.5).decide(&x).uncertain);
    }
}
