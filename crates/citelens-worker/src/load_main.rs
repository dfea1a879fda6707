//! `citelens-load`: a bounded load generator for citelens-worker (and the figures issue 15 asks for):
//! N clients send M requests each, as fast as answers come back; it prints requests by status, pairs/s
//! and latency percentiles, and with `--pid` the worker's resident memory before and after.
//!
//!   citelens-load --url http://127.0.0.1:8765 --token-file keys.txt --clients 16 --requests 8 \
//!       --pairs tests/fixtures/handmade_pairs.json --pairs-per-request 8
//!   citelens-load ... --verify tests/fixtures/worker/answer.json

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;

#[derive(Parser)]
#[command(name = "citelens-load", about = "Bounded load against citelens-worker: status counts, pairs/s, p50/p99 latency, worker memory")]
struct Cli {
    /// The worker (or a balancer in front of several).
    #[arg(long)]
    url: String,
    /// A file whose first non-comment line is the bearer token.
    #[arg(long)]
    token_file: PathBuf,
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Requests per client.
    #[arg(long, default_value_t = 8)]
    requests: usize,
    /// /v1/nli: a JSON array of [premise, hypothesis] pairs, taken in turn.
    #[arg(long)]
    pairs: Option<PathBuf>,
    #[arg(long, default_value_t = 8)]
    pairs_per_request: usize,
    /// /v1/verify: an input document sent by every request instead.
    #[arg(long)]
    verify: Option<PathBuf>,
    /// The worker's process id: its resident memory is printed before and after.
    #[arg(long)]
    pid: Option<u32>,
    /// Rounds of the whole load (memory is printed after each).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

#[derive(Default)]
struct Tally {
    ok: usize,
    busy: usize,
    other: Vec<String>,
    latencies: Vec<Duration>,
    pairs: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(anyhow::Error::from).and_then(|rt| rt.block_on(run(cli)))
    {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("citelens-load: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<bool> {
    let token = std::fs::read_to_string(&cli.token_file)?
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| anyhow::anyhow!("no token in {}", cli.token_file.display()))?
        .to_string();
    let (path, bodies): (&str, Vec<serde_json::Value>) = match (&cli.pairs, &cli.verify) {
        (Some(p), None) => {
            let all: Vec<(String, String)> = serde_json::from_str(&std::fs::read_to_string(p)?)?;
            anyhow::ensure!(!all.is_empty(), "no pairs in {}", p.display());
            let bodies = (0..cli.clients * cli.requests)
                .map(|r| {
                    let pairs: Vec<_> = (0..cli.pairs_per_request)
                        .map(|k| {
                            let (p, h) = &all[(r * cli.pairs_per_request + k) % all.len()];
                            serde_json::json!({ "premise": p, "hypothesis": h })
                        })
                        .collect();
                    serde_json::json!({ "pairs": pairs })
                })
                .collect();
            ("/v1/nli", bodies)
        }
        (None, Some(v)) => {
            let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(v)?)?;
            ("/v1/verify", vec![doc; cli.clients * cli.requests])
        }
        _ => anyhow::bail!("give --pairs FILE or --verify FILE"),
    };
    let bodies = Arc::new(bodies);
    let client = reqwest::Client::builder().pool_max_idle_per_host(cli.clients).build()?;
    let url = format!("{}{}", cli.url.trim_end_matches('/'), path);
    let mut clean = true;
    if let Some(pid) = cli.pid {
        println!("worker memory before: {} KiB", rss_kib(pid).unwrap_or(0));
    }
    for round in 1..=cli.rounds {
        let started = Instant::now();
        let mut tasks = Vec::new();
        for c in 0..cli.clients {
            let (client, url, token, bodies) = (client.clone(), url.clone(), token.clone(), bodies.clone());
            let requests = cli.requests;
            tasks.push(tokio::spawn(async move {
                let mut t = Tally::default();
                for r in 0..requests {
                    let body = &bodies[c * requests + r];
                    let sent = Instant::now();
                    match client.post(&url).bearer_auth(&token).json(body).send().await {
                        Ok(res) if res.status().is_success() => {
                            let _ = res.bytes().await;
                            t.latencies.push(sent.elapsed());
                            t.ok += 1;
                            t.pairs += body["pairs"].as_array().map_or(0, Vec::len);
                        }
                        Ok(res) if res.status().as_u16() == 429 => {
                            let wait =
                                res.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok()).unwrap_or(1u64);
                            t.busy += 1;
                            // A client that honours Retry-After (bounded: this load never grows).
                            tokio::time::sleep(Duration::from_millis(wait.min(2) * 100)).await;
                        }
                        Ok(res) => t.other.push(format!("HTTP {}", res.status())),
                        Err(e) => t.other.push(e.to_string()),
                    }
                }
                t
            }));
        }
        let mut all = Tally::default();
        for task in tasks {
            let t = task.await?;
            all.ok += t.ok;
            all.busy += t.busy;
            all.pairs += t.pairs;
            all.other.extend(t.other);
            all.latencies.extend(t.latencies);
        }
        let wall = started.elapsed().as_secs_f64();
        all.latencies.sort();
        print!(
            "round {round}: {} clients x {} requests to {path}: {} ok, {} busy (429), {} errors; {:.1} requests/s",
            cli.clients,
            cli.requests,
            all.ok,
            all.busy,
            all.other.len(),
            all.ok as f64 / wall
        );
        if all.pairs > 0 {
            print!(", {:.1} pairs/s", all.pairs as f64 / wall);
        }
        println!(
            "; latency p50 {:.0} ms, p99 {:.0} ms",
            percentile(&all.latencies, 0.5).as_secs_f64() * 1e3,
            percentile(&all.latencies, 0.99).as_secs_f64() * 1e3
        );
        if let Some(pid) = cli.pid {
            println!("worker memory after round {round}: {} KiB", rss_kib(pid).unwrap_or(0));
        }
        if !all.other.is_empty() {
            clean = false;
            eprintln!("errors: {:?}", &all.other[..all.other.len().min(5)]);
        }
    }
    Ok(clean)
}
