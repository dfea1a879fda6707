//! `citelens verify` and `citelens bench` as a user runs them.

use std::path::PathBuf;
use std::process::Command;

fn citelens() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_citelens"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn data() -> PathBuf {
    std::env::var_os("CITELENS_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

fn paper_examples() -> PathBuf {
    data().join("paper_examples/paper_examples.jsonl")
}

#[test]
fn verify_writes_a_report_per_document_and_names_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("docs.jsonl");
    let first = std::fs::read_to_string(paper_examples()).unwrap().lines().next().unwrap().to_string();
    std::fs::write(&input, format!("{first}\n{{\"answer\": 5}}\n{first}\n")).unwrap();
    let out = citelens().args(["verify", "--input", input.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "a bad document makes the exit status 1");
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["version"], "1.1");
    assert_eq!(lines[0]["overall"]["category"], "supportive");
    assert_eq!(lines[0]["complexity"]["type"], "single");
    assert_eq!(lines[1]["document"], 2);
    assert!(lines[1]["error"].as_str().unwrap().contains("answer"));
    assert_eq!(lines[2]["overall"], lines[0]["overall"]);
}

#[test]
fn verify_pretty_shows_spans_categories_and_graph() {
    let out = citelens().args(["verify", "--input", paper_examples().to_str().unwrap(), "--format", "pretty"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("overall: contradictory"), "{text}");
    assert!(text.contains("--leads_to-->"), "the concatenation example draws its chain: {text}");
    assert!(text.contains("\x1b[31;1mGeorge Pal"), "the contradicted name is red: {text}");
}

#[test]
fn bench_prints_the_papers_figures_as_json() {
    let out = citelens().args(["bench", "--dataset", "caqa", "--input", paper_examples().to_str().unwrap(), "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["n", "macro_f1", "micro_f1", "per_category", "confusion", "pairs_per_second", "per_complexity_micro_f1"] {
        assert!(v.get(key).is_some(), "no {key} in {v}");
    }
    assert_eq!(v["n"], 9, "nine labelled paper examples");
    assert!(v["pairs_per_second"].as_f64().unwrap() > 0.0);
    assert!(v["per_category"]["supportive"]["f1"].as_f64().unwrap() > 50.0, "{v}");
}

#[test]
fn bench_scores_binary_sets_as_supported_vs_not() {
    let input = data().join("attribution/attributionbench/dev.jsonl");
    let out = citelens()
        .args(["bench", "--dataset", "attributionbench", "--input", input.to_str().unwrap(), "--limit", "6", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 6);
    assert!(v["binary_f1"].is_number() && v["binary_macro_f1"].is_number(), "{v}");
    assert!(v["category_mapping"].as_str().unwrap().contains("supportive -> supported"));
    let text =
        citelens().args(["bench", "--dataset", "attributionbench", "--input", input.to_str().unwrap(), "--limit", "2"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("binary F1") && text.contains("pairs/s"), "{text}");
}

#[test]
fn bench_refuses_a_file_without_usable_rows() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("empty.jsonl");
    std::fs::write(&input, "{\"nothing\": 1}\n").unwrap();
    let out = citelens().args(["bench", "--dataset", "wice", "--input", input.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no usable rows"));
}

#[test]
fn bench_score_cache_gives_the_same_figures_without_scoring_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("scores.jsonl");
    let reports = dir.path().join("reports.jsonl");
    let input = paper_examples();
    let run = |extra: &[&str]| {
        let mut args =
            vec!["bench", "--dataset", "caqa", "--input", input.to_str().unwrap(), "--json", "--score-cache", cache.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = citelens().args(&args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (first, _) = run(&[]);
    assert!(std::fs::read_to_string(&cache).unwrap().lines().count() > 9, "the cache holds every scored pair");
    let (second, stderr) = run(&["--reports", reports.to_str().unwrap()]);
    assert!(stderr.contains("pair scores from"), "{stderr}");
    assert_eq!(first["macro_f1"], second["macro_f1"]);
    assert_eq!(first["confusion"], second["confusion"]);
    assert_eq!(second["pairs_per_second"], 0.0, "nothing was scored the second time");
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&reports).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 9);
    assert!(lines.iter().all(|l| l["gold"].is_string() && l["report"]["overall"]["category"].is_string()));
}

#[test]
fn verify_finds_evidence_in_an_html_document_post_hoc() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let mut html = String::from("<!DOCTYPE html><html><head><script>alert(1)</script></head><body><h1>The Aarhus museum</h1>");
    for i in 0..60 {
        html += &format!("<p>Room {i} of the museum shows old maps and globes from the harbour archive.</p>");
        if i == 30 {
            html += "<p>The museum was founded in 1887 by the city of Aarhus.</p>";
        }
    }
    html += "</body></html>";
    std::fs::write(&page, &html).unwrap();
    let input = dir.path().join("answer.json");
    std::fs::write(&input, r#"{"answer": "The museum was founded in 1887. The museum does not say who designed its roof."}"#).unwrap();
    let out = citelens().args(["verify", "--input", input.to_str().unwrap(), "--document", page.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &r["sentences"][0];
    assert_eq!(first["citations"][0], "1", "post hoc: the sentence is checked against the document");
    assert_eq!(first["verdict"]["category"], "supportive", "{first}");
    let ev = &first["claims"][0]["evidence"][0];
    assert!(ev["text"].as_str().unwrap().contains("founded in 1887"), "{ev}");
    assert!(ev["start"].as_u64().unwrap() > 100, "offsets point into the document");
    // "The museum does not say ..." is not an abstention about the document, and is checked as a claim.
    assert!(!r["findings"].as_array().unwrap().iter().any(|f| f["message"].as_str().unwrap_or("").contains("alert")));
}

#[test]
fn verify_names_a_pdf_without_text() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("scan.pdf");
    std::fs::write(&pdf, b"%PDF-1.4\nnot a pdf at all").unwrap();
    let input = dir.path().join("answer.json");
    std::fs::write(&input, r#"{"answer": "The museum was founded in 1887."}"#).unwrap();
    let out = citelens().args(["verify", "--input", input.to_str().unwrap(), "--document", pdf.to_str().unwrap()]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("scan.pdf") && err.contains("PDF"), "{err}");
}

#[test]
fn pairs_from_cases_carry_each_sentences_own_gold_and_skip_misaligned_answers() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cases.jsonl");
    let out_file = dir.path().join("pairs.jsonl");
    let citations = r#"[{"id": "1", "text": "The bridge opened in 1932. It carries a railway."}]"#;
    let aligned = format!(
        r#"{{"id": "r1", "question": "When did the bridge open?", "answer": "The bridge opened in 1932 [1]. It carries a motorway [1].", "citations": {citations}, "gold_sentences": ["supportive", "contradictory"], "gold_overall": "contradictory"}}"#
    );
    // Two sentences, one gold: no pair may take another sentence's label.
    let misaligned = format!(
        r#"{{"id": "r2", "question": "When?", "answer": "The bridge opened in 1932 [1]. It carries a railway [1].", "citations": {citations}, "gold_sentences": ["supportive"], "gold_overall": "supportive"}}"#
    );
    std::fs::write(&input, format!("{aligned}\n{misaligned}\n")).unwrap();
    let out = citelens()
        .args(["pairs", "--dataset", "cases", "--input", input.to_str().unwrap(), "--out", out_file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("2 pairs from 2 answers") && printed.contains("1 split into another number"), "{printed}");
    let rows: Vec<serde_json::Value> =
        std::fs::read_to_string(&out_file).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0]["gold"].as_str(), rows[1]["gold"].as_str()), (Some("supportive"), Some("contradictory")));
    assert!(rows[1]["hypothesis"].as_str().unwrap().contains("motorway"));
    assert!(rows.iter().all(|r| r["record"] == "r1" && r["premise"].as_str().unwrap().contains("1932")));
}
