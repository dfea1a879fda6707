//! citelens for JavaScript: construct from the three model files' bytes, then score pairs (`Nli`)
//! or verify whole cited answers (`Verifier`, the same engine and report as the CLI).

use citelens_engine::{Cut, Engine, Finding, FindingKind, Input, Report, Scorer};
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

    /// The token ids then the token type ids of one pair built to exactly `tokens` tokens (for
    /// feeding the same input to another runtime in benchmarks).
    #[wasm_bindgen(js_name = tokensAtLength)]
    pub fn tokens_at_length(&self, premise: &str, hypothesis: &str, tokens: usize) -> Result<Vec<i64>, JsError> {
        let seq = self.model.sequence_of_length(premise, hypothesis, tokens).map_err(js_err)?;
        Ok(seq.input_ids.iter().chain(&seq.token_type_ids).copied().collect())
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

/// Lower-case hex SHA-256 of `bytes`: the model loader checks the fetched model against the hash in
/// config.json (in Rust so it also works where `crypto.subtle` is missing: plain-http hosts).
#[wasm_bindgen(js_name = sha256Hex)]
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// One `truncated` finding per thing `Input::fit_to` cut, so the report says what was not verified.
fn cut_findings(cuts: &[Cut]) -> Vec<Finding> {
    cuts.iter()
        .map(|c| Finding { kind: FindingKind::Truncated, message: format!("{} cut from {} to {} (cap {})", c.what, c.from, c.to, c.cap) })
        .collect()
}

/// The verification engine: one input document (JSON) in, the versioned report (JSON) out.
#[wasm_bindgen]
pub struct Verifier {
    engine: Engine<NliModel>,
    /// The plan of the last prepared input (its JSON after fitting), reused by `assemble`.
    plan: std::cell::RefCell<Option<(String, citelens_engine::Plan)>>,
    /// Round one of the last input with long documents (its JSON after fitting), kept by
    /// `candidates` for `prepare`.
    round_one: std::cell::RefCell<Option<(String, citelens_engine::Plan)>>,
}

#[wasm_bindgen]
impl Verifier {
    #[wasm_bindgen(constructor)]
    pub fn new(onnx: &[u8], tokenizer: &[u8], config: &[u8]) -> Result<Verifier, JsError> {
        let model = NliModel::from_bytes(onnx, tokenizer, config).map_err(js_err)?;
        Ok(Verifier { engine: Engine::new(model), plan: Default::default(), round_one: Default::default() })
    }

    /// `input` is a citelens input document (see schema/input.schema.json); returns the report.
    /// Text over the engine's caps is cut to fit, and each cut is a `truncated` finding.
    pub fn verify(&self, input: &str) -> Result<String, JsError> {
        self.verify_progressive(input, &JsValue::UNDEFINED)
    }

    /// As `verify`, calling `on_sentence(reportJson, done, total)` (when it is a function) with the
    /// report of the answer so far after each sentence.
    #[wasm_bindgen(js_name = verifyProgressive)]
    pub fn verify_progressive(&self, input: &str, on_sentence: &JsValue) -> Result<String, JsError> {
        let mut input = Input::from_json(input).map_err(js_err)?;
        let notes = cut_findings(&input.fit_to(&self.engine.caps));
        let with_cuts = |report: &Report| {
            let mut report = report.clone();
            report.findings.extend(notes.iter().cloned());
            serde_json::to_string(&report).map_err(js_err)
        };
        let Some(callback) = on_sentence.dyn_ref::<js_sys::Function>() else {
            // No one to stream to: the plain engine, without the partial reports.
            return with_cuts(&self.engine.verify(&input).map_err(js_err)?);
        };
        let mut failed = None;
        let report = self
            .engine
            .verify_progressive(&input, |partial, done, total| {
                if failed.is_some() {
                    return;
                }
                match with_cuts(partial) {
                    Ok(json) => {
                        if let Err(e) = callback.call3(
                            &JsValue::NULL,
                            &JsValue::from_str(&json),
                            &JsValue::from(done as u32),
                            &JsValue::from(total as u32),
                        ) {
                            failed = Some(e);
                        }
                    }
                    Err(e) => failed = Some(e.into()),
                }
            })
            .map_err(js_err)?;
        if let Some(e) = failed {
            return Err(JsError::new(&format!("the on_sentence callback failed: {e:?}")));
        }
        with_cuts(&report)
    }

    // The engine in stages, for scoring pairs in several workers at once (citelens.js's pool):
    // prepare (plan once) → score (any worker) → assemble (report of the sentences scored so far).

    /// Round one of a verification with long documents, for scoring in several workers:
    /// `{pairs}`, each claim's candidate evidence pairs `[premise, hypothesis]` (none when no
    /// citation is a document). The round is kept for `prepare` on the same input.
    pub fn candidates(&self, input: &str) -> Result<String, JsError> {
        let mut input = Input::from_json(input).map_err(js_err)?;
        input.fit_to(&self.engine.caps);
        let first = self.engine.round_one(&input).map_err(js_err)?;
        let pairs: &[(String, String)] = first.as_ref().map_or(&[], |p| p.pairs());
        let out = serde_json::to_string(&serde_json::json!({ "pairs": pairs })).map_err(js_err)?;
        *self.round_one.borrow_mut() = first.map(|p| (serde_json::to_string(&input).unwrap_or_default(), p));
        Ok(out)
    }

    /// `{input, notes, steps}`: the input cut to the caps, a `truncated` finding per cut, and the
    /// streaming steps: `{sentences, pairs}` — after scoring `pairs` (the `[premise, hypothesis]`
    /// pairs earlier steps did not need), the report of the first `sentences` sentences can be shown.
    /// With `round_one` (rows as `assemble` takes them, scored from `candidates`' pairs), the
    /// evidence in long documents is chosen from those answers instead of scoring round one here.
    /// The plan is kept for `assemble` on the same input.
    pub fn prepare(&self, input: &str, round_one: Option<String>) -> Result<String, JsError> {
        let mut input = Input::from_json(input).map_err(js_err)?;
        let notes = cut_findings(&input.fit_to(&self.engine.caps));
        let fitted = serde_json::to_string(&input).map_err(js_err)?;
        let plan = match round_one {
            Some(rows) => {
                let table = score_table(&rows)?;
                let kept = self.round_one.borrow_mut().take().filter(|(key, _)| *key == fitted).map(|(_, p)| p);
                match kept.map_or_else(|| self.engine.round_one(&input), |p| Ok(Some(p))).map_err(js_err)? {
                    Some(first) => {
                        self.engine.round_two(&input, &first, &citelens_engine::Scores::from_table(&first, &table)).map_err(js_err)?
                    }
                    None => self.engine.plan(&input).map_err(js_err)?,
                }
            }
            None => self.engine.plan(&input).map_err(js_err)?,
        };
        let by_sentence = plan.pairs_by_sentence();
        let mut steps = Vec::new();
        let mut done = 0;
        for upto in citelens_engine::report_steps(plan.sentences.len()) {
            let pairs: Vec<&(String, String)> = by_sentence[done..upto].iter().flatten().map(|&i| &plan.pairs()[i]).collect();
            steps.push(serde_json::json!({ "sentences": upto, "pairs": pairs }));
            done = upto;
        }
        let out = serde_json::to_string(&serde_json::json!({ "input": &input, "notes": notes, "steps": steps })).map_err(js_err)?;
        *self.plan.borrow_mut() = Some((fitted, plan));
        Ok(out)
    }

    /// The `[premise, hypothesis]` pairs the engine asks for `input`.
    pub fn pairs(&self, input: &str) -> Result<String, JsError> {
        let input = Input::from_json(input).map_err(js_err)?;
        serde_json::to_string(&self.engine.pairs_needed(&input).map_err(js_err)?).map_err(js_err)
    }

    /// Scores `[[premise, hypothesis], ...]`: `[[entailment, neutral, contradiction] | null, ...]`,
    /// followed by the four-way head's four probabilities and the evidence head's one when the model
    /// has those heads.
    pub fn score(&self, pairs: &str) -> Result<String, JsError> {
        let pairs: Vec<(String, String)> = serde_json::from_str(pairs).map_err(js_err)?;
        let refs: Vec<(&str, &str)> = pairs.iter().map(|(p, h)| (p.as_str(), h.as_str())).collect();
        let out: Vec<Option<Vec<f32>>> = self
            .engine
            .scorer
            .score(&refs)
            .into_iter()
            .map(|r| {
                r.ok().map(|p| {
                    [p.entailment, p.neutral, p.contradiction]
                        .into_iter()
                        .chain(p.four_way.into_iter().flatten())
                        .chain(p.evidence)
                        .collect()
                })
            })
            .collect();
        serde_json::to_string(&out).map_err(js_err)
    }

    /// The report of the first `upto` sentences of `input` (all when `upto` is absent) from
    /// `[[premise, hypothesis, [e, n, c] (+ four-way ×4) (+ evidence)], ...]` scored by `score`. Reuses the plan `prepare` made
    /// for the same input; plans afresh otherwise.
    pub fn assemble(&self, input: &str, scores: &str, upto: Option<u32>) -> Result<String, JsError> {
        let table = score_table(scores)?;
        let mut cached = self.plan.borrow_mut();
        let fresh = !matches!(cached.as_ref(), Some((key, _)) if key == input);
        if fresh {
            let input = Input::from_json(input).map_err(js_err)?;
            *cached = Some((serde_json::to_string(&input).map_err(js_err)?, self.engine.plan(&input).map_err(js_err)?));
        }
        let (_, plan) = cached.as_ref().expect("a plan was just stored");
        let scores = citelens_engine::Scores::from_table(plan, &table);
        let upto = upto.map_or(plan.sentences.len(), |u| u as usize);
        let mut report = self.engine.report(plan, &scores, upto);
        if upto < plan.sentences.len() {
            // Pairs of later sentences are not scored yet: not a finding about this partial report.
            report.findings.retain(|f| f.kind != FindingKind::NotScored);
        }
        serde_json::to_string(&report).map_err(js_err)
    }
}

/// The score table from `[[premise, hypothesis, [e, n, c] (+ four-way ×4) (+ evidence)], ...]`, as
/// `score` writes the numbers (`ScoreTable::from_rows`).
fn score_table(scores: &str) -> Result<citelens_engine::ScoreTable, JsError> {
    let rows: Vec<(String, String, Vec<f32>)> = serde_json::from_str(scores).map_err(js_err)?;
    citelens_engine::ScoreTable::from_rows(rows).map_err(|e| JsError::new(&e.to_string()))
}

// The bindings' own logic, natively: the calls that touch no JavaScript value (a `JsError` or a
// callback needs a JS engine; the browser tests cover those).
#[cfg(test)]
mod tests {
    use super::*;

    fn model_file(name: &str) -> Vec<u8> {
        std::fs::read(format!("{}/../../models/citelens-nli-minilm/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    fn verifier() -> Verifier {
        Verifier::new(&model_file("model.onnx"), &model_file("tokenizer.json"), &model_file("config.json"))
            .unwrap_or_else(|_| panic!("the shipped model loads"))
    }

    const EXAMPLE: &str = include_str!("../../../examples/brooklyn-bridge.json");

    #[test]
    fn the_model_hash_is_sha256_in_lower_case_hex() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn each_cut_is_a_truncated_finding_naming_the_cap() {
        let cuts = [Cut { what: "the answer".into(), from: 20, to: 10, cap: "max_answer_chars".into() }];
        let f = cut_findings(&cuts);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].kind, FindingKind::Truncated);
        assert!(f[0].message.contains("max_answer_chars") && f[0].message.contains("20 to 10"), "{}", f[0].message);
    }

    /// The worker pool's way: prepare once, score step by step, assemble after each step. The steps
    /// list every pair the engine needs once, a partial report does not count later sentences' pairs
    /// as unscored, and the last step's report is the native engine's.
    #[test]
    fn steps_scored_in_turn_give_partial_reports_and_then_the_engines_report() {
        let v = verifier();
        let prepared: serde_json::Value = serde_json::from_str(&v.prepare(EXAMPLE, None).unwrap_or_else(|_| panic!("prepare"))).unwrap();
        let fitted = prepared["input"].to_string();
        let steps = prepared["steps"].as_array().unwrap();
        assert_eq!(steps.len(), 4, "one step per sentence");
        let step_pairs: Vec<(String, String)> =
            steps.iter().flat_map(|s| serde_json::from_value::<Vec<(String, String)>>(s["pairs"].clone()).unwrap()).collect();
        let needed: Vec<(String, String)> = serde_json::from_str(&v.pairs(EXAMPLE).unwrap_or_else(|_| panic!("pairs"))).unwrap();
        assert_eq!(step_pairs.len(), needed.len(), "each pair in one step");
        assert!(needed.iter().all(|p| step_pairs.contains(p)));

        let mut rows: Vec<serde_json::Value> = Vec::new();
        let mut last = None;
        for step in steps {
            let probs: Vec<Option<Vec<f32>>> =
                serde_json::from_str(&v.score(&step["pairs"].to_string()).unwrap_or_else(|_| panic!("score"))).unwrap();
            for (pair, p) in step["pairs"].as_array().unwrap().iter().zip(probs) {
                rows.push(serde_json::json!([pair[0], pair[1], p.expect("the model reads every pair")]));
            }
            let upto = step["sentences"].as_u64().unwrap() as u32;
            let report: Report = serde_json::from_str(
                &v.assemble(&fitted, &serde_json::to_string(&rows).unwrap(), Some(upto)).unwrap_or_else(|_| panic!("assemble")),
            )
            .unwrap();
            assert_eq!(report.sentences.len(), upto as usize);
            assert!(report.findings.iter().all(|f| f.kind != FindingKind::NotScored), "{:?}", report.findings);
            last = Some(report);
        }
        // The same verdicts and spans (the model's probabilities differ in the last digits: a pair
        // scored in another batch is padded otherwise).
        let native = v.engine.verify(&Input::from_json(EXAMPLE).unwrap()).unwrap();
        let last = last.unwrap();
        let verdicts = |r: &Report| r.sentences.iter().map(|s| s.verdict.map(|v| v.category)).collect::<Vec<_>>();
        let spans = |r: &Report| r.spans.iter().map(|s| (s.start, s.end, s.label)).collect::<Vec<_>>();
        assert_eq!(last.overall.category, native.overall.category);
        assert_eq!(verdicts(&last), verdicts(&native));
        assert_eq!(spans(&last), spans(&native));
        // The whole answer from a table that lacks its pairs: each missing pair is said, once.
        let bare: Report = serde_json::from_str(&v.assemble(&fitted, "[]", None).unwrap_or_else(|_| panic!("assemble"))).unwrap();
        assert_eq!(bare.findings.iter().filter(|f| f.kind == FindingKind::NotScored).count(), 1, "{:?}", bare.findings);
    }
}
