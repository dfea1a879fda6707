//! The bridge to `citelens.js` (set on `window.citelens` by index.html): load the model and verify,
//! with progress and partial reports passed back as callbacks.

use citelens_types::{Input, Report};
use js_sys::{Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    pub stage: String,
    pub loaded: f64,
    pub total: f64,
    pub cached: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    pub model: String,
    pub bytes: f64,
    pub cached: bool,
    pub load_ms: f64,
    pub mode: String,
    pub workers: u32,
}

fn api() -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let api = Reflect::get(&window, &"citelens".into()).map_err(|_| "no citelens API")?;
    if api.is_undefined() {
        return Err("the citelens script (citelens/citelens.js) did not load".into());
    }
    Ok(api)
}

fn method(api: &JsValue, name: &str) -> Result<Function, String> {
    Reflect::get(api, &name.into()).ok().and_then(|f| f.dyn_into::<Function>().ok()).ok_or_else(|| format!("citelens.{name} is missing"))
}

fn error_text(e: JsValue) -> String {
    Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string()).or_else(|| e.as_string()).unwrap_or_else(|| format!("{e:?}"))
}

fn num(o: &JsValue, k: &str) -> f64 {
    Reflect::get(o, &k.into()).ok().and_then(|v| v.as_f64()).unwrap_or(0.0)
}

fn flag(o: &JsValue, k: &str) -> bool {
    Reflect::get(o, &k.into()).ok().and_then(|v| v.as_bool()).unwrap_or(false)
}

fn text(o: &JsValue, k: &str) -> String {
    Reflect::get(o, &k.into()).ok().and_then(|v| v.as_string()).unwrap_or_default()
}

/// True once index.html has put the API on `window`.
pub fn available() -> bool {
    api().is_ok()
}

pub async fn load(worker: bool, on_progress: impl Fn(Progress) + 'static) -> Result<ModelInfo, String> {
    let api = api()?;
    let cb = Closure::<dyn Fn(JsValue)>::new(move |p: JsValue| {
        on_progress(Progress { stage: text(&p, "stage"), loaded: num(&p, "loaded"), total: num(&p, "total"), cached: flag(&p, "cached") })
    });
    let opts = Object::new();
    Reflect::set(&opts, &"onProgress".into(), cb.as_ref()).map_err(error_text)?;
    Reflect::set(&opts, &"worker".into(), &worker.into()).map_err(error_text)?;
    let promise: Promise = method(&api, "load")?.call1(&api, &opts).map_err(error_text)?.dyn_into().map_err(error_text)?;
    let info = JsFuture::from(promise).await.map_err(error_text)?;
    drop(cb);
    Ok(ModelInfo {
        model: text(&info, "model"),
        bytes: num(&info, "bytes"),
        cached: flag(&info, "cached"),
        load_ms: num(&info, "loadMs"),
        mode: text(&info, "mode"),
        workers: num(&info, "workers") as u32,
    })
}

fn report_from(v: &JsValue) -> Result<Report, String> {
    let json = js_sys::JSON::stringify(v).map_err(error_text)?.as_string().unwrap_or_default();
    serde_json::from_str(&json).map_err(|e| format!("the report did not parse: {e}"))
}

/// Verifies `input`; `on_sentence(partial, done, total)` gets the report so far after each sentence,
/// and with long documents `on_evidence(done, total)` counts the candidate sentences scored first.
pub async fn verify(
    input: &Input,
    on_sentence: impl Fn(Report, u32, u32) + 'static,
    on_evidence: impl Fn(u32, u32) + 'static,
) -> Result<Report, String> {
    let api = api()?;
    let json = serde_json::to_string(input).map_err(|e| e.to_string())?;
    let value = js_sys::JSON::parse(&json).map_err(error_text)?;
    let cb = Closure::<dyn Fn(JsValue, u32, u32)>::new(move |r: JsValue, done: u32, total: u32| {
        if let Ok(report) = report_from(&r) {
            on_sentence(report, done, total);
        }
    });
    let progress = Closure::<dyn Fn(JsValue)>::new(move |p: JsValue| on_evidence(num(&p, "done") as u32, num(&p, "total") as u32));
    let opts = Object::new();
    Reflect::set(&opts, &"onSentence".into(), cb.as_ref()).map_err(error_text)?;
    Reflect::set(&opts, &"onProgress".into(), progress.as_ref()).map_err(error_text)?;
    let promise: Promise = method(&api, "verify")?.call2(&api, &value, &opts).map_err(error_text)?.dyn_into().map_err(error_text)?;
    let out = JsFuture::from(promise).await.map_err(error_text)?;
    drop((cb, progress));
    report_from(&out)
}

pub fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Fetches an example list staged beside the app at build time (`examples.json`: the paper examples;
/// `generated.json`: the CAQA generator's test split), as JSON values the form turns into inputs.
pub async fn fetch_example_list(file: &str) -> Result<Vec<serde_json::Value>, String> {
    let resp = gloo_net::http::Request::get(file).send().await.map_err(|e| format!("{file}: {e}"))?;
    if !resp.ok() {
        return Err(format!("{file}: HTTP {}", resp.status()));
    }
    resp.json().await.map_err(|e| format!("{file}: {e}"))
}

/// A long document's text read from a file by `citelens.documentText` (doc-text.js).
#[derive(Debug, Clone, PartialEq)]
pub struct DocText {
    pub text: String,
    /// "txt", "html" or "pdf".
    pub kind: String,
    /// The text was over the engine's cap and was cut there.
    pub cut: bool,
    /// Characters before any cut.
    pub chars: f64,
    pub pages: Option<u32>,
}

/// Reads `file` (.txt, .html, .pdf) into text; the error says why it could not (too large, no text
/// layer, not a type it reads).
pub async fn document_text(file: &web_sys::File) -> Result<DocText, String> {
    let api = api()?;
    let promise: Promise = method(&api, "documentText")?.call1(&api, file).map_err(error_text)?.dyn_into().map_err(error_text)?;
    let out = JsFuture::from(promise).await.map_err(error_text)?;
    let pages = Reflect::get(&out, &"pages".into()).ok().and_then(|v| v.as_f64()).map(|p| p as u32);
    Ok(DocText { text: text(&out, "text"), kind: text(&out, "kind"), cut: flag(&out, "cut"), chars: num(&out, "chars"), pages })
}
