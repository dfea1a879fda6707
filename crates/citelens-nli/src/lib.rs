//! citelens' NLI model: does this evidence entail, leave open, or contradict this claim?
//!
//! A MiniLM cross-encoder exported to ONNX (weight-only int8) and run with tract, natively and in
//! wasm32, or natively with onnxruntime (the `ort` feature; `RunOn`), which computes the same numbers
//! faster on a server's CPU. Pairs of different lengths are sorted and batched so that no pair is padded to the
//! longest of the whole input; a premise too long for one pass is read in overlapping windows and
//! the result names the window that decided it.

mod config;
mod error;
pub mod model_dir;
mod runtime;
mod tokenize;

use std::path::Path;

pub use config::{Limits, ModelConfig, SentenceEvidence, FOUR_WAY_LABELS, LABELS};
pub use error::{NliError, Result, Side};
pub use tokenize::{window_spans, Sequence, Window};

#[cfg(feature = "ort")]
pub use runtime::find_ort_library;
use runtime::Runtime;
pub use runtime::{Device, OrtOptions, RunOn, RuntimeKind};
use tokenize::PairEncoder;

/// Calibrated label probabilities (softmax of logits over the fitted temperature).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Probabilities {
    pub entailment: f32,
    pub neutral: f32,
    pub contradiction: f32,
}

impl Probabilities {
    /// `logits` has the three labels (the runtime checks the output's shape).
    fn from_logits(logits: &[f32], temperature: f32) -> Self {
        let p = softmax(logits, temperature);
        Probabilities { entailment: p[0], neutral: p[1], contradiction: p[2] }
    }

    /// The most probable label, as spelled in `LABELS`.
    pub fn label(&self) -> &'static str {
        let p = [self.entailment, self.neutral, self.contradiction];
        let best = (0..3).fold(0, |b, i| if p[i] > p[b] { i } else { b });
        LABELS[best]
    }
}

/// Temperature-scaled softmax, for the NLI head's three logits and the four-way head's four.
fn softmax(logits: &[f32], temperature: f32) -> Vec<f32> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| ((l - max) / temperature).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.into_iter().map(|e| e / sum).collect()
}

/// The verdict on one pair.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Prediction {
    pub probabilities: Probabilities,
    /// The four-way head's probabilities (supportive, partially supportive, contradictory,
    /// irrelevant) on the deciding window, when the model has that head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub four_way: Option<[f32; 4]>,
    /// The evidence head's probability that the premise is evidence for the hypothesis (states,
    /// partly states or denies it; the most of any window), when the model has that head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<f32>,
    /// Raw logits of the deciding window (entailment, neutral, contradiction).
    pub logits: [f32; 3],
    /// The premise window that decided the verdict.
    pub window: Window,
}

pub struct NliModel {
    config: ModelConfig,
    /// `config.label_order()`: where entailment, neutral, contradiction sit among the outputs.
    label_order: [usize; 3],
    encoder: PairEncoder,
    runtime: Runtime,
}

impl NliModel {
    /// Loads from bytes: the model file, `tokenizer.json` and `config.json` (the browser fetches them).
    pub fn from_bytes(onnx: &[u8], tokenizer_json: &[u8], config_json: &[u8]) -> Result<Self> {
        Self::from_bytes_on(onnx, tokenizer_json, config_json, Device::Cpu)
    }

    /// The same, on tract on `device` (an error when it is not usable: the caller decides to fall back).
    pub fn from_bytes_on(onnx: &[u8], tokenizer_json: &[u8], config_json: &[u8], device: Device) -> Result<Self> {
        Self::from_bytes_with(onnx, tokenizer_json, config_json, &RunOn::Tract(device))
    }

    /// The same, under the runtime `run_on` names.
    pub fn from_bytes_with(onnx: &[u8], tokenizer_json: &[u8], config_json: &[u8], run_on: &RunOn) -> Result<Self> {
        let config = ModelConfig::from_json(config_json)?;
        let encoder = PairEncoder::from_bytes(tokenizer_json)?;
        let runtime = Runtime::from_onnx_bytes(onnx, LABELS.len(), run_on, encoder.pad_id())?;
        let label_order = config.label_order()?;
        Ok(NliModel { config, label_order, encoder, runtime })
    }

    /// Loads a model directory holding `config.json` and the files it names.
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Self> {
        Self::from_dir_with(dir, &RunOn::Tract(Device::Cpu))
    }

    /// The same, under the runtime `run_on` names.
    pub fn from_dir_with(dir: impl AsRef<Path>, run_on: &RunOn) -> Result<Self> {
        let dir = dir.as_ref();
        let read = |p: &Path| std::fs::read(p).map_err(|e| NliError::io(p, e));
        let config_json = read(&dir.join("config.json"))?;
        let config = ModelConfig::from_json(&config_json)?;
        let onnx = read(&dir.join(&config.model_file))?;
        let tokenizer = read(&dir.join(&config.tokenizer_file))?;
        Self::from_bytes_with(&onnx, &tokenizer, &config_json, run_on)
    }

    /// The runtime the graph runs under.
    pub fn runtime(&self) -> RuntimeKind {
        self.runtime.kind()
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    /// The model has the four-way head (a second output).
    pub fn has_four_way(&self) -> bool {
        self.runtime.has_four_way()
    }

    /// The model has the evidence head (an `evidence` output).
    pub fn has_evidence(&self) -> bool {
        self.runtime.has_evidence()
    }

    /// Scores one pair.
    pub fn predict(&self, premise: &str, hypothesis: &str) -> Result<Prediction> {
        self.predict_batch(&[(premise, hypothesis)]).pop().unwrap_or_else(|| Err(NliError::Inference("no result".into())))
    }

    /// Scores many pairs; each gets its own result, so one bad pair does not sink the others.
    pub fn predict_batch(&self, pairs: &[(&str, &str)]) -> Vec<Result<Prediction>> {
        let encoded: Vec<Result<Vec<(Sequence, Window)>>> = pairs.iter().map(|(p, h)| self.encoder.encode(&self.config, p, h)).collect();
        // Every window of every valid pair, shortest first, so each batch pads little.
        let mut rows: Vec<(usize, usize)> =
            encoded.iter().enumerate().filter_map(|(i, e)| e.as_ref().ok().map(|w| (0..w.len()).map(move |j| (i, j)))).flatten().collect();
        let seq = |&(i, j): &(usize, usize)| -> &Sequence { encoded[i].as_ref().map(|w| &w[j].0).expect("valid pair") };
        rows.sort_by_key(|r| seq(r).input_ids.len());
        let mut logits: Vec<Vec<Option<runtime::RowLogits>>> = encoded.iter().map(|e| vec![None; e.as_ref().map_or(0, Vec::len)]).collect();
        let mut failures: Vec<Option<String>> = vec![None; pairs.len()];
        for chunk in rows.chunks(self.config.limits.max_batch) {
            let batch: Vec<&Sequence> = chunk.iter().map(seq).collect();
            match self.runtime.run(&batch) {
                Ok(out) => {
                    for (&(i, j), mut l) in chunk.iter().zip(out) {
                        // The model's own label order onto ours (identity for the shipped model).
                        if self.label_order != [0, 1, 2] {
                            l.nli = self.label_order.iter().map(|&k| l.nli[k]).collect();
                        }
                        logits[i][j] = Some(l);
                    }
                }
                Err(e) => {
                    for &(i, _) in chunk {
                        failures[i] = Some(e.to_string());
                    }
                }
            }
        }
        encoded
            .into_iter()
            .enumerate()
            .map(|(i, enc)| {
                let windows = enc?;
                if let Some(msg) = failures[i].take() {
                    return Err(NliError::Inference(msg));
                }
                let scored: Vec<(Window, runtime::RowLogits)> = windows
                    .into_iter()
                    .zip(logits[i].drain(..))
                    .map(|((_, w), l)| (w, l.unwrap_or(runtime::RowLogits { nli: vec![0.0; 3], four_way: None, evidence: None })))
                    .collect();
                Ok(self.decide(scored))
            })
            .collect()
    }

    /// Runs prepared sequences straight through the network (parity tests, benchmarks).
    pub fn raw_logits(&self, rows: &[&Sequence]) -> Result<Vec<Vec<f32>>> {
        self.runtime.logits(rows)
    }

    /// Tokenizes a pair as `predict` would, without running the network.
    pub fn encode(&self, premise: &str, hypothesis: &str) -> Result<Vec<(Sequence, Window)>> {
        self.encoder.encode(&self.config, premise, hypothesis)
    }

    /// A sequence of exactly `len` tokens built from a pair (benchmarks at fixed lengths).
    pub fn sequence_of_length(&self, premise: &str, hypothesis: &str, len: usize) -> Result<Sequence> {
        self.encoder.fixed_length(premise, hypothesis, len)
    }

    /// Support can sit anywhere in a long premise: the verdict comes from the window that entails
    /// most, when one entails; else from the one that contradicts most, when one contradicts;
    /// else from the window closest to entailing.
    fn decide(&self, scored: Vec<(Window, runtime::RowLogits)>) -> Prediction {
        let t = self.config.temperature;
        let probs: Vec<Probabilities> = scored.iter().map(|(_, l)| Probabilities::from_logits(&l.nli, t)).collect();
        let argmax = |f: &dyn Fn(&Probabilities) -> f32| (0..probs.len()).fold(0, |b, i| if f(&probs[i]) > f(&probs[b]) { i } else { b });
        let ent = argmax(&|p| p.entailment);
        let con = argmax(&|p| p.contradiction);
        let pick = if probs[ent].label() == "entailment" {
            ent
        } else if probs[con].label() == "contradiction" {
            con
        } else {
            ent
        };
        let (window, l) = &scored[pick];
        // Four numbers: the runtime checks the second output's shape.
        let four_way = l.four_way.as_deref().map(|f| {
            let p = softmax(f, self.config.four_way_temperature);
            [p[0], p[1], p[2], p[3]]
        });
        // Evidence anywhere in the premise is evidence: the most of any window.
        let evidence = scored
            .iter()
            .filter_map(|(_, l)| l.evidence.as_deref().map(|e| softmax(e, self.config.evidence_temperature)[1]))
            .fold(None, |best: Option<f32>, p| Some(best.map_or(p, |b| b.max(p))));
        Prediction { probabilities: probs[pick], four_way, evidence, logits: [l.nli[0], l.nli[1], l.nli[2]], window: *window }
    }
}
