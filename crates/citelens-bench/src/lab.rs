//! LAB-style long-document benchmarks (Buchmann et al., "Attribute or Abstain"): a claim, one whole
//! document, no markers. The engine finds the evidence after the fact (post-hoc retrieval, then the
//! model reranks) and classifies the claim; we score the evidence it reports against the annotated
//! evidence (evidence F1, best over the annotators' alternative sets, 1 when both are empty, as LAB
//! scores it) and the claim's class (macro-F1 over the gold classes).
//!
//! - `lab-wice`: WiCE claims against their whole cited article (`claim_dev.jsonl`); units are the
//!   article's sentences as WiCE lists them; classes supported / partially supported / not supported.
//! - `evidence-inference`: Evidence Inference articles; a claim per prompt built from its majority
//!   label ("<intervention> significantly increased <outcome> compared with <comparator>") and the
//!   same claim with the label flipped (contradicted); evidence F1 at paragraph and sentence level
//!   against the annotated spans.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use anyhow::{bail, Context};
use citelens_engine::{Category, Citation, Document, Input, Report, Scorer};
use serde_json::{json, Value};

use crate::metrics::Scores;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// Training rows only (`citelens pairs`): never scored.
    Train,
    Validation,
    Test,
}

/// One claim against one document, with gold evidence as alternative sets of unit indices.
pub struct LabExample {
    pub input: Input,
    pub gold: usize,
    /// Unit start offsets (characters into the document), ascending; a reported evidence sentence
    /// belongs to the last unit starting at or before it.
    pub unit_starts: Vec<usize>,
    pub gold_units: Vec<BTreeSet<usize>>,
    /// Evidence Inference: the same at sentence level (units above are paragraphs).
    pub sentence_starts: Option<Vec<usize>>,
    pub gold_sentences: Vec<BTreeSet<usize>>,
    /// The claim states what the document says (WiCE supported, an Evidence Inference claim with
    /// its label unflipped): where ATT is measured.
    pub attributable: bool,
}

pub const WICE_CLASSES: [&str; 3] = ["supported", "partially_supported", "not_supported"];
pub const EI_CLASSES: [&str; 3] = ["supported", "contradicted", "neither"];

fn document_citation(text: String) -> Citation {
    Citation { id: "1".into(), document: Some(text), ..Default::default() }
}

pub fn load_wice(path: &Path, limit: Option<usize>) -> anyhow::Result<Vec<LabExample>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        let row: Value = serde_json::from_str(line).with_context(|| format!("{} line {}", path.display(), i + 1))?;
        let gold = match row["label"].as_str() {
            Some("supported") => 0,
            Some("partially_supported") => 1,
            Some("not_supported") => 2,
            other => bail!("{} line {}: unknown label {other:?}", path.display(), i + 1),
        };
        let (Some(claim), Some(sentences)) = (row["claim"].as_str(), row["evidence"].as_array()) else {
            bail!("{} line {}: no claim or evidence list (is this claim_dev.jsonl?)", path.display(), i + 1);
        };
        // Each listed sentence its own paragraph, so the document cuts where WiCE does.
        let mut doc = String::new();
        let mut unit_starts = Vec::new();
        for s in sentences {
            if !doc.is_empty() {
                doc.push_str("\n\n");
            }
            unit_starts.push(doc.chars().count());
            doc.push_str(s.as_str().unwrap_or("").trim());
        }
        let gold_units = row["supporting_sentences"]
            .as_array()
            .map(|sets| {
                sets.iter().map(|s| s.as_array().into_iter().flatten().filter_map(|v| v.as_u64().map(|v| v as usize)).collect()).collect()
            })
            .unwrap_or_default();
        out.push(LabExample {
            input: Input { question: None, answer: claim.to_string(), citations: vec![document_citation(doc)], minimum_knowledge: None },
            gold,
            unit_starts,
            gold_units,
            sentence_starts: None,
            gold_sentences: vec![],
            attributable: gold == 0,
        });
    }
    Ok(out)
}

/// A trial's finding as a claim, and the same finding flipped (what the evidence denies).
fn ei_claims(label: &str, intervention: &str, outcome: &str, comparator: &str) -> Option<(String, String)> {
    let increased = format!("{intervention} significantly increased {outcome} compared with {comparator}.");
    let decreased = format!("{intervention} significantly decreased {outcome} compared with {comparator}.");
    let no_difference = format!("There was no significant difference in {outcome} between {intervention} and {comparator}.");
    Some(match label.trim() {
        "significantly increased" | "significantly increase" => (increased, decreased),
        "significantly decreased" => (decreased, increased),
        "no significant difference" => (no_difference, increased),
        _ => return None,
    })
}

fn clean_field(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").trim_end_matches(['.', ',', ';']).to_string()
}

pub fn load_evidence_inference(dir: &Path, split: Split, limit: Option<usize>) -> anyhow::Result<Vec<LabExample>> {
    let name = match split {
        Split::Train => "train",
        Split::Validation => "validation",
        Split::Test => "test",
    };
    let ids_path = dir.join(format!("annotations_splits_ev2_{name}_article_ids.txt"));
    let ids: BTreeSet<String> = std::fs::read_to_string(&ids_path)
        .with_context(|| format!("reading {}", ids_path.display()))?
        .split_whitespace()
        .map(String::from)
        .collect();
    let read_csv = |file: &str| -> anyhow::Result<Vec<HashMap<String, String>>> {
        let path = dir.join(file);
        let mut r = csv::Reader::from_path(&path).with_context(|| format!("reading {}", path.display()))?;
        let headers = r.headers()?.clone();
        r.records().map(|rec| Ok(headers.iter().zip(rec?.iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect())).collect()
    };
    let prompts = read_csv("annotations_prompts_merged.csv")?;
    let annotations = read_csv("annotations_v2_annotations.csv")?;
    let mut by_prompt: HashMap<&str, Vec<&HashMap<String, String>>> = HashMap::new();
    for a in &annotations {
        if a.get("Valid Label").map(String::as_str) == Some("True") && ids.contains(&a["PMCID"]) {
            by_prompt.entry(a["PromptID"].as_str()).or_default().push(a);
        }
    }
    let mut documents: HashMap<String, (String, Document)> = HashMap::new();
    let mut out = Vec::new();
    // Prompts in article-id, then prompt-id order: the same examples every run.
    let mut ordered: Vec<&HashMap<String, String>> = prompts.iter().filter(|p| by_prompt.contains_key(p["PromptID"].as_str())).collect();
    ordered.sort_by_key(|p| (p["PMCID"].parse::<u64>().unwrap_or(0), p["PromptID"].parse::<u64>().unwrap_or(0)));
    ordered.dedup_by_key(|p| p["PromptID"].clone());
    for p in ordered {
        if limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        let anns = &by_prompt[p["PromptID"].as_str()];
        // The majority label (ties: the first annotator's).
        let mut votes: Vec<(&str, usize)> = Vec::new();
        for a in anns {
            let l = a["Label"].trim().trim_end_matches('d');
            match votes.iter_mut().find(|v| v.0 == l) {
                Some(v) => v.1 += 1,
                None => votes.push((l, 1)),
            }
        }
        let label = votes.iter().fold(votes[0], |best, v| if v.1 > best.1 { *v } else { best }).0;
        let label = anns.iter().map(|a| a["Label"].as_str()).find(|l| l.trim().trim_end_matches('d') == label).unwrap_or(label);
        let Some((claim, flipped)) =
            ei_claims(label, &clean_field(&p["Intervention"]), &clean_field(&p["Outcome"]), &clean_field(&p["Comparator"]))
        else {
            continue;
        };
        let pmcid = &p["PMCID"];
        if !documents.contains_key(pmcid) {
            let path = dir.join("txt_files").join(format!("PMC{pmcid}.txt"));
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let doc = Document::new(&text).with_context(|| format!("{}", path.display()))?;
            documents.insert(pmcid.clone(), (text, doc));
        }
        let (text, doc) = &documents[pmcid];
        let overlapping = |ranges: &[(usize, usize)], s: usize, e: usize| -> BTreeSet<usize> {
            ranges.iter().enumerate().filter(|(_, r)| r.0 < e && s < r.1).map(|(i, _)| i).collect()
        };
        let sentence_ranges: Vec<(usize, usize)> = doc.sentences.iter().map(|s| (s.start, s.end)).collect();
        let mut gold_units = Vec::new();
        let mut gold_sentences = Vec::new();
        for a in anns {
            let (Ok(s), Ok(e)) = (a["Evidence Start"].parse::<usize>(), a["Evidence End"].parse::<usize>()) else { continue };
            if e <= s {
                continue;
            }
            let paragraphs = overlapping(&doc.paragraphs, s, e);
            if !paragraphs.is_empty() && !gold_units.contains(&paragraphs) {
                gold_units.push(paragraphs);
            }
            let sentences = overlapping(&sentence_ranges, s, e);
            if !sentences.is_empty() && !gold_sentences.contains(&sentences) {
                gold_sentences.push(sentences);
            }
        }
        if gold_units.is_empty() {
            continue;
        }
        for (claim, gold) in [(claim, 0), (flipped, 1)] {
            out.push(LabExample {
                input: Input { question: None, answer: claim, citations: vec![document_citation(text.clone())], minimum_knowledge: None },
                gold,
                unit_starts: doc.paragraphs.iter().map(|p| p.0).collect(),
                gold_units: gold_units.clone(),
                sentence_starts: Some(doc.sentences.iter().map(|s| s.start).collect()),
                gold_sentences: gold_sentences.clone(),
                attributable: gold == 0,
            });
        }
    }
    if out.is_empty() {
        bail!("{}: no prompts with valid annotations in the {name} split", dir.display());
    }
    Ok(out)
}

/// The unit each reported evidence sentence starts in.
fn units_of(starts: &[usize], evidence_starts: &[usize]) -> BTreeSet<usize> {
    evidence_starts.iter().filter_map(|&at| starts.partition_point(|&s| s <= at).checked_sub(1)).collect()
}

/// LAB's evidence F1 for one example: the best over the gold alternatives; 1 when the prediction
/// and a gold set are both empty.
pub fn evidence_f1(predicted: &BTreeSet<usize>, gold: &[BTreeSet<usize>]) -> f64 {
    let one = |g: &BTreeSet<usize>| {
        if g.is_empty() && predicted.is_empty() {
            return 1.0;
        }
        let same = predicted.intersection(g).count() as f64;
        if same == 0.0 {
            return 0.0;
        }
        let (p, r) = (same / predicted.len() as f64, same / g.len() as f64);
        2.0 * p * r / (p + r)
    };
    if gold.is_empty() {
        return one(&BTreeSet::new());
    }
    gold.iter().map(one).fold(0.0, f64::max)
}

/// What the report says about the claim, for scoring.
pub struct Reading {
    pub class: usize,
    pub evidence_starts: Vec<usize>,
    /// Some evidence sentence the report lists entails the claim (ATT).
    pub attributed: bool,
    pub not_found: bool,
}

pub fn read_report(report: Option<&Report>, wice: bool) -> Reading {
    let Some(r) = report else {
        return Reading { class: 2, evidence_starts: vec![], attributed: false, not_found: true };
    };
    let category = r.sentences.iter().find_map(|s| s.verdict).map(|v| v.category);
    let class = match (category, wice) {
        (Some(Category::Supportive), _) => 0,
        (Some(Category::PartiallySupportive), true) => 1,
        (Some(Category::Contradictory), false) => 1,
        _ => 2,
    };
    let claims = r.sentences.iter().flat_map(|s| s.claims.iter());
    let evidence_starts: Vec<usize> = claims.clone().flat_map(|c| c.evidence.iter().filter_map(|e| e.start)).collect();
    // The claim read against the evidence the report lists (round two's premise) is entailed.
    let attributed = claims.clone().any(|c| !c.evidence.is_empty() && c.probabilities.entailment >= 0.5);
    let not_found = claims.clone().count() > 0 && claims.clone().all(|c| c.not_found);
    Reading { class, evidence_starts, attributed, not_found }
}

/// Evidence F1 (paragraph units, and sentences where the set has them), ATT and classification.
pub struct LabFigures {
    pub evidence_f1: f64,
    pub sentence_evidence_f1: Option<f64>,
    pub attributability: f64,
    pub classification: Scores,
    pub not_found_share: f64,
    pub n: usize,
}

pub fn figures(examples: &[LabExample], readings: &[Reading], classes: [&'static str; 3]) -> LabFigures {
    let n = examples.len();
    let mean = |xs: Vec<f64>| if xs.is_empty() { 0.0 } else { (xs.iter().sum::<f64>() / xs.len() as f64 * 10000.0).round() / 100.0 };
    let ef1 = mean(
        examples.iter().zip(readings).map(|(ex, r)| evidence_f1(&units_of(&ex.unit_starts, &r.evidence_starts), &ex.gold_units)).collect(),
    );
    let sef1 = examples[0].sentence_starts.as_ref().map(|_| {
        mean(
            examples
                .iter()
                .zip(readings)
                .map(|(ex, r)| evidence_f1(&units_of(ex.sentence_starts.as_deref().unwrap_or(&[]), &r.evidence_starts), &ex.gold_sentences))
                .collect(),
        )
    });
    let att =
        mean(examples.iter().zip(readings).filter(|(ex, _)| ex.attributable).map(|(_, r)| if r.attributed { 1.0 } else { 0.0 }).collect());
    let classification = Scores::new(classes.to_vec(), examples.iter().zip(readings).map(|(ex, r)| (ex.gold, r.class)));
    let not_found_share = mean(readings.iter().map(|r| if r.not_found { 1.0 } else { 0.0 }).collect());
    LabFigures { evidence_f1: ef1, sentence_evidence_f1: sef1, attributability: att, classification, not_found_share, n }
}

/// Published rows (LAB, Table 3 and §6, as the issue quotes them), for the table beside ours.
const PUBLISHED: &[(&str, &str, &str)] = &[
    ("GPT-4, citation (LAB)", "EI EF1 64", ""),
    ("Flan-T5-XL fine-tuned, citation (LAB)", "", "WiCE EF1 70"),
    ("post-hoc BM25 retrieval (LAB)", "EF1 about 22-24", "EF1 about 36-48"),
];

pub fn print_table(dataset: &str, f: &LabFigures) {
    println!("LAB Table 3 layout: EF1 (evidence F1), ATT (share of attributable claims whose reported evidence our model reads as entailing; LAB's ATT uses the TRUE model), CF1 (classification macro-F1)");
    println!("{:<44} {:>14} {:>14}", "", "Evidence Inf.", "WiCE");
    for (who, ei, wice) in PUBLISHED {
        println!("{who:<44} {ei:>14} {wice:>14}");
    }
    let ours = format!("EF1 {:.1} ATT {:.1} CF1 {:.1}", f.evidence_f1, f.attributability, f.classification.macro_f1());
    let (ei, wice) = if dataset == "evidence-inference" { (ours, String::new()) } else { (String::new(), ours) };
    println!("{:<44} {ei:>14} {wice:>14}", "citelens (BM25 + our NLI rerank, post-hoc)");
    println!();
    println!("{dataset}: n {}   evidence F1 {:.2}", f.n, f.evidence_f1);
    if let Some(s) = f.sentence_evidence_f1 {
        println!("evidence F1 at sentence level {s:.2} (paragraph level above)");
    }
    println!("ATT {:.2}   claims with nothing found {:.2} %", f.attributability, f.not_found_share);
    print!("{}", f.classification.table());
    println!("classification F1 {:.2}", f.classification.macro_f1());
}

pub fn json(dataset: &str, f: &LabFigures) -> Value {
    json!({
        "dataset": dataset,
        "n": f.n,
        "evidence_f1": f.evidence_f1,
        "sentence_evidence_f1": f.sentence_evidence_f1,
        "attributability": f.attributability,
        "classification_f1": f.classification.macro_f1(),
        "per_class": f.classification.per_class_json(),
        "confusion": f.classification.confusion_json(),
        "not_found_percent": f.not_found_share,
    })
}

/// Verifies every example with `engine`, showing progress.
pub fn readings<S: Scorer>(
    engine: &citelens_engine::Engine<S>,
    examples: &[LabExample],
    wice: bool,
    bar: &indicatif::ProgressBar,
) -> Vec<(Reading, Option<Report>)> {
    examples
        .iter()
        .map(|ex| {
            let report = engine.verify(&ex.input).ok();
            bar.inc(1);
            (read_report(report.as_ref(), wice), report)
        })
        .collect()
}

/// Round one of every example (candidates scored), kept for sweeping the evidence bars.
/// Every row goes to `out` when given (EF1, sentence EF1, max, entailment, head or relevance, floor,
/// rank weight per line), for choosing bars across data sets.
pub fn sweep<S: Scorer>(
    engine: &citelens_engine::Engine<S>,
    examples: &[LabExample],
    bar: &indicatif::ProgressBar,
    out: Option<&Path>,
) -> anyhow::Result<()> {
    use citelens_engine::{DocumentStage, Plan, Thresholds};
    let mut rounds = Vec::new();
    for ex in examples {
        let first = Plan::with_stage(
            &ex.input,
            &engine.caps,
            &citelens_engine::Bm25::default(),
            citelens_engine::SentencePairs::None,
            DocumentStage::Candidates { joint: !engine.scorer.has_evidence() },
        )?;
        let scores = citelens_engine::Scores::all(&first, &engine.scorer);
        rounds.push((first, scores));
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut rows = Vec::new();
    // With the evidence head the third bar is the head's; without it, 1 − P(neutral).
    let head = rounds.iter().any(|(plan, scores)| plan.pairs().iter().enumerate().any(|(i, _)| scores.get(i).evidence.is_some()));
    let floors: &[f32] = if head { &[0.0, 0.1, 0.2] } else { &[0.0] };
    let weights: &[f32] = if head { &[0.0, 0.1, 0.2, 0.3, 0.5, 0.8] } else { &[0.0] };
    for (max, &floor, &w) in
        [1usize, 2, 3].into_iter().flat_map(|m| floors.iter().flat_map(move |f| weights.iter().map(move |w| (m, f, w))))
    {
        for e in [0.5f32, 0.7, 1.01] {
            for r in [0.2f32, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 1.01] {
                let t = if head {
                    Thresholds {
                        evidence_entailment: e,
                        evidence_head: r.min(1.0),
                        evidence_floor: floor,
                        evidence_max: max,
                        evidence_rank_weight: w,
                        ..engine.thresholds
                    }
                } else {
                    Thresholds { evidence_entailment: e, evidence_relevance: r, evidence_max: max, ..engine.thresholds }
                };
                let (mut ef1, mut sef1) = (0.0, 0.0);
                for (ex, (plan, scores)) in examples.iter().zip(&rounds) {
                    let chosen = citelens_engine::scorer::choose_evidence(plan, scores, &t);
                    let mut starts = Vec::new();
                    for found in chosen.claims.values().flatten().filter(|f| f.found) {
                        let src = &plan.sources[plan.sentences.iter().flat_map(|w| w.cited.get(found.pos)).next().copied().unwrap_or(0)];
                        let text = src.citation.document.as_deref().unwrap_or("");
                        for (u, _) in &found.units {
                            if let Some((b, _)) = src.units[*u].range {
                                starts.push(text[..b].chars().count());
                            }
                        }
                    }
                    ef1 += evidence_f1(&units_of(&ex.unit_starts, &starts), &ex.gold_units);
                    if let Some(ss) = &ex.sentence_starts {
                        sef1 += evidence_f1(&units_of(ss, &starts), &ex.gold_sentences);
                    }
                }
                let n = examples.len() as f64;
                rows.push((ef1 / n * 100.0, sef1 / n * 100.0, max, e, r, floor, w));
            }
        }
    }
    // Fixed policies beside the grid: retrieval alone, the model's single best, and the best any
    // single candidate could do (how much retrieval leaves to rerank).
    let ev = |p: &citelens_engine::Probs| p.evidence.unwrap_or(0.0);
    type Policy<'a> = &'a dyn Fn(&[(usize, citelens_engine::Probs)], &LabExample, &dyn Fn(usize) -> usize) -> Vec<usize>;
    let policies: [(&str, Policy); 6] = [
        ("evidence head: best", &|c, _, _| c.iter().max_by(|a, b| ev(&a.1).total_cmp(&ev(&b.1))).map(|x| x.0).into_iter().collect()),
        ("BM25 top 1 (no model)", &|c, _, _| c.iter().take(1).map(|x| x.0).collect()),
        ("BM25 top 2 (no model)", &|c, _, _| c.iter().take(2).map(|x| x.0).collect()),
        ("model: highest entailment", &|c, _, _| {
            c.iter().max_by(|a, b| a.1.entailment.total_cmp(&b.1.entailment)).map(|x| x.0).into_iter().collect()
        }),
        ("model: least neutral", &|c, _, _| c.iter().min_by(|a, b| a.1.neutral.total_cmp(&b.1.neutral)).map(|x| x.0).into_iter().collect()),
        ("oracle: a gold candidate if any", &|c, ex, start| {
            c.iter()
                .find(|x| {
                    ex.gold_units
                        .iter()
                        .any(|g| g.contains(&units_of(&ex.unit_starts, &[start(x.0)]).into_iter().next().unwrap_or(usize::MAX)))
                })
                .map(|x| x.0)
                .into_iter()
                .collect()
        }),
    ];
    for (name, policy) in policies {
        let mut ef1 = 0.0;
        for (ex, (plan, scores)) in examples.iter().zip(&rounds) {
            let mut starts = Vec::new();
            for w in &plan.sentences {
                for c in &w.claims {
                    for d in &c.candidates {
                        let src = &plan.sources[w.cited[d.pos]];
                        let text = src.citation.document.as_deref().unwrap_or("");
                        let start = |u: usize| src.units[u].range.map_or(0, |(b, _)| text[..b].chars().count());
                        let scored: Vec<(usize, citelens_engine::Probs)> = d.units.iter().map(|&(u, pair)| (u, scores.get(pair))).collect();
                        starts.extend(policy(&scored, ex, &start).into_iter().map(start));
                    }
                }
            }
            ef1 += evidence_f1(&units_of(&ex.unit_starts, &starts), &ex.gold_units);
        }
        println!("{name:<34} EF1 {:.2}", ef1 / examples.len() as f64 * 100.0);
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "{:>8} {:>8} {:>4} {:>6} {:>6} {:>6} {:>6}",
        "EF1",
        "sent.EF1",
        "max",
        "entail",
        if head { "head" } else { "relev." },
        "floor",
        "rank w"
    );
    for (ef1, sef1, max, e, r, floor, w) in rows.iter().take(25) {
        println!("{ef1:>8.2} {sef1:>8.2} {max:>4} {e:>6.2} {r:>6.2} {floor:>6.2} {w:>6.2}");
    }
    if let Some(path) = out {
        let text: String = rows.iter().map(|r| format!("{:.2} {:.2} {} {} {} {} {}\n", r.0, r.1, r.2, r.3, r.4, r.5, r.6)).collect();
        std::fs::write(path, text)?;
    }
    let d = engine.thresholds;
    let third = if head { d.evidence_head } else { d.evidence_relevance };
    let floor = if head { d.evidence_floor } else { 0.0 };
    if let Some(row) = rows
        .iter()
        .find(|x| x.2 == d.evidence_max && x.3 == d.evidence_entailment && x.4 == third && x.5 == floor && x.6 == d.evidence_rank_weight)
    {
        println!("defaults: EF1 {:.2} sentence EF1 {:.2}", row.0, row.1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[usize]) -> BTreeSet<usize> {
        v.iter().copied().collect()
    }

    #[test]
    fn evidence_f1_takes_the_best_alternative_and_counts_agreeing_silence() {
        assert_eq!(evidence_f1(&set(&[]), &[set(&[])]), 1.0);
        assert_eq!(evidence_f1(&set(&[3]), &[set(&[])]), 0.0);
        assert_eq!(evidence_f1(&set(&[1, 2]), &[set(&[5]), set(&[2])]), 2.0 * 0.5 / 1.5);
        assert_eq!(evidence_f1(&set(&[2]), &[set(&[2]), set(&[2, 7])]), 1.0);
    }

    #[test]
    fn reported_offsets_fall_in_the_unit_that_starts_before_them() {
        assert_eq!(units_of(&[0, 10, 25], &[0, 9, 10, 30]), set(&[0, 1, 2]));
    }

    #[test]
    fn flipped_claims_deny_the_finding() {
        let (c, f) = ei_claims("no significant difference", "aspirin", "pain", "placebo").unwrap();
        assert!(c.starts_with("There was no significant difference in pain"));
        assert!(f.contains("significantly increased pain compared with placebo"));
        assert!(ei_claims("unknown", "a", "b", "c").is_none());
    }
}
