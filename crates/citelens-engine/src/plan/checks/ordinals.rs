//! Ranks ("the second largest"): a rank the evidence gives otherwise for the same thing.

use super::*;

/// A rank of the claim that the evidence gives otherwise, in any sentence.
pub(super) struct Ordinals;

impl Check for Ordinals {
    fn name(&self) -> &'static str {
        "ordinals"
    }

    fn run(&self, input: &CheckInput, out: &mut CheckOutcome) {
        out.conflicts.extend(ordinals(input.claim.text(), input.sentences));
    }
}

pub(super) static ORDINALS: WordList = WordList::new(|| words::list("ordinals"));

/// How many words after an ordinal its noun is looked for ("second World Cup title").
pub(super) const RANKED_NOUN_REACH: usize = 4;

/// Ordinals in `text` with the word they rank ("fifth planet", "third-largest", "2nd album"): (start,
/// end, rank, ranked word's first five letters).
pub(super) fn ranked(text: &str) -> Vec<(usize, usize, usize, String)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"(?i)\b([a-z]+|\d{1,2}(?:st|nd|rd|th))[ -]([a-z]+)").expect("static regex"));
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(c) = re.captures_at(text, at) {
        let (word, next) = (c.get(1).expect("group"), c.get(2).expect("group"));
        let w = word.as_str().to_lowercase();
        let rank = ORDINALS.iter().position(|o| *o == w).map(|i| i + 1).or_else(|| {
            let digits = w.trim_end_matches(|ch: char| ch.is_alphabetic());
            (digits.len() < w.len()).then(|| digits.parse().ok()).flatten()
        });
        if let Some(rank) = rank {
            // The ranked noun: past a name that qualifies it ("second World Cup title" ranks titles,
            // as "first title" does), else the next word ("third-largest", "first President").
            let noun = text[next.start()..]
                .split_whitespace()
                .take(RANKED_NOUN_REACH)
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                .find(|w| w.starts_with(char::is_lowercase))
                .unwrap_or(next.as_str());
            out.push((word.start(), word.end(), rank, noun.to_lowercase().chars().take(5).collect()));
        }
        at = word.end();
    }
    out
}

/// A rank of the claim that the evidence gives otherwise for the same thing ("the fourth planet from
/// the Sun" against "the fifth planet from the Sun"), unless the evidence also gives the claim's.
pub(super) fn ordinals(claim: &str, sentences: &[&Analysed]) -> Vec<Conflict> {
    let mut out = Vec::new();
    let evidence: Vec<Vec<(usize, usize, usize, String)>> = sentences.iter().map(|s| ranked(s.text())).collect();
    for (start, end, rank, of) in ranked(claim) {
        if evidence.iter().flatten().any(|e| e.2 == rank && e.3 == of) {
            continue;
        }
        let other = evidence.iter().enumerate().find_map(|(si, es)| es.iter().find(|e| e.3 == of && e.2 != rank).map(|e| (si, e)));
        if let Some((si, e)) = other {
            let says = &sentences[si].text()[e.0..e.1];
            let probe = format!("{}{}{}", &claim[..start], match_case(&says.to_lowercase(), &claim[start..end]), &claim[end..]);
            let noun_end = claim[end..].find([' ', '-']).map(|i| end + i + 1).unwrap_or(end);
            let noun = claim[noun_end..].split(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
            out.push(
                Conflict::new(CheckKind::Number, format!("{} {noun}", &claim[start..end]), format!("{says} {noun}"), probe, si)
                    .in_same_role(true),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{check_texts, ev};
    use super::*;

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
}
