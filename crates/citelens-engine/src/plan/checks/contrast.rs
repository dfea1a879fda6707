//! A contrast ("…, while B …") that sets the claim's subject apart: the claim is probed with the
//! other name.

use super::*;

/// The best sentence contrasts the claim's subject with another name that has the claimed property.
pub(super) static CONTRASTED_SUBJECT: OnBestSentence = OnBestSentence {
    name: "contrasted_subject",
    conflicts: |input, bi| contrasted_subject(input.claim, input.sentences[bi], bi).into_iter().collect(),
};

/// Words that set two clauses of one sentence against each other ("Phobos is spiralling toward
/// Mars, while Deimos is moving away"): what one clause says of its subject, the other denies of its own.
pub(super) static CONTRAST_CUES: WordList = WordList::new(|| words::list("contrast_cues"));

/// The claim says of its subject what the evidence sentence says of another name, in a clause set
/// against the subject's own ("Deimos is slowly spiralling inward" against "Phobos is gradually
/// spiralling toward Mars, while Deimos is slowly moving away"): the model, reading the whole
/// sentence, entails the claim by its words. The probe is the claim about the other name.
pub(super) fn contrasted_subject(claim_analysed: &Analysed, sentence_analysed: &Analysed, si: usize) -> Option<Conflict> {
    let (claim, sentence) = (claim_analysed.text(), sentence_analysed.text());
    let subject = claim_analysed.names().first().filter(|e| crate::text::claims::opens_sentence(claim, e.start))?;
    // ASCII lower-casing keeps byte offsets, so the cuts index `sentence` itself.
    let lower = sentence.to_ascii_lowercase();
    let mut cuts: Vec<usize> = CONTRAST_CUES.iter().flat_map(|cue| lower.match_indices(cue).map(|(at, _)| at)).collect();
    if cuts.is_empty() {
        return None;
    }
    cuts.sort_unstable();
    let mut bounds = vec![0];
    bounds.extend(cuts);
    bounds.push(sentence.len());
    // Each clause, analysed, with the name it opens with (past its cue word: "while Deimos is …").
    let clauses: Vec<(Analysed, Option<entities::Entity>)> = bounds
        .windows(2)
        .map(|w| {
            let clause = sentence[w[0]..w[1]].trim_start_matches([',', ';', ' ']);
            let body = clause
                .split_once(' ')
                .filter(|(cue, _)| ["while", "whereas", "but", "unlike"].contains(&cue.to_lowercase().as_str()))
                .map_or(clause, |(_, rest)| rest);
            let body = Analysed::new(body);
            let name = body.names().first().filter(|e| crate::text::claims::opens_sentence(body.text(), e.start)).cloned();
            (body, name)
        })
        .collect();
    let claim_words: Vec<&String> = {
        let names = Analysed::new(subject.text.as_str());
        // Manner adverbs ("slowly") are left out: both clauses of a contrast may share them; what
        // is set against what is the verbs and their objects.
        claim_analysed
            .content_words()
            .iter()
            .filter(|w| !names.mentions().contains_word(w) && !(w.len() > 4 && w.ends_with("ly")))
            .collect()
    };
    let overlap = |clause: &Analysed| claim_words.iter().filter(|w| clause.mentions().contains_word(w)).count();
    let own = clauses.iter().position(|(_, name)| name.as_ref().is_some_and(|n| entities::name_mentions(&n.text, &subject.text)))?;
    let own_overlap = overlap(&clauses[own].0);
    let claim_names = claim_analysed.mentions();
    // The clause, opened by a name the claim does not have, that holds most of the claim's words.
    let (other_overlap, other_name) = clauses
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != own)
        .filter_map(|(_, (body, name))| name.as_ref().filter(|n| !claim_names.mentions(&n.text)).map(|n| (overlap(body), n)))
        .max_by_key(|(n, _)| *n)?;
    if other_overlap <= own_overlap {
        return None;
    }
    let probe = format!("{}{}{}", &claim[..subject.start], other_name.text, &claim[subject.end..]);
    Some(Conflict::new(CheckKind::Name, &subject.text, &other_name.text, probe, si).in_same_role(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contrasted(claim: &str, sentence: &str) -> Option<Conflict> {
        contrasted_subject(&Analysed::new(claim), &Analysed::new(sentence), 0)
    }

    #[test]
    fn a_claim_about_the_name_a_contrast_sets_apart_is_probed_with_the_other_name() {
        let sentence = "Phobos is gradually spiralling toward Mars and may collide with it, while Deimos is slowly moving away.";
        let c = contrasted("Deimos is slowly spiralling inward.", sentence).expect("the spiralling is Phobos'");
        assert_eq!(
            (c.claim_says.as_str(), c.source_says.as_str(), c.probe.as_str()),
            ("Deimos", "Phobos", "Phobos is slowly spiralling inward.")
        );
        // What the sentence says of the claim's own subject, or a sentence without a contrast: no conflict.
        assert!(contrasted("Deimos is slowly moving away.", sentence).is_none());
        assert!(contrasted("Phobos is spiralling toward Mars.", sentence).is_none());
        assert!(contrasted("Deimos is slowly spiralling inward.", "Phobos and Deimos are both spiralling inward.").is_none());
        // Letters whose lower case is longer ("İ") leave the cuts on the sentence's own boundaries.
        assert!(contrasted("Deimos is in İzmir.", "İİİ Phobos is in İzmir, while Deimos is in Ankara.").is_some());
        let but = "Alice Smith won the gold medal, but Bob Jones won silver.";
        assert_eq!(contrasted("Bob Jones won the gold medal.", but).map(|c| c.source_says), Some("Alice Smith".to_string()));
    }
}
