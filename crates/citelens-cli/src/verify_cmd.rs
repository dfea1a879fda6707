//! `citelens verify`: one JSON document (or JSON lines) in, one report per document out.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use citelens_bench::setup::{self, SentenceDecider};
use citelens_engine::Input;
use clap::{Args, ValueEnum};

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Json,
    Pretty,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Input document, or JSON lines of documents ("-" for standard input).
    #[arg(long)]
    input: String,
    /// `json` (the report) or `pretty` (coloured answer, categories and reasoning graph).
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
    /// Model directory (default: the shipped model).
    #[arg(long)]
    model: Option<PathBuf>,
    /// JSON file of decision thresholds (default: the engine's, tuned on dev data).
    #[arg(long)]
    thresholds: Option<PathBuf>,
    /// A long document (.txt, .html or .pdf) the answer draws on, added to each input as a
    /// citation (id: the next number). An answer without markers is then checked post hoc, every
    /// sentence against every document.
    #[arg(long)]
    document: Vec<PathBuf>,
    /// What decides a sentence's category: the rules with the four-way head (the default), the learned
    /// combiner over the model's sentence head and the engine's readings, or the sentence head alone.
    #[arg(long, value_enum, default_value = "rules")]
    decide: SentenceDecider,
}

/// Reads `path` ("-": standard input) as one JSON document or as JSON lines.
pub fn read_documents(path: &str) -> anyhow::Result<Vec<Result<Input, String>>> {
    let mut text = String::new();
    if path == "-" {
        std::io::stdin().read_to_string(&mut text).context("reading standard input")?;
    } else {
        text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    }
    if serde_json::from_str::<serde_json::Value>(&text).is_ok() {
        return Ok(vec![Input::from_json(&text).map_err(|e| e.to_string())]);
    }
    Ok(text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| Input::from_json(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect())
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut docs = read_documents(&args.input)?;
    let mut documents = Vec::new();
    for path in &args.document {
        documents.push((path, citelens_bench::doc_text::read(path)?));
    }
    for input in docs.iter_mut().flatten() {
        for (path, text) in &documents {
            let id = (1..).map(|n: usize| n.to_string()).find(|id| input.citations.iter().all(|c| &c.id != id)).expect("a free id");
            let title = path.file_name().map(|n| n.to_string_lossy().into_owned());
            input.citations.push(citelens_engine::Citation { id, title, document: Some(text.clone()), ..Default::default() });
        }
    }
    let mut engine = setup::load_engine(args.model, args.thresholds)?;
    setup::set_decider(&mut engine, args.decide, None)?;
    let single = docs.len() == 1;
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for (i, doc) in docs.into_iter().enumerate() {
        let report = doc.and_then(|d| engine.verify(&d).map(|r| (d, r)).map_err(|e| e.to_string()));
        match (report, args.format) {
            (Ok((_, r)), Format::Json) if single => writeln!(out, "{}", serde_json::to_string_pretty(&r)?)?,
            (Ok((_, r)), Format::Json) => writeln!(out, "{}", serde_json::to_string(&r)?)?,
            (Ok((d, r)), Format::Pretty) => crate::pretty::write(&mut out, &d, &r)?,
            (Err(e), _) => {
                failed += 1;
                eprintln!("citelens verify: document {}: {e}", i + 1);
                writeln!(out, "{}", serde_json::json!({ "document": i + 1, "error": e }))?;
            }
        }
    }
    Ok(if failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
