//! citelens-worker: the engine and the model behind an HTTP API (axum), for many answers, long
//! documents, or a model too large for a browser tab. Concurrent requests share model batches
//! (`batcher`); every limit is explicit (body, queue, deadline, pairs per request).

pub mod api;
pub mod auth;
pub mod backend;
pub mod batcher;
pub mod error;
pub mod metrics;
pub mod scorer;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, Method};
use axum::routing::{get, post};
use axum::{middleware, Router};
use citelens_engine::Thresholds;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::auth::Keys;
use crate::batcher::Batcher;
use crate::metrics::Metrics;

/// Everything the worker is started with, converted once from the flags.
#[derive(Clone)]
pub struct Config {
    pub model_dir: PathBuf,
    pub keys: Keys,
    /// Origins allowed by CORS (exact match; never `*`).
    pub cors: Vec<String>,
    pub backend: backend::BackendChoice,
    pub runtime: backend::RuntimeConfig,
    /// Model runner threads; None: one per core on the CPU, one on a GPU.
    pub model_threads: Option<usize>,
    pub limits: Limits,
    /// Time between readiness turning off and the listener closing, so a balancer stops sending.
    pub drain: Duration,
    pub thresholds: Thresholds,
}

#[derive(Clone)]
pub struct Limits {
    pub max_body_bytes: usize,
    pub max_pairs_per_request: usize,
    pub queue_pairs: usize,
    pub batch_tokens: usize,
    pub deadline: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        // A 1 MB document plus its JSON; a few thousand pairs queued; 8 sequences of 128 tokens per batch on
        // CPU (raise --batch-tokens on a GPU); 60 s for a long document on a busy CPU.
        Limits {
            max_body_bytes: 4 * 1024 * 1024,
            max_pairs_per_request: 1024,
            queue_pairs: 4096,
            batch_tokens: 2048,
            deadline: Duration::from_secs(60),
        }
    }
}

pub struct AppState {
    pub batcher: Arc<Batcher>,
    pub metrics: Arc<Metrics>,
    pub keys: Keys,
    pub ready: AtomicBool,
    pub info: api::Info,
    pub four_way: bool,
    pub sentence_pairs: citelens_engine::SentencePairs,
    pub thresholds: Thresholds,
    pub limits: Limits,
}

impl AppState {
    /// Loads the model on the chosen backend and starts the batcher; readiness starts off.
    pub fn load(config: &Config) -> anyhow::Result<Arc<Self>> {
        let cpu_threads = config.model_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Ok(Self::with_model(config, backend::load(&config.model_dir, config.backend, &config.runtime, cpu_threads)?))
    }

    /// The state around a model already loaded (`config.model_dir` and `config.backend` are not
    /// read): the seam through which tests run the server on a model they control.
    pub fn with_model(config: &Config, loaded: backend::Loaded) -> Arc<Self> {
        let metrics = Arc::new(Metrics::new());
        let threads = config.model_threads.unwrap_or_else(|| match loaded.backend {
            backend::Backend::Cpu => std::thread::available_parallelism().map_or(1, |n| n.get()),
            // One stream of kernels: a second runner would only queue behind the first.
            backend::Backend::Cuda => 1,
        });
        let batcher =
            Arc::new(Batcher::start(loaded.model.clone(), config.limits.queue_pairs, config.limits.batch_tokens, threads, metrics.clone()));
        let l = &config.limits;
        let info = api::Info {
            model: loaded.name.clone(),
            sha256: loaded.sha256.clone(),
            labels: citelens_nli::LABELS.iter().map(|s| s.to_string()).collect(),
            four_way_labels: loaded.four_way.then(|| citelens_nli::FOUR_WAY_LABELS.iter().map(|s| s.to_string()).collect()),
            evidence_head: loaded.evidence,
            backend: loaded.backend.to_string(),
            runtime: loaded.runtime.to_string(),
            model_threads: batcher.runners(),
            limits: api::Limits {
                max_body_bytes: l.max_body_bytes,
                max_pairs_per_request: l.max_pairs_per_request,
                queue_pairs: l.queue_pairs,
                batch_tokens: l.batch_tokens,
                deadline_ms: l.deadline.as_millis() as u64,
            },
            version: env!("CARGO_PKG_VERSION").to_string(),
        };
        Arc::new(AppState {
            batcher,
            metrics,
            keys: config.keys.clone(),
            ready: AtomicBool::new(false),
            info,
            four_way: loaded.four_way,
            sentence_pairs: loaded.sentence_pairs,
            thresholds: config.thresholds,
            limits: config.limits.clone(),
        })
    }
}

pub fn router(state: Arc<AppState>, cors: &[String]) -> anyhow::Result<Router> {
    let protected = Router::new()
        .route("/v1/verify", post(api::verify))
        .route("/v1/nli", post(api::nli))
        .route("/v1/info", get(api::info))
        .route("/metrics", get(api::metrics))
        .route_layer(middleware::from_fn_with_state(state.clone(), api::require_key));
    let public = Router::new()
        .route("/health/live", get(api::live))
        .route("/health/ready", get(api::ready))
        .route("/openapi.json", get(api::openapi));
    let mut app = public
        .merge(protected)
        .layer(DefaultBodyLimit::max(state.limits.max_body_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), api::record))
        .with_state(state);
    if !cors.is_empty() {
        let origins = cors
            .iter()
            .map(|o| {
                if o == "*" {
                    anyhow::bail!("--cors takes origins, not `*`");
                }
                HeaderValue::from_str(o).map_err(|_| anyhow::anyhow!("--cors {o:?} is not a valid origin"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        app = app.layer(
            CorsLayer::new()
                .allow_origin(AllowOrigin::list(origins))
                .allow_methods([Method::GET, Method::POST])
                .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
                .max_age(Duration::from_secs(600)),
        );
    }
    Ok(app)
}

/// Serves until `shutdown` resolves; then readiness goes off first, and after `drain` the listener
/// closes and requests in flight finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    cors: &[String],
    drain: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let app = router(state.clone(), cors)?;
    state.ready.store(true, Ordering::SeqCst);
    let draining = state.clone();
    let graceful = async move {
        shutdown.await;
        draining.ready.store(false, Ordering::SeqCst);
        eprintln!("citelens-worker: shutting down: not ready; draining for {} ms", drain.as_millis());
        tokio::time::sleep(drain).await;
    };
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).with_graceful_shutdown(graceful).await?;
    Ok(())
}
