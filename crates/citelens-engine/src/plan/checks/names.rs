//! Names: another name of the same kind in the claim's role.

use super::links::is_acronym_of;
use super::numbers_dates::role_word_any;
use super::*;

/// Another name of the same kind in the claim's role, in the best sentence.
pub(super) static NAMES: OnBestSentence = OnBestSentence {
    name: "names",
    conflicts: |input, bi| {
        let all = Analysed::new(input.sentences.iter().map(|s| s.text()).collect::<Vec<_>>().join(" "));
        names(input.claim, input.sentences[bi], bi, all.mentions())
    },
};

/// Two names of one kind: the claim's has several words and ends in the other's last word ("the
/// Eastern Time Zone", "the Central Time Zone"; "the Pacific Ocean", "the Atlantic Ocean").
pub fn same_kind(claim_name: &str, other: &str) -> bool {
    claim_name.contains(' ') && claim_name.split_whitespace().last() == other.split_whitespace().last()
}

/// A name of the claim the evidence lacks, where the best sentence has another name in the same
/// role ("founded in Seattle" vs "founded in Albuquerque"; "the Pacific Ocean" vs "the Atlantic Ocean").
pub(super) fn names(claim_analysed: &Analysed, sentence_analysed: &Analysed, si: usize, all: &Mentions) -> Vec<Conflict> {
    let (claim, sentence) = (claim_analysed.text(), sentence_analysed.text());
    let mut out = Vec::new();
    let ev = sentence_analysed.names();
    let claim_names = claim_analysed.names();
    let claim_mentions = claim_analysed.mentions();
    for (ci, c) in claim_names.iter().enumerate() {
        let person = crate::text::claims::is_person_like(&c.text, claim, c.start);
        // "US" for "United States": an acronym of a name the evidence gives is that name.
        if ev.iter().any(|e| is_acronym_of(&c.text, &e.text)) {
            continue;
        }
        if c.text.chars().any(|ch| ch.is_ascii_digit()) || all.mentions_all(&c.text) || (person && all.mentions(&c.text)) {
            continue;
        }
        let role = role_word_any(claim, c.start);
        let is_subject = ci == 0 && claim[..c.start].split_whitespace().count() <= 1;
        // A name of the same kind ("the Central Time Zone" for "the Eastern Time Zone") is the rival
        // value before any name in the same role ("in Essex County").
        let same_head_of = |e: &entities::Entity| same_kind(&c.text, &e.text);
        let mut candidates: Vec<&entities::Entity> = ev.iter().filter(|e| same_head_of(e)).collect();
        candidates.extend(ev.iter().filter(|e| !same_head_of(e)));
        for e in candidates {
            if e.text.chars().any(|ch| ch.is_ascii_digit()) || claim_mentions.mentions_all(&e.text) {
                continue;
            }
            let same_role = role.is_some() && role_word_any(sentence, e.start) == role;
            let same_head = same_head_of(e);
            // A subject the sentence does not name, against a person the sentence does.
            let both_people = is_subject
                && crate::text::claims::is_person_like(&c.text, claim, c.start)
                && crate::text::claims::is_person_like(&e.text, sentence, e.start);
            if same_role || same_head || both_people {
                let probe = format!("{}{}{}", &claim[..c.start], e.text, &claim[c.end..]);
                out.push(Conflict::new(CheckKind::Name, &c.text, &e.text, probe, si).in_same_role(same_role || same_head));
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{check_texts, ev};
    use super::*;

    #[test]
    fn a_name_of_the_same_kind_is_the_rival_before_one_in_the_same_role() {
        let c = check_texts(
            "East Orange is in the Eastern Time Zone.",
            &ev(&["East Orange, city in Essex County, New Jersey, United States, is in the Central Time Zone."]),
        );
        let names: Vec<&str> = c.conflicts.iter().filter(|x| x.kind == CheckKind::Name).map(|x| x.source_says.as_str()).collect();
        assert_eq!(names, ["Central Time Zone"], "{c:?}");
    }
}
