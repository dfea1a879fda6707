//! `citelens bench --dataset cases`: cited answers with a gold category per sentence (the regression
//! suite in tests/fixtures/cases.jsonl). Prints per-sentence accuracy, answers right and flips: a
//! sentence the source states marked contradictory, or one it denies marked supportive.

use std::path::Path;

use anyhow::{bail, Context};
use citelens_engine::{Category, Engine, Input, Report, Scorer};
use serde_json::{json, Value};

use crate::datasets::parse_category;

pub struct Case {
    /// The record's `id`, when it has one (kept in the features file, to group a record's rows).
    pub id: Option<String>,
    pub input: Input,
    pub gold_sentences: Vec<Category>,
    pub gold_overall: Category,
}

pub fn load(path: &Path, limit: Option<usize>) -> anyhow::Result<Vec<Case>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        let input = Input::from_json(line).with_context(|| format!("{} line {}: input fields", path.display(), i + 1))?;
        let cat = |v: &Value| v.as_str().and_then(parse_category);
        let Some(gold_sentences) = row["gold_sentences"].as_array().and_then(|a| a.iter().map(cat).collect::<Option<Vec<_>>>()) else {
            bail!("{} line {}: gold_sentences must list categories", path.display(), i + 1);
        };
        let Some(gold_overall) = cat(&row["gold_overall"]) else {
            bail!("{} line {}: gold_overall must be a category", path.display(), i + 1);
        };
        out.push(Case { id: row["id"].as_str().map(str::to_string), input, gold_sentences, gold_overall });
        if limit.is_some_and(|n| out.len() >= n) {
            break;
        }
    }
    Ok(out)
}

/// A verdict that swaps what the source says: the worst error.
pub fn is_flip(gold: Category, predicted: Category) -> bool {
    matches!((gold, predicted), (Category::Supportive, Category::Contradictory) | (Category::Contradictory, Category::Supportive))
}

/// (accuracy %, coverage %) keeping the most confident share of the verdicts.
fn risk_coverage(mut rows: Vec<(f32, bool)>, keep: &[f64]) -> Vec<(f64, f64)> {
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    keep.iter()
        .map(|&k| {
            let n = ((rows.len() as f64) * k).round().max(1.0) as usize;
            let n = n.min(rows.len());
            let right = rows[..n].iter().filter(|r| r.1).count();
            (100.0 * right as f64 / n.max(1) as f64, 100.0 * n as f64 / rows.len().max(1) as f64)
        })
        .collect()
}

pub fn run<S: Scorer>(
    engine: &Engine<S>,
    cases: &[Case],
    json_out: bool,
    reports: Option<&Path>,
    features_out: Option<&Path>,
) -> anyhow::Result<()> {
    let mut sentences = 0usize;
    let mut right = 0usize;
    let mut flips = 0usize;
    // Flips shown as sure: the reader sees a stated sentence struck through (or a denied one supported).
    let mut sure_flips = 0usize;
    let mut unsure = 0usize;
    let mut answers_right = 0usize;
    let mut misaligned = 0usize;
    let mut confidence_rows: Vec<(f32, bool)> = Vec::new();
    let mut confusion = [[0usize; 4]; 4];
    let mut details = Vec::new();
    let mut dump = String::new();
    let mut feature_rows = String::new();
    // Sure verdicts only (not unsure): how many, and how many right.
    let (mut sure, mut sure_right) = (0usize, 0usize);
    for (ci, case) in cases.iter().enumerate() {
        let report: Report = engine.verify(&case.input).with_context(|| format!("case {}", ci + 1))?;
        let predicted: Vec<Option<(Category, f32, bool)>> =
            report.sentences.iter().map(|s| s.verdict.as_ref().map(|v| (v.category, v.confidence, v.uncertain))).collect();
        if predicted.len() != case.gold_sentences.len() {
            misaligned += 1;
        }
        let mut all_right = predicted.len() == case.gold_sentences.len();
        for (si, gold) in case.gold_sentences.iter().enumerate() {
            sentences += 1;
            let p = predicted.get(si).copied().flatten();
            let cat = p.map(|x| x.0).unwrap_or(Category::Irrelevant);
            let ok = cat == *gold;
            right += ok as usize;
            all_right &= ok;
            let flip = is_flip(*gold, cat);
            flips += flip as usize;
            let is_unsure = p.is_some_and(|x| x.2);
            let is_sure = p.is_some() && !is_unsure;
            unsure += is_unsure as usize;
            sure += is_sure as usize;
            sure_right += (is_sure && ok) as usize;
            sure_flips += (is_sure && flip) as usize;
            if features_out.is_some() {
                let features = report.sentences.get(si).map(|s| s.features.as_slice()).unwrap_or(&[]);
                feature_rows += &(serde_json::to_string(&json!({
                    "id": case.id, "case": ci + 1, "sentence": si + 1, "gold": gold.as_str(),
                    "predicted": cat.as_str(), "features": features,
                }))? + "\n");
            }
            // Unsure verdicts rank below every sure one.
            let conf = p.map(|x| if x.2 { x.1 * 0.5 } else { 0.5 + x.1 * 0.5 }).unwrap_or(0.0);
            confidence_rows.push((conf, ok));
            confusion[Category::ALL.iter().position(|c| c == gold).unwrap_or(0)]
                [Category::ALL.iter().position(|c| *c == cat).unwrap_or(0)] += 1;
            if !ok {
                details.push(json!({
                    "case": ci + 1, "sentence": si + 1, "gold": gold.as_str(), "predicted": cat.as_str(),
                    "uncertain": p.is_some_and(|x| x.2), "flip": flip,
                    "text": report.sentences.get(si).map(|s| s.text.clone()).unwrap_or_default(),
                }));
            }
        }
        answers_right += (all_right && report.overall.category == case.gold_overall) as usize;
        if reports.is_some() {
            dump += &(serde_json::to_string(
                &json!({"case": ci + 1, "gold_sentences": case.gold_sentences.iter().map(|c| c.as_str()).collect::<Vec<_>>(), "report": report}),
            )? + "\n");
        }
    }
    if let Some(path) = features_out {
        std::fs::write(path, feature_rows).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(path) = reports {
        std::fs::write(path, dump).with_context(|| format!("writing {}", path.display()))?;
    }
    let accuracy = 100.0 * right as f64 / sentences.max(1) as f64;
    let (sup, con) = (0, 2); // Category::ALL positions
    let contradictions_found = confusion[con][con];
    let contradictions = confusion[con].iter().sum::<usize>();
    let called_supportive: usize = (0..4).map(|g| confusion[g][sup]).sum();
    let supportive_precision = 100.0 * confusion[sup][sup] as f64 / called_supportive.max(1) as f64;
    let sure_accuracy = 100.0 * sure_right as f64 / sure.max(1) as f64;
    let sure_coverage = 100.0 * sure as f64 / sentences.max(1) as f64;
    let rc = risk_coverage(confidence_rows, &[1.0, 0.9, 0.8]);
    if json_out {
        println!(
            "{}",
            serde_json::to_string(&json!({
                "dataset": "cases",
                "answers": cases.len(),
                "sentences": sentences,
                "sentence_accuracy": (accuracy * 100.0).round() / 100.0,
                "answers_right": answers_right,
                "flips": flips,
                "sure_flips": sure_flips,
                "unsure_sentences": unsure,
                "contradictions_found": contradictions_found,
                "contradictions": contradictions,
                "supportive_precision": (supportive_precision * 100.0).round() / 100.0,
                "sure": {"coverage": sure_coverage, "accuracy": sure_accuracy,
                         "unsure_below": engine.combiner.as_ref().map_or(engine.thresholds.unsure_below, |c| c.unsure_below)},
                "misaligned_answers": misaligned,
                "risk_coverage": rc.iter().map(|(a, c)| json!({"coverage": c, "accuracy": a})).collect::<Vec<_>>(),
                "confusion": {"labels": Category::ALL.map(|c| c.as_str()), "rows_gold_columns_predicted": confusion},
                "wrong": details,
            }))?
        );
        return Ok(());
    }
    println!("cases: {} answers, {} sentences", cases.len(), sentences);
    println!(
        "sentence accuracy {accuracy:.2} % ({right}/{sentences})   answers right {answers_right}/{}   flips {flips}   unsure {unsure}",
        cases.len()
    );
    println!(
        "contradictions found {contradictions_found}/{contradictions}   supportive precision {supportive_precision:.2} % ({}/{called_supportive})   flips {:.2} % ({sure_flips} of them sure)",
        confusion[sup][sup],
        100.0 * flips as f64 / sentences.max(1) as f64
    );
    let level = match &engine.combiner {
        Some(c) => format!("{:.2} (the {}'s top probability)", c.unsure_below, if c.head_only { "sentence head" } else { "combiner" }),
        None => format!("{:.2} (the rules' confidence)", engine.thresholds.unsure_below),
    };
    println!("unsure level {level}: sure verdicts {sure}/{sentences} ({sure_coverage:.1} % coverage), {sure_accuracy:.2} % of them right; unsure {unsure}");
    if misaligned > 0 {
        println!("{misaligned} answer(s) split into a different number of sentences than their gold labels");
    }
    println!("gold \\ predicted      {}", Category::ALL.map(|c| format!("{:>10.10}", c.as_str())).join(" "));
    for (gi, g) in Category::ALL.iter().enumerate() {
        println!("{:<20} {}", g.as_str(), confusion[gi].map(|n| format!("{n:>10}")).join(" "));
    }
    for (a, c) in &rc {
        println!("risk-coverage: accuracy {a:.2} % at {c:.0} % coverage");
    }
    for d in &details {
        println!(
            "  wrong: case {} sentence {}: gold {} predicted {}{}{}: {}",
            d["case"],
            d["sentence"],
            d["gold"].as_str().unwrap_or(""),
            d["predicted"].as_str().unwrap_or(""),
            if d["uncertain"].as_bool() == Some(true) { " (unsure)" } else { "" },
            if d["flip"].as_bool() == Some(true) { " FLIP" } else { "" },
            d["text"].as_str().unwrap_or("")
        );
    }
    Ok(())
}
