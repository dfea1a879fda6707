//! `citelens doc-bench`: how long one answer takes against one long document, after the model is
//! loaded: the whole verification, the part spent in the model, and the rest (cutting the document,
//! BM25, planning, deciding), as the median of several runs. The peer in the same run is the time
//! the model alone needs for the same pairs, so the ratio shows what the engine adds around it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use citelens_engine::{Citation, Engine, Input};

use crate::timed::Timed;
use clap::Args;
use serde_json::json;

#[derive(Args)]
pub struct DocBenchArgs {
    /// The document (.txt, .html or .pdf).
    #[arg(long)]
    document: PathBuf,
    /// The answer, as plain text without markers (checked post hoc against the document).
    #[arg(long)]
    answer: PathBuf,
    /// Timed runs (after one warm-up run).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    #[arg(long)]
    json: bool,
    #[arg(long)]
    model: Option<PathBuf>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn run(args: DocBenchArgs) -> anyhow::Result<ExitCode> {
    let text = crate::doc_text::read(&args.document)?;
    let answer = std::fs::read_to_string(&args.answer).with_context(|| format!("reading {}", args.answer.display()))?;
    let model = crate::setup::load_model(args.model)?;
    let engine = Engine::new(Timed::new(model));
    let input = Input {
        question: None,
        answer: answer.trim().to_string(),
        citations: vec![Citation { id: "1".into(), document: Some(text.clone()), ..Default::default() }],
        minimum_knowledge: None,
    };
    let words = text.split_whitespace().count();
    let sentences = citelens_engine::Document::new(&text).map(|d| d.sentences.len()).unwrap_or(0);
    let mut report = engine.verify(&input)?; // warm-up
    let (mut wall, mut in_model, mut pairs) = (Vec::new(), Vec::new(), 0);
    for _ in 0..args.runs.max(1) {
        engine.scorer.reset();
        let t = Instant::now();
        report = engine.verify(&input)?;
        wall.push(t.elapsed().as_secs_f64());
        in_model.push(engine.scorer.seconds.get());
        pairs = engine.scorer.pairs.get();
    }
    let (wall, in_model) = (median(wall), median(in_model));
    let answer_sentences = report.sentences.len();
    let claims: usize = report.sentences.iter().map(|s| s.claims.len()).sum();
    let out = json!({
        "document_words": words,
        "document_sentences": sentences,
        "answer_sentences": answer_sentences,
        "claims": claims,
        "pairs_scored": pairs,
        "seconds": (wall * 1000.0).round() / 1000.0,
        "model_seconds": (in_model * 1000.0).round() / 1000.0,
        "engine_seconds": ((wall - in_model) * 1000.0).round() / 1000.0,
        "wall_over_model": ((wall / in_model.max(1e-9)) * 100.0).round() / 100.0,
        "overall": report.overall.category.as_str(),
    });
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "{words} words ({sentences} sentences), answer of {answer_sentences} sentences ({claims} claims): {pairs} pairs scored\n\
             median of {} runs: {wall:.3} s in all, {in_model:.3} s in the model, {:.3} s in the engine (wall / model {:.2}x)",
            args.runs.max(1),
            wall - in_model,
            wall / in_model.max(1e-9)
        );
    }
    Ok(ExitCode::SUCCESS)
}
