//! One relation with its two ends swapped word for word ("A took over from B" against "B took over
//! from A"): the evidence excludes the claim.

use super::*;
use crate::text::values::month_of;

/// The best sentence states the claim's relation with its two ends swapped.
pub(super) static SWAPPED_NAMES: OnBestSentence = OnBestSentence {
    name: "swapped_names",
    conflicts: |input, bi| swapped_names(input.claim, input.sentences[bi], bi).into_iter().collect(),
};

/// Words that make a relation between two names hold both ways: the names swapped say the same.
pub(super) static SYMMETRIC_LINKS: WordList = WordList::new(|| words::list("symmetric_links"));

/// The lower-case words of a stretch of text, less articles: what two relations are compared by.
pub(super) fn relation_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !["the", "a", "an"].contains(&w.to_lowercase().as_str()))
        .map(str::to_lowercase)
        .collect()
}

/// Two names of the claim in the other order in the evidence: who did what to whom ("France took
/// over from the United States" against "The United States took over from France").
pub(super) fn swapped_names(claim_analysed: &Analysed, sentence_analysed: &Analysed, si: usize) -> Option<Conflict> {
    let (claim, sentence) = (claim_analysed.text(), sentence_analysed.text());
    let names: Vec<&entities::Entity> = claim_analysed.names().iter().filter(|e| !e.text.chars().any(|c| c.is_ascii_digit())).collect();
    let ev = sentence_analysed.mentions();
    let lower = sentence.to_lowercase();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let (a, b) = (names[i], names[j]);
            if !(ev.mentions_all(&a.text) && ev.mentions_all(&b.text)) {
                continue;
            }
            if month_of(&a.text).is_some() || month_of(&b.text).is_some() {
                continue; // a month is a date, checked as one
            }
            let (pa, pb) = (lower.find(&a.text.to_lowercase()), lower.find(&b.text.to_lowercase()));
            if let (Some(pa), Some(pb)) = (pa, pb) {
                // "Australia, New Zealand, Africa, India" in another order: items of one list
                // have no roles to swap. Between the two, a relation needs a word of its own.
                let (lo, hi) = if pb < pa { (pb + b.text.len(), pa) } else { (pa + a.text.len(), pb) };
                let between = sentence.get(lo.min(hi)..hi).unwrap_or("");
                let relating = between
                    .split(|c: char| !c.is_alphabetic())
                    .any(|w| w.chars().next().is_some_and(char::is_lowercase) && !["and", "or", "the", "of", "as", "well"].contains(&w));
                if !relating {
                    continue;
                }
                // The same link word before the second name in both ("… from the United States" /
                // "… from France"): the same relation with its two ends swapped, not a paraphrase
                // that turns the sentence round ("The capital is Canberra" / "Canberra is the capital").
                let link = |text: &str, at: usize| {
                    text[..at]
                        .split(|c: char| !c.is_alphanumeric())
                        .rev()
                        .find(|w| !w.is_empty() && !["the", "a", "an"].contains(&w.to_lowercase().as_str()))
                        .map(str::to_lowercase)
                };
                let same_link = link(claim, b.start).is_some() && link(claim, b.start) == link(sentence, pa);
                if pb < pa && same_link {
                    let probe = format!("{}{}{}{}{}", &claim[..a.start], b.text, &claim[a.end..b.start], a.text, &claim[b.end..]);
                    // Word for word the same relation between them, and not one that holds both ways
                    // ("married", "played against"): the two orders cannot both be true.
                    let relation = relation_words(between);
                    let mirrored = relation_words(&claim[a.end..b.start]) == relation
                        && !relation.iter().any(|w| SYMMETRIC_LINKS.contains(&w.as_str()));
                    return Some(
                        Conflict::new(CheckKind::Name, format!("{} … {}", a.text, b.text), format!("{} … {}", b.text, a.text), probe, si)
                            .in_same_role(true)
                            .excluding(mirrored),
                    );
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::{check_texts, ev_one};
    use super::*;

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
}
