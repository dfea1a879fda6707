//! The word lists' data file (`data/word_lists.json`) says of each list why it exists and who reads it.

use std::collections::HashMap;
use std::path::Path;

mod common;

/// Each list says why it exists, and `used_by` names exactly the files that read it: every engine
/// file that reads it by name, and the training files that load it.
#[test]
fn every_list_says_why_and_who_reads_it() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let all: HashMap<String, serde_json::Value> = serde_json::from_str(include_str!("../data/word_lists.json")).unwrap();
    let engine_sources: Vec<(String, String)> = common::rust_files(&root.join("crates/citelens-engine/src"))
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path.strip_prefix(root).unwrap().to_str().unwrap().to_string(), text)
        })
        .collect();
    for (name, entry) in all.iter().filter(|(k, _)| !k.starts_with('_')) {
        assert!(entry["why"].as_str().is_some_and(|w| !w.trim().is_empty()), "{name} has no why");
        let used_by: Vec<&str> =
            entry["used_by"].as_array().unwrap_or_else(|| panic!("{name}: used_by")).iter().map(|v| v.as_str().unwrap()).collect();
        let call = match name.as_str() {
            "units" => "words::units".to_string(),
            "number_words" => "words::number_words".to_string(),
            "unit_aliases" => "words::unit_aliases".to_string(),
            _ => format!("words::list(\"{name}\")"),
        };
        // text/words.rs is the loader, not a reader.
        let readers: Vec<&str> = engine_sources
            .iter()
            .filter(|(p, text)| !p.ends_with("text/words.rs") && text.contains(&call))
            .map(|(p, _)| p.as_str())
            .collect();
        assert!(!readers.is_empty(), "no engine file reads {name}");
        for r in &readers {
            assert!(used_by.contains(r), "{name}: {r} reads it and used_by does not say so");
        }
        for u in used_by.iter().filter(|u| !readers.contains(u)) {
            let text = std::fs::read_to_string(root.join(u)).unwrap_or_else(|_| panic!("{name}: used_by names {u}, which is not there"));
            assert!(text.contains(&format!("load(\"{name}\")")), "{name}: used_by names {u}, which does not read it");
        }
    }
}
