//! `citelens`: the command line over citelens' engine. Thin commands: `verify`, `nli` and `schema`
//! here; the benchmarks and training pairs in `citelens-bench` (which also loads the model for
//! every command); `generate caqa` in `citelens-caqa-gen`.

mod generate;
mod nli_cmd;
mod pretty;
mod verify_cmd;

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
    NliBench(citelens_bench::nli_bench::BenchArgs),
    /// Verify cited answers: categories, spans, complexity and knowledge-graph metrics as a JSON report.
    Verify(verify_cmd::VerifyArgs),
    /// Score the engine on a labelled data set: per-category F1, macro/micro-F1, confusion, pairs/s.
    Bench(citelens_bench::bench::BenchArgs),
    /// Make labelled benchmark data (CAQA-style, from a knowledge graph).
    Generate(generate::GenerateArgs),
    /// The whole-sentence (evidence, sentence) pairs of a labelled data set, with gold: training rows for the four-way head.
    Pairs(citelens_bench::pairs::PairsArgs),
    /// Time one answer against one long document (after the model is loaded): in all, in the model, in the engine.
    DocBench(citelens_bench::doc_bench::DocBenchArgs),
    /// Print the JSON Schema of the `verify` input document.
    Schema,
}

/// A reader that stops early (`citelens bench … | head`) ends the command quietly, as it ends `cat`:
/// Rust's runtime ignores SIGPIPE, so every print after the reader closed would panic ("failed printing
/// to stdout") with the work half done; the default action ends the process at the first such print.
#[cfg(unix)]
fn quiet_on_closed_pipe() {
    // SAFETY: called first thing in main, before any other thread exists; SIG_DFL is a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn quiet_on_closed_pipe() {}

fn main() -> std::process::ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Nli(args) => nli_cmd::run(args),
        Command::NliBench(args) => citelens_bench::nli_bench::run(args),
        Command::Verify(args) => verify_cmd::run(args),
        Command::Bench(args) => citelens_bench::bench::run(args),
        Command::DocBench(args) => citelens_bench::doc_bench::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Pairs(args) => citelens_bench::pairs::run(args),
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
