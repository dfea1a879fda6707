//! The `citelens` binary as a user runs it.

use std::io::Write;
use std::process::{Command, Stdio};

fn citelens() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_citelens"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn single_pair_prints_three_probabilities() {
    let out = citelens()
        .args(["nli", "--premise", "A dog is running through the snow.", "--hypothesis", "An animal is outside."])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let probs: Vec<f64> = ["entailment", "neutral", "contradiction"]
        .iter()
        .map(|label| {
            let line = text.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("no {label} line in {text}"));
            line.split_whitespace().nth(1).unwrap().parse().unwrap()
        })
        .collect();
    assert!((probs.iter().sum::<f64>() - 1.0).abs() < 1e-3, "{text}");
    assert!(text.contains("verdict: entailment"), "{text}");
}

#[test]
fn a_reader_that_closes_early_ends_the_command_without_a_panic() {
    // The read end closes before the command prints (it loads the model first), as `| head` does.
    let mut child = citelens()
        .args(["nli", "--premise", "A dog is running through the snow.", "--hypothesis", "An animal is outside."])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_ne!(out.status.code(), Some(101), "{stderr}");
}

#[test]
fn jsonl_keeps_extra_fields_and_names_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("pairs.jsonl");
    std::fs::write(
        &input,
        concat!(
            "{\"id\": 7, \"premise\": \"Water boils at 100 degrees Celsius at sea level.\", \"hypothesis\": \"Water boils at 100 degrees.\"}\n",
            "{not json\n",
            "{\"premise\": \"Only a premise.\"}\n",
            "\n",
            "{\"premise\": \"A man plays a guitar.\", \"hypothesis\": \"A man plays music.\", \"tag\": [1, 2]}\n",
        ),
    )
    .unwrap();
    let out = citelens().args(["nli", "--input"]).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "bad lines make the exit status 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2: invalid JSON"), "{stderr}");
    assert!(stderr.contains("line 3: missing \"hypothesis\""), "{stderr}");
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4, "one output line per non-blank input line");
    assert_eq!(lines[0]["id"], 7);
    assert!(lines[0]["entailment"].as_f64().unwrap() > 0.5);
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[2]["line"], 3);
    assert_eq!(lines[3]["tag"], serde_json::json!([1, 2]));
    for key in ["entailment", "neutral", "contradiction"] {
        assert!(lines[3][key].is_number(), "{key} missing");
    }
}

#[test]
fn stdin_is_read_with_dash() {
    let mut child =
        citelens().args(["nli", "--input", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"{\"premise\": \"The library is closed on Sundays.\", \"hypothesis\": \"The library is open on Sundays.\"}\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["premise"], "The library is closed on Sundays.");
    let sum: f64 = ["entailment", "neutral", "contradiction"].iter().map(|k| v[k].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-3, "{v}");
    assert!(["entailment", "neutral", "contradiction"].contains(&v["label"].as_str().unwrap()), "{v}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("pairs/s"));
}

#[test]
fn missing_model_dir_is_a_clear_error() {
    let out = citelens().args(["nli", "--model", "/nonexistent/model", "--premise", "a", "--hypothesis", "b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("model file not found"));
}

#[test]
fn found_without_configuration_from_another_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_citelens"))
        .current_dir(dir.path())
        .env_remove("CITELENS_MODEL_DIR")
        .args(["nli", "--premise", "A man plays a guitar.", "--hypothesis", "A man plays music."])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The README's second command: the example shipped in the repository, verified from the terminal.
#[test]
fn the_shipped_example_verifies_from_the_terminal() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/brooklyn-bridge.json");
    let out = citelens().args(["verify", "--input", example, "--format", "pretty"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("overall: "), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("sentence ")).count(), 4, "{text}");
    // The example is the suite's first case: the two stay the same answer.
    let fixture = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/cases.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(fixture.lines().next().unwrap()).unwrap();
    let shipped: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    for key in ["question", "answer", "citations"] {
        assert_eq!(first[key], shipped[key], "examples/brooklyn-bridge.json and the suite's first case differ in {key}");
    }
}
