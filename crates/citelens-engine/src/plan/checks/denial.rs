//! Denial: the evidence reports the claim as a misconception or myth, or a belief it calls false.

use super::*;

/// The best sentence calls the claim a misconception, a myth or a false belief.
pub(super) static DENIAL: OnBestSentence = OnBestSentence {
    name: "denial",
    conflicts: |input, bi| denial(input.claim.text(), input.sentences[bi].text(), bi).into_iter().collect(),
};

/// Words by which a text reports a belief in order to deny it.
/// An adverb alone ("wrongly convicted") does not deny the event, only its justice: it is a cue
/// only before a verb of belief or report ("falsely believed", "mistakenly attributed").
pub(super) static DENIAL_CUES: WordList = WordList::new(|| words::list("denial_cues"));
pub(super) static DENIAL_ADVERBS: WordList = WordList::new(|| words::list("denial_adverbs"));
pub(super) static BELIEF_VERBS: WordList = WordList::new(|| words::list("belief_verbs"));

/// Words by which a claim reports a belief rather than stating it.
pub(super) static REPORTED_BELIEF: WordList = WordList::new(|| words::list("reported_belief"));

/// The denial cue the sentence uses, if any.
pub(super) fn denial_cue(sentence_lower: &str) -> Option<String> {
    if let Some(cue) = DENIAL_CUES.iter().find(|cue| sentence_lower.contains(*cue)) {
        return Some(cue.to_string());
    }
    let words: Vec<&str> = sentence_lower.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).collect();
    words.windows(2).find(|w| DENIAL_ADVERBS.contains(&w[0]) && BELIEF_VERBS.contains(&w[1])).map(|w| w.join(" "))
}

/// The evidence sentence presents the claim as a misconception ("A common misconception is that
/// seasons are caused by …"): entailing the claim from it means the evidence denies it.
pub(super) fn denial(claim: &str, sentence: &str, si: usize) -> Option<Conflict> {
    let s = sentence.to_lowercase();
    let c = claim.to_lowercase();
    let cue = denial_cue(&s).filter(|cue| !c.contains(cue.as_str()))?;
    // "It had been described as a subspecies" reports the belief the source calls false: true.
    if c.split(|ch: char| !ch.is_alphabetic()).any(|w| REPORTED_BELIEF.contains(&w)) {
        return None;
    }
    Some(Conflict {
        denial: true,
        ..Conflict::new(CheckKind::Polarity, claim.trim_end_matches('.'), format!("it is untrue (\"{cue}\")"), claim, si)
    })
}

#[cfg(test)]
mod tests {
    use super::super::{check_texts, ev_one};

    #[test]
    fn only_a_belief_called_false_is_a_denial() {
        let c = check_texts("Peruggia was convicted of the theft.", &ev_one("Peruggia was wrongly convicted of the theft."));
        assert!(!c.conflicts.iter().any(|x| x.denial), "{c:?}");
        let c = check_texts("Edison invented the light bulb.", &ev_one("Edison is often falsely credited with inventing the light bulb."));
        assert!(c.conflicts.iter().any(|x| x.denial), "{c:?}");
    }
}
