//! onnxruntime against tract on the same model files (the `ort` feature). The library comes from
//! `$ORT_DYLIB_PATH` (scripts/test.sh sets it when the PyPI wheel is installed); without it these
//! tests say so and pass, unless `CITELENS_REQUIRE_ORT=1` asks for them (then a missing library fails).
#![cfg(feature = "ort")]

mod common;

use citelens_nli::{find_ort_library, NliError, NliModel, OrtOptions, RunOn, RuntimeKind};

fn library() -> Option<std::path::PathBuf> {
    match find_ort_library(None) {
        Ok(p) => Some(p),
        Err(e) => {
            assert!(std::env::var("CITELENS_REQUIRE_ORT").as_deref() != Ok("1"), "CITELENS_REQUIRE_ORT=1 but {e}");
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn ort(dir: &std::path::Path, int8_products: bool) -> Option<NliModel> {
    let library = library()?;
    Some(
        NliModel::from_dir_with(dir, &RunOn::Ort(OrtOptions { library, sessions: 2, int8_products }))
            .expect("the model loads under onnxruntime"),
    )
}

/// The parity fixture's pairs and the hand-made ones: short and long premises (several windows).
fn pairs() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = common::jsonl(common::fixtures().join("parity.jsonl"))
        .iter()
        .map(|r| (r["premise"].as_str().unwrap().to_string(), r["hypothesis"].as_str().unwrap().to_string()))
        .collect();
    let handmade: Vec<(String, String)> =
        serde_json::from_str(&std::fs::read_to_string(common::fixtures().join("handmade_pairs.json")).unwrap()).unwrap();
    out.extend(handmade);
    out
}

/// (pairs whose label differs, largest probability difference) between two models on `pairs`.
fn compare(a: &NliModel, b: &NliModel, pairs: &[(String, String)]) -> (usize, f32) {
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(p, h)| (p.as_str(), h.as_str())).collect();
    let (x, y) = (a.predict_batch(&refs), b.predict_batch(&refs));
    let mut flipped = 0;
    let mut worst = 0f32;
    for (x, y) in x.into_iter().zip(y) {
        let (x, y) = (x.expect("tract scores the pair"), y.expect("onnxruntime scores the pair"));
        flipped += (x.probabilities.label() != y.probabilities.label()) as usize;
        let (p, q) = (x.probabilities, y.probabilities);
        worst = worst
            .max((p.entailment - q.entailment).abs())
            .max((p.neutral - q.neutral).abs())
            .max((p.contradiction - q.contradiction).abs());
        if let (Some(f), Some(g)) = (x.four_way, y.four_way) {
            worst = worst.max(f.iter().zip(g).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max));
        }
    }
    (flipped, worst)
}

#[test]
fn onnxruntime_gives_tracts_probabilities_on_the_shipped_model() {
    let Some(model) = ort(&common::model_dir(), false) else { return };
    assert_eq!(model.runtime(), RuntimeKind::Ort);
    assert!(model.has_four_way() && model.has_evidence(), "both heads are found by name");
    let pairs = pairs();
    let (flipped, worst) = compare(&common::model(), &model, &pairs);
    println!("fp32: {flipped} of {} labels differ; largest probability difference {worst:.2e}", pairs.len());
    assert_eq!(flipped, 0);
    assert!(worst < 1e-3, "probabilities differ by {worst}");
}

#[test]
fn int8_onnxruntime_gives_tracts_labels_on_the_shipped_model() {
    let Some(model) = ort(&common::model_dir(), true) else { return };
    let pairs = pairs();
    let (flipped, worst) = compare(&common::model(), &model, &pairs);
    println!("int8 products: {flipped} of {} labels differ; largest probability difference {worst:.4}", pairs.len());
    assert_eq!(flipped, 0);
    // On these short pairs it moves 0.03 at most (over 1,000 pairs with long documents, where another
    // window can decide, up to 0.7: docs/WORKER.md); a wrongly wired graph moves far more.
    assert!(worst < 0.1, "probabilities differ by {worst}");
}

#[test]
fn a_graph_without_token_type_ids_runs_under_onnxruntime() {
    let dir = common::fixtures().join("tiny_mpnet");
    let Some(model) = ort(&dir, false) else { return };
    let tract = NliModel::from_dir(&dir).unwrap();
    let pairs = vec![("The bridge opened in 1883.".to_string(), "The bridge opened in 1883.".to_string())];
    let (flipped, worst) = compare(&tract, &model, &pairs);
    assert_eq!(flipped, 0);
    assert!(worst < 1e-3, "probabilities differ by {worst}");
}

#[test]
fn a_missing_library_is_an_error_naming_the_flag_and_the_variable() {
    let err = find_ort_library(Some(std::path::Path::new("/nonexistent/libonnxruntime.so"))).unwrap_err();
    assert!(matches!(err, NliError::OrtMissing { .. }));
    let msg = err.to_string();
    assert!(msg.contains("--ort-library") && msg.contains("ORT_DYLIB_PATH") && msg.contains("/nonexistent/libonnxruntime.so"), "{msg}");
}
