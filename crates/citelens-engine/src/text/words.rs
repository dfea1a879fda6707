//! The engine's word lists, read once from one data file (`data/word_lists.json`) that `training/`
//! reads too: a list has one home, its reason beside it, and no copy in code to drift from it.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

/// A list read from the file on first use: `static NAME: WordList = WordList::new(|| words::list("name"));`.
pub type WordList = std::sync::LazyLock<&'static [&'static str]>;

/// The file, compiled in: the engine runs in a browser with no file system.
const WORD_LISTS_JSON: &str = include_str!("../../data/word_lists.json");

#[derive(Deserialize)]
struct Entry {
    words: serde_json::Value,
}

/// Every list by name, as the JSON has it (read once).
fn entries() -> &'static HashMap<String, Entry> {
    static ENTRIES: OnceLock<HashMap<String, Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let all: HashMap<String, serde_json::Value> = serde_json::from_str(WORD_LISTS_JSON).expect("data/word_lists.json is JSON");
        all.into_iter()
            .filter(|(k, _)| !k.starts_with('_'))
            .map(|(k, v)| (k.clone(), serde_json::from_value(v).unwrap_or_else(|e| panic!("word list {k}: {e}"))))
            .collect()
    })
}

fn words(name: &str) -> &'static serde_json::Value {
    &entries().get(name).unwrap_or_else(|| panic!("data/word_lists.json has no list {name:?}")).words
}

/// A string leaked once per list entry: the lists live as long as the program, as consts did.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

fn as_str(v: &serde_json::Value, list: &str) -> &'static str {
    leak(v.as_str().unwrap_or_else(|| panic!("word list {list}: {v} is not a string")))
}

/// A decimal given as a string, parsed by Rust's own (exact) float parser, as a literal in code was.
fn as_f64(v: &serde_json::Value, list: &str) -> f64 {
    as_str(v, list).parse().unwrap_or_else(|_| panic!("word list {list}: {v} is not a number"))
}

/// A list of words or phrases by its name in the file.
pub fn list(name: &str) -> &'static [&'static str] {
    let items = words(name).as_array().unwrap_or_else(|| panic!("word list {name} is not an array"));
    Box::leak(items.iter().map(|v| as_str(v, name)).collect::<Vec<_>>().into_boxed_slice())
}

/// (unit as normalised, family, scale to the family's base).
pub fn units() -> &'static [(&'static str, &'static str, f64)] {
    let rows = words("units").as_array().expect("units is an array");
    Box::leak(
        rows.iter()
            .map(|r| (as_str(&r[0], "units"), as_str(&r[1], "units"), as_f64(&r[2], "units")))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

/// (how a text writes a unit, the unit as `units` names it).
pub fn unit_aliases() -> &'static [(&'static str, &'static str)] {
    let rows = words("unit_aliases").as_array().expect("unit_aliases is an array");
    Box::leak(rows.iter().map(|r| (as_str(&r[0], "unit_aliases"), as_str(&r[1], "unit_aliases"))).collect::<Vec<_>>().into_boxed_slice())
}

/// (number word, its value).
pub fn number_words() -> &'static [(&'static str, f64)] {
    let rows = words("number_words").as_array().expect("number_words is an array");
    Box::leak(rows.iter().map(|r| (as_str(&r[0], "number_words"), as_f64(&r[1], "number_words"))).collect::<Vec<_>>().into_boxed_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_list_reads_and_none_is_empty_or_has_blank_entries() {
        for name in entries().keys() {
            match name.as_str() {
                "units" => assert!(!units().is_empty()),
                "unit_aliases" => {
                    // Every alias names a unit the unit table knows.
                    for (alias, unit) in unit_aliases() {
                        assert!(units().iter().any(|u| u.0 == *unit), "unit_aliases: {alias} names {unit}, which units lacks");
                    }
                }
                "number_words" => assert!(!number_words().is_empty()),
                _ => {
                    let words = list(name);
                    assert!(!words.is_empty(), "{name}");
                    assert!(words.iter().all(|w| !w.trim().is_empty()), "{name} has a blank entry");
                }
            }
        }
    }
}
