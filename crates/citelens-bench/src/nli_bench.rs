//! `citelens nli-bench`: per-pair latency at fixed sequence lengths, after warm-up.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

const PREMISE: &str = "The Puppetoon Movie is a 1987 animated film written, produced, and directed by Arnold \
Leibovit. It collects the stop-motion shorts George Pal made for Paramount in the 1940s, with new linking scenes.";
const HYPOTHESIS: &str = "George Pal directed a production called Puppetoons.";

#[derive(Args)]
pub struct BenchArgs {
    /// Sequence lengths in tokens.
    #[arg(long, value_delimiter = ',', default_values_t = [64usize, 128])]
    tokens: Vec<usize>,
    /// Timed runs per length (after warm-up).
    #[arg(long, default_value_t = 50)]
    iters: usize,
    /// Also time batches of this many pairs (0: skip).
    #[arg(long, default_value_t = 16)]
    batch: usize,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    #[arg(long)]
    model: Option<PathBuf>,
    #[command(flatten)]
    runtime: crate::setup::RuntimeArgs,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let model = crate::setup::load_model_on(args.model, &args.runtime)?;
    let runtime = format!("{} native", model.runtime());
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    let iters = args.iters.max(1);
    let mut rows = Vec::new();
    for &len in &args.tokens {
        let seq = model.sequence_of_length(PREMISE, HYPOTHESIS, len)?;
        for _ in 0..3 {
            model.raw_logits(&[&seq])?;
        }
        let single: Vec<f64> = (0..iters)
            .map(|_| {
                let t = Instant::now();
                model.raw_logits(&[&seq]).map(|_| t.elapsed().as_secs_f64() * 1e3)
            })
            .collect::<Result<_, _>>()?;
        let batched = if args.batch > 0 {
            let rows: Vec<_> = std::iter::repeat_n(&seq, args.batch).collect();
            model.raw_logits(&rows)?;
            let runs = (iters / args.batch).max(3);
            let times: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    model.raw_logits(&rows).map(|_| t.elapsed().as_secs_f64() * 1e3 / args.batch as f64)
                })
                .collect::<Result<_, _>>()?;
            Some(median(times))
        } else {
            None
        };
        rows.push((len, median(single), batched));
    }
    if args.json {
        let lengths: Vec<_> =
            rows.iter().map(|(len, s, b)| serde_json::json!({"tokens": len, "ms_per_pair_batch1": s, "ms_per_pair_batched": b})).collect();
        println!("{}", serde_json::json!({"runtime": runtime, "load_ms": load_ms, "batch": args.batch, "lengths": lengths}));
    } else {
        println!(
            "{runtime} ({} threads available), model loaded in {load_ms:.0} ms",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        );
        println!("{:>7} {:>18} {:>24}", "tokens", "ms/pair (batch 1)", format!("ms/pair (batch {})", args.batch));
        for (len, s, b) in &rows {
            println!("{len:>7} {s:>18.2} {:>24}", b.map_or("-".into(), |b| format!("{b:.2}")));
        }
    }
    Ok(ExitCode::SUCCESS)
}
