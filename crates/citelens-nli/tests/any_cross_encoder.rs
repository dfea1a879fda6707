//! A cross-encoder that is not BERT: a tiny MPNet-type graph (`tests/fixtures/tiny_mpnet`, built by
//! `training/tiny_mpnet_fixture.py` with the large model's graph builder) has no `token_type_ids`
//! input, a RoBERTa-style pair format in its `tokenizer.json` and pad id 1. Its token ids and logits
//! must equal Python's `tokenizers` and onnxruntime's.

mod common;

use citelens_nli::NliModel;

fn tiny() -> NliModel {
    NliModel::from_dir(common::fixtures().join("tiny_mpnet")).expect("the tiny MPNet-type model loads")
}

fn expected() -> Vec<serde_json::Value> {
    serde_json::from_str(&std::fs::read_to_string(common::fixtures().join("tiny_mpnet/expected.json")).unwrap()).unwrap()
}

#[test]
fn token_ids_follow_the_tokenizers_own_pair_format() {
    let model = tiny();
    for row in expected() {
        let (p, h) = (row["premise"].as_str().unwrap(), row["hypothesis"].as_str().unwrap());
        let windows = model.encode(p, h).unwrap();
        assert_eq!(windows.len(), 1);
        let want: Vec<i64> = row["input_ids"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect();
        assert_eq!(windows[0].0.input_ids, want, "{p} / {h}");
    }
}

#[test]
fn logits_equal_onnxruntimes_alone_and_in_a_padded_batch() {
    let model = tiny();
    let rows = expected();
    let pairs: Vec<(&str, &str)> = rows.iter().map(|r| (r["premise"].as_str().unwrap(), r["hypothesis"].as_str().unwrap())).collect();
    // Mixed lengths in one batch: shorter rows are padded with the tokenizer's pad id and masked.
    let batch = model.predict_batch(&pairs);
    for (row, got) in rows.iter().zip(batch) {
        let got = got.unwrap();
        let want: Vec<f32> = row["logits"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
        for k in 0..3 {
            assert!((got.logits[k] - want[k]).abs() < 1e-4, "{:?} vs {want:?} for {}", got.logits, row["premise"]);
        }
        let alone = model.predict(row["premise"].as_str().unwrap(), row["hypothesis"].as_str().unwrap()).unwrap();
        assert_eq!(alone.probabilities.label(), got.probabilities.label());
    }
}

#[test]
fn a_long_premise_is_windowed_with_room_for_the_four_special_tokens() {
    let model = tiny();
    let premise = "the river flows north of the city ".repeat(12);
    let windows = model.encode(&premise, "the river flows north").unwrap();
    assert!(windows.len() > 1);
    for (seq, _) in &windows {
        assert!(seq.input_ids.len() <= 24, "{}", seq.input_ids.len());
        assert_eq!(seq.input_ids[0], 0, "<s> first");
        assert_eq!(seq.input_ids.iter().filter(|&&t| t == 2).count(), 3, "</s></s> between, </s> last: {:?}", seq.input_ids);
    }
    assert!(model.predict(&premise, "the river flows north").is_ok());
}
