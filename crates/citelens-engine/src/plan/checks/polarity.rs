//! Polarity: a negation one side has and the other lacks, or an antonym in the same role, within
//! the negation's reach (its clause).

use super::*;

/// The best sentence negates what the claim states (or the reverse), or says its antonym.
pub(super) static POLARITY: OnBestSentence =
    OnBestSentence { name: "polarity", conflicts: |input, bi| polarity(input.claim, input.sentences[bi], bi) };

/// Negation attached to a verb: "was never open", "did not win", "has no moons", "cannot roar".
pub(super) fn negation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:(is|was|are|were|has|have|had|did|does|do|will|would|could|can|should|may|might|must)(?:\s+(not|never|no)\b)|(never|refused\s+to|failed\s+to|declined\s+to)\b|(cannot)\b|(is|was|are|were|has|have|had|did|does|do|could|would|can)n[’']t\b)")
            .expect("static regex")
    })
}

pub(super) fn negations(text: &str) -> usize {
    negation_re().find_iter(text).count()
        + text
            .split_whitespace()
            .filter(|w| matches!(w.to_lowercase().trim_matches(|c: char| !c.is_alphabetic()), "neither" | "nor"))
            .count()
}

/// The claim with its verb negation taken out ("was never open" → "was open"), if it has one.
pub(super) fn without_negation(claim: &str) -> Option<String> {
    let m = negation_re().captures(claim)?;
    let whole = m.get(0)?;
    // ", not Sydney": a contrast on a name, not a negated verb — not this rule's business.
    let rewritten = if let Some(aux) = m.get(1) {
        // "was never open" → "was open", "has no moons" → "has moons"
        let neg = m.get(2)?;
        format!("{}{}", &claim[..aux.end()], &claim[neg.end()..])
    } else if m.get(3).is_some() {
        format!("{}{}", &claim[..whole.start()], claim[whole.end()..].trim_start())
    } else if m.get(4).is_some() {
        format!("{}can{}", &claim[..whole.start()], &claim[whole.end()..])
    } else {
        let aux = m.get(5)?;
        format!("{}{}{}", &claim[..whole.start()], aux.as_str(), &claim[whole.end()..])
    };
    Some(rewritten.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Word pairs of opposite meaning that answers swap (`data/antonyms.tsv`, which says what is in it and
/// what is left out; training/contrastive.py reads the same file).
pub(super) fn antonym_pairs() -> &'static [(&'static str, &'static str)] {
    static PAIRS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        include_str!("../../../data/antonyms.tsv")
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .map(|(a, b)| (a.trim(), b.trim()))
            .collect()
    })
}

pub(super) fn antonym_of(w: &str) -> Vec<&'static str> {
    antonym_pairs()
        .iter()
        .filter_map(|(a, b)| {
            if *a == w {
                Some(*b)
            } else if *b == w {
                Some(*a)
            } else {
                None
            }
        })
        .collect()
}

/// Words after a negation that make it partial or temporal rather than a denial of the predicate:
/// "did not open until 1883", "not only … but", "no longer", "not all", "not yet".
pub(super) static PARTIAL_NEGATION: WordList = WordList::new(|| words::list("partial_negation"));

/// Words that, anywhere in a negated clause, turn it into a time limit: "did not open to the public
/// until 1883" says it opened then.
pub(super) static TEMPORAL_LIMIT: WordList = WordList::new(|| words::list("temporal_limit"));

/// Words by which a text states an exception to what it says.
pub(super) static EXCEPTION_WORDS: WordList = WordList::new(|| words::list("exception_words"));

/// Words that end a negated clause: what follows is not negated ("refused to concede and filed …").
pub(super) static CLAUSE_BREAKS: WordList = WordList::new(|| words::list("clause_breaks"));

/// Content words a negation denies (at most three, from the negation to the end of its clause) and
/// the clause's text. `None` for partial or temporal negations.
pub(super) fn negated_scope(text: &str, after: usize) -> Option<(Vec<String>, String)> {
    let rest = &text[after..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    let first = words.first().map(|w| w.to_lowercase()).unwrap_or_default();
    if PARTIAL_NEGATION.contains(&first.trim_matches(|c: char| !c.is_alphabetic())) {
        return None;
    }
    let mut clause = Vec::new();
    for w in words {
        let bare = w.to_lowercase();
        let bare = bare.trim_matches(|c: char| !c.is_alphanumeric());
        if !clause.is_empty() && CLAUSE_BREAKS.contains(&bare) {
            break;
        }
        clause.push(w);
        if w.ends_with([',', ';', ':', '.']) {
            break;
        }
    }
    if clause.iter().any(|w| TEMPORAL_LIMIT.contains(&w.to_lowercase().trim_matches(|c: char| !c.is_alphabetic()))) {
        return None;
    }
    let clause = clause.join(" ");
    Some((content_words(&clause).into_iter().take(3).collect(), clause.trim_end_matches([',', ';', ':', '.']).to_string()))
}

/// How much of what a text's negations deny the other text states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NegationReach {
    /// Some of the negated words ("never visited Berlin" against "visited Paris").
    Partly,
    /// All of them: the other text states the very predicate the negation denies.
    Whole,
}

/// Whether any negation of `negating` bears on `other`: the words it negates are there. A negation
/// whose words are absent says nothing against the other text ("never visited Berlin" against
/// "lived in Paris"). With the reach, the negation's words ("has not adopted the euro").
pub(super) fn negation_reach(negating: &str, other: &str) -> Option<(NegationReach, String)> {
    let theirs = content_words(other);
    // "open every day except Mondays" states the exception the negation gives: agreement.
    let other_lower = other.to_lowercase();
    let other_words: Vec<&str> = other_lower.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).collect();
    let has_exception = EXCEPTION_WORDS.iter().any(|phrase| {
        let phrase: Vec<&str> = phrase.split(' ').collect();
        other_words.windows(phrase.len()).any(|win| win == phrase.as_slice())
    });
    let stem = |w: &str| w.chars().take(5).collect::<String>();
    let found = |w: &String| theirs.iter().any(|t| t == w || (w.len() >= 5 && t.len() >= 5 && stem(w) == stem(t)));
    // "concede" against "conceded": a shared stem of a short verb too, when the rest is its ending.
    let found_verb = |w: &String| {
        let root = w.trim_end_matches('e');
        found(w) || (root.len() >= 4 && theirs.iter().any(|t| t.len() > w.len() && t.starts_with(root) && t.len() - root.len() <= 2))
    };
    let mut best = None;
    for m in negation_re().find_iter(negating) {
        let Some((scope, clause)) = negated_scope(negating, m.end()) else { continue };
        if scope.is_empty() {
            continue;
        }
        let words = format!("{} {}", m.as_str(), clause).trim().to_string();
        let hits = scope.iter().filter(|w| found_verb(w)).count();
        if hits == scope.len() && has_exception {
            continue;
        }
        if hits == scope.len() {
            return Some((NegationReach::Whole, words));
        }
        if hits > 0 && best.is_none() {
            best = Some((NegationReach::Partly, words));
        }
    }
    best
}

/// How many words an antonym's neighbour is looked for on each side, past `PASSED_OVER` words.
pub(super) const NEIGHBOUR_REACH: usize = 3;
/// Articles, prepositions and frequency adverbs: a shared one does not put two words in one role.
pub(super) static PASSED_OVER: WordList = WordList::new(|| words::list("passed_over"));

/// The evidence sentence says the opposite: a negation one side has and the other lacks, or a word
/// swapped for its antonym, on a sentence about the same subject.
pub(super) fn polarity(claim_analysed: &Analysed, sentence_analysed: &Analysed, si: usize) -> Vec<Conflict> {
    let (claim, sentence) = (claim_analysed.text(), sentence_analysed.text());
    let mut out = Vec::new();
    let same_subject = same_subject(claim_analysed, sentence_analysed);
    let (nc, ns) = (negations(claim), negations(sentence));
    // Only a negation one side lacks altogether: "does not belong" against "is not a member … and
    // is not in" is the same polarity, however many negations each side has.
    if nc > 0 && ns == 0 && same_subject {
        if let Some((reach, _)) = negation_reach(claim, sentence) {
            if let Some(probe) = without_negation(claim) {
                let says = negation_re().find(claim).map(|m| m.as_str().to_string()).unwrap_or_default();
                out.push(
                    Conflict::new(CheckKind::Polarity, says, "", probe, si)
                        .in_same_role(reach == NegationReach::Whole)
                        .negated_on(Side::Claim),
                );
            }
        }
    }
    // The evidence negates what the claim states: no probe to write, but support is blocked and
    // the model's contradiction counts at the checked level. When the evidence negates the claim's
    // very predicate ("has not adopted the euro" against "adopted the euro in 2002"), the conflict
    // is in the same role: the rule itself is the evidence, and the model only has to not entail.
    if ns > 0 && nc == 0 && same_subject {
        if let Some((mut reach, says)) = negation_reach(sentence, claim) {
            // The rule stands alone here, so the sentence must also name what the claim opens with
            // ("The museum was open" is not denied by "The library was not open").
            let opener = claim_analysed.content_words().first();
            if !opener.is_some_and(|w| sentence_analysed.mentions().contains_word(w)) {
                reach = NegationReach::Partly;
            }
            out.push(
                Conflict::new(CheckKind::Polarity, "", says, claim, si)
                    .in_same_role(reach == NegationReach::Whole)
                    .negated_on(Side::Source),
            );
        }
    }
    let ev_words: Vec<String> = sentence.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
    let claim_lower: Vec<String> = claim.split(|c: char| !c.is_alphanumeric()).map(str::to_lowercase).collect();
    for (wi, w) in word_spans(claim) {
        let lw = w.to_lowercase();
        if ev_words.contains(&lw) {
            continue;
        }
        for a in antonym_of(&lw) {
            if ev_words.iter().any(|e| e == a) && !claim_lower.iter().any(|c| c == a) && same_subject {
                let probe = format!("{}{}{}", &claim[..wi], match_case(a, w), &claim[wi + w.len()..]);
                // The opposite in the same place: the nearest word that carries meaning shared ("the
                // oldest female" / "the oldest male", "falls with altitude" / "increases with altitude",
                // "hunt at night" / "hunt mostly in daylight").
                let ci = claim_lower.iter().position(|c| c == &lw);
                let ei = ev_words.iter().position(|e| e == a);
                let neighbour = |v: &[String], i: usize, d: isize| {
                    let mut j = i as isize + d;
                    for _ in 0..NEIGHBOUR_REACH {
                        let w = (j >= 0).then(|| v.get(j as usize)).flatten()?;
                        if !w.is_empty() && !PASSED_OVER.contains(&w.as_str()) {
                            return Some(w.clone());
                        }
                        j += d;
                    }
                    None
                };
                let same_role = match (ci, ei) {
                    (Some(ci), Some(ei)) => [-1isize, 1].iter().any(|&d| {
                        let in_claim = neighbour(&claim_lower, ci, d);
                        in_claim.is_some() && in_claim == neighbour(&ev_words, ei, d)
                    }),
                    _ => false,
                };
                out.push(Conflict::new(CheckKind::Polarity, w, a, probe, si).in_same_role(same_role));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{check_texts, ev, ev_one};
    use super::*;

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
