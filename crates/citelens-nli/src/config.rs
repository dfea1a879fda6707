//! The model directory's `config.json`: labels, lengths, calibration and the size limits we enforce.

use serde::{Deserialize, Serialize};

use crate::error::{NliError, Result};

pub const LABELS: [&str; 3] = ["entailment", "neutral", "contradiction"];
/// The four-way head's labels (CAQA's categories), in output order.
pub const FOUR_WAY_LABELS: [&str; 4] = ["supportive", "partially_supportive", "contradictory", "irrelevant"];
/// The evidence head's labels, in output order.
pub const EVIDENCE_LABELS: [&str; 2] = ["not_evidence", "evidence"];

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelConfig {
    pub name: String,
    /// The model's output labels in its own order: entailment, neutral and contradiction, each once, in
    /// any order and case (a model of one's own keeps its export; `label_order` maps it onto ours).
    pub labels: Vec<String>,
    /// Tokens per sequence, special tokens included.
    pub max_length: usize,
    /// Longest hypothesis in tokens; a longer one is an error, never truncated.
    pub max_hypothesis_tokens: usize,
    /// Temperature fitted on held-out pairs; probabilities are softmax(logits / temperature).
    pub temperature: f32,
    /// The second output's labels, when the model has the four-way head: supportive, partially
    /// supportive, contradictory, irrelevant.
    #[serde(default)]
    pub four_way_labels: Option<Vec<String>>,
    /// Temperature of the four-way head (a second output), fitted as the NLI one is.
    #[serde(default = "default_temperature")]
    pub four_way_temperature: f32,
    /// The evidence output's labels, when the model has that head: not_evidence, evidence.
    #[serde(default)]
    pub evidence_labels: Option<Vec<String>>,
    /// Temperature of the evidence head.
    #[serde(default = "default_temperature")]
    pub evidence_temperature: f32,
    /// What the four-way head was trained to read for a whole sentence (absent: `passages`). Another
    /// value is an error naming the two known ones.
    #[serde(default)]
    pub sentence_pairs: SentenceEvidence,
    /// Tokens shared by consecutive windows of a long premise.
    #[serde(default = "default_overlap")]
    pub window_overlap_tokens: usize,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default = "default_model_file")]
    pub model_file: String,
    #[serde(default = "default_tokenizer_file")]
    pub tokenizer_file: String,
    /// sha256 of the model file, hex; checked by loaders that fetch it (the browser).
    #[serde(default)]
    pub model_sha256: Option<String>,
}

/// The evidence a model's four-way head reads for a whole sentence, as its config names it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SentenceEvidence {
    /// All the sentence's cited passages joined (the branch heads before issue 43).
    #[default]
    Passages,
    /// The cited sentences sharing most words with it, in one window (training/multitask.py).
    Selected,
}

/// Caps on input sizes, so that untrusted input cannot make inference unbounded.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Limits {
    pub max_premise_chars: usize,
    pub max_hypothesis_chars: usize,
    /// Windows per premise; `max_premise_chars` normally binds first.
    pub max_windows: usize,
    /// Sequences run in one forward pass.
    pub max_batch: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_premise_chars: 100_000, max_hypothesis_chars: 2_000, max_windows: 400, max_batch: 16 }
    }
}

fn default_temperature() -> f32 {
    1.0
}

fn default_overlap() -> usize {
    32
}
fn default_model_file() -> String {
    "model.onnx".into()
}
fn default_tokenizer_file() -> String {
    "tokenizer.json".into()
}

impl ModelConfig {
    /// Where entailment, neutral and contradiction (LABELS' order) sit among the model's outputs.
    pub fn label_order(&self) -> Result<[usize; 3]> {
        let wrong = || NliError::Config(format!("labels must name {LABELS:?} once each (any order, any case), found {:?}", self.labels));
        if self.labels.len() != LABELS.len() {
            return Err(wrong());
        }
        let mut order = [0; 3];
        for (k, want) in LABELS.iter().enumerate() {
            let found: Vec<usize> =
                self.labels.iter().enumerate().filter(|(_, l)| l.trim().eq_ignore_ascii_case(want)).map(|(i, _)| i).collect();
            match found[..] {
                [one] => order[k] = one,
                _ => return Err(wrong()),
            }
        }
        Ok(order)
    }

    pub fn from_json(bytes: &[u8]) -> Result<Self> {
        let cfg: ModelConfig = serde_json::from_slice(bytes).map_err(|e| NliError::Config(e.to_string()))?;
        cfg.validate()?;
        Ok(cfg)
    }

    fn validate(&self) -> Result<()> {
        if let Some(l) = &self.four_way_labels {
            if l.iter().map(String::as_str).ne(FOUR_WAY_LABELS) {
                return Err(NliError::Config(format!("four_way_labels must be {FOUR_WAY_LABELS:?}, found {l:?}")));
            }
        }
        if let Some(l) = &self.evidence_labels {
            if l.iter().map(String::as_str).ne(EVIDENCE_LABELS) {
                return Err(NliError::Config(format!("evidence_labels must be {EVIDENCE_LABELS:?}, found {l:?}")));
            }
        }
        self.label_order()?;
        if self.max_length < 16 || self.max_hypothesis_tokens + 8 > self.max_length {
            return Err(NliError::Config(format!(
                "max_length {} must exceed max_hypothesis_tokens {} by at least 8",
                self.max_length, self.max_hypothesis_tokens
            )));
        }
        let window = self.max_length - self.max_hypothesis_tokens - 3;
        if self.window_overlap_tokens * 2 > window {
            return Err(NliError::Config(format!("window_overlap_tokens {} is over half a window", self.window_overlap_tokens)));
        }
        if !(self.temperature.is_finite() && self.temperature > 0.0) {
            return Err(NliError::Config(format!("temperature must be positive, found {}", self.temperature)));
        }
        if self.limits.max_batch == 0 || self.limits.max_windows == 0 {
            return Err(NliError::Config("limits.max_batch and limits.max_windows must be positive".into()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_labels(labels: &[&str]) -> ModelConfig {
        let mut c: ModelConfig = serde_json::from_str(include_str!("../../../models/citelens-nli-minilm/config.json")).unwrap();
        c.labels = labels.iter().map(|s| s.to_string()).collect();
        c
    }

    #[test]
    fn a_models_own_label_order_maps_onto_ours() {
        assert_eq!(with_labels(&["entailment", "neutral", "contradiction"]).label_order().unwrap(), [0, 1, 2]);
        assert_eq!(with_labels(&["CONTRADICTION", "ENTAILMENT", "NEUTRAL"]).label_order().unwrap(), [1, 2, 0]);
        assert_eq!(with_labels(&["contradiction", "neutral", "entailment"]).label_order().unwrap(), [2, 1, 0]);
        for bad in [
            &["entailment", "entailment", "contradiction"][..],
            &["entailment", "neutral"],
            &["yes", "maybe", "no"],
            &["entailment", "neutral", "contradiction", "other"],
        ] {
            assert!(with_labels(bad).validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_sentence_evidence_a_config_names_is_read_and_an_unknown_one_is_an_error() {
        let shipped = include_str!("../../../models/citelens-nli-minilm/config.json");
        let with = |value: &str| {
            let mut v: serde_json::Value = serde_json::from_str(shipped).unwrap();
            v["sentence_pairs"] = serde_json::from_str(value).unwrap();
            ModelConfig::from_json(v.to_string().as_bytes())
        };
        assert_eq!(with("\"selected\"").unwrap().sentence_pairs, SentenceEvidence::Selected);
        assert_eq!(with("\"passages\"").unwrap().sentence_pairs, SentenceEvidence::Passages);
        let mut absent: serde_json::Value = serde_json::from_str(shipped).unwrap();
        absent.as_object_mut().unwrap().remove("sentence_pairs");
        assert_eq!(ModelConfig::from_json(absent.to_string().as_bytes()).unwrap().sentence_pairs, SentenceEvidence::Passages);
        let err = with("\"chosen\"").unwrap_err().to_string();
        assert!(err.contains("selected") && err.contains("passages"), "{err}");
    }
}
