//! Typed checks between a claim and its evidence: numbers (units, rounding, "about"), dates (day,
//! month, year, partial dates), polarity (negation and antonyms) and the names filling the same role.
//! One `Check` per file, run in the order `CHECKS` lists them.
//!
//! Each check is a rule a reader can audit. A value the evidence states is a `Match`; a value whose
//! place the evidence fills with another value is a `Conflict`, which carries a *probe*: the claim
//! rewritten with the evidence's value ("… opened on May 24" for "… opened on May 25"). The model
//! reads the probe against the evidence; only when it entails the probe clearly better than the
//! claim is the conflict confirmed, so paraphrase, rounding and unit changes ("1,083 ft" beside
//! "330 m") never fire on their own.

use std::sync::OnceLock;

use regex::Regex;

use crate::text::analysed::Analysed;
use crate::text::entities::{self, Mentions};
use crate::text::words::{self, WordList};

/// What kind of value a check compared (a report type).
pub use citelens_types::CheckKind;

mod contrast;
mod denial;
mod links;
mod names;
mod numbers_dates;
mod ordinals;
mod polarity;
mod swapped_names;

pub use crate::text::values::{content_words, values, Value};
pub use links::PassageLinks;
pub use names::same_kind;

/// A value of the claim the evidence gives differently, and the claim rewritten with the evidence's.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub kind: CheckKind,
    /// The claim's words ("20 July", "never open").
    pub claim_says: String,
    /// The evidence's words ("21 July", "carries … pedestrians").
    pub source_says: String,
    /// The claim with the evidence's value put in: entailed by the evidence when the conflict is real.
    pub probe: String,
    /// Index of the evidence sentence the conflict was found in.
    pub sentence: usize,
    /// The value sits in the same role in both (the same verb before it).
    pub same_role: bool,
    /// The evidence reports the claim as a misconception or myth: the probe is the claim itself,
    /// and entailing it means the evidence denies it.
    pub denial: bool,
    /// For a negation one side has and the other lacks: which side has it.
    pub negated: Option<Side>,
    /// The evidence's value excludes the claim's, so the probe alone confirms the conflict: one
    /// relation with its two ends swapped word for word ("A took over the project from B" against
    /// "B took over the project from A").
    pub exclusive: bool,
}

impl Conflict {
    /// A conflict of `kind` in evidence sentence `sentence`: not in the same role, no negation, no denial.
    fn new(
        kind: CheckKind,
        claim_says: impl Into<String>,
        source_says: impl Into<String>,
        probe: impl Into<String>,
        sentence: usize,
    ) -> Self {
        Conflict {
            kind,
            claim_says: claim_says.into(),
            source_says: source_says.into(),
            probe: probe.into(),
            sentence,
            same_role: false,
            denial: false,
            negated: None,
            exclusive: false,
        }
    }

    fn in_same_role(self, same_role: bool) -> Self {
        Conflict { same_role, ..self }
    }

    fn negated_on(self, side: Side) -> Self {
        Conflict { negated: Some(side), ..self }
    }

    fn excluding(self, exclusive: bool) -> Self {
        Conflict { exclusive, ..self }
    }
}

/// One side of a claim-evidence comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Claim,
    Source,
}

/// What the typed checks found for one claim against its evidence sentences.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckOutcome {
    /// Values (numbers, dates) of the claim the evidence states.
    pub matched: Vec<String>,
    /// Values of the claim the evidence neither states nor contradicts.
    pub unmatched: Vec<String>,
    pub conflicts: Vec<Conflict>,
    /// Two of the claim's names that the cited passages both name, but only in passages nothing
    /// links (`PassageLinks::unlinked`).
    pub unlinked: Option<(String, String)>,
}

impl CheckOutcome {
    /// The claim has values and the evidence states every one of them.
    pub fn all_values_match(&self) -> bool {
        !self.matched.is_empty()
            && self.unmatched.is_empty()
            && self.conflicts.iter().all(|c| c.kind != CheckKind::Number && c.kind != CheckKind::Date)
    }
}

/// Probes per claim at most (each is one more model pair).
pub const MAX_PROBES: usize = 4;

/// The claim and its evidence as every check reads them.
pub struct CheckInput<'a> {
    pub claim: &'a Analysed,
    /// The evidence sentences (pronouns already resolved).
    pub sentences: &'a [&'a Analysed],
    /// Per sentence, how many content words it shares with the claim.
    pub overlap: Vec<usize>,
    /// The sentence sharing most words with the claim: the one the sentence-level checks read.
    pub best: Option<usize>,
}

/// One typed check: reads the claim against its evidence and adds what it finds (values matched
/// or unmatched, conflicts with their probes) to the outcome. Each lives in a file of its own.
pub trait Check: Sync {
    /// The check's name, as its file and docs give it.
    fn name(&self) -> &'static str;
    fn run(&self, input: &CheckInput, out: &mut CheckOutcome);
}

/// Every check, in the order they run: the order their conflicts are kept in, up to `MAX_PROBES`.
pub static CHECKS: &[&dyn Check] = &[
    &numbers_dates::NumbersAndDates,
    &ordinals::Ordinals,
    &denial::DENIAL,
    &polarity::POLARITY,
    &names::NAMES,
    &swapped_names::SWAPPED_NAMES,
    &contrast::CONTRASTED_SUBJECT,
];

/// A check that reads the claim against one evidence sentence, the one sharing most words with it
/// (`CheckInput::best`): `conflicts(input, best)` gives what it finds there. Five checks are such;
/// each file says only what its check looks for.
pub struct OnBestSentence {
    name: &'static str,
    conflicts: fn(&CheckInput, usize) -> Vec<Conflict>,
}

impl Check for OnBestSentence {
    fn name(&self) -> &'static str {
        self.name
    }

    fn run(&self, input: &CheckInput, out: &mut CheckOutcome) {
        let Some(best) = input.best else { return };
        out.conflicts.extend((self.conflicts)(input, best));
    }
}

/// Runs every check of `claim` against the evidence `sentences` (pronouns already resolved), each
/// analysed once for all the checks.
pub fn check(claim: &Analysed, sentences: &[&Analysed]) -> CheckOutcome {
    let overlap: Vec<usize> = sentences.iter().map(|s| shared_words(claim, s)).collect();
    let input = CheckInput { claim, sentences, best: best_sentence(&overlap), overlap };
    let mut out = CheckOutcome::default();
    for c in CHECKS {
        c.run(&input, &mut out);
    }
    out.conflicts.truncate(MAX_PROBES);
    out
}

fn shared_words(claim: &Analysed, sentence: &Analysed) -> usize {
    claim.content_words().iter().filter(|w| sentence.mentions().contains_word(w)).count()
}

/// `check` on plain texts, analysed here (tests and one-off callers).
pub fn check_texts(claim: &str, sentences: &[String]) -> CheckOutcome {
    let evidence: Vec<Analysed> = sentences.iter().map(|s| Analysed::new(s.as_str())).collect();
    let refs: Vec<&Analysed> = evidence.iter().collect();
    check(&Analysed::new(claim), &refs)
}

/// The evidence sentence sharing the most content words with the claim, from each sentence's count
/// of shared words (`None` when none shares any; the first of equals wins).
fn best_sentence(overlap: &[usize]) -> Option<usize> {
    overlap.iter().enumerate().filter(|(_, n)| **n > 0).max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0))).map(|(i, _)| i)
}

fn word_spans(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(st) = start.take() {
            out.push((st, &s[st..i]));
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn match_case(word: &str, like: &str) -> String {
    if like.chars().next().is_some_and(char::is_uppercase) {
        let mut c = word.chars();
        c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
    } else {
        word.to_string()
    }
}

/// Whether the evidence sentence is about the claim's subject: its first name is mentioned in the
/// sentence (or the claim opens without a name, and the sentence shares its other words).
fn same_subject(claim_analysed: &Analysed, sentence_analysed: &Analysed) -> bool {
    let (claim, sentence) = (claim_analysed.text(), sentence_analysed.text());
    let Some(first) = claim_analysed.names().first() else { return true };
    if claim[..first.start].split_whitespace().count() > 1 {
        return true; // the claim does not open with a name
    }
    // "African elephants' family groups …": a capitalised first word before a noun qualifies the
    // subject, it does not name it (unlike "Trump lost …", where a verb follows).
    let next = claim[first.end..].split_whitespace().next().unwrap_or("").trim_matches(|c: char| !c.is_alphanumeric());
    if first.start == 0
        && !first.text.contains(' ')
        && next.starts_with(char::is_lowercase)
        && !crate::text::claims::is_verb(next)
        && !["should", "must"].contains(&next)
    {
        return true;
    }
    let ev = sentence_analysed.names();
    // The sentence's own subject (its first name) must be the claim's: "Biden won" says nothing
    // about whether Trump won. A leading time or place ("In 1911 Curie received …") is skipped.
    let subject = ev.iter().find(|e| e.text.chars().any(char::is_alphabetic));
    match subject {
        Some(e) if crate::text::claims::opens_sentence(sentence, e.start) => {
            entities::name_mentions(&e.text, &first.text) || entities::name_mentions(&first.text, &e.text)
        }
        // Elsewhere in the sentence, the claim's name or a shorter form of it ("the Great Wall" for
        // "the Great Wall of China").
        _ => {
            sentence_analysed.mentions().mentions(&first.text)
                || ev.iter().any(|e| e.text.chars().any(char::is_alphabetic) && entities::name_mentions(&first.text, &e.text))
        }
    }
}

/// Evidence sentences for the checks' tests, as `check_texts` takes them.
#[cfg(test)]
pub(super) fn ev(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

/// One evidence sentence, as `check_texts` takes it.
#[cfg(test)]
pub(super) fn ev_one(s: &str) -> Vec<String> {
    vec![s.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_runs_once_under_its_own_name() {
        let names: Vec<&str> = CHECKS.iter().map(|c| c.name()).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert_eq!(names[0], "numbers_dates", "values are checked first: their conflicts are kept first");
    }
}
