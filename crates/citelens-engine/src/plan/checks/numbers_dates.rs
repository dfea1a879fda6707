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
