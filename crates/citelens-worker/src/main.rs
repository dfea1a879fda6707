//! `citelens-worker --listen 127.0.0.1:PORT --keys-file FILE [--model DIR] [--cors ORIGIN]...`

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use citelens_worker::backend::{BackendChoice, RuntimeChoice, RuntimeConfig};
use citelens_worker::{auth::Keys, serve, AppState, Config, Limits};
use clap::Parser;

#[derive(Parser)]
#[command(name = "citelens-worker", version, about = "citelens' companion server: verification and the NLI model over HTTP")]
struct Cli {
    /// Address to listen on (127.0.0.1:PORT keeps it on this machine).
    #[arg(long)]
    listen: SocketAddr,
    /// Bearer tokens, one per line (at least 16 characters; `#` comments).
    #[arg(long)]
    keys_file: PathBuf,
    /// A model directory (config.json, tokenizer.json, the ONNX file); default: the shipped model.
    #[arg(long)]
    model: Option<PathBuf>,
    /// An origin allowed to call the worker from a browser (repeat for several); none by default.
    #[arg(long)]
    cors: Vec<String>,
    /// Where the model runs.
    #[arg(long, value_enum, default_value = "auto")]
    backend: BackendChoice,
    /// What runs the model on the CPU: onnxruntime (faster, when its library is found) or tract.
    #[arg(long, value_enum, default_value = "auto")]
    runtime: RuntimeChoice,
    /// onnxruntime's shared library (libonnxruntime.so; `pip install onnxruntime` puts it in
    /// site-packages/onnxruntime/capi/); default: $ORT_DYLIB_PATH.
    #[arg(long)]
    ort_library: Option<PathBuf>,
    /// Let onnxruntime run the int8 matrix products on its int8 kernels: faster on the larger model,
    /// but some probabilities move from tract's and the browser's (default: fp32, the same numbers).
    #[arg(long)]
    ort_int8: bool,
    /// Threads running the model, each on its own batches (default: one per core on the CPU, one on a GPU).
    #[arg(long)]
    threads: Option<usize>,
    /// Request bodies over this many bytes get 413.
    #[arg(long, default_value_t = Limits::default().max_body_bytes)]
    max_body_bytes: usize,
    /// Pairs queued at most; past it requests get 429.
    #[arg(long, default_value_t = Limits::default().queue_pairs)]
    queue_pairs: usize,
    /// Padded tokens per model batch.
    #[arg(long, default_value_t = Limits::default().batch_tokens)]
    batch_tokens: usize,
    /// Pairs in one /v1/nli request at most.
    #[arg(long, default_value_t = Limits::default().max_pairs_per_request)]
    max_pairs_per_request: usize,
    /// A request not answered by then gets 503.
    #[arg(long, default_value_t = Limits::default().deadline.as_millis() as u64)]
    deadline_ms: u64,
    /// On shutdown, readiness is off this long before the listener closes.
    #[arg(long, default_value_t = 1000)]
    drain_ms: u64,
    /// Decision thresholds (JSON, as `citelens bench --save-thresholds` writes); default: the engine's.
    #[arg(long)]
    thresholds: Option<PathBuf>,
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("citelens-worker: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    anyhow::ensure!(
        cli.queue_pairs > 0 && cli.batch_tokens > 0 && cli.max_pairs_per_request > 0 && cli.threads != Some(0),
        "--queue-pairs, --batch-tokens, --max-pairs-per-request and --threads must be positive"
    );
    let keys = Keys::from_file(&cli.keys_file).map_err(anyhow::Error::msg)?;
    let model_dir = match cli.model {
        Some(d) => d,
        None => citelens_nli::model_dir::find().map_err(anyhow::Error::msg)?,
    };
    let thresholds = match &cli.thresholds {
        Some(p) => serde_json::from_str(&std::fs::read_to_string(p)?).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?,
        None => citelens_engine::Thresholds::default(),
    };
    let config = Config {
        model_dir,
        keys,
        cors: cli.cors,
        backend: cli.backend,
        runtime: RuntimeConfig { choice: cli.runtime, ort_library: cli.ort_library, ort_int8: cli.ort_int8 },
        model_threads: cli.threads,
        limits: Limits {
            max_body_bytes: cli.max_body_bytes,
            max_pairs_per_request: cli.max_pairs_per_request,
            queue_pairs: cli.queue_pairs,
            batch_tokens: cli.batch_tokens,
            deadline: Duration::from_millis(cli.deadline_ms),
        },
        drain: Duration::from_millis(cli.drain_ms),
        thresholds,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let state = AppState::load(&config)?;
        let listener = tokio::net::TcpListener::bind(cli.listen).await?;
        eprintln!(
            "citelens-worker: {} ({}, {}, {} model threads, sha256 {}) on http://{}",
            state.info.model,
            state.info.backend,
            state.info.runtime,
            state.info.model_threads,
            &state.info.sha256[..12],
            listener.local_addr()?
        );
        serve(listener, state, &config.cors, config.drain, shutdown_signal()).await
    })
}
