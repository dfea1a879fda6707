//! citelens for JavaScript: construct from the three model files' bytes, then score pairs (`Nli`)
//! or verify whole cited answers (`Verifier`, the same engine and report as the CLI).

use citelens_engine::{Engine, Input};
use citelens_nli::NliModel;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Nli {
    model: NliModel,
}

fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl Nli {
    /// `onnx`, `tokenizer` and `config` are the bytes of model.onnx, tokenizer.json and config.json.
    #[wasm_bindgen(constructor)]
    pub fn new(onnx: &[u8], tokenizer: &[u8], config: &[u8]) -> Result<Nli, JsError> {
        NliModel::from_bytes(onnx, tokenizer, config).map(|model| Nli { model }).map_err(js_err)
    }

    /// The prediction for one pair as JSON: `{probabilities, logits, window}`.
    pub fn predict(&self, premise: &str, hypothesis: &str) -> Result<String, JsError> {
        let p = self.model.predict(premise, hypothesis).map_err(js_err)?;
        serde_json::to_string(&p).map_err(js_err)
    }

    /// Logits of `copies` copies of one pair built to exactly `tokens` tokens, run as one batch
    /// (for latency benchmarks at fixed lengths).
    #[wasm_bindgen(js_name = logitsAtLength)]
    pub fn logits_at_length(&self, premise: &str, hypothesis: &str, tokens: usize, copies: usize) -> Result<Vec<f32>, JsError> {
        let seq = self.model.sequence_of_length(premise, hypothesis, tokens).map_err(js_err)?;
        let rows: Vec<_> = std::iter::repeat_n(&seq, copies.max(1)).collect();
        Ok(self.model.raw_logits(&rows).map_err(js_err)?.concat())
    }
}

/// The verification engine: one input document (JSON) in, the versioned report (JSON) out.
#[wasm_bindgen]
pub struct Verifier {
    engine: Engine<NliModel>,
}

#[wasm_bindgen]
impl Verifier {
    #[wasm_bindgen(constructor)]
    pub fn new(onnx: &[u8], tokenizer: &[u8], config: &[u8]) -> Result<Verifier, JsError> {
        let model = NliModel::from_bytes(onnx, tokenizer, config).map_err(js_err)?;
        Ok(Verifier { engine: Engine::new(model) })
    }

    /// `input` is a citelens input document (see schema/input.schema.json); returns the report.
    pub fn verify(&self, input: &str) -> Result<String, JsError> {
        let input = Input::from_json(input).map_err(js_err)?;
        let report = self.engine.verify(&input).map_err(js_err)?;
        serde_json::to_string(&report).map_err(js_err)
    }
}
