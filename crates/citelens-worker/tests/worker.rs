//! The worker over real HTTP on 127.0.0.1 with the shipped model: auth, CORS, limits (413, 429 with a
//! queue of one, the deadline's 503), readiness through shutdown, abandoned requests, the OpenAPI
//! document, and /v1/verify and /v1/nli against the engine and the model crate in-process.

use std::sync::Arc;
use std::time::Duration;

use citelens_engine::{Engine, Input};
use citelens_nli::NliModel;
use citelens_worker::{auth::Keys, backend::BackendChoice, serve, AppState, Config, Limits};
use serde_json::{json, Value};

const KEY: &str = "worker-test-key-0123456789";

struct Running {
    base: String,
    state: Arc<AppState>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

fn model_dir() -> std::path::PathBuf {
    citelens_nli::model_dir::find().expect("the shipped model")
}

async fn start(limits: Limits, cors: Vec<String>, drain: Duration) -> Running {
    start_with(model_dir(), limits, cors, drain).await
}

fn config(dir: std::path::PathBuf, limits: Limits, cors: Vec<String>, drain: Duration) -> Config {
    Config {
        model_dir: dir,
        keys: Keys::from_text(&format!("# test\n{KEY}\n")).unwrap(),
        cors,
        backend: BackendChoice::Cpu,
        runtime: citelens_worker::backend::RuntimeConfig { choice: citelens_worker::backend::RuntimeChoice::Tract, ..Default::default() },
        model_threads: None,
        limits,
        drain,
        thresholds: Default::default(),
    }
}

async fn start_with(dir: std::path::PathBuf, limits: Limits, cors: Vec<String>, drain: Duration) -> Running {
    let config = config(dir, limits, cors, drain);
    serve_state(AppState::load(&config).unwrap(), config.cors, drain).await
}

/// Serves `state` on a free port of 127.0.0.1 until the test sends `stop`.
async fn serve_state(state: Arc<AppState>, cors: Vec<String>, drain: Duration) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let serving = state.clone();
    let done = tokio::spawn(async move {
        serve(listener, serving, &cors, drain, async move {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    Running { base, state, stop: Some(stop), done }
}

/// A model the test controls, so that no test depends on how fast this machine scores: a pair whose
/// premise starts with `HELD` waits until the test opens the gate; every other pair scores at once
/// (entailment 0.9). It records every premise it is given.
struct GatedModel {
    open: std::sync::Mutex<bool>,
    opened: std::sync::Condvar,
    holding: std::sync::atomic::AtomicBool,
    seen: std::sync::Mutex<Vec<String>>,
}

const HELD: &str = "HELD: the committee met in the old hall and discussed the harbour.";

impl GatedModel {
    fn open(&self) {
        *self.open.lock().unwrap() = true;
        self.opened.notify_all();
    }
    fn holding(&self) -> bool {
        self.holding.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl citelens_worker::batcher::PairModel for GatedModel {
    fn predict(&self, pairs: &[(&str, &str)]) -> Vec<Result<citelens_engine::report::Probs, citelens_engine::ScoreError>> {
        self.seen.lock().unwrap().extend(pairs.iter().map(|(p, _)| p.to_string()));
        if pairs.iter().any(|(p, _)| p.starts_with("HELD")) {
            self.holding.store(true, std::sync::atomic::Ordering::SeqCst);
            let mut open = self.open.lock().unwrap();
            while !*open {
                open = self.opened.wait(open).unwrap();
            }
        }
        pairs
            .iter()
            .map(|_| {
                Ok(citelens_engine::report::Probs { entailment: 0.9, neutral: 0.08, contradiction: 0.02, four_way: None, evidence: None })
            })
            .collect()
    }
    fn tokens(&self, premise: &str, hypothesis: &str) -> usize {
        (premise.len() + hypothesis.len()) / 4 + 1
    }
}

/// Opens the gate when the test ends, passed or failed, so the batcher's thread is never left waiting.
struct OpenOnDrop(Arc<GatedModel>);

impl Drop for OpenOnDrop {
    fn drop(&mut self) {
        self.0.open();
    }
}

async fn start_gated(limits: Limits) -> (Running, Arc<GatedModel>, OpenOnDrop) {
    let gate = Arc::new(GatedModel {
        open: Default::default(),
        opened: Default::default(),
        holding: Default::default(),
        seen: Default::default(),
    });
    // One model thread: pairs queue behind the held one (a second thread would score them).
    let config = Config { model_threads: Some(1), ..config(std::path::PathBuf::new(), limits, vec![], Duration::from_millis(10)) };
    let loaded = citelens_worker::backend::Loaded {
        model: gate.clone(),
        name: "gated-test-model".into(),
        sha256: "-".into(),
        four_way: false,
        sentence_pairs: citelens_engine::SentencePairs::None,
        evidence: false,
        backend: citelens_worker::backend::Backend::Cpu,
        runtime: citelens_nli::RuntimeKind::Tract,
    };
    let running = serve_state(AppState::with_model(&config, loaded), config.cors, config.drain).await;
    (running, gate.clone(), OpenOnDrop(gate))
}

/// Polls `ready` until it holds. The bound only turns a hang into a failure with a message; it is
/// far above anything the condition needs on a slow machine.
async fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(120), "{what} never happened");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

fn close(a: &Value, b: &Value, path: &str) {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-4, "{path}: {x} vs {y}");
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>(), "{path}: keys");
            for (k, v) in x {
                close(v, &y[k], &format!("{path}/{k}"));
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{path}: length");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                close(p, q, &format!("{path}[{i}]"));
            }
        }
        _ => assert_eq!(a, b, "{path}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn auth_health_info_openapi_metrics() {
    let w = start(Limits::default(), vec![], Duration::from_millis(10)).await;
    let c = client();
    // Public: health and the API's description.
    assert_eq!(c.get(format!("{}/health/live", w.base)).send().await.unwrap().status(), 200);
    assert_eq!(c.get(format!("{}/health/ready", w.base)).send().await.unwrap().status(), 200);
    let doc: Value = c.get(format!("{}/openapi.json", w.base)).send().await.unwrap().json().await.unwrap();
    for path in ["/v1/verify", "/v1/nli", "/v1/info", "/health/live", "/health/ready", "/metrics"] {
        assert!(doc["paths"][path].is_object(), "{path} in the OpenAPI document");
    }
    assert!(doc["components"]["schemas"]["Input"]["properties"]["answer"].is_object(), "the engine's input schema");
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    // Everything else needs a key: none, a wrong one, a near miss, the right one.
    for auth in [None, Some("Bearer nope"), Some(&format!("Bearer {}x", KEY)[..]), Some(&format!("Basic {KEY}")[..])] {
        let mut req = c.get(format!("{}/v1/info", w.base));
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let res = req.send().await.unwrap();
        assert_eq!(res.status(), 401, "{auth:?}");
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"]["kind"], "unauthorized");
    }
    let info: Value = c.get(format!("{}/v1/info", w.base)).bearer_auth(KEY).send().await.unwrap().json().await.unwrap();
    let config: Value = serde_json::from_slice(&std::fs::read(model_dir().join("config.json")).unwrap()).unwrap();
    assert_eq!(info["sha256"], config["model_sha256"], "the hash the browser compares");
    assert_eq!(info["labels"], json!(["entailment", "neutral", "contradiction"]));
    assert_eq!(info["backend"], "cpu");
    assert_eq!(info["runtime"], "tract");
    assert_eq!(c.get(format!("{}/metrics", w.base)).send().await.unwrap().status(), 401);
    let metrics = c.get(format!("{}/metrics", w.base)).bearer_auth(KEY).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("citelens_worker_rejected_requests_total{reason=\"unauthorized\"} 5"), "{metrics}");
    assert!(metrics.contains("citelens_worker_http_requests_total{route=\"/v1/info\",status=\"200\"} 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn cors_allow_list_with_the_authorization_header() {
    let w = start(Limits::default(), vec!["http://127.0.0.1:9000".into()], Duration::from_millis(10)).await;
    let c = client();
    let preflight = |origin: &'static str| {
        c.request(reqwest::Method::OPTIONS, format!("{}/v1/verify", w.base))
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "authorization,content-type")
            .send()
    };
    let ok = preflight("http://127.0.0.1:9000").await.unwrap();
    assert_eq!(ok.headers()["access-control-allow-origin"], "http://127.0.0.1:9000");
    let allowed = ok.headers()["access-control-allow-headers"].to_str().unwrap().to_ascii_lowercase();
    assert!(allowed.contains("authorization") && allowed.contains("content-type"), "{allowed}");
    assert!(ok.headers().get("access-control-allow-credentials").is_none());
    let other = preflight("https://evil.example").await.unwrap();
    assert!(other.headers().get("access-control-allow-origin").is_none(), "an origin not listed gets no CORS grant");
    // `*` is refused at start-up.
    let config_state = w.state.clone();
    assert!(citelens_worker::router(config_state, &["*".to_string()]).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn body_limit_queue_of_one_and_deadline() {
    let limits = Limits { max_body_bytes: 200_000, queue_pairs: 1, deadline: Duration::from_secs(60), ..Limits::default() };
    let (w, gate, _open) = start_gated(limits).await;
    let c = client();
    // 413, typed.
    let big = json!({ "pairs": [{ "premise": "x".repeat(300_000), "hypothesis": "y" }] });
    let res = c.post(format!("{}/v1/nli", w.base)).bearer_auth(KEY).json(&big).send().await.unwrap();
    assert_eq!(res.status(), 413);
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["kind"], "too_large");
    // More pairs than the queue can ever hold: a bad request, not "try later".
    let two = json!({ "pairs": [{ "premise": "a", "hypothesis": "b" }, { "premise": "c", "hypothesis": "d" }] });
    assert_eq!(c.post(format!("{}/v1/nli", w.base)).bearer_auth(KEY).json(&two).send().await.unwrap().status(), 400);
    // A queue of one: while a pair is being scored (held by the test), the next request is turned
    // away with Retry-After.
    let held = json!({ "pairs": [{ "premise": HELD, "hypothesis": "The committee discussed the harbour." }] });
    let first = tokio::spawn({
        let (c, url) = (c.clone(), format!("{}/v1/nli", w.base));
        async move { c.post(url).bearer_auth(KEY).json(&held).send().await.unwrap() }
    });
    until("the held pair reaching the model", || gate.holding()).await;
    let one = json!({ "pairs": [{ "premise": "A man plays a guitar.", "hypothesis": "A man plays music." }] });
    let busy = c.post(format!("{}/v1/nli", w.base)).bearer_auth(KEY).json(&one).send().await.unwrap();
    assert_eq!(busy.status(), 429);
    assert_eq!(busy.headers()["retry-after"], "1");
    assert_eq!(busy.json::<Value>().await.unwrap()["error"]["kind"], "busy");
    gate.open();
    let done: Value = first.await.unwrap().json().await.unwrap();
    assert!(done["results"][0]["entailment"].as_f64().unwrap() > 0.5, "{done}");
    // Room again.
    assert_eq!(c.post(format!("{}/v1/nli", w.base)).bearer_auth(KEY).json(&one).send().await.unwrap().status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn deadline_gives_503_and_abandoned_pairs_never_reach_the_model() {
    let deadline = Duration::from_millis(300);
    let (w, gate, _open) = start_gated(Limits { deadline, ..Limits::default() }).await;
    let c = client();
    // The model holds this pair until the test lets it go: the request's deadline passes first.
    let held = json!({ "pairs": [{ "premise": HELD, "hypothesis": "The committee discussed the harbour." }] });
    let first = tokio::spawn({
        let (c, url) = (c.clone(), format!("{}/v1/nli", w.base));
        async move { c.post(url).bearer_auth(KEY).json(&held).send().await.unwrap() }
    });
    // Events, not a clock: the pair reaches the model, and the model holds it until the test opens the gate.
    until("the held pair reaching the model", || gate.holding()).await;
    let res = first.await.unwrap();
    assert_eq!(res.status(), 503);
    assert_eq!(res.json::<Value>().await.unwrap()["error"]["kind"], "deadline");
    assert!(gate.holding(), "the held pair was being scored when its deadline passed");
    // Pairs sent now wait behind it, and their client gives up: they must be dropped, not scored.
    let five: Vec<Value> =
        (0..5).map(|i| json!({ "premise": format!("Room {i} shows maps."), "hypothesis": "The room shows maps." })).collect();
    let waiting = tokio::spawn({
        let (c, url) = (c.clone(), format!("{}/v1/nli", w.base));
        async move { c.post(url).bearer_auth(KEY).json(&json!({ "pairs": five })).send().await }
    });
    until("the five pairs queued behind the held one", || w.state.batcher.queued() > 5).await;
    let queued_at = std::time::Instant::now();
    waiting.abort();
    // Their deadline has surely passed (at least `deadline` since they were queued) before the model
    // is free again: gone or late, none of them may reach it.
    until("the five pairs' deadline passing", || queued_at.elapsed() > deadline).await;
    assert_eq!(w.state.metrics.pairs_scored.get(), 0, "the held pair is still being scored while the five wait");
    gate.open();
    until("the queue draining", || w.state.batcher.queued() == 0).await;
    let m = c.get(format!("{}/metrics", w.base)).bearer_auth(KEY).send().await.unwrap().text().await.unwrap();
    let abandoned = w.state.metrics.abandoned_pairs.get() + w.state.metrics.late_pairs.get();
    assert_eq!(abandoned, 5, "{m}");
    assert_eq!(w.state.metrics.pairs_scored.get(), 1, "only the held pair reached the model");
    assert_eq!(*gate.seen.lock().unwrap(), vec![HELD.to_string()], "the model saw the held pair and nothing else");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn verify_and_nli_equal_the_engine_and_the_model() {
    let w = start(Limits::default(), vec![], Duration::from_millis(10)).await;
    let c = client();
    let model = NliModel::from_dir(model_dir()).unwrap();
    let engine = Engine::new(model);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cases = std::fs::read_to_string(root.join("tests/fixtures/cases.jsonl")).unwrap();
    let mut inputs: Vec<Value> = cases
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(6)
        .map(|l| {
            let row: Value = serde_json::from_str(l).unwrap();
            row.get("input").cloned().unwrap_or(row)
        })
        .collect();
    // A long document, found post hoc.
    let doc = std::fs::read_to_string(root.join("tests/fixtures/long_document/answer_pmc101395.txt")).unwrap();
    inputs.push(json!({ "answer": "Diclofenac did not alter the formation of codeine-6-glucuronide.", "citations": [{ "id": "1", "document": format!("Background.\n\n{doc}\n\nOther findings were not reported.") }] }));
    // Sent at once: their pairs share batches, and each still gets its own report.
    let mut tasks = Vec::new();
    for input in &inputs {
        let (c, url, body) = (c.clone(), format!("{}/v1/verify", w.base), input.clone());
        tasks.push(tokio::spawn(
            async move { c.post(url).bearer_auth(KEY).json(&body).send().await.unwrap().json::<Value>().await.unwrap() },
        ));
    }
    for (input, task) in inputs.iter().zip(tasks) {
        let mut got = task.await.unwrap();
        assert_eq!(got["computed_on"], "worker", "{got}");
        got.as_object_mut().unwrap().remove("computed_on");
        let parsed = Input::from_json(&input.to_string()).unwrap();
        let want: Value = serde_json::from_str(&serde_json::to_string(&engine.verify(&parsed).unwrap()).unwrap()).unwrap();
        // Equal apart from float rounding: a pair batched with other requests' pairs is padded
        // differently, which moves probabilities in the sixth decimal.
        close(&got, &want, "report");
    }
    let pairs = vec![
        ("A man is playing a guitar on a stage.", "A man is playing music."),
        ("A man is playing a guitar on a stage.", "A woman is playing the drums."),
        ("The tower is 330 metres tall.", "The tower is 500 metres tall."),
    ];
    let body = json!({ "pairs": pairs.iter().map(|(p, h)| json!({ "premise": p, "hypothesis": h })).collect::<Vec<_>>() });
    let got: Value = c.post(format!("{}/v1/nli", w.base)).bearer_auth(KEY).json(&body).send().await.unwrap().json().await.unwrap();
    let want = engine_model_probs(&pairs);
    for (i, (g, (e, n, k))) in got["results"].as_array().unwrap().iter().zip(want).enumerate() {
        for (name, v) in [("entailment", e), ("neutral", n), ("contradiction", k)] {
            assert!((g[name].as_f64().unwrap() - v as f64).abs() < 1e-5, "pair {i} {name}: {g} vs {v}");
        }
    }
}

fn engine_model_probs(pairs: &[(&str, &str)]) -> Vec<(f32, f32, f32)> {
    let model = NliModel::from_dir(model_dir()).unwrap();
    model
        .predict_batch(pairs)
        .into_iter()
        .map(|r| {
            let p = r.unwrap().probabilities;
            (p.entailment, p.neutral, p.contradiction)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn shutdown_turns_readiness_off_first() {
    // A drain long beside the few requests made during it (a slow machine must not reach its end first).
    let mut w = start(Limits::default(), vec![], Duration::from_secs(5)).await;
    let c = client();
    assert_eq!(c.get(format!("{}/health/ready", w.base)).send().await.unwrap().status(), 200);
    w.stop.take().unwrap().send(()).unwrap();
    until("readiness going off", || !w.state.ready.load(std::sync::atomic::Ordering::SeqCst)).await;
    // Draining: not ready, still alive and answering.
    let ready = c.get(format!("{}/health/ready", w.base)).send().await.unwrap();
    assert_eq!(ready.status(), 503);
    assert_eq!(ready.json::<Value>().await.unwrap()["error"]["kind"], "not_ready");
    assert_eq!(c.get(format!("{}/health/live", w.base)).send().await.unwrap().status(), 200);
    tokio::time::timeout(Duration::from_secs(120), w.done).await.expect("the server stops after draining").unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_model_directory_with_its_own_label_order() {
    // The shipped model, described as a model that outputs contradiction, entailment, neutral: the
    // worker must map those outputs onto our labels (here, a rotation of the true probabilities).
    let dir = std::env::temp_dir().join(format!("citelens-permuted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = model_dir();
    for f in ["model.onnx", "tokenizer.json"] {
        std::fs::copy(shipped.join(f), dir.join(f)).unwrap();
    }
    let mut config: Value = serde_json::from_slice(&std::fs::read(shipped.join("config.json")).unwrap()).unwrap();
    config["labels"] = json!(["CONTRADICTION", "ENTAILMENT", "NEUTRAL"]);
    config["name"] = json!("permuted-labels");
    std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
    let w = start_with(dir.clone(), Limits::default(), vec![], Duration::from_millis(10)).await;
    let c = client();
    let info: Value = c.get(format!("{}/v1/info", w.base)).bearer_auth(KEY).send().await.unwrap().json().await.unwrap();
    assert_eq!(info["model"], "permuted-labels");
    let pair = ("A man is playing a guitar on a stage.", "A man is playing music.");
    let got: Value = c
        .post(format!("{}/v1/nli", w.base))
        .bearer_auth(KEY)
        .json(&json!({ "pairs": [{ "premise": pair.0, "hypothesis": pair.1 }] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let (e, n, k) = engine_model_probs(&[pair])[0];
    let r = &got["results"][0];
    // Output 0 (really entailment) is now called contradiction, output 1 (neutral) entailment, output 2 (contradiction) neutral.
    for (name, want) in [("contradiction", e), ("entailment", n), ("neutral", k)] {
        assert!((r[name].as_f64().unwrap() - want as f64).abs() < 1e-5, "{name}: {r} vs {want}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Any cross-encoder: a tiny MPNet-type model (no token_type_ids, RoBERTa-style pair format; built by
/// training/tiny_mpnet_fixture.py with the large model's graph builder) served end to end. Its
/// answers equal the model's own, and the report names the model that decided.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mpnet_type_model_is_served_end_to_end() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/tiny_mpnet");
    let mut w = start_with(dir.clone(), Limits::default(), vec![], Duration::from_millis(10)).await;
    let c = client();
    let info: Value = c.get(format!("{}/v1/info", w.base)).bearer_auth(KEY).send().await.unwrap().json().await.unwrap();
    assert_eq!(info["model"], "tiny-mpnet-test");
    assert!(info["model_threads"].as_u64().unwrap() >= 1);
    let model = NliModel::from_dir(&dir).unwrap();
    let pairs =
        [("the tower was finished in 1889", "the tower was finished in 1925"), ("paris is the capital of france", "paris is in france")];
    let body = json!({ "pairs": pairs.iter().map(|(p, h)| json!({ "premise": p, "hypothesis": h })).collect::<Vec<_>>() });
    let got: Value = c.post(format!("{}/v1/nli", w.base)).bearer_auth(KEY).json(&body).send().await.unwrap().json().await.unwrap();
    assert_eq!(got["model"], "tiny-mpnet-test");
    for (i, (p, h)) in pairs.iter().enumerate() {
        let want = model.predict(p, h).unwrap().probabilities;
        let e = got["results"][i]["entailment"].as_f64().unwrap() as f32;
        assert!((e - want.entailment).abs() < 1e-5, "{e} vs {}", want.entailment);
    }
    let input =
        json!({ "answer": "The tower was finished in 1889 [1].", "citations": [{ "id": "1", "text": "the tower was finished in 1889" }] });
    let report: Value = c.post(format!("{}/v1/verify", w.base)).bearer_auth(KEY).json(&input).send().await.unwrap().json().await.unwrap();
    assert_eq!(report["computed_on"], "worker");
    assert_eq!(report["model"], "tiny-mpnet-test", "the report names the model that decided");
    assert_eq!(report["sentences"].as_array().unwrap().len(), 1);
    w.stop.take().unwrap().send(()).unwrap();
    w.done.await.unwrap();
}
