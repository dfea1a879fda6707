//! Numbers and dates: the claim's values against the evidence's (units, rounding, "about", partial
//! dates). A value in the claim's role that differs is a conflict with a probe; one the evidence
//! lacks is unmatched.

use super::*;
use crate::text::values::ValueUnit;

/// Numbers and dates: each value of the claim is matched, unmatched, or in conflict with the
/// evidence's value in its role (probed with the evidence's value).
pub(super) struct NumbersAndDates;

impl Check for NumbersAndDates {
    fn name(&self) -> &'static str {
        "numbers_dates"
    }

    fn run(&self, input: &CheckInput, out: &mut CheckOutcome) {
        let (claim, sentences, overlap) = (input.claim.text(), input.sentences, &input.overlap);
        let evidence_values: Vec<&[Value]> = sentences.iter().map(|s| s.values()).collect();
        for v in input.claim.values() {
            let role = role_word(claim, v.start);
            // Evidence values of the same kind, with whether they sit in the claim's role.
            let mut comparable: Vec<(usize, &Value, bool)> = Vec::new();
            for (si, vals) in evidence_values.iter().enumerate() {
                for e in vals.iter().filter(|e| v.comparable(e)) {
                    let same_role = (role.is_some() && role_word(sentences[si].text(), e.start) == role) || v.differs_in_one_part(e);
                    comparable.push((si, e, same_role));
                }
            }
            let in_role: Vec<&(usize, &Value, bool)> = comparable.iter().filter(|x| x.2).collect();
            let stated_plain = evidence_values.iter().flat_map(|vals| vals.iter()).any(|e| v.matches(e) && (v.in_name || !e.in_name));
            // "hosted the Olympics in 2020" against "the 2020 Summer Olympics, … held in 2021": a year
            // found only inside a name, beside another year in the same sentence, does not state the claim's.
            let named_only = !stated_plain
                && evidence_values.iter().any(|vals| {
                    vals.iter().any(|e| e.in_name && v.matches(e)) && vals.iter().any(|e| !e.in_name && v.comparable(e) && !v.matches(e))
                });
            let stated = (evidence_values.iter().flat_map(|vals| vals.iter()).any(|e| v.matches(e)) && !named_only)
                || derived_match(v, &evidence_values.concat());
            // "Biden received 232" against "Biden received 306 … to Trump's 232": the value in the
            // claim's role decides, wherever else the number appears.
            let role_conflict = !in_role.is_empty() && !in_role.iter().any(|x| v.agrees(x.1));
            if stated && !role_conflict {
                out.matched.push(v.text.clone());
                continue;
            }
            // "March 4, 2019" against "March 2019": the evidence gives the date less precisely. That
            // neither states the claim's day nor denies it, so it is no conflict with other dates.
            if !role_conflict && evidence_values.iter().flat_map(|vals| vals.iter()).any(|e| !e.in_name && v.agrees(e)) {
                continue;
            }
            // Candidates: same role first, then the sentence sharing most words with the claim.
            comparable.retain(|x| !v.matches(x.1) && !x.1.in_name);
            comparable.sort_by(|a, b| b.2.cmp(&a.2).then(overlap[b.0].cmp(&overlap[a.0])));
            if comparable.is_empty() {
                out.unmatched.push(v.text.clone());
            }
            for (si, e, same_role) in comparable.into_iter().take(2) {
                let kind = if v.is_date() { CheckKind::Date } else { CheckKind::Number };
                let probe = format!("{}{}{}", &claim[..v.start], e.text, &claim[v.end..]);
                out.conflicts.push(Conflict::new(kind, &v.text, &e.text, probe, si).in_same_role(same_role));
            }
        }
    }
}

/// Claims that state a duration the evidence gives as two years ("13 years" from 1870 to 1883).
pub(super) fn derived_match(v: &Value, evidence: &[Value]) -> bool {
    if v.unit != Some(ValueUnit::YearSpan) {
        return false;
    }
    let years: Vec<i32> = evidence.iter().filter_map(|e| e.year).collect();
    years.iter().any(|a| years.iter().any(|b| (b - a) as f64 == v.number))
}

/// The nearest word before `at` that is not an article, number or approximation word: the verb or
/// preposition that gives a value its role ("received" in "received 306 votes").
pub(super) fn role_word(text: &str, at: usize) -> Option<String> {
    role_word_any(text, at).filter(|w| !PREPOSITIONS.contains(&w.as_str()))
}

/// As `role_word`, prepositions included: "born in Boston" / "born in Edinburgh" is a name's role.
pub(super) fn role_word_any(text: &str, at: usize) -> Option<String> {
    let before = &text[..at.min(text.len())];
    before.split(|c: char| !c.is_alphanumeric()).rev().filter(|w| !w.is_empty()).map(str::to_lowercase).find(|w| {
        w.len() > 1
            && ![
                "the",
                "a",
                "an",
                "about",
                "around",
                "roughly",
                "nearly",
                "almost",
                "approximately",
                "some",
                "than",
                "more",
                "over",
                "up",
                "to",
                "of",
            ]
            .contains(&w.as_str())
            && !w.chars().all(|c| c.is_ascii_digit())
    })
}

// A preposition ("in 2000", "until 2000") is too weak a role to tell one number's place from
// another's; a verb or noun ("received 306", "height of 828") is not.

pub(super) static PREPOSITIONS: WordList = WordList::new(|| words::list("prepositions"));

#[cfg(test)]
mod tests {
    use super::super::{check_texts, ev, ev_one};
    use super::*;

    fn v(text: &str) -> Vec<String> {
        values(text).into_iter().map(|v| v.text).collect()
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
    fn a_year_inside_a_name_does_not_date_the_claim() {
        let ev = ev(&["Tokyo hosted the 2020 Summer Olympics, which were postponed and held in 2021."]);
        let c = check_texts("Tokyo hosted the Olympics in 2020.", &ev);
        assert!(c.conflicts.iter().any(|x| x.source_says == "2021"), "{c:?}");
        // Alone in its sentence, the name's year still states it.
        let c = check_texts("Curie shared the Nobel Prize in 1903.", &ev_one("She shared the 1903 Nobel Prize in Physics."));
        assert!(c.all_values_match(), "{c:?}");
    }
}
