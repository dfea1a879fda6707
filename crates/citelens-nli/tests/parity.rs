//! The Rust path against the Python reference (tests/fixtures, written by training/export.py).

mod common;

use citelens_nli::NliModel;

fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

fn check_parity(model: &NliModel, key: &str) {
    let rows = common::jsonl(common::fixtures().join("parity.jsonl"));
    assert!(rows.len() >= 50, "parity fixture has {} pairs", rows.len());
    let mut worst = 0f32;
    for (i, row) in rows.iter().enumerate() {
        let (p, h) = (row["premise"].as_str().unwrap(), row["hypothesis"].as_str().unwrap());
        let windows = model.encode(p, h).unwrap();
        let ids: Vec<i64> = row["input_ids"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
        assert_eq!(windows[0].0.input_ids, ids, "pair {i}: Rust and Python tokenize differently");
        let got = &model.raw_logits(&[&windows[0].0]).unwrap()[0];
        let want = floats(&row[key]);
        for (g, w) in got.iter().zip(&want) {
            worst = worst.max((g - w).abs());
        }
    }
    println!("{key}: largest |rust - python| logit difference over {} pairs: {worst:.2e}", rows.len());
    assert!(worst < 1e-3, "{key}: logits differ by {worst}");
}

/// tract on the shipped int8 graph against onnxruntime on the same graph (fp32 arithmetic both).
#[test]
fn shipped_model_matches_python_reference() {
    check_parity(&common::model(), "int8_logits");
}

/// tract on the unquantized graph against PyTorch. The fp32 file is not shipped (see MODEL.md):
/// `training/export.py` writes it and this runs with `cargo test -- --ignored`.
#[test]
#[ignore = "needs training/out/model.fp32.onnx from training/export.py"]
fn fp32_model_matches_pytorch() {
    let dir = common::model_dir();
    let fp32 = std::env::var_os("CITELENS_FP32_MODEL")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| common::repo().join("training/out/model.fp32.onnx"));
    let model = NliModel::from_bytes(
        &std::fs::read(&fp32).expect("fp32 model present"),
        &std::fs::read(dir.join("tokenizer.json")).unwrap(),
        &std::fs::read(dir.join("config.json")).unwrap(),
    )
    .unwrap();
    check_parity(&model, "fp32_logits");
}

/// The shipped int8 model agrees with the fp32 model's argmax on >= 98% of 500 MNLI-mismatched dev
/// pairs (texts read from ../shared/data by pairID; the fixture holds only ids and fp32 results).
#[test]
fn int8_agrees_with_fp32_on_500_dev_pairs() {
    let want: std::collections::HashMap<String, usize> = common::jsonl(common::fixtures().join("mnli_mm_dev500_fp32.jsonl"))
        .into_iter()
        .map(|r| (r["pairID"].as_str().unwrap().to_string(), r["fp32_argmax"].as_u64().unwrap() as usize))
        .collect();
    let path = common::shared_data().join("nli/mnli/multinli_1.0_dev_mismatched.csv");
    let mut reader = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut pairs = Vec::new();
    for rec in reader.records() {
        let rec = rec.unwrap();
        if let Some(&label) = want.get(&rec[0]) {
            pairs.push((rec[1].to_string(), rec[2].to_string(), label));
        }
    }
    assert_eq!(pairs.len(), 500);
    let model = common::model();
    let refs: Vec<(&str, &str)> = pairs.iter().map(|(p, h, _)| (p.as_str(), h.as_str())).collect();
    let got = model.predict_batch(&refs);
    let agree = got
        .iter()
        .zip(&pairs)
        .filter(|(g, (_, _, want))| g.as_ref().unwrap().probabilities.label() == citelens_nli::LABELS[*want])
        .count();
    println!("int8 (tract) vs fp32 (PyTorch) argmax agreement: {agree}/500");
    assert!(agree >= 490, "only {agree}/500 agree");
}
