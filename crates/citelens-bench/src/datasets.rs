//! Benchmark data sets, each turned into citelens input documents with a gold label.

use std::path::Path;

use anyhow::{bail, Context};
use citelens_engine::{Category, Citation, ComplexityType, Input};
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Dataset {
    Caqa,
    Attributionbench,
    Wice,
    Expertqa,
    /// Cited answers with a gold category per sentence (tests/fixtures/cases.jsonl).
    Cases,
    /// LAB: WiCE claims against their whole cited article (claim_dev.jsonl), evidence found post hoc.
    LabWice,
    /// LAB: Evidence Inference articles (the directory), claims from each prompt and its label.
    EvidenceInference,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gold {
    /// CAQA's four categories.
    Four(Category),
    /// Supported (true) vs not.
    Binary(bool),
    /// WiCE: supported, partially supported, not supported (0, 1, 2); scored binary as supported vs rest.
    Wice(u8),
}

pub struct Example {
    pub input: Input,
    pub gold: Gold,
    pub complexity: Option<ComplexityType>,
}

fn text_citation(id: usize, text: &str) -> Citation {
    Citation { id: id.to_string(), text: Some(text.to_string()), ..Default::default() }
}

fn markers(n: usize) -> String {
    (1..=n).map(|i| format!("[{i}]")).collect()
}

/// An answer with its citation markers at the end, before the final full stop.
fn cited(claim: &str, n: usize) -> String {
    let c = claim.trim();
    match c.strip_suffix('.') {
        Some(body) => format!("{body} {}.", markers(n)),
        None => format!("{c} {}", markers(n)),
    }
}

pub fn parse_category(s: &str) -> Option<Category> {
    Some(match s.trim().to_lowercase().replace([' ', '-'], "_").as_str() {
        "supportive" | "support" | "supported" => Category::Supportive,
        "partially_supportive" | "missing" | "partial" | "partially_supported" => Category::PartiallySupportive,
        "contradictory" | "contradict" | "contradiction" => Category::Contradictory,
        "irrelevant" => Category::Irrelevant,
        _ => return None,
    })
}

fn parse_complexity(s: &str) -> Option<ComplexityType> {
    Some(match s.trim().to_lowercase().as_str() {
        "single" => ComplexityType::Single,
        "union" => ComplexityType::Union,
        "intersection" => ComplexityType::Intersection,
        "concatenation" => ComplexityType::Concatenation,
        _ => return None,
    })
}

/// Rows of a JSON-lines, JSON-array or CSV file as JSON objects.
fn rows(path: &Path) -> anyhow::Result<Vec<Value>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if path.extension().is_some_and(|e| e == "csv") {
        let mut out = Vec::new();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let headers = r.headers()?.clone();
        for rec in r.records() {
            let rec = rec?;
            out.push(Value::Object(headers.iter().zip(rec.iter()).map(|(h, v)| (h.to_string(), Value::String(v.into()))).collect()));
        }
        return Ok(out);
    }
    if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(&text) {
        return Ok(items);
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).with_context(|| format!("{} line {}", path.display(), i + 1)))
        .collect()
}

fn str_field<'a>(row: &'a Value, names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| row.get(*n).and_then(Value::as_str))
}

/// Citations from a field that is a list of passages, a list of {id, text} objects, or one string.
fn citations_of(v: Option<&Value>) -> Vec<Citation> {
    match v {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, it)| match it {
                Value::String(s) => Some(text_citation(i + 1, s)),
                Value::Object(_) => serde_json::from_value::<Citation>(it.clone())
                    .ok()
                    .or_else(|| str_field(it, &["text", "passage", "content"]).map(|t| text_citation(i + 1, t))),
                _ => None,
            })
            .collect(),
        Some(Value::String(s)) => vec![text_citation(1, s)],
        _ => vec![],
    }
}

pub fn load(dataset: Dataset, path: &Path, limit: Option<usize>) -> anyhow::Result<(Vec<Example>, usize)> {
    let mut out = Vec::new();
    let mut skipped = 0;
    let mut wice_index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for row in rows(path)? {
        if dataset != Dataset::Wice && limit.is_some_and(|l| out.len() >= l) {
            break;
        }
        match dataset {
            Dataset::Caqa => {
                let (Some(answer), Some(label)) = (str_field(&row, &["answer"]), str_field(&row, &["label"]).and_then(parse_category))
                else {
                    skipped += 1;
                    continue;
                };
                let mut citations = citations_of(row.get("citations").or(row.get("citation")).or(row.get("reference")));
                // CAQA rows put all cited passages in one field; markers may be missing from the answer.
                let answer = if answer.contains('[') { answer.to_string() } else { cited(answer, citations.len().max(1)) };
                if citations.is_empty() {
                    citations.push(text_citation(1, ""));
                }
                out.push(Example {
                    input: Input {
                        question: str_field(&row, &["question", "query"]).map(String::from),
                        answer,
                        citations,
                        minimum_knowledge: None,
                    },
                    gold: Gold::Four(label),
                    complexity: str_field(&row, &["complexity"]).and_then(parse_complexity),
                });
            }
            Dataset::Attributionbench => {
                let (Some(claim), Some(label)) = (str_field(&row, &["claim"]), str_field(&row, &["attribution_label"])) else {
                    skipped += 1;
                    continue;
                };
                let citations = citations_of(row.get("references"));
                if citations.is_empty() {
                    skipped += 1;
                    continue;
                }
                out.push(Example {
                    input: Input {
                        question: str_field(&row, &["question"]).map(String::from),
                        answer: cited(claim, citations.len()),
                        citations,
                        minimum_knowledge: None,
                    },
                    gold: Gold::Binary(label.trim() == "attributable"),
                    complexity: None,
                });
            }
            Dataset::Wice => {
                let label = match str_field(&row, &["label"]) {
                    Some("supported") => 0,
                    Some("partially_supported") => 1,
                    Some("not_supported") => 2,
                    _ => {
                        skipped += 1;
                        continue;
                    }
                };
                let (Some(claim), Some(Value::Array(ev))) = (str_field(&row, &["claim"]), row.get("evidence")) else {
                    skipped += 1;
                    continue;
                };
                let text = ev.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" ");
                // The oracle-chunk file has one row per chunk: a claim's chunks become its citations.
                if let Some(prev) = wice_index.get(claim).map(|&i| &mut out[i] as &mut Example) {
                    let n = prev.input.citations.len() + 1;
                    prev.input.citations.push(text_citation(n, &text));
                    prev.input.answer = cited(claim, n);
                    continue;
                }
                if limit.is_some_and(|l| out.len() >= l) {
                    break;
                }
                wice_index.insert(claim.to_string(), out.len());
                out.push(Example {
                    input: Input {
                        question: None,
                        answer: cited(claim, 1),
                        citations: vec![text_citation(1, &text)],
                        minimum_knowledge: None,
                    },
                    gold: Gold::Wice(label),
                    complexity: None,
                });
            }
            Dataset::Expertqa => {
                let question = str_field(&row, &["question"]).map(String::from);
                let Some(Value::Object(answers)) = row.get("answers") else {
                    skipped += 1;
                    continue;
                };
                for answer in answers.values() {
                    for claim in answer.get("claims").and_then(Value::as_array).into_iter().flatten() {
                        let support = str_field(claim, &["support"]);
                        let text = str_field(claim, &["claim_string"]);
                        let evidence = match claim.get("evidence") {
                            Some(Value::String(s)) => serde_json::from_str::<Value>(s).ok(),
                            other => other.cloned(),
                        };
                        let citations = citations_of(evidence.as_ref());
                        let gold = match support {
                            Some("Complete") => true,
                            Some("Incomplete" | "Partial" | "Missing") => false,
                            _ => {
                                skipped += 1;
                                continue;
                            }
                        };
                        let (Some(text), false) = (text, citations.is_empty()) else {
                            skipped += 1;
                            continue;
                        };
                        if limit.is_some_and(|l| out.len() >= l) {
                            break;
                        }
                        out.push(Example {
                            input: Input {
                                question: question.clone(),
                                answer: cited(text, citations.len()),
                                citations,
                                minimum_knowledge: None,
                            },
                            gold: Gold::Binary(gold),
                            complexity: None,
                        });
                    }
                }
            }
            Dataset::Cases => bail!("the cases suite is read by bench::cases"),
            Dataset::LabWice | Dataset::EvidenceInference => bail!("long-document sets are read by bench::lab"),
        }
    }
    if out.is_empty() {
        bail!("{}: no usable rows for this data set ({skipped} skipped)", path.display());
    }
    Ok((out, skipped))
}
