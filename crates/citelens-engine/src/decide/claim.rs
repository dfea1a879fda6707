//! The decide stage: from a claim's scores and typed checks to its status, confidence and reasons.
//! `Decider` is the seam for a trained classifier; `RuleDecider` is the auditable rule set.

use crate::plan::checks::{self, CheckKind, CheckOutcome, Side};
use crate::text::analysed::Analysed;
use crate::text::entities::{self, Mentions};
use crate::text::question;
use crate::thresholds::{Thresholds, INDISTINCT_NAME_MARGIN};
use citelens_types::report::{CheckReport, CheckResult, ClaimStatus, Probs};

/// Everything known about one claim against the evidence of its sentence (or one citation of it).
pub struct ClaimFacts<'a> {
    /// The claim, analysed once for every decision on it.
    pub claim: &'a Analysed,
    /// The question, analysed once for every claim.
    pub question: &'a Analysed,
    /// The deciding reading's probabilities (best-entailing candidate, or the joint / least
    /// contradicting reading when nothing entails).
    pub probs: Probs,
    /// The evidence the claim is judged against (its names and words).
    pub evidence: &'a Mentions,
    pub checks: &'a CheckOutcome,
    /// Per conflict of `checks`: (probe P(entailment), claim P(entailment) on the same sentence),
    /// `None` when the conflict's sentence is not part of this evidence.
    pub probes: &'a [Option<(f32, f32)>],
    /// The four-way head's reading of the claim's whole sentence, when the sentence has other claims
    /// (a second reading of the claim's evidence, beside the claim's own `probs.four_way`).
    pub sentence_reading: Option<[f32; 4]>,
}

/// A claim's status and how sure the rule is of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub status: ClaimStatus,
    /// In [0, 1]: how strongly the deciding evidence backs the status.
    pub confidence: f32,
    pub checks: Vec<CheckReport>,
    pub relevance: f32,
    pub coverage: f32,
    pub missing_entities: Vec<String>,
    /// A contradiction only the model's scores support.
    pub model_only: bool,
    /// The rule that decided (not part of the JSON report, whose format this does not change).
    pub rule: ClaimRule,
}

/// Which rule of `RuleDecider` decided a claim (a report type: `ClaimReport::rule`).
pub use citelens_types::report::ClaimRule;

impl Decision {
    /// Shown as unsure: below the unsure level, or a contradiction the model gives with nothing a
    /// typed check found to back it (the small model's contradictions on paraphrases are its most
    /// harmful error).
    pub fn uncertain(&self, t: &Thresholds) -> bool {
        self.confidence < t.unsure_below || self.model_only
    }
}

pub trait Decider {
    fn decide(&self, facts: &ClaimFacts) -> Decision;
    fn thresholds(&self) -> &Thresholds;
}

pub struct RuleDecider {
    pub thresholds: Thresholds,
}

impl Decider for RuleDecider {
    fn thresholds(&self) -> &Thresholds {
        &self.thresholds
    }

    /// The rules in the order `ClaimRule` lists them: a confirmed conflict, then support, then the
    /// ways a claim is unrelated or contradicted, else missing.
    fn decide(&self, f: &ClaimFacts) -> Decision {
        let t = &self.thresholds;
        let r = Reading {
            f,
            t,
            relevance: relevance(f.claim, f.evidence),
            coverage: coverage(f.claim, f.evidence),
            missing_entities: f.claim.names().iter().filter(|e| !f.evidence.mentions(&e.text)).map(|e| e.text.clone()).collect(),
            checks: weigh_checks(f, t),
        };
        let mut reports = r.checks.reports.clone();
        reports.extend(matched_and_absent(f.checks));
        if let Some(conf) = r.checks.confirmed {
            if r.head_says_missing() {
                return r.missing_not_contradicted(reports);
            }
            return r.decision(ClaimRule::CheckConfirmedConflict, ClaimStatus::Contradicted, conf, reports);
        }
        let unlinked = r.unlinked();
        let reports = match r.support(reports, unlinked.clone()) {
            Ok(decided) => return decided,
            Err(reports) => reports,
        };
        r.not_entailed(reports, unlinked)
    }
}

/// What the typed checks' conflicts and the model's probes of them say of a claim.
struct CheckWeighing {
    /// One report per conflict whose sentence is part of this evidence.
    reports: Vec<CheckReport>,
    /// How sure the surest confirmed conflict is, if any was confirmed.
    confirmed: Option<f32>,
    /// A number, date or negation (anything but a name) that a check confirmed otherwise.
    value_confirmed: bool,
    /// An opposite the model cannot weigh, or two names in swapped roles: not support.
    unconfirmed_polarity: bool,
    unconfirmed_value: bool,
    /// A value of the claim the evidence plausibly gives otherwise.
    doubted_value: bool,
    /// Another name of the same kind in the claim's place that the model entails as readily as the
    /// claim's own.
    indistinct_name: bool,
}

/// Typed checks: a conflict is confirmed when the model reads the claim with the evidence's value as
/// clearly better entailed than the claim itself.
fn weigh_checks(f: &ClaimFacts, t: &Thresholds) -> CheckWeighing {
    let p = f.probs;
    let mut w = CheckWeighing {
        reports: Vec::new(),
        confirmed: None,
        value_confirmed: false,
        unconfirmed_polarity: false,
        unconfirmed_value: false,
        doubted_value: false,
        indistinct_name: false,
    };
    for (c, probe) in f.checks.conflicts.iter().zip(f.probes) {
        let Some((probe_ent, claim_ent)) = *probe else { continue };
        let is_confirmed = conflict_confirmed(c, probe_ent, claim_ent, t);
        w.value_confirmed |= is_confirmed && c.kind != CheckKind::Name;
        if is_confirmed {
            // How sure: the probe's entailment, or the model's own contradiction of the claim when
            // it is higher (two readings agree); for a negated predicate, that the model does not
            // entail the claim.
            let backing = if c.negated == Some(Side::Source) { 1.0 - probe_ent } else { probe_ent };
            w.confirmed = Some(w.confirmed.unwrap_or(0.0).max(backing).max(p.contradiction));
        } else if c.kind == CheckKind::Polarity || (c.kind == CheckKind::Name && c.same_role) {
            // An opposite the model cannot weigh, or two names in swapped roles: not support.
            w.unconfirmed_polarity = true;
            // "East Orange is in the Eastern Time Zone" against "… is in the Central Time Zone",
            // both entailed at 0.88: the model cannot tell two names of one kind apart, so its
            // entailment of the claim, however clear, says nothing. Names of different kinds
            // (or the same two swapped) read alike for other reasons: free prose's probes often
            // differ from the claim in little but the name.
            w.indistinct_name |= c.kind == CheckKind::Name
                && checks::same_kind(&c.claim_says, &c.source_says)
                && probe_ent >= t.probe_entailment
                && probe_ent >= claim_ent - INDISTINCT_NAME_MARGIN;
        } else if c.kind != CheckKind::Name {
            w.unconfirmed_value = true;
            // The other value plausibly fills the claim's place: the same role, or a probe the
            // model half believes ("1843" for a death in 1852, when 1843 dates a publication, is not).
            w.doubted_value |= c.same_role || probe_ent >= t.probe_entailment / 2.0;
        }
        w.reports.push(CheckReport {
            kind: c.kind,
            result: if is_confirmed { CheckResult::Mismatch } else { CheckResult::Unconfirmed },
            answer_says: c.claim_says.clone(),
            source_says: c.source_says.clone(),
            message: conflict_message(c, is_confirmed, f.claim.text()),
            probe_entailment: Some(probe_ent),
        });
    }
    w
}

/// Whether the model's probe confirms conflict `c`: `probe_ent` is its entailment of the claim with
/// the evidence's value, `claim_ent` its entailment of the claim itself on the same sentence.
fn conflict_confirmed(c: &checks::Conflict, probe_ent: f32, claim_ent: f32, t: &Thresholds) -> bool {
    // A number or date the evidence gives otherwise (the claim's own value appears nowhere in it) is
    // confirmed by the probe alone: the small model reads past values, so it often entails the claim
    // too. Names and polarity need the probe clearly ahead of the claim.
    match c.kind {
        _ if c.denial => probe_ent >= t.probe_entailment,
        // The evidence negates the claim's very predicate ("has not adopted the euro" against
        // "adopted the euro in 2002"): the probe is the claim itself, and the conflict stands unless
        // the model reads the negating sentence as entailing the claim.
        CheckKind::Polarity if c.same_role && c.negated == Some(Side::Source) => probe_ent < t.probe_entailment,
        CheckKind::Number | CheckKind::Date => probe_ent >= t.probe_entailment,
        // A relation whose two ends the evidence gives swapped word for word ("sailed from New York
        // to Southampton"): the model reading that as the evidence's is enough, as for values.
        _ if c.exclusive => probe_ent >= t.probe_entailment,
        // An opposite word in the same place: the model reads past antonyms as it does past values.
        CheckKind::Polarity if c.same_role => probe_ent >= t.probe_entailment,
        _ => probe_ent >= t.probe_entailment && probe_ent - claim_ent >= if c.same_role { t.probe_margin * 0.6 } else { t.probe_margin },
    }
}

/// What a conflict's report says, as the two statements when one negates the other.
fn conflict_message(c: &checks::Conflict, is_confirmed: bool, claim: &str) -> String {
    if is_confirmed && c.negated == Some(Side::Claim) {
        // A negation is said as the two statements: "the source says … was open to pedestrians;
        // the answer says … was never open to pedestrians".
        format!("the source says {}; the answer says {}", c.probe.trim_end_matches('.'), claim.trim_end_matches('.'))
    } else if c.negated == Some(Side::Claim) {
        format!("the answer negates it (\"{}\") and the source does not; not clearly the same fact", c.claim_says)
    } else if is_confirmed && c.negated == Some(Side::Source) {
        format!("the source says \"{}\"; the answer says {}", c.source_says, claim.trim_end_matches('.'))
    } else if c.negated == Some(Side::Source) {
        format!("the source negates it (\"{}\") and the answer does not; not clearly the same fact", c.source_says)
    } else if is_confirmed {
        format!("the source says {}; the answer says {}", c.source_says, c.claim_says)
    } else {
        format!("the source has {} where the answer has {}; not clearly the same fact", c.source_says, c.claim_says)
    }
}

/// The reports of the claim's values the evidence gives as they are, and of those it does not give.
fn matched_and_absent(outcome: &CheckOutcome) -> Vec<CheckReport> {
    let matched = outcome.matched.iter().map(|m| CheckReport {
        kind: CheckKind::Number,
        result: CheckResult::Match,
        answer_says: m.clone(),
        source_says: m.clone(),
        message: format!("the source gives {m}"),
        probe_entailment: None,
    });
    let absent = outcome.unmatched.iter().map(|m| CheckReport {
        kind: CheckKind::Number,
        result: CheckResult::Absent,
        answer_says: m.clone(),
        source_says: String::new(),
        message: format!("the source does not give {m}"),
        probe_entailment: None,
    });
    matched.chain(absent).collect()
}

/// One claim as the rules read it: its facts, what the evidence names of it, and its checks weighed.
struct Reading<'a> {
    f: &'a ClaimFacts<'a>,
    t: &'a Thresholds,
    relevance: f32,
    coverage: f32,
    missing_entities: Vec<String>,
    checks: CheckWeighing,
}

impl Reading<'_> {
    fn decision(&self, rule: ClaimRule, status: ClaimStatus, confidence: f32, checks: Vec<CheckReport>) -> Decision {
        Decision {
            status,
            confidence: confidence.clamp(0.0, 1.0),
            checks,
            relevance: self.relevance,
            coverage: self.coverage,
            missing_entities: self.missing_entities.clone(),
            model_only: false,
            rule,
        }
    }

    /// A contradiction no value check confirmed, which the four-way head reading this claim alone all
    /// but certainly calls a missing fact (another of many values: "holds membership in World Bank"
    /// against a passage listing other memberships), is missing: the same bar as a sentence's
    /// contradiction made partial (`verdict::combine`). Not when a number or date of the claim
    /// plausibly stands otherwise in the evidence ("served two terms, until 2004" against "from 1994
    /// to 1999"): the head reads past values as the NLI head does.
    fn head_says_missing(&self) -> bool {
        let c = &self.checks;
        !c.value_confirmed
            && !c.doubted_value
            && self.f.probs.four_way.is_some_and(|h| h[1] + h[3] >= self.t.four_way_contradictory_to_partial)
    }

    fn missing_not_contradicted(&self, reports: Vec<CheckReport>) -> Decision {
        let confidence = self.f.probs.four_way.map_or(0.0, |h| h[1] + h[3]);
        self.decision(ClaimRule::HeadReadsMissingNotContradicted, ClaimStatus::Missing, confidence, reports)
    }

    /// Two of the claim's names each in the sources, but in passages nothing links: the link the
    /// claim states is not there, whatever the model reads into the passages side by side (a chain
    /// answer without its bridge). A clear entailment stands: prose may link them by a description the
    /// check cannot follow ("the bridge"). Reported on a claim found missing, it also keeps the
    /// four-way head from calling the sentence supported (`verdict::doubts_support`).
    fn unlinked(&self) -> Option<CheckReport> {
        self.f.checks.unlinked.as_ref().filter(|_| self.f.probs.entailment < self.t.clear_entailment).map(|(a, b)| CheckReport {
            kind: CheckKind::Name,
            result: CheckResult::Absent,
            answer_says: format!("{a} … {b}"),
            source_says: String::new(),
            message: format!("the sources name {a} and {b}, but nothing in them links the two"),
            probe_entailment: None,
        })
    }

    fn values_ok(&self) -> bool {
        self.f.checks.all_values_match() && !self.checks.unconfirmed_value
    }

    /// The model's entailment, weighed by the claim's word coverage when `coverage_power` says so.
    fn support_level(&self) -> f32 {
        let (p, t) = (self.f.probs, self.t);
        if t.coverage_power > 0.0 {
            p.entailment * self.coverage.powf(t.coverage_power)
        } else {
            p.entailment
        }
    }

    /// The rules of support (`Entailed`, `UnlinkedNames`, `HeadReadsMissing`): the decision when the
    /// model or the values state the claim, else the reports back for the rules that follow.
    fn support(&self, reports: Vec<CheckReport>, unlinked: Option<CheckReport>) -> Result<Decision, Vec<CheckReport>> {
        let (f, t, p) = (self.f, self.t, self.f.probs);
        let values_ok = self.values_ok();
        // A number or date of the claim the evidence gives otherwise is never supported.
        let value_conflict = f.checks.conflicts.iter().any(|c| matches!(c.kind, CheckKind::Number | CheckKind::Date));
        let support = self.support_level();
        // Word coverage guards against a fluent entailment of a claim that says more than the
        // evidence; an abstractive paraphrase the model entails clearly shares few words and is
        // still support.
        let entailed = (support >= t.entailment || p.entailment >= t.clear_entailment) && p.entailment >= p.contradiction;
        // Every value of the claim stated by the evidence, nearly all its words there, and the model
        // not clearly against it: support, though unsure while the model leans to contradiction.
        let entailed_by_values = values_ok
            && self.coverage >= t.values_coverage
            && p.entailment >= t.values_entailment
            && p.contradiction < t.strong_contradiction;
        // An opposite or a swapped name the model could not confirm blocks support unless the model
        // entails the claim clearly (long evidence often names things in ways the checks misread).
        let blocked = (self.checks.unconfirmed_polarity && p.entailment < t.clear_entailment) || self.checks.indistinct_name;
        if !(entailed || entailed_by_values) || blocked || value_conflict {
            return Err(reports);
        }
        let mut status =
            if t.require_entities && !self.missing_entities.is_empty() { ClaimStatus::PartiallySupported } else { ClaimStatus::Supported };
        // A value the evidence does not give is a fact it lacks, however fluent the paraphrase.
        if !f.checks.unmatched.is_empty() && !values_ok {
            status = ClaimStatus::Missing;
        }
        if t.require_question_subject
            && status == ClaimStatus::Supported
            && !question::missing_subjects(f.claim, f.question, f.evidence).is_empty()
        {
            status = ClaimStatus::PartiallySupported;
        }
        // Names the sources never link (`unlinked`): the link the claim states is not there.
        if status == ClaimStatus::Supported {
            if let Some(link) = unlinked {
                let mut reports = reports;
                reports.push(link);
                return Ok(self.decision(ClaimRule::UnlinkedNames, ClaimStatus::Missing, 1.0 - p.entailment * 0.8, reports));
            }
        }
        // The four-way head, reading this claim alone, says the evidence lacks part of it: an
        // entailment this weak, with no value of the claim matched, is the NLI head reading past a
        // missing fact ("has worked as a writer" against a passage that names only his novels).
        if status == ClaimStatus::Supported && p.entailment < t.clear_entailment && f.checks.matched.is_empty() && head_reads_missing(p, t)
        {
            let confidence = p.four_way.map_or(0.0, |h| 1.0 - h[0]);
            return Ok(self.decision(ClaimRule::HeadReadsMissing, ClaimStatus::Missing, confidence, reports));
        }
        // Matching values raise confidence in a support the model gives only weakly; a model leaning
        // to contradiction keeps it below the unsure level.
        let mut confidence = if values_ok { (p.entailment + 0.35).max(support) } else { p.entailment };
        if p.contradiction >= t.contradiction {
            confidence = confidence.min(t.unsure_below * 0.9);
        }
        Ok(self.decision(ClaimRule::Entailed, status, confidence, reports))
    }

    /// A check that found the claim's value or its opposite otherwise in an evidence sentence found
    /// the evidence talking about the same thing, however it names it ("the war" for "World War I"):
    /// such a claim is not unrelated. (Another name is no such sign: any two passages name different
    /// things.) So is a value with a unit, or a full date, that the evidence states ("13% more
    /// productive" against "a 13 percent performance increase"); a bare year or count is too common
    /// to say so.
    fn same_topic(&self) -> bool {
        let f = self.f;
        f.checks.conflicts.iter().any(|c| c.kind != CheckKind::Name)
            || f.claim
                .values()
                .iter()
                .any(|v| f.checks.matched.contains(&v.text) && (v.day.is_some() || v.unit.as_ref().is_some_and(|u| !u.is_calendar())))
    }

    /// The rules for a claim the model does not entail: unrelated, contradicted (by a checked doubt,
    /// two heads, three readings, or the model alone), else missing.
    fn not_entailed(&self, reports: Vec<CheckReport>, unlinked: Option<CheckReport>) -> Decision {
        let (f, t, p) = (self.f, self.t, self.f.probs);
        if self.relevance < t.relevance && !self.same_topic() {
            return self.decision(ClaimRule::Unrelated, ClaimStatus::Unrelated, 1.0 - self.relevance.max(p.entailment), reports);
        }
        // The model alone contradicts only clearly, and less readily when every value matches.
        // Something a check found wrong (a value the evidence plausibly gives otherwise, an opposite)
        // lets the model contradict at the ordinary level; otherwise it must be clear.
        // A value the evidence lacks is a fact it does not give (partial), no doubt of what it says.
        let checked_doubt = self.checks.doubted_value || self.checks.unconfirmed_polarity;
        if self.head_says_missing() && p.contradiction >= t.contradiction {
            return self.missing_not_contradicted(reports);
        }
        if checked_doubt && p.contradiction >= t.contradiction {
            return self.decision(ClaimRule::CheckedDoubtContradicted, ClaimStatus::Contradicted, p.contradiction, reports);
        }
        // The NLI head contradicts clearly and the four-way head, reading the same claim, agrees: two
        // readings of different training behind it, so it is no longer the model's word alone.
        if p.contradiction >= t.claim_head_contradiction_nli && p.four_way.is_some_and(|h| h[2] >= t.claim_head_contradiction) {
            return self.decision(ClaimRule::TwoHeadsContradict, ClaimStatus::Contradicted, p.contradiction, reports);
        }
        // Three readings lean the same way: the NLI head contradicts the claim, the four-way head
        // reading the claim alone all but calls it contradictory, and reading the whole sentence it
        // calls the sentence contradictory ("Eddie Selzer was born in New York City and died in Los
        // Angeles" against "a native of Covington"). Each alone is the small models' word; together
        // they are what a rival answer looks like, not a fact the evidence lacks. How sure: the surer
        // of the claim's two readings (the NLI head's may sit just above `contradiction`).
        if let Some(h) = p.four_way.filter(|h| h[2] >= t.claim_head_leans_contradiction) {
            if p.contradiction >= t.contradiction
                && f.sentence_reading.is_some_and(|s| reads_contradictory(s, t.sentence_head_contradiction))
            {
                return self.decision(ClaimRule::ThreeReadingsContradict, ClaimStatus::Contradicted, p.contradiction.max(h[2]), reports);
            }
        }
        // Every value and name of the claim the evidence states, and nearly all its words: the
        // model's contradiction alone, with nothing a check found, is the small model misreading a
        // paraphrase ("Marie Curie was born in Warsaw in 1867" against "Born in Warsaw in 1867,
        // Curie remains …" at 0.91). Painting that claim contradicted would strike through what the
        // source states; it is left unsure and missing.
        let stated_whole =
            self.values_ok() && !f.checks.matched.is_empty() && self.coverage >= t.values_coverage && self.missing_entities.is_empty();
        if p.contradiction >= t.strong_contradiction && !stated_whole {
            return Decision {
                model_only: true,
                ..self.decision(ClaimRule::ModelOnlyContradiction, ClaimStatus::Contradicted, p.contradiction, reports)
            };
        }
        // Missing: how sure we are that the evidence does not state it.
        let confidence = if self.checks.unconfirmed_polarity || p.contradiction >= t.contradiction {
            0.4
        } else {
            1.0 - p.entailment.max(p.contradiction) * 0.8
        };
        let mut reports = reports;
        reports.extend(unlinked);
        self.decision(ClaimRule::NotStated, ClaimStatus::Missing, confidence, reports)
    }
}

/// The four-way head's reading of the claim's own pair puts it at partially supportive or
/// irrelevant (together) at `claim_head_missing` or more, or at anything but supportive at
/// `claim_head_not_supportive` or more.
fn head_reads_missing(p: Probs, t: &Thresholds) -> bool {
    p.four_way.is_some_and(|h| h[1] + h[3] >= t.claim_head_missing || 1.0 - h[0] >= t.claim_head_not_supportive)
}

/// The four-way head's reading puts contradictory first, at `bar` or more.
fn reads_contradictory(h: [f32; 4], bar: f32) -> bool {
    h[2] >= bar && h.iter().all(|&x| x <= h[2])
}

/// Share of the claim's names (or, without names, content words) that the evidence mentions.
/// Numbers do not count here (a value the evidence lacks makes a claim partial, not irrelevant),
/// nor does a capitalised first word the evidence never names ("Babies are born …").
pub fn relevance(claim: &Analysed, evidence: &Mentions) -> f32 {
    let ents: Vec<&entities::Entity> = claim
        .names()
        .iter()
        .filter(|e| e.text.chars().any(char::is_alphabetic) && !e.text.chars().all(|c| c.is_ascii_digit() || c.is_whitespace()))
        .filter(|e| !(e.start == 0 && !e.text.contains(' ') && !evidence.mentions(&e.text)))
        .collect();
    if !ents.is_empty() {
        return ents.iter().filter(|e| evidence.mentions(&e.text)).count() as f32 / ents.len() as f32;
    }
    if claim.content_words().is_empty() {
        return 0.0;
    }
    coverage(claim, evidence)
}

/// Share of the claim's content words that the evidence contains (1 for a claim without any).
pub fn coverage(claim: &Analysed, evidence: &Mentions) -> f32 {
    let words = claim.content_words();
    if words.is_empty() {
        return 1.0;
    }
    words.iter().filter(|w| evidence.contains_word(w)).count() as f32 / words.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::checks;

    fn probs(e: f32, c: f32) -> Probs {
        Probs { entailment: e, neutral: 1.0 - e - c, contradiction: c, four_way: None, evidence: None }
    }

    fn decide(claim: &str, evidence: &str, p: Probs, probes: &[Option<(f32, f32)>]) -> Decision {
        decide_in_sentence(claim, evidence, p, probes, None)
    }

    fn decide_in_sentence(
        claim: &str,
        evidence: &str,
        p: Probs,
        probes: &[Option<(f32, f32)>],
        sentence_reading: Option<[f32; 4]>,
    ) -> Decision {
        let outcome = checks::check_texts(claim, &[evidence.to_string()]);
        let ev = Analysed::new(evidence);
        let probes: Vec<Option<(f32, f32)>> = if probes.is_empty() { vec![None; outcome.conflicts.len()] } else { probes.to_vec() };
        RuleDecider { thresholds: Thresholds::default() }.decide(&ClaimFacts {
            claim: &Analysed::new(claim),
            question: &Analysed::default(),
            probs: p,
            evidence: ev.mentions(),
            checks: &outcome,
            probes: &probes,
            sentence_reading,
        })
    }

    fn with_head(e: f32, c: f32, head: [f32; 4]) -> Probs {
        Probs { four_way: Some(head), ..probs(e, c) }
    }

    #[test]
    fn each_way_out_names_its_rule() {
        let ev = "The Brooklyn Bridge opened on May 24, 1883.";
        let entailed = decide("The Brooklyn Bridge opened on May 24, 1883.", ev, probs(0.95, 0.01), &[]);
        assert_eq!((entailed.status, entailed.rule), (ClaimStatus::Supported, ClaimRule::Entailed));
        let unrelated = decide("Marie Curie won two Nobel Prizes.", ev, probs(0.02, 0.05), &[]);
        assert_eq!((unrelated.status, unrelated.rule), (ClaimStatus::Unrelated, ClaimRule::Unrelated));
        let model_only = decide("The Brooklyn Bridge opened in New York.", ev, probs(0.01, 0.97), &[]);
        assert_eq!(model_only.rule, ClaimRule::ModelOnlyContradiction, "{model_only:?}");
        assert!(model_only.uncertain(&Thresholds::default()), "the model's word alone is shown unsure");
    }

    #[test]
    fn three_readings_that_lean_to_contradiction_make_a_sure_one() {
        let ev = "Eddie Selzer, American film producer, is a native of Covington.";
        let claim = "Eddie Selzer was born in New York City.";
        let claim_reading = with_head(0.04, 0.62, [0.0, 0.04, 0.96, 0.0]);
        let sentence_contradictory = Some([0.01, 0.2, 0.78, 0.01]);
        let d = decide_in_sentence(claim, ev, claim_reading, &[], sentence_contradictory);
        assert_eq!(d.status, ClaimStatus::Contradicted);
        assert_eq!(d.rule, ClaimRule::ThreeReadingsContradict);
        assert!(!d.uncertain(&Thresholds::default()), "three readings agree: sure, at the claim head's 0.96");
        let one_short = decide_in_sentence(claim, ev, claim_reading, &[], None);
        assert_eq!(one_short.rule, ClaimRule::NotStated, "the rule that decides names itself: {one_short:?}");
        // Any one reading short of its bar leaves the claim missing, as before.
        let missing = |p, s| decide_in_sentence(claim, ev, p, &[], s).status;
        assert_eq!(missing(claim_reading, None), ClaimStatus::Missing, "a one-claim sentence has no reading of its own");
        assert_eq!(missing(claim_reading, Some([0.01, 0.5, 0.48, 0.01])), ClaimStatus::Missing, "the sentence read partial first");
        assert_eq!(missing(claim_reading, Some([0.01, 0.34, 0.65, 0.0])), ClaimStatus::Missing, "below the sentence bar");
        assert_eq!(
            missing(with_head(0.04, 0.62, [0.0, 0.14, 0.86, 0.0]), sentence_contradictory),
            ClaimStatus::Missing,
            "claim head below its bar"
        );
        assert_eq!(
            missing(with_head(0.3, 0.45, [0.0, 0.04, 0.96, 0.0]), sentence_contradictory),
            ClaimStatus::Missing,
            "NLI head below `contradiction`"
        );
    }

    #[test]
    fn names_the_sources_never_link_keep_a_weak_entailment_from_support() {
        let claim = "The producer of Jackie Cooper's film is Yoram Globus.";
        let ev = "Jackie Cooper was born in Los Angeles. Superman IV counts Yoram Globus among its producers.";
        let decide = |e: f32, unlinked: bool| {
            let mut outcome = checks::check_texts(claim, &[ev.to_string()]);
            outcome.unlinked = unlinked.then(|| ("Jackie Cooper".to_string(), "Yoram Globus".to_string()));
            let probes = vec![None; outcome.conflicts.len()];
            RuleDecider { thresholds: Thresholds::default() }.decide(&ClaimFacts {
                claim: &Analysed::new(claim),
                question: &Analysed::default(),
                probs: probs(e, 0.1),
                evidence: Analysed::new(ev).mentions(),
                checks: &outcome,
                probes: &probes,
                sentence_reading: None,
            })
        };
        assert_eq!(decide(0.74, false).status, ClaimStatus::Supported, "without the check the weak entailment is support");
        let d = decide(0.74, true);
        assert_eq!(d.status, ClaimStatus::Missing);
        assert!(
            d.checks.iter().any(|c| c.kind == CheckKind::Name && c.result == CheckResult::Absent && c.message.contains("links")),
            "{:?}",
            d.checks
        );
        // A claim missing for the model too carries the doubt (it keeps the four-way head from support).
        assert!(decide(0.2, true).checks.iter().any(|c| c.result == CheckResult::Absent));
        // A clear entailment stands: prose links names by descriptions the check cannot follow.
        let clear = decide(Thresholds::default().clear_entailment + 0.05, true);
        assert_eq!(clear.status, ClaimStatus::Supported);
        assert!(clear.checks.iter().all(|c| c.result != CheckResult::Absent));
    }

    #[test]
    fn the_head_reading_the_claim_alone_settles_what_the_nli_head_reads_weakly() {
        let ev = "Poul Anderson received a nomination for the Hugo Award for Best Short Story.";
        let claim = "Poul Anderson has worked as a writer.";
        // A weak entailment the head reads as a missing fact is missing; a clear one, or a head that
        // agrees, stays supported.
        assert_eq!(decide(claim, ev, with_head(0.73, 0.08, [0.02, 0.97, 0.0, 0.01]), &[]).status, ClaimStatus::Missing);
        assert_eq!(decide(claim, ev, with_head(0.9, 0.05, [0.02, 0.97, 0.0, 0.01]), &[]).status, ClaimStatus::Supported);
        assert_eq!(decide(claim, ev, with_head(0.73, 0.08, [0.6, 0.38, 0.0, 0.02]), &[]).status, ClaimStatus::Supported);
        assert_eq!(decide(claim, ev, probs(0.73, 0.08), &[]).status, ClaimStatus::Supported, "no head, no change");
        // A head that reads a contradiction where the NLI head weakly entails: the two disagree, so
        // the claim is neither supported nor (on the model's word alone) contradicted.
        let d = decide(claim, ev, with_head(0.71, 0.26, [0.04, 0.03, 0.93, 0.0]), &[]);
        assert_eq!(d.status, ClaimStatus::Missing);
        assert_eq!(decide(claim, ev, with_head(0.71, 0.26, [0.2, 0.03, 0.77, 0.0]), &[]).status, ClaimStatus::Supported, "below the bar");
        // A value of the claim the evidence states keeps the support, whatever the head says.
        let d =
            decide("The bridge opened in 1883.", "The bridge opened to traffic in 1883.", with_head(0.5, 0.1, [0.0, 0.99, 0.0, 0.01]), &[]);
        assert_eq!(d.status, ClaimStatus::Supported);
    }

    #[test]
    fn two_readings_that_agree_on_a_contradiction_make_it_sure() {
        let ev = "Herbert Lom was born in Pilsen.";
        let claim = "Herbert Lom was born in Prague.";
        let d = decide(claim, ev, with_head(0.08, 0.89, [0.0, 0.01, 0.99, 0.0]), &[None; 1]);
        assert_eq!(d.status, ClaimStatus::Contradicted);
        assert!(!d.model_only);
        // The NLI head alone, however strong, stays the model's word only.
        let d = decide(claim, ev, with_head(0.02, 0.95, [0.3, 0.4, 0.3, 0.0]), &[None; 1]);
        assert!(d.status != ClaimStatus::Contradicted || d.model_only);
    }

    #[test]
    fn a_rival_name_the_model_entails_as_readily_as_the_claims_blocks_support() {
        let (claim, ev) = ("East Orange is in the Eastern Time Zone.", "East Orange is in the Central Time Zone.");
        let n = checks::check_texts(claim, &[ev.to_string()]).conflicts.len();
        assert!(n > 0);
        let d = decide(claim, ev, probs(0.88, 0.1), &vec![Some((0.87, 0.88)); n]);
        assert_ne!(d.status, ClaimStatus::Supported, "both names entailed alike: {d:?}");
        let d = decide(claim, ev, probs(0.88, 0.1), &vec![Some((0.79, 0.88)); n]);
        assert_eq!(d.status, ClaimStatus::Supported, "the claim's own name read clearly better");
    }

    #[test]
    fn a_name_contradiction_the_head_reads_as_a_missing_fact_is_missing() {
        let ev = "Qatar holds membership in the United Nations and the Arab League.";
        let claim = "Qatar holds membership in World Bank.";
        let outcome = checks::check_texts(claim, &[ev.to_string()]);
        let probes = vec![Some((0.9, 0.05)); outcome.conflicts.len()];
        let d = decide(claim, ev, with_head(0.02, 0.97, [0.0, 0.995, 0.0, 0.005]), &probes);
        assert_eq!(d.status, ClaimStatus::Missing);
        let d = decide(claim, ev, with_head(0.02, 0.97, [0.0, 0.9, 0.1, 0.0]), &probes);
        assert_eq!(d.status, ClaimStatus::Contradicted, "below the bar the contradiction stands");
        // A date the evidence gives otherwise stands whatever the head says.
        let d = decide(
            "The bridge opened on May 25, 1883.",
            "The bridge opened on May 24, 1883.",
            with_head(0.1, 0.8, [0.0, 1.0, 0.0, 0.0]),
            &[Some((0.95, 0.1))],
        );
        assert_eq!(d.status, ClaimStatus::Contradicted);
        // So does one the model could not confirm, when the NLI head contradicts: the head reads
        // past years as the NLI head does.
        let (claim, ev) = ("Mandela served until 2004.", "Mandela served as president from 1994 to 1999.");
        let outcome = checks::check_texts(claim, &[ev.to_string()]);
        assert!(outcome.conflicts.iter().any(|c| c.kind == CheckKind::Date), "{outcome:?}");
        let probes = vec![Some((0.3, 0.1)); outcome.conflicts.len()];
        let d = decide(claim, ev, with_head(0.08, 0.8, [0.0, 0.99, 0.01, 0.0]), &probes);
        assert_eq!(d.status, ClaimStatus::Contradicted);
    }

    #[test]
    fn a_confirmed_probe_contradicts_and_says_why() {
        let d = decide("The bridge opened on May 25, 1883.", "The bridge opened on May 24, 1883.", probs(0.8, 0.1), &[Some((0.95, 0.8))]);
        assert_eq!(d.status, ClaimStatus::Contradicted);
        assert!(d.checks.iter().any(|c| c.message == "the source says May 24, 1883; the answer says May 25, 1883"), "{:?}", d.checks);
        // The same conflict, not confirmed by the probe, blocks nothing but contradicts nothing either.
        let d = decide("The bridge opened on May 25, 1883.", "The bridge opened on May 24, 1883.", probs(0.2, 0.3), &[Some((0.4, 0.2))]);
        assert_ne!(d.status, ClaimStatus::Contradicted);
    }

    #[test]
    fn matching_values_support_and_guard_against_a_model_only_contradiction() {
        let ev = "Construction began in 1870 and the bridge opened on May 24, 1883.";
        let d = decide("The bridge opened on May 24, 1883, after 13 years of construction.", ev, probs(0.2, 0.3), &[]);
        assert_eq!(d.status, ClaimStatus::Supported);
        let d = decide("The bridge opened on May 24, 1883.", ev, probs(0.05, 0.8), &[]);
        assert_ne!(d.status, ClaimStatus::Contradicted, "0.8 < strong_contradiction with every value matching");
        // Every value, name and word stated: even a strong contradiction of the model alone is no
        // contradiction, only unsure.
        let d = decide("The bridge opened on May 24, 1883.", ev, probs(0.01, 0.95), &[]);
        assert_eq!(d.status, ClaimStatus::Missing);
        assert!(d.uncertain(&Thresholds::default()));
        // A word the evidence lacks ("collapsed"): the model's strong contradiction stands, unsure.
        let d = decide("The bridge collapsed on May 24, 1883.", ev, probs(0.01, 0.95), &[]);
        assert_eq!(d.status, ClaimStatus::Contradicted);
        assert!(d.uncertain(&Thresholds::default()));
    }

    #[test]
    fn an_unconfirmed_negation_blocks_support_and_is_unsure() {
        let d = decide(
            "The Brooklyn Bridge was never open to pedestrians.",
            "The Brooklyn Bridge carries vehicles and pedestrians.",
            probs(0.7, 0.1),
            &[Some((0.4, 0.7))],
        );
        assert_eq!(d.status, ClaimStatus::Missing);
        assert!(d.uncertain(&Thresholds::default()));
    }

    #[test]
    fn a_negated_predicate_contradicts_unless_the_model_entails_the_claim() {
        let ev = "Switzerland is not a member of the European Union, and it has not adopted the euro.";
        let d = decide("Switzerland adopted the euro in 2002.", ev, probs(0.02, 0.2), &[Some((0.02, 0.02))]);
        assert_eq!(d.status, ClaimStatus::Contradicted);
        assert!(!d.uncertain(&Thresholds::default()));
        assert!(
            d.checks
                .iter()
                .any(|c| c.message == "the source says \"has not adopted the euro\"; the answer says Switzerland adopted the euro in 2002"),
            "{:?}",
            d.checks
        );
        // The model entailing the claim from the negating sentence means the rule misread it.
        let d = decide("Switzerland adopted the euro in 2002.", ev, probs(0.7, 0.1), &[Some((0.7, 0.7))]);
        assert_ne!(d.status, ClaimStatus::Contradicted);
    }

    #[test]
    fn another_event_s_date_does_not_let_the_model_contradict() {
        // 1843 dates a publication: the probe is not believed, so the model's 0.85 stays a doubt.
        let ev = "Lovelace published the first algorithm in 1843.";
        let d = decide("Ada Lovelace died in 1852 at the age of 36.", ev, probs(0.01, 0.85), &[Some((0.03, 0.01))]);
        assert_eq!(d.status, ClaimStatus::Missing, "{d:?}");
        // The same date but for its year is the claim's place: the model's contradiction counts.
        let ev = "Work on the tower was completed on 31 March 1889.";
        let d = decide("The tower was completed on 31 March 1899.", ev, probs(0.01, 0.85), &[Some((0.03, 0.01))]);
        assert_eq!(d.status, ClaimStatus::Contradicted, "{d:?}");
    }

    #[test]
    fn a_value_the_source_lacks_is_missing_even_when_entailed() {
        let d = decide(
            "Canberra has a population of about 460,000 people.",
            "Canberra is the capital city of Australia.",
            probs(0.6, 0.1),
            &[],
        );
        assert_eq!(d.status, ClaimStatus::Missing);
        assert!(d.checks.iter().any(|c| c.result == CheckResult::Absent));
    }

    #[test]
    fn a_clear_entailment_of_a_paraphrase_supports_despite_few_shared_words() {
        let ev = "Keep drugs somewhere cool and dry, out of the sun, since light and heat break them down.";
        let claim = "Generally, medications should be stored in a cool, dry place away from direct sunlight and heat sources.";
        assert_eq!(decide(claim, ev, probs(0.9, 0.05), &[]).status, ClaimStatus::Supported);
        // A weaker entailment of so few shared words is not.
        assert_ne!(decide(claim, ev, probs(0.6, 0.1), &[]).status, ClaimStatus::Supported);
    }

    #[test]
    fn a_value_with_a_unit_the_evidence_states_makes_it_related() {
        let ev = "In a nine-month experiment, employees who worked from home showed a 13 percent performance increase.";
        let d = decide("The study found that remote staff were 13% more productive than office staff.", ev, probs(0.16, 0.32), &[]);
        assert_ne!(d.status, ClaimStatus::Unrelated, "{d:?}");
        // A bare year the evidence also gives is no such sign.
        let d = decide("The treaty was signed by Portugal in 1990.", "The festival moved to Lyon in 1990.", probs(0.05, 0.1), &[]);
        assert_eq!(d.status, ClaimStatus::Unrelated, "{d:?}");
    }

    #[test]
    fn a_value_found_otherwise_makes_the_evidence_related_however_it_names_things() {
        let d = decide(
            "World War I ended with the surrender of Germany in 1917.",
            "The fighting stopped with the armistice of November 1918.",
            probs(0.05, 0.8),
            &[Some((0.3, 0.05))],
        );
        assert_ne!(d.status, ClaimStatus::Unrelated, "{d:?}");
    }
}
