//! `citelens nli`: one pair from flags, or JSON lines from a file or standard input.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use citelens_nli::{NliModel, Prediction};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Map, Value};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["premise", "input"])))]
pub struct NliArgs {
    /// Evidence text.
    #[arg(long, requires = "hypothesis")]
    premise: Option<String>,
    /// Claim to check against the premise.
    #[arg(long, requires = "premise")]
    hypothesis: Option<String>,
    /// JSON lines with "premise" and "hypothesis" ("-" for standard input).
    #[arg(long, conflicts_with_all = ["premise", "hypothesis"])]
    input: Option<String>,
    /// Where to write JSON lines (default: standard output).
    #[arg(long, requires = "input")]
    output: Option<PathBuf>,
    /// Model directory (default: the shipped model).
    #[arg(long)]
    model: Option<PathBuf>,
    #[command(flatten)]
    runtime: citelens_bench::setup::RuntimeArgs,
    /// Lines scored together.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
    chunk: u32,
}

pub fn run(args: NliArgs) -> anyhow::Result<ExitCode> {
    let model = citelens_bench::setup::load_model_on(args.model.clone(), &args.runtime)?;
    match (&args.premise, &args.hypothesis, &args.input) {
        (Some(p), Some(h), None) => single(&model, p, h),
        (None, None, Some(input)) => lines(&model, input, args.output.as_deref(), args.chunk as usize),
        _ => anyhow::bail!("give --premise and --hypothesis, or --input"),
    }
}

fn single(model: &NliModel, premise: &str, hypothesis: &str) -> anyhow::Result<ExitCode> {
    let p = model.predict(premise, hypothesis)?;
    let pr = p.probabilities;
    println!("entailment     {:.4}", pr.entailment);
    println!("neutral        {:.4}", pr.neutral);
    println!("contradiction  {:.4}", pr.contradiction);
    println!(
        "verdict: {} (premise window {}/{}, bytes {}..{})",
        pr.label(),
        p.window.index + 1,
        p.window.count,
        p.window.start,
        p.window.end
    );
    Ok(ExitCode::SUCCESS)
}

/// A parsed input line: its object and the pair in it, or why it is unusable.
type Parsed = Result<(Map<String, Value>, String, String), String>;

fn parse_line(line: &str) -> Parsed {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let Value::Object(obj) = value else { return Err("not a JSON object".into()) };
    let field = |k: &str| match obj.get(k) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("\"{k}\" is not a string")),
        None => Err(format!("missing \"{k}\"")),
    };
    let (p, h) = (field("premise")?, field("hypothesis")?);
    Ok((obj, p, h))
}

fn with_scores(mut obj: Map<String, Value>, p: &Prediction) -> Value {
    let pr = p.probabilities;
    obj.insert("entailment".into(), json!(pr.entailment));
    obj.insert("neutral".into(), json!(pr.neutral));
    obj.insert("contradiction".into(), json!(pr.contradiction));
    obj.insert("label".into(), json!(pr.label()));
    if let Some(f) = p.four_way {
        obj.insert("four_way".into(), json!(f));
    }
    if let Some(e) = p.evidence {
        obj.insert("evidence".into(), json!(e));
    }
    obj.insert("window".into(), json!(p.window));
    Value::Object(obj)
}

fn lines(model: &NliModel, input: &str, output: Option<&std::path::Path>, chunk: usize) -> anyhow::Result<ExitCode> {
    let (reader, total): (Box<dyn BufRead>, Option<u64>) = if input == "-" {
        (Box::new(BufReader::new(std::io::stdin())), None)
    } else {
        let count = BufReader::new(std::fs::File::open(input).with_context(|| format!("opening {input}"))?).lines().count();
        let f = std::fs::File::open(input).with_context(|| format!("opening {input}"))?;
        (Box::new(BufReader::new(f)), Some(count as u64))
    };
    let mut out: Box<dyn Write> = match output {
        Some(path) => Box::new(BufWriter::new(std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?)),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let bar = match total {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    bar.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} pairs ({per_sec}, eta {eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    if total.is_some_and(|n| n < 200) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let start = Instant::now();
    let (mut scored, mut failed) = (0usize, 0usize);
    let mut pending: Vec<(usize, Parsed)> = Vec::with_capacity(chunk);
    let mut flush = |pending: &mut Vec<(usize, Parsed)>, out: &mut Box<dyn Write>| -> anyhow::Result<()> {
        let pairs: Vec<(&str, &str)> =
            pending.iter().filter_map(|(_, p)| p.as_ref().ok().map(|(_, a, b)| (a.as_str(), b.as_str()))).collect();
        let mut results = model.predict_batch(&pairs).into_iter();
        for (line_no, parsed) in pending.drain(..) {
            let value = match parsed {
                Ok((obj, _, _)) => match results.next().expect("one result per valid pair") {
                    Ok(pred) => {
                        scored += 1;
                        with_scores(obj, &pred)
                    }
                    Err(e) => error_line(line_no, &e.to_string(), &bar, &mut failed),
                },
                Err(msg) => error_line(line_no, &msg, &bar, &mut failed),
            };
            serde_json::to_writer(&mut *out, &value)?;
            out.write_all(b"\n")?;
            bar.inc(1);
        }
        Ok(())
    };
    for (i, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("reading line {}", i + 1))?;
        if line.trim().is_empty() {
            bar.inc(1);
            continue;
        }
        pending.push((i + 1, parse_line(&line)));
        if pending.len() >= chunk {
            flush(&mut pending, &mut out)?;
        }
    }
    flush(&mut pending, &mut out)?;
    out.flush()?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    eprintln!("scored {scored} pairs in {secs:.2} s ({:.1} pairs/s); {failed} line(s) with errors", scored as f64 / secs.max(1e-9));
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn error_line(line_no: usize, msg: &str, bar: &ProgressBar, failed: &mut usize) -> Value {
    *failed += 1;
    bar.suspend(|| eprintln!("line {line_no}: {msg}"));
    json!({ "line": line_no, "error": msg })
}
