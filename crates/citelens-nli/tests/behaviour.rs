//! What the model and its API do: meaning, batching, windows, and typed errors.

mod common;

use citelens_nli::{NliError, NliModel, Side};

#[test]
fn caqa_george_pal_example_is_not_entailment() {
    let p = common::model()
        .predict(
            "The Puppetoon Movie is a 1987 animated film written, produced, and directed by Arnold Leibovit",
            "George Pal directed a production called Puppetoons",
        )
        .unwrap();
    assert_ne!(p.probabilities.label(), "entailment", "{p:?}");
}

#[test]
fn clear_cases_get_their_labels() {
    let model = common::model();
    let premise = "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.";
    let cases = [
        ("Marie Curie won a Nobel Prize in Physics.", "entailment"),
        ("Marie Curie never won a Nobel Prize.", "contradiction"),
        ("Marie Curie was a talented violinist.", "neutral"),
    ];
    for (hypothesis, want) in cases {
        let p = model.predict(premise, hypothesis).unwrap();
        assert_eq!(p.probabilities.label(), want, "{hypothesis}: {:?}", p.probabilities);
    }
}

#[test]
fn probabilities_are_a_distribution() {
    let p = common::model().predict("A dog runs in the snow.", "An animal is outside.").unwrap().probabilities;
    let sum = p.entailment + p.neutral + p.contradiction;
    assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    assert!([p.entailment, p.neutral, p.contradiction].iter().all(|x| (0.0..=1.0).contains(x)));
}

#[test]
fn batching_pairs_of_different_lengths_changes_nothing() {
    let model = common::model();
    let long = "The committee, after a long and at times heated debate that lasted well into the evening, \
                approved the city budget for the coming year by a vote of seven to two.";
    let pairs = [
        ("A dog runs.", "An animal moves."),
        (long, "The budget was approved."),
        ("Water boils at 100 degrees Celsius at sea level.", "Water boils at 50 degrees."),
        (long, "The vote was unanimous."),
    ];
    let batched = model.predict_batch(&pairs);
    for ((p, h), b) in pairs.iter().zip(batched) {
        let alone = model.predict(p, h).unwrap();
        let b = b.unwrap();
        for (x, y) in alone.logits.iter().zip(b.logits) {
            assert!((x - y).abs() < 1e-3, "{h}: alone {:?} vs batched {:?}", alone.logits, b.logits);
        }
    }
}

#[test]
fn long_premise_is_read_in_windows_and_names_the_deciding_one() {
    let model = common::model();
    let filler = "The council met on Tuesday to discuss road repairs, library hours and parking fees. ".repeat(20);
    let premise = format!("{filler}The summer festival will take place on 14 July in Riverside Park. {filler}");
    let p = model.predict(&premise, "The summer festival will be held in Riverside Park.").unwrap();
    assert!(p.window.count > 2, "{:?}", p.window);
    assert_eq!(p.probabilities.label(), "entailment", "{p:?}");
    let text = &premise[p.window.start..p.window.end];
    assert!(text.contains("Riverside Park"), "deciding window {:?} does not hold the evidence", p.window);
}

#[test]
fn empty_and_oversized_inputs_are_typed_errors() {
    let model = common::model();
    assert!(matches!(model.predict("   ", "A claim."), Err(NliError::EmptyText(Side::Premise))));
    assert!(matches!(model.predict("Evidence.", ""), Err(NliError::EmptyText(Side::Hypothesis))));
    let long_claim = "word ".repeat(300);
    assert!(matches!(model.predict("Evidence.", &long_claim), Err(NliError::TooLong { side: Side::Hypothesis, unit: "tokens", .. })));
    let huge = "x".repeat(model.config().limits.max_premise_chars + 1);
    assert!(matches!(model.predict(&huge, "A claim."), Err(NliError::TooLong { side: Side::Premise, .. })));
    // One bad pair in a batch does not sink the others.
    let results = model.predict_batch(&[("A dog runs.", ""), ("A dog runs.", "An animal moves.")]);
    assert!(results[0].is_err() && results[1].is_ok());
}

#[test]
fn loading_errors_are_typed() {
    let dir = common::model_dir();
    let tok = std::fs::read(dir.join("tokenizer.json")).unwrap();
    let cfg = std::fs::read(dir.join("config.json")).unwrap();
    let onnx = std::fs::read(dir.join("model.onnx")).unwrap();
    assert!(matches!(NliModel::from_dir("/nonexistent/citelens-model"), Err(NliError::MissingFile { .. })));
    assert!(matches!(NliModel::from_bytes(b"not an onnx file", &tok, &cfg), Err(NliError::ModelLoad(_))));
    assert!(matches!(NliModel::from_bytes(&onnx, b"{}", &cfg), Err(NliError::Tokenizer(_))));
    assert!(matches!(NliModel::from_bytes(&onnx, &tok, b"{\"labels\": 3}"), Err(NliError::Config(_))));
    let wrong = std::fs::read(common::fixtures().join("wrong_inputs.onnx")).unwrap();
    assert!(matches!(NliModel::from_bytes(&wrong, &tok, &cfg), Err(NliError::WrongInputs { .. })));
}
