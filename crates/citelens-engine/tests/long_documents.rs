//! Long documents with a scripted scorer (a test double: the product path always uses the real
//! model): evidence found post hoc, offsets into the document, `not_found`, bounded model work.

use std::cell::RefCell;

use citelens_engine::{Category, Citation, DocumentError, Engine, EngineError, FindingKind, Input, Probs, Scorer};

const ENT: Probs = Probs { entailment: 0.95, neutral: 0.03, contradiction: 0.02, four_way: None, evidence: None };
const CON: Probs = Probs { entailment: 0.01, neutral: 0.02, contradiction: 0.97, four_way: None, evidence: None };
const NEU: Probs = Probs { entailment: 0.02, neutral: 0.96, contradiction: 0.02, four_way: None, evidence: None };

/// Answers by the first rule whose premise and hypothesis words both occur; neutral otherwise.
/// Counts the pairs it is asked.
struct Scripted {
    rules: Vec<(&'static str, &'static str, Probs)>,
    asked: RefCell<usize>,
}

impl Scorer for Scripted {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, citelens_engine::ScoreError>> {
        *self.asked.borrow_mut() += pairs.len();
        pairs.iter().map(|(p, h)| Ok(self.rules.iter().find(|(pk, hk, _)| p.contains(pk) && h.contains(hk)).map_or(NEU, |r| r.2))).collect()
    }
    fn name(&self) -> String {
        "scripted".into()
    }
}

fn engine(rules: Vec<(&'static str, &'static str, Probs)>) -> Engine<Scripted> {
    Engine::new(Scripted { rules, asked: RefCell::new(0) })
}

/// A report-sized article: filler paragraphs about the museum, one sentence about its founding.
fn article(filler_paragraphs: usize) -> String {
    let mut text = String::from("The Ørsted Museum\n\n");
    for i in 0..filler_paragraphs {
        text += &format!("Room {i} of the museum shows maps and globes. Visitors may photograph room {i}.\n\n");
        if i == filler_paragraphs / 2 {
            text += "The museum was founded in 1887 by the city of Aarhus. Its first director was a geologist.\n\n";
        }
    }
    text
}

fn input(answer: &str, document: &str) -> Input {
    Input {
        question: None,
        answer: answer.into(),
        citations: vec![Citation { id: "1".into(), document: Some(document.into()), ..Default::default() }],
        minimum_knowledge: None,
    }
}

#[test]
fn an_answer_without_markers_is_checked_against_the_document_and_points_into_it() {
    let doc = article(200);
    let e = engine(vec![("founded in 1887", "founded in 1887", ENT)]);
    let r = e.verify(&input("The museum was founded in 1887.", &doc)).unwrap();
    let s = &r.sentences[0];
    assert_eq!(s.citations, ["1"], "post hoc: the sentence cites the document");
    assert_eq!(s.verdict.unwrap().category, Category::Supportive);
    let claim = &s.claims[0];
    assert!(!claim.not_found);
    let ev = &claim.evidence[0];
    let chars: Vec<char> = doc.chars().collect();
    let quoted: String = chars[ev.start.unwrap()..ev.end.unwrap()].iter().collect();
    assert_eq!(quoted, "The museum was founded in 1887 by the city of Aarhus.");
    assert_eq!(ev.text, quoted);
    // BM25 hands the model a few candidates per claim, not the article's 400 sentences.
    assert!(*e.scorer.asked.borrow() < 30, "asked {} pairs", e.scorer.asked.borrow());
}

#[test]
fn a_denying_sentence_is_the_evidence_for_a_contradiction() {
    let doc = article(50);
    let e = engine(vec![("founded in 1887", "founded in 1901", CON)]);
    let r = e.verify(&input("The museum was founded in 1901.", &doc)).unwrap();
    let claim = &r.sentences[0].claims[0];
    assert!(!claim.not_found);
    assert!(claim.evidence.iter().any(|ev| ev.text.contains("founded in 1887")), "{:?}", claim.evidence);
    assert_ne!(r.overall.category, Category::Supportive);
}

#[test]
fn nothing_in_the_document_bearing_on_a_claim_is_not_found() {
    let doc = article(50);
    let e = engine(vec![("founded in 1887", "founded in 1887", ENT)]);
    let r = e.verify(&input("The museum was founded in 1887. The museum has a famous café on its roof.", &doc)).unwrap();
    assert!(!r.sentences[0].claims[0].not_found);
    let cafe = &r.sentences[1].claims[0];
    assert!(cafe.not_found, "{cafe:?}");
    assert!(cafe.evidence.is_empty());
    assert_ne!(r.sentences[1].verdict.unwrap().category, Category::Supportive);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["sentences"][1]["claims"][0]["not_found"], true);
    assert!(json["sentences"][0]["claims"][0].get("not_found").is_none(), "absent when false: old readers see no change");
}

#[test]
fn marked_sentences_read_only_the_documents_they_cite() {
    let doc = article(30);
    let mut inp = input("The museum was founded in 1887 [1]. It opened a new wing [2].", &doc);
    inp.citations.push(Citation { id: "2".into(), text: Some("The museum opened a new wing in 2010.".into()), ..Default::default() });
    let e = engine(vec![("founded in 1887", "founded in 1887", ENT), ("new wing", "new wing", ENT)]);
    let r = e.verify(&inp).unwrap();
    assert_eq!(r.sentences[0].citations, ["1"]);
    assert_eq!(r.sentences[1].citations, ["2"]);
    assert_eq!(r.overall.category, Category::Supportive);
}

#[test]
fn unusable_documents_are_refused_with_the_citation_named() {
    let e = engine(vec![]);
    for (text, want) in [
        ("  \n\n ... ", DocumentError::Empty),
        ("%PDF-1.7\u{0}\u{1}\u{2}\u{3}stream\u{0}\u{0}\u{7}endstream", DocumentError::Binary { control: 7, chars: 29 }),
    ] {
        match e.verify(&input("The museum was founded in 1887.", text)) {
            Err(EngineError::Document { citation, error }) => {
                assert_eq!(citation, "1");
                assert_eq!(std::mem::discriminant(&error), std::mem::discriminant(&want), "{error}");
            }
            other => panic!("expected a document error, got {other:?}"),
        }
    }
    let mut caps = e.caps;
    caps.max_document_chars = 100;
    let err = citelens_engine::Plan::new(&input("x.", &article(10)), &caps, &citelens_engine::WordOverlap).err().unwrap();
    assert!(err.to_string().contains("max_document_chars"), "{err}");
}

#[test]
fn pairs_scored_elsewhere_give_the_same_report_with_documents() {
    let doc = article(40);
    let e = engine(vec![("founded in 1887", "founded in 1887", ENT)]);
    let inp = input("The museum was founded in 1887. Its first director was a geologist.", &doc);
    let direct = e.verify(&inp).unwrap();
    let plan = e.plan(&inp).unwrap();
    let scores = citelens_engine::Scores::all(&plan, &e.scorer);
    assert_eq!(e.report(&plan, &scores, plan.sentences.len()), direct);
}

#[test]
fn round_one_scored_elsewhere_gives_the_same_report() {
    // The browser's worker pool scores round one's candidates in several workers, then plans round
    // two from that table: the report must be the one `verify` gives, and round one is never asked
    // again.
    let doc = article(40);
    let e = engine(vec![("founded in 1887", "founded in 1887", ENT), ("founded in 1887", "founded in 1901", CON)]);
    let inp = input("The museum was founded in 1901. Its first director was a geologist.", &doc);
    let direct = e.verify(&inp).unwrap();
    let first = e.round_one(&inp).unwrap().expect("a document gives a round one");
    assert!(!first.pairs().is_empty());
    let elsewhere = engine(e.scorer.rules.clone());
    let table = first.pairs().iter().map(|(p, h)| ((p.clone(), h.clone()), elsewhere.scorer.score(&[(p, h)]).remove(0).unwrap())).collect();
    let plan = e.round_two(&inp, &first, &citelens_engine::Scores::from_table(&first, &table)).unwrap();
    for id in plan.pairs_by_sentence().concat() {
        assert!(!first.pairs().contains(&plan.pairs()[id]), "round one's pair {:?} asked again", plan.pairs()[id]);
    }
    let asked_before = *e.scorer.asked.borrow();
    let scores = citelens_engine::Scores::all(&plan, &e.scorer);
    assert_eq!(e.report(&plan, &scores, plan.sentences.len()), direct);
    assert!(*e.scorer.asked.borrow() - asked_before < first.pairs().len(), "round one's answers were reused");
    // Every pair the model read counts, round one's included, each once.
    let mut read: Vec<&(String, String)> = first.pairs().iter().chain(plan.pairs()).collect();
    read.sort();
    read.dedup();
    assert_eq!(direct.pairs_scored, read.len());
    // No documents: no round one.
    let mut plain = inp.clone();
    plain.citations[0] = Citation { id: "1".into(), text: Some("The museum was founded in 1887.".into()), ..Default::default() };
    assert!(e.round_one(&plain).unwrap().is_none());
}

#[test]
fn round_one_pairs_missing_from_the_table_count_as_neutral_and_are_a_finding() {
    let doc = article(20);
    let e = engine(vec![("founded in 1887", "founded in 1887", ENT)]);
    let inp = input("The museum was founded in 1887.", &doc);
    let first = e.round_one(&inp).unwrap().unwrap();
    let plan = e.round_two(&inp, &first, &citelens_engine::Scores::from_table(&first, &Default::default())).unwrap();
    let scores = citelens_engine::Scores::all(&plan, &e.scorer);
    let r = e.report(&plan, &scores, plan.sentences.len());
    assert!(r.findings.iter().any(|f| f.kind == FindingKind::Truncated && f.message.contains("could not be scored")), "{:?}", r.findings);
}

/// `citelens bench --tune` plans and scores each example once and decides again at each grid point:
/// the thresholds it varies must not change a plan, documents' evidence choice included.
#[test]
fn the_tuned_thresholds_leave_the_plan_as_it_is() {
    let doc = article(40);
    let rules = vec![("founded in 1887", "founded in 1887", ENT), ("geologist", "geologist", CON)];
    let inp = input("The museum was founded in 1887. Its first director was a geologist.", &doc);
    let default = engine(rules.clone());
    let mut tuned = engine(rules);
    tuned.thresholds.entailment = 0.9;
    tuned.thresholds.require_entities = !default.thresholds.require_entities;
    tuned.thresholds.coverage_power = 2.0;
    assert_eq!(default.pairs_needed(&inp).unwrap(), tuned.pairs_needed(&inp).unwrap());
    // Deciding again over one plan gives what verifying afresh gives.
    let plan = default.plan(&inp).unwrap();
    let scores = citelens_engine::Scores::all(&plan, &default.scorer);
    assert_eq!(tuned.report(&plan, &scores, plan.sentences.len()), tuned.verify(&inp).unwrap());
}
