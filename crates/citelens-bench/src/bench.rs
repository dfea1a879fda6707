//! `citelens bench`: run the engine over a labelled data set and print the papers' tables.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use citelens_engine::{Cached, Caps, Category, ComplexityType, Engine, Plan, Probs, Report, ScoreError, Scorer, Scores as PairScores};

use crate::timed::Timed;
use citelens_nli::NliModel;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

use crate::datasets::{self, Dataset, Gold};
use crate::metrics::Scores;
use crate::{cases, lab};

#[derive(Args)]
pub struct BenchArgs {
    #[arg(long, value_enum)]
    dataset: Dataset,
    #[arg(long)]
    input: PathBuf,
    /// Print the figures as one JSON object.
    #[arg(long)]
    json: bool,
    /// Use the first N examples.
    #[arg(long)]
    limit: Option<usize>,
    #[arg(long)]
    model: Option<PathBuf>,
    /// Decision thresholds (JSON); default: the engine's.
    #[arg(long)]
    thresholds: Option<PathBuf>,
    /// Choose the entailment threshold, whether entailed claims must name what the evidence names,
    /// and how much the claim's word coverage counts, on this data (a dev set), by binary F1
    /// (macro-F1 for CAQA).
    #[arg(long)]
    tune: bool,
    /// Write the thresholds used (tuned or given) to this file.
    #[arg(long)]
    save_thresholds: Option<PathBuf>,
    /// Keep the model's answers in this JSON-lines file and reuse them on the next run with the
    /// same model, so a change to the engine's rules is measured without scoring again.
    #[arg(long)]
    score_cache: Option<PathBuf>,
    /// Write each example's report, with its gold label, as JSON lines (for error analysis).
    #[arg(long)]
    reports: Option<PathBuf>,
    /// Evidence Inference: which article ids (validation for development, test for the final figure).
    #[arg(long, value_enum, default_value = "validation")]
    split: lab::Split,
    /// Long documents: score each claim's candidates once and print evidence F1 over a grid of the
    /// evidence bars (`evidence_entailment`, `evidence_relevance`, `evidence_max`).
    #[arg(long)]
    sweep_evidence: bool,
    /// With --sweep-evidence: every grid row to this file.
    #[arg(long)]
    sweep_out: Option<PathBuf>,
    /// Cases: write each sentence's combiner features, with its gold category, as JSON lines (the
    /// training data of `training/combiner.py`).
    #[arg(long)]
    features: Option<PathBuf>,
    /// Which decides a sentence's category: the rules with the four-way head (the engine's default),
    /// the learned combiner (`crates/citelens-engine/data/combiner.json`, or --combiner), or the model's
    /// sentence head alone (under the combiner's costs and unsure level).
    #[arg(long, value_enum, default_value = "rules")]
    decide: crate::setup::SentenceDecider,
    /// Cases: the combiner file to use instead of the shipped one (as `training/combiner.py` writes it).
    #[arg(long)]
    combiner: Option<PathBuf>,
    /// Skip the first N examples (with --limit: a slice of the data set, for a held-out half).
    #[arg(long, default_value_t = 0)]
    skip: usize,
}

/// The model, timed, behind the engine's score cache: a threshold sweep asks it once per pair, and
/// `--score-cache` keeps its answers between runs.
type CachedScorer = Cached<Timed<NliModel>>;

/// The model `--model` names (or the shipped one), with the answers of `--score-cache` loaded.
fn open_scorer(args: &BenchArgs) -> anyhow::Result<CachedScorer> {
    let model = crate::setup::load_model(args.model.clone())?;
    let scorer = Cached::new(Timed::new(model));
    if let Some(path) = &args.score_cache {
        let n = load_answers(&scorer, path)?;
        if n > 0 {
            eprintln!("{n} pair scores from {} (not counted in pairs per second)", path.display());
        }
    }
    Ok(scorer)
}

/// Answers saved by an earlier run of the same model; a file of another model, or none, is skipped.
fn load_answers(scorer: &CachedScorer, path: &std::path::Path) -> anyhow::Result<usize> {
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(0) };
    let model = &scorer.inner().inner;
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap_or("{}")).unwrap_or_default();
    if header["model"].as_str() != Some(model.name().as_str()) || header["sha256"].as_str() != model.config().model_sha256.as_deref() {
        eprintln!("score cache {} is for another model: not used", path.display());
        return Ok(0);
    }
    for (i, line) in lines.enumerate() {
        let row: CachedPair = serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), i + 2))?;
        scorer.remember(row.premise, row.hypothesis, row.probs.ok_or(ScoreError::Refused(row.error.unwrap_or_default())));
    }
    Ok(scorer.len())
}

/// Every answer the scorer holds, with the model's name and checksum, for a later run.
fn save_answers(scorer: &CachedScorer, path: &std::path::Path) -> anyhow::Result<()> {
    let model = &scorer.inner().inner;
    let mut out = serde_json::to_string(&json!({"model": model.name(), "sha256": model.config().model_sha256}))? + "\n";
    for ((premise, hypothesis), r) in scorer.answers() {
        let (probs, error) = match r {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e.to_string())),
        };
        out += &(serde_json::to_string(&CachedPair { premise, hypothesis, probs, error })? + "\n");
    }
    std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))
}

#[derive(serde::Serialize, serde::Deserialize)]
struct CachedPair {
    premise: String,
    hypothesis: String,
    probs: Option<Probs>,
    error: Option<String>,
}

const FOUR: [&str; 4] = ["supportive", "partially_supportive", "contradictory", "irrelevant"];
const MAPPING: &str = "supportive -> supported; partially_supportive, contradictory, irrelevant -> not supported";
const WICE_MAPPING: &str =
    "3-way: supportive -> supported, partially_supportive -> partially_supported, contradictory and irrelevant -> not_supported";

fn category_index(c: Category) -> usize {
    Category::ALL.iter().position(|x| *x == c).expect("known category")
}

/// Predicted overall category per example (`None`: the engine refused the input).
fn predict(engine: &Engine<CachedScorer>, examples: &[datasets::Example], bar: Option<&ProgressBar>) -> Vec<Option<Category>> {
    examples
        .iter()
        .map(|ex| {
            let r: Option<Report> = engine.verify(&ex.input).ok();
            if let Some(b) = bar {
                b.inc(1);
            }
            r.map(|r| r.overall.category)
        })
        .collect()
}

struct Figures {
    main: Scores,
    three_way: Option<Scores>,
    per_complexity: Vec<(ComplexityType, Scores)>,
    refused: usize,
}

fn figures(examples: &[datasets::Example], predicted: &[Option<Category>]) -> Figures {
    let refused = predicted.iter().filter(|p| p.is_none()).count();
    // A refused input counts as the least committal prediction: irrelevant / not supported.
    let pred = |i: usize| predicted[i].unwrap_or(Category::Irrelevant);
    let binary = |c: Category| if c == Category::Supportive { 0 } else { 1 };
    match examples[0].gold {
        Gold::Four(_) => {
            let pairs: Vec<(usize, usize)> = examples
                .iter()
                .enumerate()
                .map(|(i, ex)| match ex.gold {
                    Gold::Four(g) => (category_index(g), category_index(pred(i))),
                    _ => unreachable!("one data set has one kind of label"),
                })
                .collect();
            let mut per_complexity = Vec::new();
            for kind in [ComplexityType::Single, ComplexityType::Concatenation, ComplexityType::Intersection, ComplexityType::Union] {
                let sub: Vec<(usize, usize)> =
                    pairs.iter().zip(examples).filter(|(_, ex)| ex.complexity == Some(kind)).map(|(p, _)| *p).collect();
                if !sub.is_empty() {
                    per_complexity.push((kind, Scores::new(FOUR.to_vec(), sub)));
                }
            }
            Figures { main: Scores::new(FOUR.to_vec(), pairs), three_way: None, per_complexity, refused }
        }
        Gold::Binary(_) | Gold::Wice(_) => {
            let main = Scores::new(
                vec!["supported", "not_supported"],
                examples.iter().enumerate().map(|(i, ex)| match ex.gold {
                    Gold::Binary(g) => (if g { 0 } else { 1 }, binary(pred(i))),
                    Gold::Wice(g) => (if g == 0 { 0 } else { 1 }, binary(pred(i))),
                    Gold::Four(_) => unreachable!("one data set has one kind of label"),
                }),
            );
            let three_way = matches!(examples[0].gold, Gold::Wice(_)).then(|| {
                Scores::new(
                    vec!["supported", "partially_supported", "not_supported"],
                    examples.iter().enumerate().map(|(i, ex)| {
                        let g = match ex.gold {
                            Gold::Wice(g) => g as usize,
                            _ => unreachable!("one data set has one kind of label"),
                        };
                        let p = match pred(i) {
                            Category::Supportive => 0,
                            Category::PartiallySupportive => 1,
                            _ => 2,
                        };
                        (g, p)
                    }),
                )
            });
            Figures { main, three_way, per_complexity: vec![], refused }
        }
    }
}

fn binary_task(examples: &[datasets::Example]) -> bool {
    !matches!(examples[0].gold, Gold::Four(_))
}

/// The figure a threshold is chosen by.
fn objective(f: &Figures) -> f64 {
    if f.main.labels.len() == 2 {
        f.main.class(0).f1
    } else {
        f.main.macro_f1()
    }
}

/// Benchmarks (and the training pairs made from their files) hold whole articles: longer and more
/// citations than the interactive default allows.
pub fn article_caps() -> Caps {
    Caps { max_citation_chars: 400_000, max_citations: 64, ..Caps::default() }
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.dataset == Dataset::Cases {
        return run_cases(&args);
    }
    if matches!(args.dataset, Dataset::LabWice | Dataset::EvidenceInference) {
        return run_lab(&args);
    }
    let (examples, skipped) = datasets::load(args.dataset, &args.input, args.limit)?;
    let scorer = open_scorer(&args)?;
    let mut engine = Engine::new(scorer);
    crate::setup::set_decider(&mut engine, args.decide, args.combiner.as_deref())?;
    engine.caps = article_caps();
    if let Some(path) = &args.thresholds {
        engine.thresholds = crate::setup::read_thresholds(path)?;
    }
    let bar = ProgressBar::new(examples.len() as u64);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} examples {per_sec} eta {eta}").expect("static template"));
    let t0 = Instant::now();
    let mut predicted = predict(&engine, &examples, Some(&bar));
    bar.finish_and_clear();
    let wall = t0.elapsed().as_secs_f64();
    let pairs = engine.scorer.inner().pairs.get();
    if let Some(path) = &args.score_cache {
        save_answers(&engine.scorer, path)?;
    }
    let model_seconds = engine.scorer.inner().seconds.get();

    let mut tuned = None;
    if args.tune {
        // Each example planned and scored once; each grid point decides again over them. The grid's
        // thresholds (`entailment`, `require_entities`, `coverage_power`) are read only by the decide
        // stage, so a plan made under one is the plan of every other (a test in the engine says so).
        let planned: Vec<Option<(Plan, PairScores)>> = examples
            .iter()
            .map(|ex| {
                let plan = engine.plan(&ex.input).ok()?;
                let scores = PairScores::all(&plan, &engine.scorer);
                Some((plan, scores))
            })
            .collect();
        let decide_again = |engine: &Engine<CachedScorer>| -> Vec<Option<Category>> {
            planned
                .iter()
                .map(|p| p.as_ref().map(|(plan, scores)| engine.decide(plan, scores, plan.sentences.len()).overall.category))
                .collect()
        };
        let mut best = (f64::MIN, engine.thresholds);
        for (require_entities, coverage_power) in [true, false].into_iter().flat_map(|r| [0.0f32, 1.0, 2.0].map(|c| (r, c))) {
            let mut best_here = (f64::MIN, 0.0);
            for step in 0..=44 {
                let mut t = engine.thresholds;
                t.entailment = 0.02 + 0.02 * step as f32;
                t.require_entities = require_entities;
                t.coverage_power = coverage_power;
                engine.thresholds = t;
                let f = figures(&examples, &decide_again(&engine));
                if objective(&f) > best.0 {
                    best = (objective(&f), t);
                }
                if objective(&f) > best_here.0 {
                    best_here = (objective(&f), t.entailment);
                }
            }
            eprintln!(
                "tune: require_entities={require_entities} coverage_power={coverage_power}: best entailment threshold {:.2} ({} {:.2})",
                best_here.1,
                if binary_task(&examples) { "binary F1" } else { "macro-F1" },
                best_here.0
            );
        }
        engine.thresholds = best.1;
        predicted = decide_again(&engine);
        tuned = Some(best.1.entailment);
    }
    if let Some(path) = &args.reports {
        let mut out = String::new();
        for ex in &examples {
            let report = engine.verify(&ex.input).ok();
            out += &(serde_json::to_string(&json!({"gold": format!("{:?}", ex.gold), "input": ex.input, "report": report}))? + "\n");
        }
        std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = &args.save_thresholds {
        std::fs::write(path, serde_json::to_string_pretty(&engine.thresholds)? + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let f = figures(&examples, &predicted);
    let pairs_per_second = if model_seconds > 0.0 { pairs as f64 / model_seconds } else { 0.0 };
    let binary = f.main.labels.len() == 2;
    let mut out = json!({
        "dataset": format!("{:?}", args.dataset).to_lowercase(),
        "n": f.main.n(),
        "skipped_rows": skipped,
        "refused_inputs": f.refused,
        "macro_f1": f.main.macro_f1(),
        "micro_f1": f.main.micro_f1(),
        "per_category": f.main.per_class_json(),
        "confusion": f.main.confusion_json(),
        "pairs_scored": pairs,
        "pairs_per_second": (pairs_per_second * 10.0).round() / 10.0,
        "wall_seconds": (wall * 10.0).round() / 10.0,
        "thresholds": serde_json::to_value(engine.thresholds)?,
        "tuned_entailment_threshold": tuned,
    });
    if binary {
        out["binary_f1"] = json!(f.main.class(0).f1);
        out["binary_macro_f1"] = json!(f.main.macro_f1());
        out["category_mapping"] = json!(MAPPING);
    }
    if let Some(t) = &f.three_way {
        out["three_way"] = json!({"macro_f1": t.macro_f1(), "micro_f1": t.micro_f1(), "per_category": t.per_class_json(), "confusion": t.confusion_json(), "mapping": WICE_MAPPING});
    }
    if !f.per_complexity.is_empty() {
        out["per_complexity_micro_f1"] =
            Value::Object(f.per_complexity.iter().map(|(k, s)| (k.as_str().to_string(), json!(s.micro_f1()))).collect());
    }
    if args.json {
        println!("{}", serde_json::to_string(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} on {} ({} examples, {} rows skipped, {} refused by the caps)",
        out["dataset"].as_str().unwrap_or(""),
        args.input.display(),
        f.main.n(),
        skipped,
        f.refused
    );
    if binary {
        println!("scored as supported vs not: {MAPPING}");
    }
    print!("{}", f.main.table());
    if binary {
        println!("binary F1 (supported positive) {:.2}   binary macro-F1 {:.2}", f.main.class(0).f1, f.main.macro_f1());
    }
    if let Some(t) = &f.three_way {
        println!("\nWiCE 3-way ({WICE_MAPPING})");
        print!("{}", t.table());
    }
    for (k, s) in &f.per_complexity {
        println!("{} micro-F1 {:.2} (n {})", k.as_str(), s.micro_f1(), s.n());
    }
    if let Some(t) = tuned {
        println!("entailment threshold chosen on this data: {t:.2}");
    }
    println!("thresholds: {}", serde_json::to_string(&engine.thresholds)?);
    println!("{pairs} claim x evidence pairs in {model_seconds:.1} s of model time: {pairs_per_second:.1} pairs/s ({wall:.1} s wall)");
    Ok(ExitCode::SUCCESS)
}

/// LAB's long-document sets (see `lab.rs`).
fn run_lab(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let wice = args.dataset == Dataset::LabWice;
    let (examples, name, classes) = if wice {
        (lab::load_wice(&args.input, args.limit.map(|l| l + args.skip))?, "lab-wice", lab::WICE_CLASSES)
    } else {
        (lab::load_evidence_inference(&args.input, args.split, args.limit.map(|l| l + args.skip))?, "evidence-inference", lab::EI_CLASSES)
    };
    let examples: Vec<lab::LabExample> = examples.into_iter().skip(args.skip).collect();
    let scorer = open_scorer(args)?;
    let mut engine = Engine::new(scorer);
    crate::setup::set_decider(&mut engine, args.decide, args.combiner.as_deref())?;
    if let Some(path) = &args.thresholds {
        engine.thresholds = crate::setup::read_thresholds(path)?;
    }
    let bar = ProgressBar::new(examples.len() as u64);
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} claims {per_sec} eta {eta}").expect("static template"));
    if args.sweep_evidence {
        lab::sweep(&engine, &examples, &bar, args.sweep_out.as_deref())?;
        if let Some(path) = &args.score_cache {
            save_answers(&engine.scorer, path)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let t0 = Instant::now();
    let got = lab::readings(&engine, &examples, wice, &bar);
    bar.finish_and_clear();
    let wall = t0.elapsed().as_secs_f64();
    if let Some(path) = &args.score_cache {
        save_answers(&engine.scorer, path)?;
    }
    if let Some(path) = &args.reports {
        let mut out = String::new();
        for (ex, (_, report)) in examples.iter().zip(&got) {
            let mut input = ex.input.clone();
            // The article is in the data set; the report's offsets point into it.
            input
                .citations
                .iter_mut()
                .for_each(|c| c.document = c.document.as_ref().map(|d| format!("({} characters)", d.chars().count())));
            out += &(serde_json::to_string(
                &json!({"gold": classes[ex.gold], "gold_units": ex.gold_units, "unit_starts": ex.unit_starts, "input": input, "report": report}),
            )? + "\n");
        }
        std::fs::write(path, out).with_context(|| format!("writing {}", path.display()))?;
    }
    let readings: Vec<lab::Reading> = got.into_iter().map(|(r, _)| r).collect();
    let f = lab::figures(&examples, &readings, classes);
    let pairs = engine.scorer.inner().pairs.get();
    let model_seconds = engine.scorer.inner().seconds.get();
    if args.json {
        let mut out = lab::json(name, &f);
        out["pairs_scored"] = json!(pairs);
        out["wall_seconds"] = json!((wall * 10.0).round() / 10.0);
        println!("{}", serde_json::to_string(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    lab::print_table(name, &f);
    println!("{pairs} pairs scored in {model_seconds:.1} s of model time ({wall:.1} s wall)");
    Ok(ExitCode::SUCCESS)
}

/// The cited-answer suite: per-sentence gold, flips (see `cases.rs`).
fn run_cases(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let cases = cases::load(&args.input, args.limit)?;
    let scorer = open_scorer(args)?;
    let mut engine = Engine::new(scorer);
    if let Some(path) = &args.thresholds {
        engine.thresholds = crate::setup::read_thresholds(path)?;
    }
    crate::setup::set_decider(&mut engine, args.decide, args.combiner.as_deref())?;
    cases::run(&engine, &cases, args.json, args.reports.as_deref(), args.features.as_deref())?;
    if let Some(path) = &args.score_cache {
        save_answers(&engine.scorer, path)?;
    }
    Ok(ExitCode::SUCCESS)
}
