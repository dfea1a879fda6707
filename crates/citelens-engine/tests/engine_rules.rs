//! Engine rules with a scripted scorer (a test double: the product path always uses the real model).

use citelens_engine::{
    input_schema, Caps, Category, Citation, ClaimStatus, Engine, EngineError, FindingKind, Input, InputError, Probs, Scorer, SpanLabel,
    REPORT_VERSION,
};

/// Answers by the first rule whose words the hypothesis contains; neutral otherwise.
struct Scripted(Vec<(&'static str, Probs)>);

const ENT: Probs = Probs { entailment: 0.95, neutral: 0.03, contradiction: 0.02, four_way: None, evidence: None };
const CON: Probs = Probs { entailment: 0.01, neutral: 0.02, contradiction: 0.97, four_way: None, evidence: None };
const NEU: Probs = Probs { entailment: 0.05, neutral: 0.9, contradiction: 0.05, four_way: None, evidence: None };

impl Scorer for Scripted {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, citelens_engine::ScoreError>> {
        pairs.iter().map(|(_, h)| Ok(self.0.iter().find(|(k, _)| h.contains(k)).map_or(NEU, |(_, p)| *p))).collect()
    }
    fn name(&self) -> String {
        "scripted".into()
    }
}

fn doc(answer: &str, citations: &[(&str, &str)]) -> Input {
    Input {
        question: None,
        answer: answer.into(),
        citations: citations
            .iter()
            .map(|(id, text)| Citation { id: id.to_string(), text: Some(text.to_string()), ..Default::default() })
            .collect(),
        minimum_knowledge: None,
    }
}

#[test]
fn caqa_rule_from_claim_statuses() {
    let mut e = Engine::new(Scripted(vec![("Paris", ENT), ("Berlin", CON)]));
    e.thresholds.require_entities = true;
    let passage = ("1", "Ada Lovelace lived in Paris and London and visited Berlin.");
    let r = e.verify(&doc("Ada Lovelace lived in Paris [1].", &[passage])).unwrap();
    assert_eq!(r.overall.category, Category::Supportive);
    // "London" is neither entailed nor contradicted, but the passage is about it: partial.
    let r = e.verify(&doc("Ada Lovelace lived in Paris and London [1].", &[passage])).unwrap();
    assert_eq!(r.sentences[0].claims.len(), 2);
    assert_eq!(r.overall.category, Category::PartiallySupportive);
    let missing: Vec<&str> = r.spans.iter().filter(|s| s.label == SpanLabel::Missing).map(|s| s.text.as_str()).collect();
    assert_eq!(missing, ["London"]);
    // The model alone contradicting "Berlin" (no typed check backs it) is an unsure claim, and an
    // unsure contradiction never makes the verdict contradictory on its own.
    let r = e.verify(&doc("Ada Lovelace lived in Paris and Berlin [1].", &[passage])).unwrap();
    let berlin = r.sentences[0].claims.iter().find(|c| c.text.contains("Berlin")).unwrap();
    assert_eq!(berlin.status, ClaimStatus::Contradicted);
    assert!(berlin.uncertain);
    assert_eq!(r.overall.category, Category::PartiallySupportive);
    assert!(r.overall.uncertain);
    // A year the passage gives otherwise, confirmed by the probe (the claim with the passage's year
    // is entailed): a sure contradiction with its typed reason.
    let e2 = Engine::new(Scripted(vec![("in 1840", ENT), ("Paris", NEU)]));
    let r = e2.verify(&doc("Ada Lovelace moved to Paris in 1850 [1].", &[("1", "Ada Lovelace moved to Paris in 1840.")])).unwrap();
    assert_eq!(r.overall.category, Category::Contradictory);
    assert!(!r.overall.uncertain);
    let reasons: Vec<&str> = r.sentences[0].claims[0].checks.iter().map(|c| c.message.as_str()).collect();
    assert!(reasons.contains(&"the source says 1840; the answer says 1850"), "{reasons:?}");
    let contradicted: Vec<&str> = r.spans.iter().filter(|s| s.label == SpanLabel::Contradicted).map(|s| s.text.as_str()).collect();
    assert_eq!(contradicted, ["1850"]);
    // Nothing in common with the passage: irrelevant, even if the model calls it a contradiction.
    let r = e.verify(&doc("Marie Curie won the Nobel Prize in Berlin [1].", &[("1", "Tea grows in Assam.")])).unwrap();
    assert_eq!(r.overall.category, Category::Irrelevant);
}

#[test]
fn findings_not_crashes() {
    let e = Engine::new(Scripted(vec![]));
    let r = e.verify(&doc("A claim [3]. Another one.", &[("1", "Text.")])).unwrap();
    let kinds: Vec<&str> = r.findings.iter().map(|f| f.kind.as_str()).collect();
    assert!(kinds.contains(&"unknown_marker"), "{kinds:?}");
    assert!(kinds.contains(&"uncited_citation"), "{kinds:?}");
    assert!(kinds.contains(&"uncited_sentence"), "{kinds:?}");
    let r = e.verify(&doc("", &[])).unwrap();
    assert_eq!(r.findings[0].kind, FindingKind::EmptyAnswer);
    assert_eq!(r.overall.category, Category::Irrelevant);
}

#[test]
fn caps_are_named_in_errors() {
    let e = Engine::new(Scripted(vec![]));
    let long = "x".repeat(Caps::default().max_answer_chars + 1);
    let err = e.verify(&doc(&long, &[])).unwrap_err();
    assert!(err.to_string().contains("max_answer_chars"), "{err}");
    let many: Vec<(String, String)> = (0..40).map(|i| (i.to_string(), "t".to_string())).collect();
    let refs: Vec<(&str, &str)> = many.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let err = e.verify(&doc("A [1].", &refs)).unwrap_err();
    assert!(matches!(err, EngineError::TooLarge { cap: "max_citations", .. }), "{err}");
    assert!(matches!(Input::from_json("{\"answer\": 3}"), Err(InputError::Json(_))));
}

#[test]
fn offsets_are_characters_of_the_original_answer() {
    let e = Engine::new(Scripted(vec![("Zürich", ENT)]));
    let answer = "Ünal lived in Zürich [1].";
    let r = e.verify(&doc(answer, &[("1", "Ünal lived in Zürich for years.")])).unwrap();
    let chars: Vec<char> = answer.chars().collect();
    for s in &r.spans {
        let text: String = chars[s.start..s.end].iter().collect();
        assert_eq!(text, s.text);
        assert!(!text.contains('['), "a span never covers a marker: {text:?}");
    }
    assert_eq!(r.sentences[0].end, chars.len());
}

#[test]
fn report_has_the_fixed_names() {
    let e = Engine::new(Scripted(vec![("Paris", ENT)]));
    let r = e.verify(&doc("Ada lived in Paris [1].", &[("1", "Ada lived in Paris.")])).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["version"], REPORT_VERSION);
    assert_eq!(v["overall"]["category"], "supportive");
    assert!(v["overall"]["confidence"].as_f64().unwrap() > 0.9);
    assert_eq!(v["complexity"]["type"], "single");
    assert!(v["complexity"]["graph"]["nodes"].as_array().unwrap().len() >= 2);
}

#[test]
fn published_schema_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/input.schema.json");
    let published: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(published, input_schema(), "regenerate with `citelens schema > schema/input.schema.json`");
}

#[test]
fn knowledge_graph_citations_get_kalma_metrics() {
    let e = Engine::new(Scripted(vec![("painter", ENT)]));
    let input: Input = serde_json::from_value(serde_json::json!({
        "answer": "Ada was a painter [Q1, occupation: painter, place of birth: Paris]. She was born on 3 May 1900 [NA].",
        "citations": [{"id": "Q1", "entity": "Ada", "triples": [["Ada", "occupation", "painter"], ["Ada", "place of birth", "Rome"]]}],
        "minimum_knowledge": [["Ada", "occupation", "painter"], ["Ada", "place of birth", "Rome"]]
    }))
    .unwrap();
    let r = e.verify(&input).unwrap();
    let kg = r.kg.expect("KG metrics");
    assert_eq!(kg.cited_facts.len(), 2);
    assert!(kg.cited_facts[0].matched.is_some(), "occupation: painter is in the graph");
    assert!(kg.cited_facts[1].matched.is_none(), "place of birth: Paris is not (the graph says Rome)");
    assert_eq!(kg.correctness, 0.5);
    assert_eq!(kg.recall, Some(0.5));
    assert_eq!(kg.not_verifiable_sentences, vec![1]);
    // The [NA] sentence is not counted against the answer.
    assert!(r.sentences[1].verdict.is_none());
    assert!(r.spans.iter().any(|s| s.label == SpanLabel::NotVerifiable && s.text.contains("1900")));
    // The claim's evidence names the triple that backed it.
    let ev = &r.sentences[0].claims[0].evidence;
    assert!(ev.iter().any(|x| x.triple.as_ref().is_some_and(|t| t[2] == "painter")), "{ev:?}");
}

/// Counts the pairs it is asked, so a test can see that nothing is scored twice.
struct Counting(Scripted, std::cell::Cell<usize>);

impl Scorer for Counting {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, citelens_engine::ScoreError>> {
        self.1.set(self.1.get() + pairs.len());
        self.0.score(pairs)
    }
    fn name(&self) -> String {
        "counting".into()
    }
}

#[test]
fn progressive_reports_grow_by_sentence_and_end_as_verify() {
    let e = Engine::new(Counting(Scripted(vec![("Paris", ENT), ("Berlin", CON)]), Default::default()));
    let input = doc(
        "Ada Lovelace lived in Paris [1]. She visited Berlin [1]. She wrote notes [2].",
        &[("1", "Ada Lovelace lived in Paris and never visited Berlin."), ("2", "Ada wrote notes on the engine.")],
    );
    let mut seen = Vec::new();
    let last = e.verify_progressive(&input, |r, done, total| seen.push((r.sentences.len(), done, total, r.overall.category))).unwrap();
    assert_eq!(seen.iter().map(|s| (s.0, s.1, s.2)).collect::<Vec<_>>(), [(1, 1, 3), (2, 2, 3), (3, 3, 3)]);
    // After sentence 1 only Paris is in: supportive; Berlin then contradicts.
    assert_eq!(seen[0].3, Category::Supportive);
    assert_eq!(seen[1].3, Category::Contradictory);
    let asked_progressively = e.scorer.1.get();
    e.scorer.1.set(0);
    let full = e.verify(&input).unwrap();
    assert_eq!(serde_json::to_value(&last).unwrap(), serde_json::to_value(&full).unwrap());
    assert_eq!(asked_progressively, e.scorer.1.get(), "each pair scored once");
}

#[test]
fn fit_to_cuts_what_is_over_the_caps_and_says_so() {
    let caps = Caps { max_answer_chars: 10, max_citations: 1, max_citation_chars: 5, ..Caps::default() };
    let mut input = doc("ééééééééééééé [1].", &[("1", "0123456789"), ("2", "x")]);
    let cuts = input.fit_to(&caps);
    let names: Vec<(&str, usize, usize)> = cuts.iter().map(|c| (c.cap.as_str(), c.from, c.to)).collect();
    assert_eq!(names, [("max_answer_chars", 18, 10), ("max_citations", 2, 1), ("max_citation_chars", 10, 5)]);
    assert_eq!(input.answer.chars().count(), 10);
    assert!(input.check(&caps).is_ok());
    assert!(doc("short", &[]).fit_to(&Caps::default()).is_empty());
}

#[test]
fn pairs_scored_elsewhere_give_the_same_report() {
    let e = Engine::new(Scripted(vec![("Paris", ENT), ("Berlin", CON)]));
    let input = doc(
        "Ada Lovelace lived in Paris [1]. She never visited Berlin [1][2].",
        &[("1", "Ada Lovelace lived in Paris. She visited Berlin in 1840."), ("2", "Berlin is in Prussia.")],
    );
    let pairs = e.pairs_needed(&input).unwrap();
    assert!(pairs.len() >= 3, "{pairs:?}");
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(p, h)| (p.as_str(), h.as_str())).collect();
    let scores = pairs.iter().cloned().zip(e.scorer.score(&refs).into_iter().map(Result::unwrap)).collect();
    let split = e.verify_with_scores(&input, &scores).unwrap();
    assert_eq!(serde_json::to_value(&split).unwrap(), serde_json::to_value(e.verify(&input).unwrap()).unwrap());
    // A pair missing from the table is reported, not a crash.
    let partial = e.verify_with_scores(&input, &Default::default()).unwrap();
    assert!(partial.findings.iter().any(|f| f.kind == FindingKind::NotScored), "{:?}", partial.findings);
    assert!(!partial.findings.iter().any(|f| f.kind == FindingKind::Truncated), "nothing was refused: {:?}", partial.findings);
}

#[test]
fn long_answers_stream_in_bounded_steps() {
    let e = Engine::new(Scripted(vec![]));
    let answer: String = (0..100).map(|i| format!("Claim number {i} holds [1]. ")).collect();
    let input = doc(answer.trim_end(), &[("1", "Claims hold.")]);
    let ends = citelens_engine::sentence_prefix_ends(&input);
    assert!(ends.len() <= 12 && ends.len() >= 10, "{}", ends.len());
    assert_eq!(*ends.last().unwrap(), input.answer.len());
    let mut calls = 0;
    let last = e.verify_progressive(&input, |_, _, _| calls += 1).unwrap();
    assert_eq!((calls, last.sentences.len()), (ends.len(), 100));
}

#[test]
fn entailment_is_weighed_by_word_coverage() {
    // The same P(entailment) 0.6 for both claims; only the words the passage contains differ.
    let mid = Probs { entailment: 0.6, neutral: 0.3, contradiction: 0.1, four_way: None, evidence: None };
    let mut e = Engine::new(Scripted(vec![("Lovelace", mid)]));
    let passage = ("1", "Ada Lovelace wrote notes on the Analytical Engine in 1843.");
    let r = e.verify(&doc("Ada Lovelace wrote notes on the Analytical Engine [1].", &[passage])).unwrap();
    assert_eq!(r.sentences[0].claims[0].coverage, 1.0);
    assert_eq!(r.overall.category, Category::Supportive, "0.6 x 1.0 reaches {}", e.thresholds.entailment);
    // Five of its seven content words are not in the passage: 0.6 x 2/7 is under the threshold.
    let r = e.verify(&doc("Ada Lovelace translated an obscure memoir into fluent prose [1].", &[passage])).unwrap();
    let claim = &r.sentences[0].claims[0];
    assert!(claim.coverage < 0.5, "{claim:?}");
    assert_eq!(r.overall.category, Category::PartiallySupportive);
    // Coverage off: P(entailment) alone decides.
    e.thresholds.coverage_power = 0.0;
    let r = e.verify(&doc("Ada Lovelace translated an obscure memoir into fluent prose [1].", &[passage])).unwrap();
    assert_eq!(r.overall.category, Category::Supportive);
}

#[test]
fn the_question_is_read() {
    let e = Engine::new(Scripted(vec![("politician", NEU), ("Najibullah", ENT), ("Authority", ENT)]));
    // "the politician" comes from the question and the passage lacks it: the claim is also read
    // without it, and that reading is entailed.
    let mut input = doc(
        "Pashto and Dari are spoken in the politician Mohammad Najibullah's country [1].",
        &[("1", "Mohammad Najibullah was president of Afghanistan, where Pashto and Dari are spoken.")],
    );
    input.question = Some("Which languages are spoken in the politician Mohammad Najibullah's country?".into());
    assert_eq!(e.verify(&input).unwrap().overall.category, Category::Supportive);
    input.question = None;
    assert_eq!(e.verify(&input).unwrap().overall.category, Category::PartiallySupportive);
    // The question's subject, never named by the passage: partial, though the model entails it.
    let mut input = doc(
        "The Maryland Transportation Authority finances the Port of Baltimore [1].",
        &[("1", "The Authority finances the Port of Baltimore.")],
    );
    input.question = Some("What does the Maryland Transportation Authority finance?".into());
    assert_eq!(e.verify(&input).unwrap().overall.category, Category::PartiallySupportive);
    input.question = None;
    assert_eq!(e.verify(&input).unwrap().overall.category, Category::Supportive);
}

#[test]
fn passages_are_read_together_only_when_no_one_has_every_word_of_the_claim() {
    let e = Engine::new(Scripted(vec![]));
    let cites = [("1", "The Brooklyn Bridge was designed by John A. Roebling."), ("2", "It opened in 1883 and carries pedestrians.")];
    // One passage has every word: two readings, one per passage, no joint one.
    let pairs = e.pairs_needed(&doc("The Brooklyn Bridge was designed by John A. Roebling [1][2].", &cites)).unwrap();
    assert!(!pairs.iter().any(|(p, _)| p.contains("Roebling") && p.contains("pedestrians")), "{pairs:?}");
    // The facts are spread over both: the passages are also read together.
    let pairs = e.pairs_needed(&doc("The bridge designed by John A. Roebling carries pedestrians [1][2].", &cites)).unwrap();
    assert!(pairs.iter().any(|(p, _)| p.contains("Roebling") && p.contains("pedestrians")), "{pairs:?}");
}
