//! What the question already gives an answer. CAQA-style answers restate their question
//! ("the politician Mohammad Najibullah's country"), and two things follow:
//! - a type word the answer copied from the question ("the politician X") is the question's
//!   presupposition, not a fact the citation must back, so the claim is also read without it;
//! - evidence that never names the question's subject cannot fully support an answer about it
//!   ("the Authority finances …" for a question about the Maryland Transportation Authority).

use std::collections::HashSet;

use crate::text::analysed::Analysed;
use crate::text::entities::{self, Mentions};

/// The claim without the descriptors it copied from the question and the evidence lacks:
/// "the politician Mohammad Najibullah's country" → "Mohammad Najibullah's country". `None` when
/// there is nothing to drop.
pub fn without_question_descriptors(claim_analysed: &Analysed, question: &Analysed, evidence: &Mentions) -> Option<String> {
    if question.text().trim().is_empty() {
        return None;
    }
    let claim = claim_analysed.text();
    let asked: HashSet<&String> = question.words().iter().collect();
    let mut out = String::with_capacity(claim.len());
    let mut last = 0;
    for e in claim_analysed.names() {
        let before = &claim[last..e.start];
        // The words between the nearest "the" and the name: one or two lower-case words.
        let Some(the) = find_the(before) else { continue };
        let between: Vec<&str> = before[the + 4..].split_whitespace().collect();
        let droppable = (1..=2).contains(&between.len())
            && between.iter().all(|w| {
                let n = entities::norm_words(w);
                w.chars().all(|c| c.is_lowercase() || c == '-') && n.len() == 1 && asked.contains(&n[0]) && !evidence.contains_word(&n[0])
            });
        if droppable {
            out.push_str(&claim[last..last + the]);
            last = e.start;
        }
    }
    if last == 0 {
        return None;
    }
    out.push_str(&claim[last..]);
    Some(out)
}

/// Byte offset of the last "the " / "The " in `text` that is preceded by a word boundary.
fn find_the(text: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    if lower.len() != text.len() {
        return None; // offsets would not line up; such text has no plain "the" to drop anyway
    }
    lower
        .match_indices("the ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || !lower[..i].chars().next_back().is_some_and(char::is_alphanumeric))
        .last()
}

/// The claim's subject (the name it opens with, after at most an article) when the question names
/// it and the evidence does not. Only the subject: a title or a second name the question quotes is
/// often spelled differently in the evidence ("Newton-John", "Misérables"), and the claim is still
/// about what the evidence describes.
pub fn missing_subjects(claim_analysed: &Analysed, question: &Analysed, evidence: &Mentions) -> Vec<String> {
    if question.text().trim().is_empty() {
        return Vec::new();
    }
    let claim = claim_analysed.text();
    claim_analysed
        .names()
        .iter()
        .take(1)
        .filter(|e| claim[..e.start].split_whitespace().count() <= 1)
        .filter(|e| written_as_name_in(question.text(), &e.text) && question.mentions().mentions(&e.text) && !evidence.mentions(&e.text))
        .map(|e| e.text.clone())
        .collect()
}

/// Whether `question` spells `name` with its capitals somewhere other than at its start, so that a
/// capitalised first word ("Sketching to remember is …") is not taken for a name.
fn written_as_name_in(question: &str, name: &str) -> bool {
    question.match_indices(name).any(|(i, _)| question[..i].chars().any(char::is_alphanumeric))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn without(claim: &str, question: &str, evidence: &Mentions) -> Option<String> {
        without_question_descriptors(&Analysed::new(claim), &Analysed::new(question), evidence)
    }

    fn missing(claim: &str, question: &str, evidence: &Mentions) -> Vec<String> {
        missing_subjects(&Analysed::new(claim), &Analysed::new(question), evidence)
    }

    #[test]
    fn drops_a_type_word_copied_from_the_question() {
        let q = "What are the official languages in the politician Mohammad Najibullah's country?";
        let ev = Mentions::new("Mohammad Najibullah was the president of Afghanistan.");
        let claim = "Pashto and Dari are the official languages in the politician Mohammad Najibullah's country.";
        assert_eq!(without(claim, q, &ev).as_deref(), Some("Pashto and Dari are the official languages in Mohammad Najibullah's country."));
    }

    #[test]
    fn keeps_descriptors_the_question_lacks_or_the_evidence_states() {
        let q = "Who plays Patrick in 10 Things I Hate About You?";
        let ev = Mentions::new("10 Things I Hate About You is a 1999 film starring Heath Ledger.");
        // "film" is not in the question: the claim adds it, so the evidence must back it.
        assert_eq!(without("Heath Ledger plays Patrick in the film 10 Things I Hate About You.", q, &ev), None);
        let q = "Which film did the director Steven Spielberg make in 1993?";
        let ev = Mentions::new("The director Steven Spielberg made Jurassic Park in 1993.");
        assert_eq!(without("The director Steven Spielberg made Jurassic Park.", q, &ev), None);
        assert_eq!(without("The director Steven Spielberg made Jurassic Park.", "", &ev), None);
    }

    #[test]
    fn a_subject_named_by_the_question_but_not_the_evidence_is_missing() {
        let q = "The Maryland Transportation Authority is in charge of what landmarks?";
        let ev = Mentions::new("The Authority finances construction for the Maryland Department of Transportation (MDOT).");
        let claim =
            "The Maryland Transportation Authority is in charge of providing funding for the Maryland Department of Transportation.";
        assert_eq!(missing(claim, q, &ev), vec!["Maryland Transportation Authority".to_string()]);
        // Named by the evidence: nothing missing. No question: nothing to compare.
        let ev = Mentions::new("The Maryland Transportation Authority finances construction.");
        assert!(missing(claim, q, &ev).is_empty());
        assert!(missing(claim, "", &ev).is_empty());
        // A capitalised first word is not a name unless the question writes it as one.
        let q = "What is sketching to remember in a forensic interviewing context?";
        assert!(missing("Sketching to remember is a technique.", q, &Mentions::new("Interviews.")).is_empty());
        // A name later in the claim is not its subject.
        let q = "who sang the song suddenly with olivia newton john";
        let ev = Mentions::new("Suddenly is a song by Cliff Richard and Olivia Newton-John.");
        assert!(missing("Cliff Richard sang the song 'Suddenly' with Olivia Newton John.", q, &ev).is_empty());
    }
}
