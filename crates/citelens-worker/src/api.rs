//! The HTTP API: handlers, their request and response types, and the OpenAPI document built from them.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, JsonRejection};
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use citelens_engine::{Engine, Input};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use utoipa::{OpenApi, ToSchema};

use crate::error::{ApiError, ErrorBody};
use crate::scorer::{CancelOnDrop, QueueScorer};
use crate::AppState;

#[derive(Deserialize, ToSchema)]
pub struct NliPair {
    pub premise: String,
    pub hypothesis: String,
}

#[derive(Deserialize, ToSchema)]
pub struct NliRequest {
    /// At most `limits.max_pairs_per_request` pairs.
    pub pairs: Vec<NliPair>,
}

#[derive(Serialize, ToSchema)]
pub struct NliResult {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entailment: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub neutral: Option<f32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contradiction: Option<f32>,
    /// Supportive, partially supportive, contradictory, irrelevant (models with the four-way head).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub four_way: Option<[f32; 4]>,
    /// The evidence head's probability (models with that head).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<f32>,
    /// Why this pair has no probabilities (the others are unaffected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct NliResponse {
    pub model: String,
    pub results: Vec<NliResult>,
}

#[derive(Serialize, Clone, ToSchema)]
pub struct Limits {
    pub max_body_bytes: usize,
    pub max_pairs_per_request: usize,
    pub queue_pairs: usize,
    pub batch_tokens: usize,
    pub deadline_ms: u64,
}

#[derive(Serialize, Clone, ToSchema)]
pub struct Info {
    pub model: String,
    /// sha256 of the model file, hex: the browser compares it with its own model's.
    pub sha256: String,
    pub labels: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub four_way_labels: Option<Vec<String>>,
    pub evidence_head: bool,
    /// `cpu` or `cuda`.
    pub backend: String,
    /// `tract` or `ort` (onnxruntime).
    pub runtime: String,
    /// Threads running the model, each on its own batches.
    pub model_threads: usize,
    pub limits: Limits,
    pub version: String,
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    pub status: &'static str,
}

fn body_error(st: &AppState, status: StatusCode, message: String) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        st.metrics.rejected.with_label_values(&["too_large"]).inc();
        ApiError::TooLarge(st.limits.max_body_bytes)
    } else {
        ApiError::BadRequest(message)
    }
}

fn json_rejection(st: &AppState, r: JsonRejection) -> ApiError {
    body_error(st, r.status(), r.body_text())
}

fn bytes_rejection(st: &AppState, r: BytesRejection) -> ApiError {
    body_error(st, r.status(), r.body_text())
}

fn busy(st: &AppState, queued: usize) -> ApiError {
    st.metrics.rejected.with_label_values(&["busy"]).inc();
    // A batch of the queue's size takes about this long on this backend; the client waits that.
    ApiError::Busy { queued, capacity: st.batcher.capacity(), retry_after_s: 1 }
}

/// Verifies one input document: the same report as `citelens verify`, plus `computed_on: "worker"`.
#[utoipa::path(post, path = "/v1/verify", tag = "verify",
    request_body(content = Object, description = "The engine's input document (components.schemas.Input)", content_type = "application/json"),
    responses(
        (status = 200, description = "The report, as `citelens verify` prints it, with `computed_on`", body = Object),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "Queue full: see Retry-After"), (status = 503, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn verify(State(st): State<Arc<AppState>>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = body.map_err(|r| bytes_rejection(&st, r))?;
    let text = std::str::from_utf8(&body).map_err(|_| ApiError::BadRequest("the body is not UTF-8".into()))?;
    let input = Input::from_json(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    if st.batcher.queued() >= st.batcher.capacity() {
        return Err(busy(&st, st.batcher.queued()));
    }
    let deadline = Instant::now() + st.limits.deadline;
    let (cancel_tx, cancel_rx) = watch::channel(false);
    let _cancel = CancelOnDrop(cancel_tx);
    let scorer = QueueScorer {
        batcher: st.batcher.clone(),
        deadline,
        cancel: cancel_rx,
        runtime: tokio::runtime::Handle::current(),
        name: st.info.model.clone(),
        four_way: st.four_way,
        sentence_pairs: st.sentence_pairs,
        evidence: st.info.evidence_head,
    };
    let thresholds = st.thresholds;
    let task = tokio::task::spawn_blocking(move || {
        let mut engine = Engine::new(scorer);
        engine.thresholds = thresholds;
        engine.verify(&input)
    });
    let report = match tokio::time::timeout_at(deadline.into(), task).await {
        Err(_) => {
            st.metrics.rejected.with_label_values(&["deadline"]).inc();
            return Err(ApiError::Deadline(st.limits.deadline.as_millis() as u64));
        }
        Ok(Err(e)) => return Err(ApiError::Internal(format!("the verification failed: {e}"))),
        Ok(Ok(Err(e))) => return Err(ApiError::BadRequest(e.to_string())),
        Ok(Ok(Ok(r))) => r,
    };
    if Instant::now() >= deadline {
        return Err(ApiError::Deadline(st.limits.deadline.as_millis() as u64));
    }
    // Through text, not `to_value`: numbers keep the report's own (f32) spelling, as the CLI prints them.
    let text = serde_json::to_string(&report).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(|e| ApiError::Internal(e.to_string()))?;
    if let Some(obj) = value.as_object_mut() {
        obj.insert("computed_on".into(), serde_json::Value::from("worker"));
    }
    Ok(Json(value).into_response())
}

/// Premise/hypothesis pairs in, the model's probabilities out.
#[utoipa::path(post, path = "/v1/nli", tag = "model", request_body = NliRequest,
    responses((status = 200, body = NliResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 413, body = ErrorBody), (status = 429, body = ErrorBody), (status = 503, body = ErrorBody)),
    security(("bearer" = [])))]
pub async fn nli(State(st): State<Arc<AppState>>, body: Result<Json<NliRequest>, JsonRejection>) -> Result<Json<NliResponse>, ApiError> {
    let Json(req) = body.map_err(|r| json_rejection(&st, r))?;
    if req.pairs.len() > st.limits.max_pairs_per_request {
        return Err(ApiError::BadRequest(format!("{} pairs, more than {} per request", req.pairs.len(), st.limits.max_pairs_per_request)));
    }
    if req.pairs.len() > st.batcher.capacity() {
        return Err(ApiError::BadRequest(format!("{} pairs, more than the queue holds ({})", req.pairs.len(), st.batcher.capacity())));
    }
    let deadline = Instant::now() + st.limits.deadline;
    let pairs: Vec<(String, String)> = req.pairs.into_iter().map(|p| (p.premise, p.hypothesis)).collect();
    let receivers = st.batcher.try_submit(pairs, deadline).map_err(|full| busy(&st, full.queued))?;
    // Dropping this future (the client went away) drops the receivers: the batcher skips the pairs.
    let answers = tokio::time::timeout_at(deadline.into(), crate::batcher::answers(receivers)).await.map_err(|_| {
        st.metrics.rejected.with_label_values(&["deadline"]).inc();
        ApiError::Deadline(st.limits.deadline.as_millis() as u64)
    })?;
    let results = answers
        .into_iter()
        .map(|r| match r {
            Ok(p) => NliResult {
                entailment: Some(p.entailment),
                neutral: Some(p.neutral),
                contradiction: Some(p.contradiction),
                four_way: p.four_way,
                evidence: p.evidence,
                error: None,
            },
            Err(e) => NliResult {
                entailment: None,
                neutral: None,
                contradiction: None,
                four_way: None,
                evidence: None,
                error: Some(e.to_string()),
            },
        })
        .collect();
    Ok(Json(NliResponse { model: st.info.model.clone(), results }))
}

/// The model, its hash, labels, limits and backend.
#[utoipa::path(get, path = "/v1/info", tag = "model", responses((status = 200, body = Info), (status = 401, body = ErrorBody)), security(("bearer" = [])))]
pub async fn info(State(st): State<Arc<AppState>>) -> Json<Info> {
    Json(st.info.clone())
}

/// The process is up.
#[utoipa::path(get, path = "/health/live", tag = "health", responses((status = 200, body = Health)))]
pub async fn live() -> Json<Health> {
    Json(Health { status: "live" })
}

/// The worker takes requests (off while it starts and once it is shutting down).
#[utoipa::path(get, path = "/health/ready", tag = "health", responses((status = 200, body = Health), (status = 503, body = ErrorBody)))]
pub async fn ready(State(st): State<Arc<AppState>>) -> Result<Json<Health>, ApiError> {
    if st.ready.load(Ordering::SeqCst) {
        Ok(Json(Health { status: "ready" }))
    } else {
        Err(ApiError::NotReady)
    }
}

/// Counters in Prometheus' text format.
#[utoipa::path(get, path = "/metrics", tag = "health", responses((status = 200, content_type = "text/plain", body = String), (status = 401, body = ErrorBody)), security(("bearer" = [])))]
pub async fn metrics(State(st): State<Arc<AppState>>) -> Response {
    st.metrics.queue_depth.set(st.batcher.queued() as i64);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], st.metrics.render()).into_response()
}

#[derive(OpenApi)]
#[openapi(
    info(title = "citelens-worker", description = "citelens' companion server: verification and the NLI model over HTTP"),
    paths(verify, nli, info, live, ready, metrics),
    components(schemas(NliPair, NliRequest, NliResult, NliResponse, Info, Limits, Health, ErrorBody, crate::error::ErrorDetail)),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme("bearer", SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()));
    }
}

/// The OpenAPI document: the handlers' paths and types, and the engine's input schema (schemars) as
/// `components.schemas.Input`.
pub fn openapi_document() -> serde_json::Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the document serializes");
    doc["components"]["schemas"]["Input"] = citelens_engine::input_schema();
    doc
}

pub async fn openapi() -> Json<serde_json::Value> {
    Json(openapi_document())
}

/// Bearer auth for the routes it wraps.
pub async fn require_key(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let header = req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    if !st.keys.allows(header) {
        st.metrics.rejected.with_label_values(&["unauthorized"]).inc();
        return ApiError::Unauthorized.into_response();
    }
    next.run(req).await
}

/// Counts every answer by route and status.
pub async fn record(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let route = req.extensions().get::<axum::extract::MatchedPath>().map(|m| m.as_str().to_string()).unwrap_or_else(|| "unmatched".into());
    let res = next.run(req).await;
    st.metrics.requests.with_label_values(&[route.as_str(), res.status().as_str()]).inc();
    res
}
