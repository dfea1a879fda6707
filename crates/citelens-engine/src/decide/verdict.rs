//! The decide stage above the claims: a citation's, a sentence's and the answer's verdicts from
//! their claims' statuses (CAQA's rule), with the four-way head or the learned combiner where they
//! decide. Each decision is a named function here; report assembly (`assemble/`) only gathers them.

use crate::decide::combiner::Combiner;
use crate::decide::Decision;
use crate::plan::checks::CheckKind;
use crate::thresholds::Thresholds;
use citelens_types::report::*;

/// The typed checks behind a sentence's verdict, as `combine` weighs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypedCheck {
    /// No typed check found a value the evidence gives otherwise.
    None,
    /// Only names differ. A different name is a rival answer when the relation allows one value
    /// ("directed by Arnold Leibovit", not George Pal), but only another entity the evidence is
    /// about when it allows many (Ella Fitzgerald's nomination says nothing of Al Schmitt's); the
    /// rules cannot tell which, the head was trained on both.
    NameOnly,
    /// A number, date or negation the evidence gives otherwise: the contradiction stands.
    Value,
    /// Nothing confirmed, but a check found an opposite word, a value the evidence gives otherwise or
    /// does not give, which the model could not weigh ("Falling sea temperatures" against "rising"):
    /// the head reads past such words as the NLI model does, so it may not call the sentence supported.
    Doubted,
}

/// A check that leaves the claim's support in doubt: an opposite or another number or date the model
/// could not confirm, or a value the evidence does not give. An unconfirmed name is no doubt: any two
/// passages name different things, and the report does not say whether it fills the claim's role.
pub(crate) fn doubts_support(c: &CheckReport) -> bool {
    match c.result {
        CheckResult::Absent => true,
        CheckResult::Unconfirmed => c.kind != crate::plan::checks::CheckKind::Name,
        CheckResult::Match | CheckResult::Mismatch => false,
    }
}

/// A sentence's verdict from the rules' and the four-way head's. The head was trained mostly on
/// templated data and is often sure and wrong on free prose, so it only resolves what the rules
/// leave open, at a bar per category it would give:
/// - a partially supportive reading (the rules' verdict when claims are mixed or unclear) may become
///   any other category;
/// - a contradiction may become irrelevant (another entity, not a rival answer), at the
///   contradictory bar, or partial (`four_way_contradictory_to_partial`), unless a number, date or
///   negation check confirmed it (`TypedCheck::Value`);
/// - a supportive reading may become contradictory.
///
/// A reading of supportive needs `four_way_supportive_confident`, of contradictory
/// `four_way_contradictory_confident` (a wrong one is a flip), of the others `four_way_confident`.
/// The head never makes a contradiction supportive, nor an irrelevant reading anything else: on the
/// cited-answer suite those moves were wrong every time. Nor does it make a supportive reading
/// partial: on WiCE dev that took support from supported claims.
pub fn combine(rules: Verdict, four_way: [f32; 4], confirmed: TypedCheck, t: &Thresholds) -> Verdict {
    let best = (0..4).fold(0, |b, i| if four_way[i] > four_way[b] { i } else { b });
    let p = four_way[best];
    let category = Category::ALL[best];
    // A value or an opposite that a check found, confirmed or only doubted, keeps a sure contradiction
    // ("served two terms, until 2004" against "from 1994 to 1999": the head reads past the dates).
    let overturnable = rules.uncertain || !matches!(confirmed, TypedCheck::Value | TypedCheck::Doubted);
    // Undoing a contradiction weighs as much as making one ("George Pal directed …" against "directed
    // by Arnold Leibovit" is a rival answer the head read as irrelevant at 0.86).
    let leaving_contradiction = |bar: f32| bar.max(t.four_way_contradictory_confident);
    // The moves the head may make, each with its bar; any other keeps the rules' verdict.
    let bar = match (rules.category, category) {
        (Category::PartiallySupportive, Category::Supportive) if confirmed == TypedCheck::None => t.four_way_supportive_confident,
        (Category::PartiallySupportive | Category::Supportive, Category::Contradictory) => t.four_way_contradictory_confident,
        (Category::PartiallySupportive, Category::Irrelevant) => t.four_way_confident,
        (Category::Contradictory, Category::Irrelevant) if overturnable => leaving_contradiction(t.four_way_confident),
        (Category::Contradictory, Category::PartiallySupportive) if overturnable => {
            leaving_contradiction(t.four_way_contradictory_to_partial)
        }
        _ => return rules,
    };
    if p < bar {
        return rules;
    }
    Verdict { category, confidence: p, uncertain: false, decided_by: DecidedBy::FourWayHead }
}

/// The answer's verdict from its sentences' (used when the four-way head changed one): any
/// sure contradiction makes it contradictory; all supportive, supportive; all irrelevant,
/// irrelevant; anything else, partially supportive.
pub fn aggregate(sentences: &[Option<Verdict>]) -> Option<Verdict> {
    let v: Vec<Verdict> = sentences.iter().flatten().copied().collect();
    if v.is_empty() {
        return None;
    }
    let min_conf = v.iter().map(|x| x.confidence).fold(1.0, f32::min);
    let unsure = v.iter().any(|x| x.uncertain);
    let all = |c: Category| v.iter().all(|x| x.category == c);
    Some(
        if let Some(c) = v.iter().filter(|x| x.category == Category::Contradictory && !x.uncertain).map(|x| x.confidence).reduce(f32::max) {
            Verdict { category: Category::Contradictory, confidence: c, uncertain: false, decided_by: DecidedBy::Sentences }
        } else if all(Category::Supportive) {
            Verdict { category: Category::Supportive, confidence: min_conf, uncertain: unsure, decided_by: DecidedBy::Sentences }
        } else if all(Category::Irrelevant) {
            Verdict { category: Category::Irrelevant, confidence: min_conf, uncertain: unsure, decided_by: DecidedBy::Sentences }
        } else {
            Verdict { category: Category::PartiallySupportive, confidence: min_conf, uncertain: unsure, decided_by: DecidedBy::Sentences }
        },
    )
}

/// CAQA's rule: supportive when every claim is supported; contradictory when any is contradicted;
/// partially supportive when the evidence bears on some; irrelevant when it bears on none.
/// Unsure claims never decide alone: contradicted claims that are all unsure give an unsure
/// partially supportive verdict, and an unsure claim makes any verdict it is part of unsure.
pub fn categorize(claims: &[ClaimReport]) -> Option<Verdict> {
    let counted: Vec<&ClaimReport> = claims.iter().filter(|c| c.status != ClaimStatus::NotVerifiable).collect();
    if counted.is_empty() {
        return None;
    }
    let mean = |f: &dyn Fn(&ClaimReport) -> f32| counted.iter().map(|c| f(c)).sum::<f32>() / counted.len() as f32;
    let any_unsure = counted.iter().any(|c| c.uncertain);
    let contradicted: Vec<&&ClaimReport> = counted.iter().filter(|c| c.status == ClaimStatus::Contradicted).collect();
    let v = if contradicted.iter().any(|c| !c.uncertain) {
        let conf = contradicted.iter().filter(|c| !c.uncertain).map(|c| c.confidence).fold(0.0, f32::max);
        Verdict { category: Category::Contradictory, confidence: conf, uncertain: false, decided_by: DecidedBy::Rules }
    } else if !contradicted.is_empty() {
        Verdict {
            category: Category::PartiallySupportive,
            confidence: contradicted.iter().map(|c| c.confidence).fold(0.0, f32::max),
            uncertain: true,
            decided_by: DecidedBy::Rules,
        }
    } else if counted.iter().all(|c| c.status == ClaimStatus::Supported) {
        let conf = counted.iter().map(|c| c.confidence).fold(1.0, f32::min);
        Verdict { category: Category::Supportive, confidence: conf, uncertain: any_unsure, decided_by: DecidedBy::Rules }
    } else if counted.iter().any(|c| matches!(c.status, ClaimStatus::Supported | ClaimStatus::PartiallySupported | ClaimStatus::Missing)) {
        Verdict {
            category: Category::PartiallySupportive,
            confidence: mean(&|c| match c.status {
                ClaimStatus::Supported | ClaimStatus::PartiallySupported | ClaimStatus::Missing => c.confidence,
                ClaimStatus::Unrelated => 1.0 - c.relevance,
                _ => c.probabilities.neutral.max(c.relevance),
            }),
            uncertain: any_unsure,
            decided_by: DecidedBy::Rules,
        }
    } else {
        Verdict {
            category: Category::Irrelevant,
            confidence: mean(&|c| 1.0 - c.relevance),
            uncertain: any_unsure,
            decided_by: DecidedBy::Rules,
        }
    };
    Some(v)
}

/// The typed checks behind a sentence's claims, as `combine` weighs them.
pub fn typed_check_of(claims: &[ClaimReport]) -> TypedCheck {
    let mismatches = || claims.iter().flat_map(|c| c.checks.iter()).filter(|k| k.result == CheckResult::Mismatch);
    if mismatches().any(|k| k.kind != CheckKind::Name) {
        TypedCheck::Value
    } else if mismatches().next().is_some() {
        TypedCheck::NameOnly
    } else if claims.iter().flat_map(|c| c.checks.iter()).any(doubts_support) {
        TypedCheck::Doubted
    } else {
        TypedCheck::None
    }
}

/// A claim's status against one citation alone (`alone`, decided on that citation's evidence):
/// alone, a citation may only contradict what the sentence's evidence as a whole contradicts; any
/// other contradiction is a fact it lacks (or, naming too little, unrelated).
pub fn citation_claim_status(alone: &Decision, whole: ClaimStatus, t: &Thresholds) -> ClaimStatus {
    if alone.status == ClaimStatus::Contradicted && whole != ClaimStatus::Contradicted {
        if alone.relevance >= t.relevance {
            ClaimStatus::Missing
        } else {
            ClaimStatus::Unrelated
        }
    } else {
        alone.status
    }
}

/// A sentence's verdict and who gave it: CAQA's rule over its claims (`rules`, from `categorize`),
/// replaced by the learned combiner when there is one, or else resolved by the four-way head where
/// the rules leave it open (`combine`).
pub struct SentenceVerdict {
    pub verdict: Option<Verdict>,
    /// The rules' verdict, when the four-way head changed it.
    pub head_overrode: Option<Verdict>,
}

pub fn sentence_verdict(
    rules: Option<Verdict>,
    claims: &[ClaimReport],
    four_way: Option<[f32; 4]>,
    features: &[f32],
    combiner: Option<&Combiner>,
    t: &Thresholds,
) -> SentenceVerdict {
    match (rules, combiner, four_way) {
        (Some(_), Some(c), _) => SentenceVerdict { verdict: Some(c.decide(features)), head_overrode: None },
        (Some(v), None, Some(f)) => {
            let combined = combine(v, f, typed_check_of(claims), t);
            SentenceVerdict { verdict: Some(combined), head_overrode: (combined.category != v.category).then_some(v) }
        }
        _ => SentenceVerdict { verdict: rules, head_overrode: None },
    }
}

/// The answer's verdict: CAQA's rule over all its claims, or, once the four-way head or the
/// combiner decided a sentence, gathered from the sentences' verdicts (`aggregate`).
pub fn overall_verdict(from_sentences: bool, sentences: &[Option<Verdict>], claims: &[ClaimReport]) -> Verdict {
    if from_sentences { aggregate(sentences) } else { categorize(claims) }.unwrap_or(Verdict {
        category: Category::Irrelevant,
        confidence: 0.0,
        uncertain: false,
        decided_by: DecidedBy::Rules,
    })
}

#[cfg(test)]
mod four_way_tests {
    use super::*;

    fn v(category: Category, uncertain: bool) -> Verdict {
        Verdict { category, confidence: 0.7, uncertain, decided_by: DecidedBy::Rules }
    }

    #[test]
    fn a_confident_head_resolves_a_partial_reading_and_an_unsure_one_does_not() {
        let t = Thresholds::default();
        let rules = v(Category::PartiallySupportive, false);
        assert_eq!(combine(rules, [0.01, 0.01, 0.01, 0.97], TypedCheck::None, &t).category, Category::Irrelevant);
        assert_eq!(combine(rules, [0.6, 0.3, 0.05, 0.05], TypedCheck::None, &t), rules);
        // Support and contradiction need their stricter bars.
        assert_eq!(combine(rules, [0.78, 0.12, 0.06, 0.04], TypedCheck::None, &t), rules);
        assert_eq!(combine(rules, [0.99, 0.0, 0.01, 0.0], TypedCheck::None, &t).category, Category::Supportive);
        assert_eq!(combine(rules, [0.05, 0.03, 0.9, 0.02], TypedCheck::None, &t), rules);
        assert_eq!(combine(rules, [0.02, 0.02, 0.93, 0.03], TypedCheck::None, &t).category, Category::Contradictory);
        assert_eq!(combine(rules, [0.01, 0.01, 0.98, 0.0], TypedCheck::None, &t).category, Category::Contradictory);
    }

    #[test]
    fn a_check_that_doubts_support_keeps_the_head_from_making_a_sentence_supportive() {
        let t = Thresholds::default();
        let rules = v(Category::PartiallySupportive, true);
        let sure_support = [0.999, 0.0, 0.001, 0.0];
        // "Falling sea temperatures …" against "rising sea temperatures": the head reads past the
        // opposite the checks found and the model could not weigh.
        for check in [TypedCheck::Doubted, TypedCheck::NameOnly, TypedCheck::Value] {
            assert_eq!(combine(rules, sure_support, check, &t), rules);
        }
        assert_eq!(combine(rules, sure_support, TypedCheck::None, &t).category, Category::Supportive);
        // A doubt does not stop the head from reading partial or irrelevant.
        assert_eq!(combine(rules, [0.0, 0.0, 0.01, 0.99], TypedCheck::Doubted, &t).category, Category::Irrelevant);
        let check = |kind, result| CheckReport {
            kind,
            result,
            answer_says: "Falling".into(),
            source_says: "rising".into(),
            message: String::new(),
            probe_entailment: Some(0.37),
        };
        assert!(doubts_support(&check(crate::plan::checks::CheckKind::Polarity, CheckResult::Unconfirmed)));
        assert!(doubts_support(&check(crate::plan::checks::CheckKind::Number, CheckResult::Absent)));
        assert!(!doubts_support(&check(crate::plan::checks::CheckKind::Name, CheckResult::Unconfirmed)));
        assert!(!doubts_support(&check(crate::plan::checks::CheckKind::Number, CheckResult::Match)));
    }

    #[test]
    fn a_contradiction_may_become_irrelevant_or_partial_but_not_against_a_value_check() {
        let t = Thresholds::default();
        let rules = v(Category::Contradictory, false);
        assert_eq!(combine(rules, [0.99, 0.0, 0.01, 0.0], TypedCheck::None, &t), rules);
        // Partial only when the head is all but certain, and never against a value check.
        assert_eq!(combine(rules, [0.0, 0.95, 0.05, 0.0], TypedCheck::NameOnly, &t), rules);
        assert_eq!(combine(rules, [0.0, 0.995, 0.005, 0.0], TypedCheck::NameOnly, &t).category, Category::PartiallySupportive);
        assert_eq!(combine(rules, [0.0, 0.995, 0.005, 0.0], TypedCheck::Value, &t), rules);
        // A date the model could not confirm otherwise keeps it too ("served two terms, until 2004"),
        // unless the rules themselves were unsure.
        assert_eq!(combine(rules, [0.0, 0.995, 0.005, 0.0], TypedCheck::Doubted, &t), rules);
        let unsure = v(Category::Contradictory, true);
        assert_eq!(combine(unsure, [0.0, 0.995, 0.005, 0.0], TypedCheck::Doubted, &t).category, Category::PartiallySupportive);
        assert_eq!(combine(rules, [0.0, 0.0, 0.01, 0.99], TypedCheck::NameOnly, &t).category, Category::Irrelevant);
        assert_eq!(combine(rules, [0.0, 0.0, 0.01, 0.99], TypedCheck::Value, &t), rules);
        // Irrelevant's own bar is not enough to undo a contradiction.
        assert_eq!(combine(rules, [0.04, 0.05, 0.05, 0.86], TypedCheck::NameOnly, &t), rules);
    }

    #[test]
    fn an_irrelevant_reading_is_never_changed_and_a_supportive_one_never_made_partial() {
        let t = Thresholds::default();
        let irrelevant = v(Category::Irrelevant, false);
        for head in [[0.0, 0.999, 0.001, 0.0], [0.999, 0.0, 0.001, 0.0], [0.0, 0.0, 0.999, 0.001]] {
            assert_eq!(combine(irrelevant, head, TypedCheck::None, &t), irrelevant);
        }
        let supportive = v(Category::Supportive, false);
        assert_eq!(combine(supportive, [0.0, 0.999, 0.001, 0.0], TypedCheck::None, &t), supportive);
        assert_eq!(combine(supportive, [0.01, 0.01, 0.98, 0.0], TypedCheck::None, &t).category, Category::Contradictory);
    }

    #[test]
    fn above_one_the_head_is_off() {
        let t = Thresholds {
            four_way_confident: 1.01,
            four_way_supportive_confident: 1.01,
            four_way_contradictory_confident: 1.01,
            ..Thresholds::default()
        };
        let rules = v(Category::PartiallySupportive, true);
        for f in [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]] {
            assert_eq!(combine(rules, f, TypedCheck::None, &t), rules);
        }
    }

    #[test]
    fn the_answer_aggregates_its_sentences() {
        let s = Some(v(Category::Supportive, false));
        let c = Some(v(Category::Contradictory, false));
        let i = Some(v(Category::Irrelevant, false));
        assert_eq!(aggregate(&[s, s]).unwrap().category, Category::Supportive);
        assert_eq!(aggregate(&[s, c]).unwrap().category, Category::Contradictory);
        assert_eq!(aggregate(&[s, i]).unwrap().category, Category::PartiallySupportive);
        assert_eq!(aggregate(&[i, None]).unwrap().category, Category::Irrelevant);
        assert!(aggregate(&[None]).is_none());
    }
}
