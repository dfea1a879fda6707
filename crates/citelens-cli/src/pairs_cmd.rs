//! `citelens pairs`: the whole-sentence (evidence, sentence) pairs the engine gives the four-way
//! head, with each example's gold label: the training rows for that head, made by the same code
//! that makes them at inference.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use citelens_engine::{Caps, Plan, WordOverlap};
use clap::Args;
use serde_json::json;

use crate::bench::datasets::{self, Dataset, Gold};

#[derive(Args)]
pub struct PairsArgs {
    #[arg(long, value_enum)]
    dataset: Dataset,
    #[arg(long)]
    input: PathBuf,
    #[arg(long)]
    out: PathBuf,
    #[arg(long)]
    limit: Option<usize>,
}

/// The gold label as the trainer reads it: a category, or the set of categories a coarser label allows.
fn gold_name(g: Gold) -> &'static str {
    match g {
        Gold::Four(c) => c.as_str(),
        Gold::Binary(true) => "supportive",
        Gold::Binary(false) => "not_supportive",
        Gold::Wice(0) => "supportive",
        Gold::Wice(1) => "partially_supportive",
        Gold::Wice(_) => "not_supported",
    }
}

pub fn run(args: PairsArgs) -> anyhow::Result<ExitCode> {
    let (examples, skipped) = datasets::load(args.dataset, &args.input, args.limit)?;
    let caps = Caps { max_citation_chars: 400_000, max_citations: 64, ..Caps::default() };
    let mut out = std::io::BufWriter::new(std::fs::File::create(&args.out).with_context(|| format!("creating {}", args.out.display()))?);
    let (mut written, mut refused) = (0, 0);
    for ex in &examples {
        let Ok(plan) = Plan::with_whole_sentences(&ex.input, &caps, &WordOverlap, true) else {
            refused += 1;
            continue;
        };
        for (premise, hypothesis) in plan.sentence_pairs() {
            writeln!(out, "{}", json!({"premise": premise, "hypothesis": hypothesis, "gold": gold_name(ex.gold),
                                        "complexity": ex.complexity.map(|c| c.as_str())}))?;
            written += 1;
        }
    }
    out.flush()?;
    println!("{written} pairs from {} examples ({skipped} rows skipped, {refused} refused by the caps) written to {}", examples.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}
