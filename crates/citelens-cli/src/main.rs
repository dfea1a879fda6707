//! `citelens`: the command line over citelens' engine.

mod bench;
mod doc_bench;
mod doc_text;
mod generate;
mod nli_bench;
mod nli_cmd;
mod pairs_cmd;
mod pretty;
mod verify_cmd;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "citelens", version, about = "Verify cited AI answers against their evidence")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Entailment / neutral / contradiction probabilities for premise-hypothesis pairs.
    Nli(nli_cmd::NliArgs),
    /// Per-pair latency of the NLI model at fixed sequence lengths (after warm-up).
    NliBench(nli_bench::BenchArgs),
    /// Verify cited answers: categories, spans, complexity and knowledge-graph metrics as a JSON report.
    Verify(verify_cmd::VerifyArgs),
    /// Score the engine on a labelled data set: per-category F1, macro/micro-F1, confusion, pairs/s.
    Bench(bench::BenchArgs),
    /// Make labelled benchmark data (CAQA-style, from a knowledge graph).
    Generate(generate::GenerateArgs),
    /// The whole-sentence (evidence, sentence) pairs of a labelled data set, with gold: training rows for the four-way head.
    Pairs(pairs_cmd::PairsArgs),
    /// Time one answer against one long document (after the model is loaded): in all, in the model, in the engine.
    DocBench(doc_bench::DocBenchArgs),
    /// Print the JSON Schema of the `verify` input document.
    Schema,
}

/// The model every command runs: `--model DIR`, else the shipped model found without configuration.
/// The one place the CLI loads a model, so each command's error names the folder the same way.
pub fn load_model(explicit: Option<PathBuf>) -> anyhow::Result<citelens_nli::NliModel> {
    let dir = match explicit {
        Some(dir) => dir,
        None => citelens_nli::model_dir::find().map_err(anyhow::Error::msg)?,
    };
    citelens_nli::NliModel::from_dir(&dir).with_context(|| format!("loading model from {}", dir.display()))
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Nli(args) => nli_cmd::run(args),
        Command::NliBench(args) => nli_bench::run(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Bench(args) => bench::run(args),
        Command::DocBench(args) => doc_bench::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Pairs(args) => pairs_cmd::run(args),
        Command::Schema => {
            println!("{}", serde_json::to_string_pretty(&citelens_engine::input_schema()).expect("schema is JSON"));
            Ok(std::process::ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("citelens: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}
