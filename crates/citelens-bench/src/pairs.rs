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

use crate::datasets::{self, Dataset, Gold};

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
    /// Evidence Inference: which article ids (train for training rows).
    #[arg(long, value_enum, default_value = "train")]
    split: crate::lab::Split,
    /// The whole-sentence pairs to write: `passages` (all cited passages joined: the branch heads'
    /// rows) or `selected` (the cited sentences sharing most words with the sentence, in one window:
    /// training/multitask.py's rows, and what a model whose config says `sentence_pairs: selected` reads).
    #[arg(long, value_enum, default_value = "passages")]
    sentence_pairs: PairKind,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum PairKind {
    Passages,
    Selected,
}

impl From<PairKind> for citelens_engine::SentencePairs {
    fn from(k: PairKind) -> Self {
        match k {
            PairKind::Passages => citelens_engine::SentencePairs::Passages,
            PairKind::Selected => citelens_engine::SentencePairs::Selected,
        }
    }
}

/// The output file, buffered: one JSON line per pair.
fn create_out(path: &std::path::Path) -> anyhow::Result<std::io::BufWriter<std::fs::File>> {
    Ok(std::io::BufWriter::new(std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?))
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
    if matches!(args.dataset, Dataset::LabWice | Dataset::EvidenceInference) {
        return evidence_pairs(&args);
    }
    if args.dataset == Dataset::Cases {
        return case_pairs(&args);
    }
    let (examples, skipped) = datasets::load(args.dataset, &args.input, args.limit)?;
    let caps = crate::bench::article_caps();
    let mut out = create_out(&args.out)?;
    let (mut written, mut refused) = (0, 0);
    for ex in &examples {
        let Ok(plan) = Plan::with_whole_sentences(&ex.input, &caps, &WordOverlap, args.sentence_pairs.into()) else {
            refused += 1;
            continue;
        };
        for (premise, hypothesis) in plan.sentence_pairs() {
            writeln!(
                out,
                "{}",
                json!({"premise": premise, "hypothesis": hypothesis, "gold": gold_name(ex.gold),
                                        "complexity": ex.complexity.map(|c| c.as_str())})
            )?;
            written += 1;
        }
    }
    out.flush()?;
    println!(
        "{written} pairs from {} examples ({skipped} rows skipped, {refused} refused by the caps) written to {}",
        examples.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Cited answers with a gold category per sentence (`bench --dataset cases`, e.g. citelens_synth
/// through training/synth_cases.py): each sentence's whole pair with that sentence's gold. An answer
/// the engine splits into a different number of sentences than its gold lists is skipped and counted,
/// so that no pair carries another sentence's label.
fn case_pairs(args: &PairsArgs) -> anyhow::Result<ExitCode> {
    let cases = crate::cases::load(&args.input, args.limit)?;
    let caps = crate::bench::article_caps();
    let mut out = create_out(&args.out)?;
    let (mut written, mut refused, mut misaligned) = (0, 0, 0);
    for case in &cases {
        let Ok(plan) = Plan::with_whole_sentences(&case.input, &caps, &WordOverlap, args.sentence_pairs.into()) else {
            refused += 1;
            continue;
        };
        if plan.sentences.len() != case.gold_sentences.len() {
            misaligned += 1;
            continue;
        }
        for (sentence, gold) in plan.sentences.iter().zip(&case.gold_sentences) {
            let Some(whole) = sentence.whole else { continue };
            let (premise, hypothesis) = &plan.pairs()[whole];
            writeln!(out, "{}", json!({"premise": premise, "hypothesis": hypothesis, "gold": gold.as_str(), "record": case.id}))?;
            written += 1;
        }
    }
    out.flush()?;
    println!(
        "{written} pairs from {} answers ({refused} refused by the caps, {misaligned} split into another number of sentences than their gold) written to {}",
        cases.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Long documents: each claim's BM25 candidates (round one of the engine, the same code as at
/// inference) against the claim, labelled `evidence` when the annotators marked the sentence, else
/// `not_evidence`; annotated sentences BM25 missed are added as `evidence`. Training rows for the
/// evidence head.
fn evidence_pairs(args: &PairsArgs) -> anyhow::Result<ExitCode> {
    use crate::lab;
    use citelens_engine::DocumentStage;
    let examples = if args.dataset == Dataset::LabWice {
        lab::load_wice(&args.input, args.limit)?
    } else {
        lab::load_evidence_inference(&args.input, args.split, args.limit)?
    };
    let caps = Caps::default();
    let mut out = create_out(&args.out)?;
    let (mut positives, mut negatives, mut refused) = (0, 0, 0);
    for ex in &examples {
        let Ok(plan) = Plan::with_stage(
            &ex.input,
            &caps,
            &citelens_engine::Bm25::default(),
            citelens_engine::SentencePairs::None,
            DocumentStage::Candidates { joint: false },
        ) else {
            refused += 1;
            continue;
        };
        // Sentence-level gold where the set has it (Evidence Inference), else its units (WiCE's sentences).
        let (starts, gold) = match &ex.sentence_starts {
            Some(s) => (s.as_slice(), &ex.gold_sentences),
            None => (ex.unit_starts.as_slice(), &ex.gold_units),
        };
        let gold: std::collections::BTreeSet<usize> = gold.iter().flatten().copied().collect();
        let Some(src) = plan.sources.first() else { continue };
        let unit_of = |u: usize| src.units[u].chars.and_then(|(s, _)| starts.partition_point(|&x| x <= s).checked_sub(1));
        for w in &plan.sentences {
            for c in &w.claims {
                let mut seen = std::collections::BTreeSet::new();
                let candidates = c.candidates.iter().flat_map(|d| d.units.iter().map(|u| u.0));
                // Annotated sentences BM25 did not hand over are positives too.
                let missed = (0..src.units.len()).filter(|&u| unit_of(u).is_some_and(|g| gold.contains(&g)));
                for u in candidates.chain(missed) {
                    if !seen.insert(u) {
                        continue;
                    }
                    let is_gold = unit_of(u).is_some_and(|g| gold.contains(&g));
                    let label = if is_gold { "evidence" } else { "not_evidence" };
                    writeln!(out, "{}", json!({"premise": src.units[u].resolved, "hypothesis": c.claim.text, "gold": label}))?;
                    if is_gold {
                        positives += 1;
                    } else {
                        negatives += 1;
                    }
                }
            }
        }
    }
    out.flush()?;
    println!(
        "{} pairs ({positives} evidence, {negatives} not) from {} claims ({refused} refused) written to {}",
        positives + negatives,
        examples.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
