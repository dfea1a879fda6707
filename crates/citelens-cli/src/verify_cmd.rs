//! `citelens verify`: one JSON document (or JSON lines) in, one report per document out.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use citelens_engine::{Engine, Input, Thresholds};
use citelens_nli::NliModel;
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
    /// What decides a sentence's category: the rules with the four-way head, or the learned combiner.
    #[arg(long, value_enum, default_value = "rules")]
    decide: SentenceDecider,
}

/// What decides a sentence's category.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum SentenceDecider {
    /// CAQA's rule over the claims, with the four-way head where the rules leave it open (the default).
    Rules,
    /// The learned combiner over the engine's readings (`training/combiner.py`).
    Combiner,
}

/// The combiner `decide` asks for: the shipped one, or the file `path` names.
pub fn sentence_decider(decide: SentenceDecider, path: Option<&std::path::Path>) -> anyhow::Result<Option<citelens_engine::Combiner>> {
    Ok(match (decide, path) {
        (SentenceDecider::Rules, _) => None,
        (SentenceDecider::Combiner, Some(path)) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            Some(citelens_engine::Combiner::from_json(&text).with_context(|| path.display().to_string())?)
        }
        (SentenceDecider::Combiner, None) => Some(citelens_engine::Combiner::shipped()),
    })
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

pub fn load_engine(model: Option<PathBuf>, thresholds: Option<PathBuf>) -> anyhow::Result<Engine<NliModel>> {
    let nli = crate::load_model(model)?;
    let mut engine = Engine::new(nli);
    if let Some(path) = thresholds {
        engine.thresholds = read_thresholds(&path)?;
    }
    Ok(engine)
}

/// A thresholds file (`--thresholds`, as `bench --save-thresholds` writes it).
pub fn read_thresholds(path: &std::path::Path) -> anyhow::Result<Thresholds> {
    serde_json::from_str(&std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?)
        .with_context(|| format!("{} is not a thresholds file", path.display()))
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let mut docs = read_documents(&args.input)?;
    let mut documents = Vec::new();
    for path in &args.document {
        documents.push((path, crate::doc_text::read(path)?));
    }
    for input in docs.iter_mut().flatten() {
        for (path, text) in &documents {
            let id = (1..).map(|n: usize| n.to_string()).find(|id| input.citations.iter().all(|c| &c.id != id)).expect("a free id");
            let title = path.file_name().map(|n| n.to_string_lossy().into_owned());
            input.citations.push(citelens_engine::Citation { id, title, document: Some(text.clone()), ..Default::default() });
        }
    }
    let mut engine = load_engine(args.model, args.thresholds)?;
    engine.combiner = sentence_decider(args.decide, None)?;
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
