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
    &denial::Denial,
    &polarity::Polarity,
    &names::Names,
    &swapped_names::SwappedNames,
    &contrast::ContrastedSubject,
];

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
fn same_subject(claim: &str, sentence: &str) -> bool {
    let Some(first) = entities::extract(claim).into_iter().next() else { return true };
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
    let ev = entities::extract(sentence);
    // The sentence's own subject (its first name) must be the claim's: "Biden won" says nothing
    // about whether Trump won. A leading time or place ("In 1911 Curie received …") is skipped.
    let subject = ev.iter().find(|e| e.text.chars().any(char::is_alphabetic));
    match subject {
        Some(e) if crate::text::claims::opens_sentence(sentence, e.start) => {
            let m = Mentions::new(&e.text);
            m.mentions(&first.text) || Mentions::new(&first.text).mentions(&e.text)
        }
        // Elsewhere in the sentence, the claim's name or a shorter form of it ("the Great Wall" for
        // "the Great Wall of China").
        _ => {
            Mentions::new(sentence).mentions(&first.text)
                || ev.iter().any(|e| e.text.chars().any(char::is_alphabetic) && Mentions::new(&first.text).mentions(&e.text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::contrast::*;
    use super::links::*;
    use super::polarity::*;
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

    #[test]
    fn the_antonym_file_reads_whole_and_both_ways() {
        let text = include_str!("../../../data/antonyms.tsv");
        let rows = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).count();
        assert_eq!(antonym_pairs().len(), rows, "every pair line has a tab");
        assert_eq!(antonym_of("won"), ["lost"]);
        assert!(antonym_of("lost").contains(&"won") && antonym_of("lost").contains(&"gained"));
    }

    #[test]
    fn converses_and_unlisted_words_have_no_antonym() {
        // "before his release" and "after 27 years" can say the same thing; so can "bought" and "sold".
        for w in ["before", "after", "bought", "sold", "day", "Won", ""] {
            assert!(antonym_of(w).is_empty(), "{w}");
        }
    }

    fn v(text: &str) -> Vec<String> {
        values(text).into_iter().map(|v| v.text).collect()
    }

    fn ev(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn unlinked_names(claim: &str, passages: &[String]) -> Option<(String, String)> {
        PassageLinks::new(passages).unlinked(claim)
    }

    #[test]
    fn a_claim_about_the_name_a_contrast_sets_apart_is_probed_with_the_other_name() {
        let sentence = "Phobos is gradually spiralling toward Mars and may collide with it, while Deimos is slowly moving away.";
        let c = contrasted_subject("Deimos is slowly spiralling inward.", sentence, 0).expect("the spiralling is Phobos'");
        assert_eq!(
            (c.claim_says.as_str(), c.source_says.as_str(), c.probe.as_str()),
            ("Deimos", "Phobos", "Phobos is slowly spiralling inward.")
        );
        // What the sentence says of the claim's own subject, or a sentence without a contrast: no conflict.
        assert!(contrasted_subject("Deimos is slowly moving away.", sentence, 0).is_none());
        assert!(contrasted_subject("Phobos is spiralling toward Mars.", sentence, 0).is_none());
        assert!(contrasted_subject("Deimos is slowly spiralling inward.", "Phobos and Deimos are both spiralling inward.", 0).is_none());
        // Letters whose lower case is longer ("İ") leave the cuts on the sentence's own boundaries.
        assert!(contrasted_subject("Deimos is in İzmir.", "İİİ Phobos is in İzmir, while Deimos is in Ankara.", 0).is_some());
        let but = "Alice Smith won the gold medal, but Bob Jones won silver.";
        assert_eq!(contrasted_subject("Bob Jones won the gold medal.", but, 0).map(|c| c.source_says), Some("Alice Smith".to_string()));
    }

    #[test]
    fn names_in_passages_nothing_links_are_unlinked() {
        let claim = "The contained place of Keith Moon's nationality is University of Reading.";
        let apart = ev(&[
            "Keith Moon, English musician, acted in Tommy.",
            "England includes University of Reading. It is governed as a constitutional monarchy.",
        ]);
        let (a, b) = unlinked_names(claim, &apart).expect("no passage joins Keith Moon to the University of Reading");
        assert_eq!((a.as_str(), b.as_str()), ("Keith Moon", "University of Reading"));
        // The bridge named in both passages links them, as in a chain the sources state whole.
        let bridged = ev(&["Keith Moon holds the nationality of England.", "England includes University of Reading."]);
        assert_eq!(unlinked_names(claim, &bridged), None);
        // Through a third passage: Get Carter (1) - Morgan Creek (2) - …; Elie Samaha only in (3).
        let claim = "Get Carter was produced by Elie Samaha.";
        let three = ev(&[
            "Get Carter is classed as action film.",
            "Get Carter was produced by Morgan Creek Productions.",
            "Elie Samaha holds the nationality of Lebanon.",
        ]);
        assert!(unlinked_names(claim, &three).is_some());
        let chained = ev(&[
            "Get Carter is classed as action film.",
            "Get Carter was produced by Morgan Creek Productions.",
            "Morgan Creek Productions was run by Elie Samaha.",
        ]);
        assert_eq!(unlinked_names(claim, &chained), None);
    }

    #[test]
    fn one_passage_a_shared_topic_or_an_unnamed_name_is_no_unlinked_pair() {
        let claim = "Rick Scott attended Southern Methodist University.";
        assert_eq!(unlinked_names(claim, &ev(&["Rick Scott went to law school at Southern Methodist University."])), None);
        // Two passages about one subject: the subject links them.
        let topic = ev(&["Rick Scott was governor of Florida.", "Scott earned a law degree from Southern Methodist University."]);
        assert_eq!(unlinked_names(claim, &topic), None);
        // A title is part of its passage ("Southern Methodist University — Wikipedia").
        let titled = ev(&["Rick Scott was governor of Florida.", "Southern Methodist University. Its alumni include Rick Scott."]);
        assert_eq!(unlinked_names(claim, &titled), None);
        // A title that is a number links the passages about it.
        let claim = "2046 is a production of Hong Kong and counts Wong Kar-wai among its producers.";
        let titled =
            ev(&["2046 was produced in Hong Kong.", "2046 was released in United States of America. 2046 was produced by Wong Kar-wai."]);
        assert_eq!(unlinked_names(claim, &titled), None);
        // Two names of one thing, and a list of names, need no link.
        let amoc = ev(&["The AMOC moves warm water north.", "Atlantic Meridional Overturning Circulation is a system of currents."]);
        assert_eq!(unlinked_names("AMOC stands for Atlantic Meridional Overturning Circulation.", &amoc), None);
        let list = "Sources include the National Institutes of Health (NIH), the Centers for Disease Control (CDC) and the Mayo Clinic.";
        let one_each = ev(&["The NIH funds asthma research.", "The CDC tracks asthma.", "The Mayo Clinic treats asthma."]);
        assert_eq!(unlinked_names(list, &one_each), None);
        // A name no passage gives is another check's business (a fact the evidence lacks).
        let absent = ev(&["Rick Scott was governor of Florida.", "The university is in Dallas."]);
        assert_eq!(unlinked_names(claim, &absent), None);
    }

    #[test]
    fn a_name_of_the_same_kind_is_the_rival_before_one_in_the_same_role() {
        let c = check_texts(
            "East Orange is in the Eastern Time Zone.",
            &ev(&["East Orange, city in Essex County, New Jersey, United States, is in the Central Time Zone."]),
        );
        let names: Vec<&str> = c.conflicts.iter().filter(|x| x.kind == CheckKind::Name).map(|x| x.source_says.as_str()).collect();
        assert_eq!(names, ["Central Time Zone"], "{c:?}");
    }

    #[test]
    fn finds_numbers_years_and_dates() {
        assert!(v("a tetrazole ring at the C3 position of KDM4").is_empty());
        assert_eq!(v("The bridge opened on May 24, 1883, after 13 years of construction."), ["May 24, 1883", "13 years"]);
        assert_eq!(v("It stands 1,083 ft (330 m) tall and was built between 1887 and 1889."), ["1,083 ft", "330 m", "1887", "1889"]);
        assert_eq!(v("Apollo 11 landed on 20 July 1969."), ["11", "20 July 1969"]);
        assert_eq!(v("more than seven million votes"), ["seven million"]);
    }

    #[test]
    fn paraphrases_rounding_and_units_match() {
        assert!(check_texts("Its 1,280-metre main span was the longest.", &ev(&["Its main span of 1,280 metres was the longest."]))
            .all_values_match());
        assert!(check_texts("At 31, she became the youngest nominee.", &ev(&["The 31-year-old became the youngest nominee."]))
            .all_values_match());
        let c = check_texts("Its main span is 486 metres long.", &ev(&["With a main span of 486.3 metres, it was the longest."]));
        assert!(c.conflicts.is_empty() && c.all_values_match(), "{c:?}");
        let c = check_texts("The tower is about 330 metres tall.", &ev(&["It stands 1,083 ft tall."]));
        assert!(c.conflicts.is_empty() && c.all_values_match(), "{c:?}");
        let c = check_texts("The wall is about 21,000 kilometres long.", &ev(&["The wall measures 21,196 kilometres."]));
        assert!(c.all_values_match(), "{c:?}");
        let c = check_texts(
            "It opened in 1883 after 13 years of construction.",
            &ev(&["Construction began in 1870 and the bridge opened on May 24, 1883."]),
        );
        assert!(c.all_values_match(), "{c:?}");
        let c = check_texts("The war lasted from 1914 to 1918.", &ev(&["World War I was fought from 28 July 1914 to 11 November 1918."]));
        assert!(c.all_values_match(), "{c:?}");
    }

    #[test]
    fn different_values_in_the_same_place_conflict() {
        let c = check_texts("The bridge opened on May 25, 1883.", &ev(&["The bridge opened on May 24, 1883."]));
        assert_eq!(c.conflicts.len(), 1);
        assert_eq!(c.conflicts[0].probe, "The bridge opened on May 24, 1883.");
        let c = check_texts("Biden received 232 electoral votes.", &ev(&["Biden received 306 electoral votes to Trump's 232."]));
        assert!(c.conflicts.iter().any(|x| x.source_says == "306" && x.same_role), "{c:?}");
        let c = check_texts("It has 136 floors.", &ev(&["It stands 828 metres tall and has 163 floors."]));
        assert_eq!(c.conflicts[0].probe, "It has 163 floors.");
    }

    #[test]
    fn a_date_alike_but_for_one_part_is_in_the_same_place() {
        let c = check_texts(
            "The tower was completed on 31 March 1899.",
            &ev(&["Work was completed on 31 March 1889, and it opened on 15 May 1889."]),
        );
        let same: Vec<(&str, bool)> = c.conflicts.iter().map(|x| (x.source_says.as_str(), x.same_role)).collect();
        assert!(same.contains(&("31 March 1889", true)) && same.contains(&("15 May 1889", false)), "{same:?}");
    }

    #[test]
    fn a_date_given_less_precisely_is_no_conflict() {
        // The evidence gives the month and year, or the day without the year: nothing denies the claim.
        let c =
            check_texts("It aired on March 4, 2019, in Australia.", &ev(&["It premiered in March 2019.", "Filming ended in June 2018."]));
        assert!(c.conflicts.is_empty(), "{c:?}");
        let c = check_texts(
            "The album came out on April 9, 2011.",
            &ev(&["The album came out on April 9.", "The tour began on February 22, 2011."]),
        );
        assert!(c.conflicts.is_empty(), "{c:?}");
        // A different day of the same month still conflicts.
        let c = check_texts("The album came out on April 9, 2011.", &ev(&["The album came out on April 19, 2011."]));
        assert_eq!(c.conflicts.len(), 1, "{c:?}");
    }

    #[test]
    fn season_spans_and_lists_are_no_conflicts() {
        let c = check_texts(
            "The name change takes place during the 2018–19 academic year.",
            &ev(&["The new name is used from the 2018–19 academic year, starting on 4 September 2018."]),
        );
        assert!(c.conflicts.is_empty(), "{c:?}");
        let c = check_texts(
            "Glossopteris fossils occur in Australia, New Zealand and India.",
            &ev_one("Glossopteris fossils are found in India, Australia and New Zealand."),
        );
        assert!(!c.conflicts.iter().any(|x| x.kind == CheckKind::Name), "{c:?}");
        let c = check_texts("The species had been described as a subspecies.", &ev_one("It was falsely assumed to be a subspecies."));
        assert!(!c.conflicts.iter().any(|x| x.denial), "{c:?}");
    }

    #[test]
    fn converses_and_negations_on_both_sides_are_the_same_polarity() {
        let c = check_texts(
            "Mandela spent 27 years in prison before his release in 1990.",
            &ev_one("Mandela was released in 1990 after 27 years in prison."),
        );
        assert!(!c.conflicts.iter().any(|x| x.kind == CheckKind::Polarity), "{c:?}");
        let c = check_texts(
            "Switzerland does not belong to the European Union.",
            &ev_one("Switzerland is not a member of the European Union and is not in the eurozone."),
        );
        assert!(!c.conflicts.iter().any(|x| x.kind == CheckKind::Polarity), "{c:?}");
        let c = check_texts("Switzerland belongs to the European Union.", &ev_one("Switzerland is not a member of the European Union."));
        assert!(c.conflicts.iter().any(|x| x.negated == Some(Side::Source)), "{c:?}");
    }

    #[test]
    fn an_antonym_after_the_same_verb_is_in_the_same_role() {
        let c = check_texts("Cheetahs usually hunt at night.", &ev_one("Cheetahs hunt mostly in daylight."));
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Polarity && x.same_role), "{c:?}");
        // Nothing shared around it: an opposite somewhere else in the sentence.
        let c = check_texts("Owls sleep at night.", &ev_one("Owls are rarely seen by day because they rest in daylight."));
        assert!(!c.conflicts.iter().any(|x| x.same_role), "{c:?}");
    }

    #[test]
    fn a_relation_with_its_ends_swapped_word_for_word_excludes_the_claim() {
        let c = check_texts(
            "France took over the project from the United States in 1904.",
            &ev_one("The United States took over the project from France in 1904."),
        );
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Name && x.exclusive), "{c:?}");
        let c = check_texts("The ship sailed from New York to Southampton.", &ev_one("The ship sailed from Southampton to New York."));
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Name && x.exclusive), "{c:?}");
        // A relation that holds both ways says the same in either order.
        let c = check_texts("Marie married Pierre Curie in 1895.", &ev_one("Pierre Curie married Marie in 1895."));
        assert!(!c.conflicts.iter().any(|x| x.exclusive), "{c:?}");
        // Other words between the names: a swapped order the model has to weigh, not excluded by rule.
        let c = check_texts("Tesla bought SolarCity from Musk.", &ev_one("Musk sold SolarCity to Tesla."));
        assert!(!c.conflicts.iter().any(|x| x.exclusive), "{c:?}");
    }

    #[test]
    fn only_a_belief_called_false_is_a_denial() {
        let c = check_texts("Peruggia was convicted of the theft.", &ev_one("Peruggia was wrongly convicted of the theft."));
        assert!(!c.conflicts.iter().any(|x| x.denial), "{c:?}");
        let c = check_texts("Edison invented the light bulb.", &ev_one("Edison is often falsely credited with inventing the light bulb."));
        assert!(c.conflicts.iter().any(|x| x.denial), "{c:?}");
    }

    #[test]
    fn a_year_inside_a_name_does_not_date_the_claim() {
        let ev = ev(&["Tokyo hosted the 2020 Summer Olympics, which were postponed and held in 2021."]);
        let c = check_texts("Tokyo hosted the Olympics in 2020.", &ev);
        assert!(c.conflicts.iter().any(|x| x.source_says == "2021"), "{c:?}");
        // Alone in its sentence, the name's year still states it.
        let c = check_texts("Curie shared the Nobel Prize in 1903.", &ev_one("She shared the 1903 Nobel Prize in Physics."));
        assert!(c.all_values_match(), "{c:?}");
    }

    fn ev_one(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn a_rank_given_otherwise_for_the_same_thing_conflicts() {
        let c = check_texts(
            "Jupiter is the fourth planet from the Sun.",
            &ev(&["Jupiter is the fifth planet from the Sun and the largest in the Solar System."]),
        );
        let x = c.conflicts.iter().find(|x| x.kind == CheckKind::Number).expect("a rank conflict");
        assert_eq!((x.claim_says.as_str(), x.source_says.as_str()), ("fourth planet", "fifth planet"));
        assert_eq!(x.probe, "Jupiter is the fifth planet from the Sun.");
        let c = check_texts("It was the 3rd-largest city.", &ev(&["It was the second-largest city."]));
        assert!(c.conflicts.iter().any(|x| x.probe == "It was the second-largest city."), "{c:?}");
        // Ranks of different things, or the claim's rank also given, are no conflict.
        let c = check_texts("Its first car was the Roadster.", &ev(&["Its second model was the Model S; its first car was the Roadster."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Number), "{c:?}");
        let c = check_texts("It was the second edition.", &ev(&["The first printing sold out."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Number), "{c:?}");
        // A name between the rank and its noun: "second World Cup title" ranks titles.
        let c = check_texts(
            "It was France's first title.",
            &ev(&["The victory gave France its second World Cup title, after its first win on home soil in 1998."]),
        );
        let x = c.conflicts.iter().find(|x| x.kind == CheckKind::Number).expect("a rank conflict");
        assert_eq!((x.claim_says.as_str(), x.source_says.as_str()), ("first title", "second title"));
    }

    #[test]
    fn a_negation_reaches_to_the_end_of_its_clause() {
        // The second negation of the sentence denies the claim's predicate.
        let c = check_texts(
            "Switzerland adopted the euro in 2002.",
            &ev(&["Switzerland is not a member of the European Union, and it has not adopted the euro."]),
        );
        let neg = c.conflicts.iter().find(|x| x.negated == Some(Side::Source)).expect("a source negation");
        assert!(neg.same_role, "{neg:?}");
        assert_eq!(neg.source_says, "has not adopted the euro");
        // "refused to concede and filed …": only "concede" is negated.
        let c = check_texts("Trump conceded the election.", &ev(&["Trump refused to concede and filed dozens of lawsuits."]));
        assert!(c.conflicts.iter().any(|x| x.negated == Some(Side::Source) && x.same_role), "{c:?}");
        assert_eq!(negation_reach("He refused to concede and filed lawsuits.", "He filed lawsuits."), None);
        // Temporal and partial negations deny nothing the claim states.
        let c = check_texts("The bridge opened in 1883.", &ev(&["The bridge did not open until 1883."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        let c = check_texts("The museum is open on Sundays.", &ev(&["The museum is no longer open on Mondays."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        // An answer that states the exception agrees with the negation.
        let c = check_texts("It is open every day except Mondays.", &ev(&["It is not open on Mondays."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        // Another subject's negation stands alone only when the sentence names the claim's opener.
        let c = check_texts("The museum is open on Mondays.", &ev(&["The library is not open on Mondays."]));
        assert!(c.conflicts.iter().all(|x| !(x.negated == Some(Side::Source) && x.same_role)), "{c:?}");
        // A shorter form of the claim's name is the same subject.
        let c = check_texts(
            "The Great Wall of China is visible to the naked eye from orbit.",
            &ev(&["Contrary to a popular myth, the Great Wall is not visible to the naked eye from low Earth orbit."]),
        );
        assert!(c.conflicts.iter().any(|x| x.negated == Some(Side::Source) && x.same_role), "{c:?}");
    }

    #[test]
    fn polarity_and_names() {
        let c = check_texts(
            "The Brooklyn Bridge was never open to pedestrians.",
            &ev(&["The Brooklyn Bridge carries vehicles and pedestrians."]),
        );
        assert_eq!(c.conflicts[0].probe, "The Brooklyn Bridge was open to pedestrians.");
        let c = check_texts("Earth is farthest from the Sun in early January.", &ev(&["Earth is closest to the Sun in early January."]));
        assert!(c.conflicts.iter().any(|x| x.probe == "Earth is closest from the Sun in early January."), "{c:?}");
        // Another subject's win says nothing of this one's.
        let c = check_texts("Trump lost the popular vote.", &ev(&["Joe Biden won the popular vote, defeating Donald Trump."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        // A contrast on a name is not a negated verb.
        assert_eq!(without_negation("The capital is Canberra, not Sydney."), None);
        let c = check_texts(
            "The company was founded in Seattle.",
            &ev(&["Microsoft was founded on April 4, 1975, in Albuquerque, New Mexico."]),
        );
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Name && x.source_says == "Albuquerque"), "{c:?}");
    }
}
