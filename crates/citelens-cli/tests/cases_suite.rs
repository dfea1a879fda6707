//! The cited-answer regression suite (tests/fixtures/cases.jsonl: answers like the ones AI search
//! engines write, with a gold category per sentence) through the shipped model: no verdict may be
//! flipped but the known ones below, and sentence accuracy may not fall below the floor it has reached.
//! The suite was written by the project, so it is a regression test for crashes and obvious flips,
//! not the yardstick (that is `citelens_synth` dev).

use std::process::Command;

/// Sentence accuracy (percent) the suite reached with the shipped model and rules, less a point of
/// slack for numeric noise between platforms. Raise it when the engine improves.
const ACCURACY_FLOOR: f64 = 82.4;

/// Flips the engine is known to make here. Each had a rule written for this one sentence
/// (`checks::agent`, the superlative holder); both rules were removed in issue 33 because they
/// changed nothing on `citelens_synth` dev (answers 57.57 % and claims 36.05 % with and without them;
/// docs/COMBINER.md lists the ablation).
const KNOWN_FLIPS: [&str; 2] = ["The Sahara is the largest desert in the world.", "Wilbur piloted the first flight."];

#[test]
fn the_suite_has_no_flips_and_keeps_its_accuracy() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/cases.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_citelens"))
        .args(["bench", "--dataset", "cases", "--json", "--input", fixture.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["answers"].as_u64().unwrap() >= 40 && v["sentences"].as_u64().unwrap() >= 120, "the suite is its full size");
    assert_eq!(v["misaligned_answers"], 0, "every answer splits into as many sentences as it has gold labels");
    let flips: Vec<&serde_json::Value> = v["wrong"].as_array().unwrap().iter().filter(|w| w["flip"] == true).collect();
    let unknown: Vec<&&serde_json::Value> = flips.iter().filter(|w| !KNOWN_FLIPS.contains(&w["text"].as_str().unwrap_or(""))).collect();
    assert!(unknown.is_empty(), "flipped verdicts: {unknown:#?}");
    let accuracy = v["sentence_accuracy"].as_f64().unwrap();
    assert!(accuracy >= ACCURACY_FLOOR, "sentence accuracy {accuracy} fell below {ACCURACY_FLOOR}");
    // Risk-coverage is printed for 100 / 90 / 80 % and never gets worse as unsure verdicts are set aside.
    let rc: Vec<f64> = v["risk_coverage"].as_array().unwrap().iter().map(|r| r["accuracy"].as_f64().unwrap()).collect();
    assert_eq!(rc.len(), 3);
    assert!(rc[1] >= rc[0] && rc[2] >= rc[1], "{rc:?}");
}

#[test]
fn a_bad_suite_line_is_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("citelens-cases-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.jsonl");
    std::fs::write(&file, r#"{"answer": "A [1].", "citations": [{"id": "1", "text": "A."}], "gold_sentences": ["supported-ish"], "gold_overall": "supportive"}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_citelens"))
        .args(["bench", "--dataset", "cases", "--input", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("gold_sentences"), "{}", String::from_utf8_lossy(&out.stderr));
}
