//! The worked examples printed in the CAQA and KaLMA papers, through the shipped model.

use std::path::PathBuf;

use citelens_engine::{ClaimStatus, Engine, Input, SpanLabel};
use citelens_nli::NliModel;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn engine() -> Engine<NliModel> {
    Engine::new(NliModel::from_dir(repo().join("models/citelens-nli-minilm")).expect("shipped model loads"))
}

fn examples() -> Vec<serde_json::Value> {
    let dir = std::env::var_os("CITELENS_DATA_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("../shared/data"));
    let path = dir.join("paper_examples/paper_examples.jsonl");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Examples the shipped model still gets wrong (none since the typed checks: caqa-t2-partial, whose
/// extra character name the model calls a contradiction at 0.75, is now partially supportive, the
/// model's contradiction no longer deciding without a check behind it). The test fails if any goes
/// wrong, and reports those listed here so that a better model shows up at once.
const KNOWN_WRONG: &[&str] = &[];

#[test]
fn every_labelled_example_gets_its_category_and_complexity() {
    let engine = engine();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for ex in examples() {
        let Some(label) = ex["label"].as_str() else { continue };
        let input: Input = serde_json::from_value(ex.clone()).unwrap();
        let report = engine.verify(&input).unwrap();
        checked += 1;
        let id = ex["id"].as_str().unwrap();
        if KNOWN_WRONG.contains(&id) {
            println!("{id} (known): category {} (want {label})", report.overall.category.as_str());
            if let Some(kind) = ex["complexity"].as_str() {
                assert_eq!(report.complexity.kind.as_str(), kind, "{id}: complexity");
            }
            continue;
        }
        if report.overall.category.as_str() != label {
            wrong.push(format!("{}: category {} (want {label})", ex["id"], report.overall.category.as_str()));
        }
        if let Some(kind) = ex["complexity"].as_str() {
            if report.complexity.kind.as_str() != kind {
                wrong.push(format!("{}: complexity {} (want {kind})", ex["id"], report.complexity.kind.as_str()));
            }
        }
    }
    assert!(checked >= 9, "only {checked} labelled examples");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn an_unnamed_subject_is_reported_missing() {
    let ex = examples().into_iter().find(|e| e["id"] == "caqa-appF-partial").unwrap();
    let input: Input = serde_json::from_value(ex).unwrap();
    let report = engine().verify(&input).unwrap();
    let missing: Vec<&String> = report.sentences[0].claims.iter().flat_map(|c| &c.missing_entities).collect();
    assert!(missing.iter().any(|m| m.as_str() == "Maryland Transportation Authority"), "{missing:?}");
    assert_eq!(report.overall.category.as_str(), "partially_supportive");
    // The claim about the unnamed subject is the partial one (the relative clause after it is a claim
    // about the Department, which the passage names).
    let subject_claim = report.sentences[0].claims.iter().find(|c| c.text.starts_with("The Maryland Transportation Authority")).unwrap();
    assert_eq!(subject_claim.status, ClaimStatus::PartiallySupported, "{:?}", report.sentences[0].claims);
    // Without the question there is no subject to miss, and the passage entails the claim.
    let mut no_question = input.clone();
    no_question.question = None;
    assert_eq!(engine().verify(&no_question).unwrap().overall.category.as_str(), "supportive");
    let mut strict = engine();
    strict.thresholds.require_entities = true;
    assert_eq!(strict.verify(&input).unwrap().overall.category.as_str(), "partially_supportive");
}

#[test]
fn kalma_example_reports_na_and_graph_metrics() {
    let ex = examples().into_iter().find(|e| e["id"] == "kalma-fig1").expect("KaLMA example present");
    let input: Input = serde_json::from_value(ex).unwrap();
    let report = engine().verify(&input).unwrap();
    let kg = report.kg.expect("triples give knowledge-graph metrics");
    assert_eq!(kg.cited_facts.len(), 3);
    assert_eq!(kg.correctness, 1.0, "all three cited facts are in the graph: {:?}", kg.cited_facts);
    assert_eq!(kg.not_verifiable_sentences, vec![0]);
    let na: Vec<&str> = report.spans.iter().filter(|s| s.label == SpanLabel::NotVerifiable).map(|s| s.text.as_str()).collect();
    assert!(na.iter().any(|t| t.contains("1596")), "the [NA] birth date is not verifiable: {na:?}");
    // The birth date is neither a claim the graph must support nor a missing span.
    let claims = &report.sentences[0].claims;
    assert!(claims.iter().all(|c| !c.text.contains("1596")), "{claims:?}");
    assert!(report.spans.iter().all(|s| s.label != SpanLabel::Missing || !s.text.contains("1596")));
    assert!(claims.iter().all(|c| c.status != ClaimStatus::Contradicted));
}

#[test]
fn contradiction_is_marked_on_the_conflicting_name() {
    let ex = examples().into_iter().find(|e| e["id"] == "caqa-t2-contradictory").unwrap();
    let input: Input = serde_json::from_value(ex).unwrap();
    let report = engine().verify(&input).unwrap();
    let contradicted: Vec<&str> = report.spans.iter().filter(|s| s.label == SpanLabel::Contradicted).map(|s| s.text.as_str()).collect();
    assert_eq!(contradicted, ["George Pal"], "spans: {:?}", report.spans);
}

#[test]
fn a_citations_verdict_is_its_own_per_sentence_verdict() {
    let engine = engine();
    for ex in examples() {
        let input: Input = serde_json::from_value(ex.clone()).unwrap();
        let report = engine.verify(&input).unwrap();
        for c in &report.citations {
            let in_sentences: Vec<_> =
                report.sentences.iter().flat_map(|s| s.per_citation.iter().filter(|v| v.citation == c.citation)).collect();
            if let [only] = in_sentences.as_slice() {
                assert_eq!((only.category, only.confidence), (c.category, c.confidence), "{}: citation {}", ex["id"], c.citation);
            }
        }
    }
}
