//! Typed checks between a claim and its evidence: numbers (units, rounding, "about"), dates (day,
//! month, year, partial dates), polarity (negation and antonyms) and the names filling the same role.
//!
//! Each check is a rule a reader can audit. A value the evidence states is a `Match`; a value whose
//! place the evidence fills with another value is a `Conflict`, which carries a *probe*: the claim
//! rewritten with the evidence's value ("… opened on May 24" for "… opened on May 25"). The model
//! reads the probe against the evidence; only when it entails the probe clearly better than the
//! claim is the conflict confirmed, so paraphrase, rounding and unit changes ("1,083 ft" beside
//! "330 m") never fire on their own.

use std::sync::OnceLock;

use regex::Regex;

use crate::entities::{self, Mentions};

/// What kind of value a check compared (a report type).
pub use citelens_types::CheckKind;

/// A value of the claim the evidence gives differently, and the claim rewritten with the evidence's.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub kind: CheckKind,
    /// The claim's words ("20 July", "never open").
    pub claim_says: String,
    /// The evidence's words ("21 July", "carries … pedestrians").
    pub source_says: String,
    /// The claim with the evidence's value put in: entailed by the evidence when the conflict is real.
    pub probe: String,
    /// Index of the evidence sentence the conflict was found in.
    pub sentence: usize,
    /// The value sits in the same role in both (the same verb before it).
    pub same_role: bool,
    /// The evidence reports the claim as a misconception or myth: the probe is the claim itself,
    /// and entailing it means the evidence denies it.
    pub denial: bool,
    /// For a negation one side has and the other lacks: which side has it.
    pub negated: Option<Side>,
    /// The evidence's value excludes the claim's, so the probe alone confirms the conflict: one
    /// relation with its two ends swapped word for word ("A took over the project from B" against
    /// "B took over the project from A").
    pub exclusive: bool,
}

impl Conflict {
    /// A conflict of `kind` in evidence sentence `sentence`: not in the same role, no negation, no denial.
    fn new(
        kind: CheckKind,
        claim_says: impl Into<String>,
        source_says: impl Into<String>,
        probe: impl Into<String>,
        sentence: usize,
    ) -> Self {
        Conflict {
            kind,
            claim_says: claim_says.into(),
            source_says: source_says.into(),
            probe: probe.into(),
            sentence,
            same_role: false,
            denial: false,
            negated: None,
            exclusive: false,
        }
    }

    fn in_same_role(self, same_role: bool) -> Self {
        Conflict { same_role, ..self }
    }

    fn negated_on(self, side: Side) -> Self {
        Conflict { negated: Some(side), ..self }
    }

    fn excluding(self, exclusive: bool) -> Self {
        Conflict { exclusive, ..self }
    }
}

/// One side of a claim-evidence comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Claim,
    Source,
}

/// What the typed checks found for one claim against its evidence sentences.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CheckOutcome {
    /// Values (numbers, dates) of the claim the evidence states.
    pub matched: Vec<String>,
    /// Values of the claim the evidence neither states nor contradicts.
    pub unmatched: Vec<String>,
    pub conflicts: Vec<Conflict>,
    /// Two of the claim's names that the cited passages both name, but only in passages nothing
    /// links (`PassageLinks::unlinked`).
    pub unlinked: Option<(String, String)>,
}

impl CheckOutcome {
    /// The claim has values and the evidence states every one of them.
    pub fn all_values_match(&self) -> bool {
        !self.matched.is_empty()
            && self.unmatched.is_empty()
            && self.conflicts.iter().all(|c| c.kind != CheckKind::Number && c.kind != CheckKind::Date)
    }
}

/// Which cited passages are linked: one names a name of the other, so they speak of the same things
/// (a chain's bridge, "England"; the topic of two passages about one bridge). Each passage's `title`
/// counts as part of it. Built once per sentence from its cited passages; `unlinked` asks it per claim.
pub struct PassageLinks {
    mentions: Vec<Mentions>,
    /// Per passage, the first passage of its linked group.
    group: Vec<usize>,
}

impl PassageLinks {
    pub fn new(passages: &[String]) -> Self {
        let mentions: Vec<Mentions> = passages.iter().map(|p| Mentions::new(p)).collect();
        // Passages that share a name are one source of knowledge about it: join them (union-find).
        let mut group: Vec<usize> = (0..passages.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for (a, text) in passages.iter().enumerate() {
            // Any shared name links, a title that is a number ("2046") included.
            for e in entities::extract(text) {
                for (b, m) in mentions.iter().enumerate().filter(|(b, _)| *b != a) {
                    if m.mentions_all(&e.text) {
                        let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                        group[ra] = rb;
                    }
                }
            }
        }
        let group = (0..passages.len()).map(|i| root(&mut group, i)).collect();
        PassageLinks { mentions, group }
    }

    /// Two names of the claim that the passages name only apart: no passage names both, and no
    /// chain of linked passages joins one's passages to the other's. "The contained place of Keith
    /// Moon's nationality is University of Reading" against a passage about Keith Moon's films and
    /// one about England, which includes the University of Reading: each name is there, the link
    /// between them (his nationality) is not, so the claim is at most partly supported, however
    /// fluent the model finds it. One passage, or a name no passage names, is left to the other checks.
    pub fn unlinked(&self, claim: &str) -> Option<(String, String)> {
        if self.mentions.len() < 2 {
            return None;
        }
        let mut names: Vec<String> = entities::extract(claim)
            .into_iter()
            .map(|e| e.text.trim_end_matches("'s").trim_end_matches("\u{2019}s").to_string())
            .filter(|t| t.chars().any(char::is_alphabetic) && !t.chars().any(|c| c.is_ascii_digit()))
            .collect();
        names.dedup();
        // A claim relates a subject to one or two other names; one naming more is a list ("sources
        // such as the NIH, the CDC, the American Lung Association …"), each name a fact the sources
        // may give apart.
        if names.len() > MAX_LINKED_NAMES {
            return None;
        }
        // The groups that name each of the claim's names the passages name at all.
        let found: Vec<(&String, Vec<usize>)> = names
            .iter()
            .map(|n| (n, self.mentions.iter().zip(&self.group).filter(|(m, _)| m.mentions(n)).map(|(_, &g)| g).collect::<Vec<usize>>()))
            .filter(|(_, groups)| !groups.is_empty())
            .collect();
        for (i, (a, ga)) in found.iter().enumerate() {
            for (b, gb) in &found[i + 1..] {
                if a != b && !is_acronym_of(a, b) && !is_acronym_of(b, a) && !ga.iter().any(|g| gb.contains(g)) {
                    return Some(((*a).clone(), (*b).clone()));
                }
            }
        }
        None
    }
}

/// Names a claim may have for `PassageLinks::unlinked` to read it as relating them (a subject, the name it
/// says something of, and a chain's middle name at most).
const MAX_LINKED_NAMES: usize = 3;

/// "AMOC" for "Atlantic Meridional Overturning Circulation": one thing under two names, which need
/// no link.
fn is_acronym_of(short: &str, long: &str) -> bool {
    let initials: String = long.split_whitespace().filter_map(|w| w.chars().next()).filter(|c| c.is_uppercase()).collect();
    short.len() >= 2 && short.chars().all(|c| c.is_ascii_uppercase() || c == '.') && initials == short.replace('.', "")
}

/// Probes per claim at most (each is one more model pair).
pub const MAX_PROBES: usize = 4;

/// Runs every check of `claim` against the evidence `sentences` (pronouns already resolved).
pub fn check(claim: &str, sentences: &[String]) -> CheckOutcome {
    let mut out = CheckOutcome::default();
    let all = sentences.join(" ");
    let evidence_values: Vec<Vec<Value>> = sentences.iter().map(|s| values(s)).collect();
    let overlap: Vec<usize> = sentences.iter().map(|s| shared_words(claim, s)).collect();
    let best = best_sentence(&overlap);
    for v in values(claim) {
        let role = role_word(claim, v.start);
        // Evidence values of the same kind, with whether they sit in the claim's role.
        let mut comparable: Vec<(usize, &Value, bool)> = Vec::new();
        for (si, vals) in evidence_values.iter().enumerate() {
            for e in vals.iter().filter(|e| v.comparable(e)) {
                let same_role = (role.is_some() && role_word(&sentences[si], e.start) == role) || v.differs_in_one_part(e);
                comparable.push((si, e, same_role));
            }
        }
        let in_role: Vec<&(usize, &Value, bool)> = comparable.iter().filter(|x| x.2).collect();
        let stated_plain = evidence_values.iter().flatten().any(|e| v.matches(e) && (v.in_name || !e.in_name));
        // "hosted the Olympics in 2020" against "the 2020 Summer Olympics, … held in 2021": a year
        // found only inside a name, beside another year in the same sentence, does not state the claim's.
        let named_only = !stated_plain
            && evidence_values.iter().any(|vals| {
                vals.iter().any(|e| e.in_name && v.matches(e)) && vals.iter().any(|e| !e.in_name && v.comparable(e) && !v.matches(e))
            });
        let stated =
            (evidence_values.iter().flatten().any(|e| v.matches(e)) && !named_only) || derived_match(&v, &evidence_values.concat());
        // "Biden received 232" against "Biden received 306 … to Trump's 232": the value in the
        // claim's role decides, wherever else the number appears.
        let role_conflict = !in_role.is_empty() && !in_role.iter().any(|x| v.agrees(x.1));
        if stated && !role_conflict {
            out.matched.push(v.text.clone());
            continue;
        }
        // "March 4, 2019" against "March 2019": the evidence gives the date less precisely. That
        // neither states the claim's day nor denies it, so it is no conflict with other dates.
        if !role_conflict && evidence_values.iter().flatten().any(|e| !e.in_name && v.agrees(e)) {
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
    out.conflicts.extend(ordinals(claim, sentences));
    if let Some(bi) = best {
        out.conflicts.extend(denial(claim, &sentences[bi], bi));
        out.conflicts.extend(polarity(claim, &sentences[bi], bi));
        out.conflicts.extend(names(claim, &sentences[bi], bi, &Mentions::new(&all)));
        out.conflicts.extend(swapped_names(claim, &sentences[bi], bi));
        out.conflicts.extend(contrasted_subject(claim, &sentences[bi], bi));
    }
    out.conflicts.truncate(MAX_PROBES);
    out
}

const ORDINALS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

/// How many words after an ordinal its noun is looked for ("second World Cup title").
const RANKED_NOUN_REACH: usize = 4;

/// Ordinals in `text` with the word they rank ("fifth planet", "third-largest", "2nd album"): (start,
/// end, rank, ranked word's first five letters).
fn ranked(text: &str) -> Vec<(usize, usize, usize, String)> {
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
fn ordinals(claim: &str, sentences: &[String]) -> Vec<Conflict> {
    let mut out = Vec::new();
    let evidence: Vec<Vec<(usize, usize, usize, String)>> = sentences.iter().map(|s| ranked(s)).collect();
    for (start, end, rank, of) in ranked(claim) {
        if evidence.iter().flatten().any(|e| e.2 == rank && e.3 == of) {
            continue;
        }
        let other = evidence.iter().enumerate().find_map(|(si, es)| es.iter().find(|e| e.3 == of && e.2 != rank).map(|e| (si, e)));
        if let Some((si, e)) = other {
            let says = &sentences[si][e.0..e.1];
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

fn shared_words(claim: &str, sentence: &str) -> usize {
    let have = Mentions::new(sentence);
    content_words(claim).iter().filter(|w| have.contains_word(w)).count()
}

/// The evidence sentence sharing the most content words with the claim, from each sentence's count
/// of shared words (`None` when none shares any; the first of equals wins).
fn best_sentence(overlap: &[usize]) -> Option<usize> {
    overlap.iter().enumerate().filter(|(_, n)| **n > 0).max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0))).map(|(i, _)| i)
}

const STOPWORDS: &[&str] = &[
    "the", "and", "for", "was", "were", "that", "this", "with", "from", "which", "who", "are", "has", "had", "have", "its", "his", "her",
    "their", "been", "also", "into", "than", "then", "they", "there", "what", "when", "where", "about", "after", "before", "such", "other",
    "some", "more", "most", "called", "not", "never", "did", "does",
];

pub fn content_words(text: &str) -> Vec<String> {
    entities::norm_words(text).into_iter().filter(|w| w.len() > 2 && !STOPWORDS.contains(&w.as_str())).collect()
}

// ---------------------------------------------------------------------------------------------
// Numbers and dates

/// A number or date found in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// The number (a date's year when it has one).
    pub number: f64,
    /// Its unit, normalised ("metre", "percent", "year"); a date's is "date", a bare year's "year".
    pub unit: Option<String>,
    /// Multiplier to the unit family's base (km → 1000 m), for comparing across units.
    pub scale: f64,
    /// Significant digits written ("21,000" → 2, "486.3" → 4): rounding the evidence to these may match.
    pub significant: u32,
    /// "about", "roughly", "more than" …: a looser match.
    pub approximate: bool,
    pub day: Option<u32>,
    pub month: Option<u32>,
    pub year: Option<i32>,
    /// A year that is part of a name ("the 2020 Summer Olympics", "the 1903 Nobel Prize"): it names
    /// the event, it does not date what the sentence says happened.
    pub in_name: bool,
}

impl Value {
    fn is_date(&self) -> bool {
        self.month.is_some() || self.unit.as_deref() == Some("year_of")
    }

    fn family(&self) -> Option<&'static str> {
        let u = self.unit.as_deref()?;
        UNITS.iter().find(|(name, _, _)| *name == u).map(|(_, fam, _)| *fam)
    }

    /// Values that could fill the same place: dates with dates, years with years, numbers of one
    /// unit family (or both without a unit).
    fn comparable(&self, other: &Value) -> bool {
        if self.is_date() || other.is_date() {
            return self.is_date() && other.is_date();
        }
        match (self.family(), other.family()) {
            (Some(a), Some(b)) => a == b,
            (None, None) => self.unit == other.unit,
            _ => false,
        }
    }

    /// Whether `other` (from the evidence) could be this value said less precisely: dates that agree
    /// on every part both give (day, month, year) and share a month or a year; other values when
    /// they match.
    fn agrees(&self, other: &Value) -> bool {
        if !(self.is_date() && other.is_date()) {
            return self.matches(other);
        }
        let parts = self.date_parts_agree(other);
        let shares_month_or_year = parts[0] == Some(true) || parts[1] == Some(true);
        shares_month_or_year && parts.iter().all(|p| *p != Some(false))
    }

    /// Two full dates alike but for one part ("31 March 1899" against "31 March 1889"): the same
    /// date, written or remembered wrongly.
    fn differs_in_one_part(&self, other: &Value) -> bool {
        let parts = self.date_parts_agree(other);
        self.is_date() && parts.iter().all(Option::is_some) && parts.iter().filter(|p| **p == Some(false)).count() == 1
    }

    /// Per date part (year, month, day): whether the two agree, `None` where one lacks the part.
    fn date_parts_agree(&self, other: &Value) -> [Option<bool>; 3] {
        fn part<T: PartialEq>(a: Option<T>, b: Option<T>) -> Option<bool> {
            Some(a? == b?)
        }
        [part(self.year, other.year), part(self.month, other.month), part(self.day, other.day)]
    }

    /// Whether `other` (from the evidence) states this value.
    fn matches(&self, other: &Value) -> bool {
        if self.is_date() || other.is_date() {
            // A year matches a date in that year; day and month must agree where both give them.
            let year_ok = match (self.year, other.year) {
                (Some(a), Some(b)) => a == b,
                (Some(_), None) => false,
                _ => true,
            };
            let month_ok = match (self.month, other.month) {
                (Some(a), Some(b)) => a == b,
                (Some(_), None) => false,
                _ => true,
            };
            let day_ok = match (self.day, other.day) {
                (Some(a), Some(b)) => a == b,
                (Some(_), None) => false,
                _ => true,
            };
            return year_ok && month_ok && day_ok && (self.month.is_some() || other.month.is_some() || self.year.is_some());
        }
        if !self.comparable(other) {
            // Units of different families never match; a counted noun may be paraphrased
            // ("14 million residents" for "14 million inhabitants") or left out.
            if self.family().is_some() || other.family().is_some() {
                return false;
            }
        }
        let (a, b) = (self.number * self.scale, other.number * other.scale);
        if a == b {
            return true;
        }
        if self.approximate && (a - b).abs() <= 0.1 * b.abs() {
            return true;
        }
        // Rounding: the evidence's value written with the claim's significant digits.
        round_sig(b, self.significant) == round_sig(a, self.significant) || (a - b).abs() <= 0.005 * b.abs()
    }
}

/// Claims that state a duration the evidence gives as two years ("13 years" from 1870 to 1883).
fn derived_match(v: &Value, evidence: &[Value]) -> bool {
    if v.unit.as_deref() != Some("year_span") {
        return false;
    }
    let years: Vec<i32> = evidence.iter().filter_map(|e| e.year).collect();
    years.iter().any(|a| years.iter().any(|b| (b - a) as f64 == v.number))
}

fn round_sig(x: f64, sig: u32) -> f64 {
    if x == 0.0 || sig == 0 {
        return x;
    }
    let mag = x.abs().log10().floor() as i32;
    let factor = 10f64.powi(sig as i32 - 1 - mag);
    (x * factor).round() / factor
}

/// (unit as normalised, family, scale to the family's base).
const UNITS: &[(&str, &str, f64)] = &[
    ("metre", "length", 1.0),
    ("kilometre", "length", 1000.0),
    ("centimetre", "length", 0.01),
    ("millimetre", "length", 0.001),
    ("foot", "length", 0.3048),
    ("mile", "length", 1609.344),
    ("inch", "length", 0.0254),
    ("kilogram", "mass", 1.0),
    ("gram", "mass", 0.001),
    ("tonne", "mass", 1000.0),
    ("pound", "mass", 0.4536),
    ("percent", "percent", 1.0),
    ("second", "time", 1.0),
    ("minute", "time", 60.0),
    ("hour", "time", 3600.0),
    ("day", "time", 86400.0),
    ("week", "time", 604800.0),
    ("month", "time", 2629800.0),
    ("year_span", "time", 31557600.0),
    ("degree", "degree", 1.0),
    ("dollar", "money", 1.0),
    ("euro", "money_eur", 1.0),
    ("square kilometre", "area", 1.0),
    ("square mile", "area", 2.589988),
];

fn unit_of(word: &str, next: &str) -> Option<(&'static str, bool)> {
    let w = word.to_lowercase();
    let two = format!("{w} {}", next.to_lowercase());
    if two.starts_with("square k") || two.starts_with("sq k") {
        return Some(("square kilometre", true));
    }
    if two.starts_with("square mile") {
        return Some(("square mile", true));
    }
    // "a 1,280-metre span", "a 10-inch gun": the unit joined by a hyphen is the unit; "a 31-year-old"
    // is an age, said as "at 31" as often as with the unit.
    if word.starts_with('-') && next == "-old" {
        return None;
    }
    let u = match w.trim_end_matches('.').trim_start_matches('-') {
        "m" | "metre" | "metres" | "meter" | "meters" => "metre",
        "km" | "kilometre" | "kilometres" | "kilometer" | "kilometers" => "kilometre",
        "cm" | "centimetre" | "centimetres" | "centimeter" | "centimeters" => "centimetre",
        "mm" | "millimetre" | "millimetres" => "millimetre",
        "ft" | "foot" | "feet" => "foot",
        "mi" | "mile" | "miles" => "mile",
        "inch" | "inches" => "inch",
        "kg" | "kilogram" | "kilograms" | "kilo" | "kilos" => "kilogram",
        "g" | "gram" | "grams" => "gram",
        "tonne" | "tonnes" | "ton" | "tons" => "tonne",
        "lb" | "lbs" | "pound" | "pounds" => "pound",
        "%" | "percent" | "per" => "percent",
        "second" | "seconds" | "s" => "second",
        "minute" | "minutes" | "min" => "minute",
        "hour" | "hours" | "h" => "hour",
        "day" | "days" => "day",
        "week" | "weeks" => "week",
        "month" | "months" => "month",
        "year" | "years" => "year_span",
        "degree" | "degrees" | "°" | "°c" | "°f" => "degree",
        "dollar" | "dollars" | "usd" => "dollar",
        "euro" | "euros" => "euro",
        _ => return None,
    };
    Some((u, false))
}

const MONTHS: &[&str] =
    &["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

fn month_of(w: &str) -> Option<u32> {
    let l = w.to_lowercase();
    let l = l.trim_end_matches('.');
    MONTHS
        .iter()
        .position(|m| *m == l || (l.len() >= 3 && m.starts_with(l) && l != "mar" && l != "may" || l == "mar" && *m == "march"))
        .map(|i| i as u32 + 1)
}

const NUMBER_WORDS: &[(&str, f64)] = &[
    ("one", 1.0),
    ("two", 2.0),
    ("three", 3.0),
    ("four", 4.0),
    ("five", 5.0),
    ("six", 6.0),
    ("seven", 7.0),
    ("eight", 8.0),
    ("nine", 9.0),
    ("ten", 10.0),
    ("eleven", 11.0),
    ("twelve", 12.0),
    ("thirteen", 13.0),
    ("fourteen", 14.0),
    ("fifteen", 15.0),
    ("sixteen", 16.0),
    ("seventeen", 17.0),
    ("eighteen", 18.0),
    ("nineteen", 19.0),
    ("twenty", 20.0),
    ("thirty", 30.0),
    ("forty", 40.0),
    ("fifty", 50.0),
    ("sixty", 60.0),
    ("seventy", 70.0),
    ("eighty", 80.0),
    ("ninety", 90.0),
    ("hundred", 100.0),
    ("dozen", 12.0),
    ("half", 0.5),
    ("quarter", 0.25),
];

const APPROX: &[&str] = &[
    "about",
    "around",
    "approximately",
    "roughly",
    "nearly",
    "almost",
    "some",
    "over",
    "more than",
    "less than",
    "up to",
    "under",
    "at least",
    "estimated",
    "c.",
    "circa",
    "~",
];

fn token_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[\p{L}%°]+(?:['’]s)?|-[\p{L}]+").expect("static regex"))
}

/// Numbers, years and dates in `text`, in order.
pub fn values(text: &str) -> Vec<Value> {
    let toks: Vec<(usize, usize, &str)> = token_re().find_iter(text).map(|m| (m.start(), m.end(), m.as_str())).collect();
    let mut out: Vec<Value> = Vec::new();
    let mut i = 0;
    let is_num = |t: &str| t.chars().next().is_some_and(|c| c.is_ascii_digit());
    let num_of = |t: &str| t.replace(',', "").parse::<f64>().ok();
    let sig_of = |t: &str| {
        let digits: String = t.chars().filter(|c| c.is_ascii_digit()).collect();
        let trimmed = if t.contains('.') {
            digits.trim_start_matches('0').to_string()
        } else {
            digits.trim_start_matches('0').trim_end_matches('0').to_string()
        };
        trimmed.len().max(1) as u32
    };
    let approx_before = |at: usize| {
        let before = text[..at].to_lowercase();
        let before = before.trim_end();
        APPROX.iter().any(|a| before.ends_with(a))
    };
    while i < toks.len() {
        let (s, e, t) = toks[i];
        // "the 2018–19 season": the two digits end the year's span, they count nothing.
        if is_num(t)
            && t.len() == 2
            && i > 0
            && toks[i - 1].2.len() == 4
            && is_num(toks[i - 1].2)
            && ["-", "–", "/"].contains(&&text[toks[i - 1].1..s])
        {
            i += 1;
            continue;
        }
        // "C3", "KDM4", "M2": digits joined to letters before them are part of a name, not a value.
        if is_num(t) && text[..s].chars().next_back().is_some_and(char::is_alphabetic) {
            i += 1;
            continue;
        }
        // Dates: "24 May 1883", "May 24, 1883", "May 1883", "May 24".
        if let Some(m) = month_of(t).filter(|_| t.chars().next().is_some_and(char::is_uppercase)) {
            let day_before = (i > 0 && is_num(toks[i - 1].2) && toks[i - 1].2.len() <= 2 && text[toks[i - 1].1..s].trim().is_empty())
                .then(|| toks[i - 1].2.parse::<u32>().ok())
                .flatten()
                .filter(|d| (1..=31).contains(d));
            let mut end = e;
            let mut day = None;
            let mut year = None;
            let mut j = i + 1;
            if day_before.is_none() && j < toks.len() && is_num(toks[j].2) && toks[j].2.len() <= 2 && text[e..toks[j].0].trim().is_empty() {
                day = toks[j].2.parse::<u32>().ok().filter(|d| (1..=31).contains(d));
                if day.is_some() {
                    end = toks[j].1;
                    j += 1;
                }
            }
            if j < toks.len() && is_num(toks[j].2) && toks[j].2.len() == 4 && text[end..toks[j].0].trim_matches([' ', ',']).is_empty() {
                year = toks[j].2.parse::<i32>().ok();
                end = toks[j].1;
                j += 1;
            }
            let start = if day_before.is_some() { toks[i - 1].0 } else { s };
            let day = day_before.or(day);
            if day.is_some() || year.is_some() {
                if day_before.is_some() {
                    out.retain(|v| v.start != start);
                }
                out.push(Value {
                    text: text[start..end].to_string(),
                    start,
                    end,
                    number: year.unwrap_or(0) as f64,
                    unit: Some("date".into()),
                    scale: 1.0,
                    significant: 4,
                    approximate: false,
                    day,
                    month: Some(m),
                    year,
                    in_name: false,
                });
                i = j;
                continue;
            }
        }
        let word_number = NUMBER_WORDS.iter().find(|(w, _)| *w == t.to_lowercase()).map(|(_, n)| *n);
        if let Some(mut n) = if is_num(t) { num_of(t) } else { word_number } {
            // A number word must count something ("seven million votes", "six hours"), not be a pronoun ("one of").
            let mut end = e;
            let mut j = i + 1;
            while j < toks.len() {
                let w = toks[j].2.to_lowercase();
                let mult = match w.as_str() {
                    "million" => 1e6,
                    "billion" => 1e9,
                    "thousand" => 1e3,
                    "hundred" if !is_num(t) || n < 100.0 => 100.0,
                    _ => break,
                };
                n *= mult;
                end = toks[j].1;
                j += 1;
            }
            let next = toks.get(j).map(|x| x.2).unwrap_or("");
            let after_next = toks.get(j + 1).map(|x| x.2).unwrap_or("");
            let plain_year = is_num(t) && t.len() == 4 && !t.contains(',') && (1000.0..=2100.0).contains(&n) && end == e;
            let unit = unit_of(next, after_next)
                .filter(|_| toks.get(j).is_some_and(|x| text[end..x.0].trim().is_empty() || text[end..x.0].trim() == "-"));
            if plain_year && unit.is_none() {
                out.push(Value {
                    text: t.to_string(),
                    start: s,
                    end: e,
                    number: n,
                    unit: Some("year_of".into()),
                    scale: 1.0,
                    significant: 4,
                    approximate: false,
                    day: None,
                    month: None,
                    year: Some(n as i32),
                    in_name: toks
                        .get(i + 1)
                        .is_some_and(|x| x.2.chars().next().is_some_and(char::is_uppercase) && text[e..x.0].trim().is_empty()),
                });
                i += 1;
                continue;
            }
            if !is_num(t) && unit.is_none() && end == e {
                i += 1; // "one of the", "half of": not a quantity
                continue;
            }
            let (unit_name, scale, end) = match unit {
                Some((u, two)) => {
                    let k = if two { j + 1 } else { j };
                    let scale = UNITS.iter().find(|(name, _, _)| *name == u).map(|(_, _, s)| *s).unwrap_or(1.0);
                    (Some(u.to_string()), scale, toks[k].1)
                }
                // The counted noun stands in for a unit ("306 electoral votes" vs "232 floors").
                None => (counted_noun(&toks, j), 1.0, end),
            };
            // "the 1903 Nobel Prize": a year used as a modifier is still a year.
            let significant = if is_num(t) { sig_of(t) } else { 1 };
            out.push(Value {
                text: text[s..end].to_string(),
                start: s,
                end,
                number: n,
                unit: unit_name,
                scale,
                significant,
                approximate: approx_before(s),
                day: None,
                month: None,
                year: None,
                in_name: false,
            });
            i = toks.iter().position(|x| x.0 >= end).unwrap_or(toks.len());
            continue;
        }
        i += 1;
    }
    out
}

/// The noun a bare number counts ("306 electoral votes" → "vote"), normalised, as its unit.
fn counted_noun(toks: &[(usize, usize, &str)], j: usize) -> Option<String> {
    // Up to two words: an adjective may stand between ("306 electoral votes").
    for k in j..(j + 2).min(toks.len()) {
        let w = toks[k].2.to_lowercase();
        if !w.chars().all(char::is_alphabetic)
            || STOPWORDS.contains(&w.as_str())
            || ["of", "to", "in", "on", "at", "by", "a", "an"].contains(&w.as_str())
        {
            return None;
        }
        if w.ends_with('s') && w.len() > 3 && !w.ends_with("ss") {
            return Some(w.trim_end_matches('s').to_string());
        }
        if ["people", "children", "men", "women"].contains(&w.as_str()) {
            return Some(w);
        }
    }
    None
}

/// The nearest word before `at` that is not an article, number or approximation word: the verb or
/// preposition that gives a value its role ("received" in "received 306 votes").
fn role_word(text: &str, at: usize) -> Option<String> {
    role_word_any(text, at).filter(|w| !PREPOSITIONS.contains(&w.as_str()))
}

/// As `role_word`, prepositions included: "born in Boston" / "born in Edinburgh" is a name's role.
fn role_word_any(text: &str, at: usize) -> Option<String> {
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

const PREPOSITIONS: &[&str] = &[
    "in",
    "on",
    "at",
    "by",
    "for",
    "from",
    "until",
    "till",
    "since",
    "with",
    "after",
    "before",
    "during",
    "into",
    "between",
    "and",
    "or",
    "as",
    "than",
    "within",
    "through",
    "throughout",
    "per",
    "each",
    "is",
    "was",
    "are",
    "were",
];

// ---------------------------------------------------------------------------------------------
// Polarity

/// Negation attached to a verb: "was never open", "did not win", "has no moons", "cannot roar".
fn negation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:(is|was|are|were|has|have|had|did|does|do|will|would|could|can|should|may|might|must)(?:\s+(not|never|no)\b)|(never|refused\s+to|failed\s+to|declined\s+to)\b|(cannot)\b|(is|was|are|were|has|have|had|did|does|do|could|would|can)n[’']t\b)")
            .expect("static regex")
    })
}

fn negations(text: &str) -> usize {
    negation_re().find_iter(text).count()
        + text
            .split_whitespace()
            .filter(|w| matches!(w.to_lowercase().trim_matches(|c: char| !c.is_alphabetic()), "neither" | "nor"))
            .count()
}

/// The claim with its verb negation taken out ("was never open" → "was open"), if it has one.
fn without_negation(claim: &str) -> Option<String> {
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
fn antonym_pairs() -> &'static [(&'static str, &'static str)] {
    static PAIRS: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        include_str!("../data/antonyms.tsv")
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .map(|(a, b)| (a.trim(), b.trim()))
            .collect()
    })
}

fn antonym_of(w: &str) -> Vec<&'static str> {
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
const PARTIAL_NEGATION: &[&str] = &[
    "only",
    "just",
    "merely",
    "necessarily",
    "longer",
    "always",
    "all",
    "every",
    "yet",
    "entirely",
    "fully",
    "quite",
    "much",
    "many",
    "exactly",
];

/// Words that, anywhere in a negated clause, turn it into a time limit: "did not open to the public
/// until 1883" says it opened then.
const TEMPORAL_LIMIT: &[&str] = &["until", "till", "before"];

/// Words by which a text states an exception to what it says.
const EXCEPTION_WORDS: &[&str] = &["except", "excluding", "other than", "apart from", "besides", "but not", "save for"];

/// Words that end a negated clause: what follows is not negated ("refused to concede and filed …").
const CLAUSE_BREAKS: &[&str] =
    &["and", "but", "which", "who", "while", "because", "although", "though", "whereas", "since", "as", "so", "yet", "or"];

/// Content words a negation denies (at most three, from the negation to the end of its clause) and
/// the clause's text. `None` for partial or temporal negations.
fn negated_scope(text: &str, after: usize) -> Option<(Vec<String>, String)> {
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
enum NegationReach {
    /// Some of the negated words ("never visited Berlin" against "visited Paris").
    Partly,
    /// All of them: the other text states the very predicate the negation denies.
    Whole,
}

/// Whether any negation of `negating` bears on `other`: the words it negates are there. A negation
/// whose words are absent says nothing against the other text ("never visited Berlin" against
/// "lived in Paris"). With the reach, the negation's words ("has not adopted the euro").
fn negation_reach(negating: &str, other: &str) -> Option<(NegationReach, String)> {
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
const NEIGHBOUR_REACH: usize = 3;
/// Articles, prepositions and frequency adverbs: a shared one does not put two words in one role.
const PASSED_OVER: &[&str] = &[
    "the",
    "a",
    "an",
    "and",
    "at",
    "in",
    "on",
    "by",
    "of",
    "to",
    "for",
    "mostly",
    "usually",
    "often",
    "mainly",
    "largely",
    "generally",
    "typically",
    "always",
    "sometimes",
    "very",
];

/// The evidence sentence says the opposite: a negation one side has and the other lacks, or a word
/// swapped for its antonym, on a sentence about the same subject.
fn polarity(claim: &str, sentence: &str, si: usize) -> Vec<Conflict> {
    let mut out = Vec::new();
    let same_subject = same_subject(claim, sentence);
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
            let opener = content_words(claim).into_iter().next();
            if !opener.is_some_and(|w| Mentions::new(sentence).contains_word(&w)) {
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

fn word_spans(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(st) = start.take() {
            out.push((st, &s[st..i]));
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn match_case(word: &str, like: &str) -> String {
    if like.chars().next().is_some_and(char::is_uppercase) {
        let mut c = word.chars();
        c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
    } else {
        word.to_string()
    }
}

/// Whether the evidence sentence is about the claim's subject: its first name is mentioned in the
/// sentence (or the claim opens without a name, and the sentence shares its other words).
fn same_subject(claim: &str, sentence: &str) -> bool {
    let Some(first) = entities::extract(claim).into_iter().next() else { return true };
    if claim[..first.start].split_whitespace().count() > 1 {
        return true; // the claim does not open with a name
    }
    // "African elephants' family groups …": a capitalised first word before a noun qualifies the
    // subject, it does not name it (unlike "Trump lost …", where a verb follows).
    let next = claim[first.end..].split_whitespace().next().unwrap_or("").trim_matches(|c: char| !c.is_alphanumeric());
    if first.start == 0
        && !first.text.contains(' ')
        && next.starts_with(char::is_lowercase)
        && !crate::claims::is_verb(next)
        && !["should", "must"].contains(&next)
    {
        return true;
    }
    let ev = entities::extract(sentence);
    // The sentence's own subject (its first name) must be the claim's: "Biden won" says nothing
    // about whether Trump won. A leading time or place ("In 1911 Curie received …") is skipped.
    let subject = ev.iter().find(|e| e.text.chars().any(char::is_alphabetic));
    match subject {
        Some(e) if crate::claims::opens_sentence(sentence, e.start) => {
            let m = Mentions::new(&e.text);
            m.mentions(&first.text) || Mentions::new(&first.text).mentions(&e.text)
        }
        // Elsewhere in the sentence, the claim's name or a shorter form of it ("the Great Wall" for
        // "the Great Wall of China").
        _ => {
            Mentions::new(sentence).mentions(&first.text)
                || ev.iter().any(|e| e.text.chars().any(char::is_alphabetic) && Mentions::new(&first.text).mentions(&e.text))
        }
    }
}

/// Words by which a text reports a belief in order to deny it.
/// An adverb alone ("wrongly convicted") does not deny the event, only its justice: it is a cue
/// only before a verb of belief or report ("falsely believed", "mistakenly attributed").
const DENIAL_CUES: &[&str] = &["misconception", "myth", "contrary to", "is not true", "untrue", "debunked", "misbelief"];
const DENIAL_ADVERBS: &[&str] = &["falsely", "wrongly", "erroneously", "mistakenly", "incorrectly"];
const BELIEF_VERBS: &[&str] = &[
    "believed",
    "thought",
    "claimed",
    "said",
    "reported",
    "assumed",
    "attributed",
    "stated",
    "described",
    "credited",
    "believe",
    "think",
    "claim",
    "assume",
];

/// Words by which a claim reports a belief rather than stating it.
const REPORTED_BELIEF: &[&str] = &[
    "described",
    "considered",
    "thought",
    "believed",
    "claimed",
    "regarded",
    "classified",
    "assumed",
    "misconception",
    "myth",
    "attributed",
    "credited",
    "mistaken",
    "mistakenly",
];

/// The denial cue the sentence uses, if any.
fn denial_cue(sentence_lower: &str) -> Option<String> {
    if let Some(cue) = DENIAL_CUES.iter().find(|cue| sentence_lower.contains(*cue)) {
        return Some(cue.to_string());
    }
    let words: Vec<&str> = sentence_lower.split(|c: char| !c.is_alphabetic()).filter(|w| !w.is_empty()).collect();
    words.windows(2).find(|w| DENIAL_ADVERBS.contains(&w[0]) && BELIEF_VERBS.contains(&w[1])).map(|w| w.join(" "))
}

/// The evidence sentence presents the claim as a misconception ("A common misconception is that
/// seasons are caused by …"): entailing the claim from it means the evidence denies it.
fn denial(claim: &str, sentence: &str, si: usize) -> Option<Conflict> {
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

/// Words that set two clauses of one sentence against each other ("Phobos is spiralling toward
/// Mars, while Deimos is moving away"): what one clause says of its subject, the other denies of its own.
const CONTRAST_CUES: &[&str] = &[", while ", ", whereas ", " whereas ", "; ", ", but ", ", unlike "];

/// The claim says of its subject what the evidence sentence says of another name, in a clause set
/// against the subject's own ("Deimos is slowly spiralling inward" against "Phobos is gradually
/// spiralling toward Mars, while Deimos is slowly moving away"): the model, reading the whole
/// sentence, entails the claim by its words. The probe is the claim about the other name.
fn contrasted_subject(claim: &str, sentence: &str, si: usize) -> Option<Conflict> {
    let subject = entities::extract(claim).into_iter().next().filter(|e| crate::claims::opens_sentence(claim, e.start))?;
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
    // Each clause with the name it opens with (past its cue word: "while Deimos is …").
    let clauses: Vec<(&str, Option<entities::Entity>)> = bounds
        .windows(2)
        .map(|w| {
            let clause = sentence[w[0]..w[1]].trim_start_matches([',', ';', ' ']);
            let body = clause
                .split_once(' ')
                .filter(|(cue, _)| ["while", "whereas", "but", "unlike"].contains(&cue.to_lowercase().as_str()))
                .map_or(clause, |(_, rest)| rest);
            let name = entities::extract(body).into_iter().next().filter(|e| crate::claims::opens_sentence(body, e.start));
            (body, name)
        })
        .collect();
    let claim_words: Vec<String> = {
        let names = Mentions::new(&subject.text);
        // Manner adverbs ("slowly") are left out: both clauses of a contrast may share them; what
        // is set against what is the verbs and their objects.
        content_words(claim).into_iter().filter(|w| !names.contains_word(w) && !(w.len() > 4 && w.ends_with("ly"))).collect()
    };
    let overlap = |clause: &str| {
        let have = Mentions::new(clause);
        claim_words.iter().filter(|w| have.contains_word(w)).count()
    };
    let own = clauses.iter().position(|(_, name)| name.as_ref().is_some_and(|n| Mentions::new(&n.text).mentions(&subject.text)))?;
    let own_overlap = overlap(clauses[own].0);
    let claim_names = Mentions::new(claim);
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

/// Words that make a relation between two names hold both ways: the names swapped say the same.
const SYMMETRIC_LINKS: &[&str] = &[
    "and",
    "or",
    "with",
    "against",
    "versus",
    "vs",
    "between",
    "beside",
    "near",
    "alongside",
    "together",
    "like",
    "married",
    "marries",
    "met",
    "meets",
    "tied",
    "drew",
    "fought",
    "played",
    "faced",
    "borders",
    "bordered",
    "neighbours",
    "neighbors",
    "partnered",
    "collaborated",
    "shared",
    "equals",
    "equal",
    "same",
    "similar",
    "debated",
    "resembles",
    "adjacent",
    "next",
];

/// The lower-case words of a stretch of text, less articles: what two relations are compared by.
fn relation_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !["the", "a", "an"].contains(&w.to_lowercase().as_str()))
        .map(str::to_lowercase)
        .collect()
}

/// Two names of the claim in the other order in the evidence: who did what to whom ("France took
/// over from the United States" against "The United States took over from France").
fn swapped_names(claim: &str, sentence: &str, si: usize) -> Option<Conflict> {
    let names: Vec<entities::Entity> =
        entities::extract(claim).into_iter().filter(|e| !e.text.chars().any(|c| c.is_ascii_digit())).collect();
    let ev = Mentions::new(sentence);
    let lower = sentence.to_lowercase();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            let (a, b) = (&names[i], &names[j]);
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

// ---------------------------------------------------------------------------------------------
// Names in the same role

/// Two names of one kind: the claim's has several words and ends in the other's last word ("the
/// Eastern Time Zone", "the Central Time Zone"; "the Pacific Ocean", "the Atlantic Ocean").
pub fn same_kind(claim_name: &str, other: &str) -> bool {
    claim_name.contains(' ') && claim_name.split_whitespace().last() == other.split_whitespace().last()
}

/// A name of the claim the evidence lacks, where the best sentence has another name in the same
/// role ("founded in Seattle" vs "founded in Albuquerque"; "the Pacific Ocean" vs "the Atlantic Ocean").
fn names(claim: &str, sentence: &str, si: usize, all: &Mentions) -> Vec<Conflict> {
    let mut out = Vec::new();
    let ev = entities::extract(sentence);
    let claim_names = entities::extract(claim);
    let claim_mentions = Mentions::new(claim);
    for (ci, c) in claim_names.iter().enumerate() {
        let person = crate::claims::is_person_like(&c.text, claim, c.start);
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
                && crate::claims::is_person_like(&c.text, claim, c.start)
                && crate::claims::is_person_like(&e.text, sentence, e.start);
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
    use super::*;

    #[test]
    fn the_antonym_file_reads_whole_and_both_ways() {
        let text = include_str!("../data/antonyms.tsv");
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

    fn v(text: &str) -> Vec<String> {
        values(text).into_iter().map(|v| v.text).collect()
    }

    fn ev(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn unlinked_names(claim: &str, passages: &[String]) -> Option<(String, String)> {
        PassageLinks::new(passages).unlinked(claim)
    }

    #[test]
    fn a_claim_about_the_name_a_contrast_sets_apart_is_probed_with_the_other_name() {
        let sentence = "Phobos is gradually spiralling toward Mars and may collide with it, while Deimos is slowly moving away.";
        let c = contrasted_subject("Deimos is slowly spiralling inward.", sentence, 0).expect("the spiralling is Phobos'");
        assert_eq!(
            (c.claim_says.as_str(), c.source_says.as_str(), c.probe.as_str()),
            ("Deimos", "Phobos", "Phobos is slowly spiralling inward.")
        );
        // What the sentence says of the claim's own subject, or a sentence without a contrast: no conflict.
        assert!(contrasted_subject("Deimos is slowly moving away.", sentence, 0).is_none());
        assert!(contrasted_subject("Phobos is spiralling toward Mars.", sentence, 0).is_none());
        assert!(contrasted_subject("Deimos is slowly spiralling inward.", "Phobos and Deimos are both spiralling inward.", 0).is_none());
        // Letters whose lower case is longer ("İ") leave the cuts on the sentence's own boundaries.
        assert!(contrasted_subject("Deimos is in İzmir.", "İİİ Phobos is in İzmir, while Deimos is in Ankara.", 0).is_some());
        let but = "Alice Smith won the gold medal, but Bob Jones won silver.";
        assert_eq!(contrasted_subject("Bob Jones won the gold medal.", but, 0).map(|c| c.source_says), Some("Alice Smith".to_string()));
    }

    #[test]
    fn names_in_passages_nothing_links_are_unlinked() {
        let claim = "The contained place of Keith Moon's nationality is University of Reading.";
        let apart = ev(&[
            "Keith Moon, English musician, acted in Tommy.",
            "England includes University of Reading. It is governed as a constitutional monarchy.",
        ]);
        let (a, b) = unlinked_names(claim, &apart).expect("no passage joins Keith Moon to the University of Reading");
        assert_eq!((a.as_str(), b.as_str()), ("Keith Moon", "University of Reading"));
        // The bridge named in both passages links them, as in a chain the sources state whole.
        let bridged = ev(&["Keith Moon holds the nationality of England.", "England includes University of Reading."]);
        assert_eq!(unlinked_names(claim, &bridged), None);
        // Through a third passage: Get Carter (1) - Morgan Creek (2) - …; Elie Samaha only in (3).
        let claim = "Get Carter was produced by Elie Samaha.";
        let three = ev(&[
            "Get Carter is classed as action film.",
            "Get Carter was produced by Morgan Creek Productions.",
            "Elie Samaha holds the nationality of Lebanon.",
        ]);
        assert!(unlinked_names(claim, &three).is_some());
        let chained = ev(&[
            "Get Carter is classed as action film.",
            "Get Carter was produced by Morgan Creek Productions.",
            "Morgan Creek Productions was run by Elie Samaha.",
        ]);
        assert_eq!(unlinked_names(claim, &chained), None);
    }

    #[test]
    fn one_passage_a_shared_topic_or_an_unnamed_name_is_no_unlinked_pair() {
        let claim = "Rick Scott attended Southern Methodist University.";
        assert_eq!(unlinked_names(claim, &ev(&["Rick Scott went to law school at Southern Methodist University."])), None);
        // Two passages about one subject: the subject links them.
        let topic = ev(&["Rick Scott was governor of Florida.", "Scott earned a law degree from Southern Methodist University."]);
        assert_eq!(unlinked_names(claim, &topic), None);
        // A title is part of its passage ("Southern Methodist University — Wikipedia").
        let titled = ev(&["Rick Scott was governor of Florida.", "Southern Methodist University. Its alumni include Rick Scott."]);
        assert_eq!(unlinked_names(claim, &titled), None);
        // A title that is a number links the passages about it.
        let claim = "2046 is a production of Hong Kong and counts Wong Kar-wai among its producers.";
        let titled =
            ev(&["2046 was produced in Hong Kong.", "2046 was released in United States of America. 2046 was produced by Wong Kar-wai."]);
        assert_eq!(unlinked_names(claim, &titled), None);
        // Two names of one thing, and a list of names, need no link.
        let amoc = ev(&["The AMOC moves warm water north.", "Atlantic Meridional Overturning Circulation is a system of currents."]);
        assert_eq!(unlinked_names("AMOC stands for Atlantic Meridional Overturning Circulation.", &amoc), None);
        let list = "Sources include the National Institutes of Health (NIH), the Centers for Disease Control (CDC) and the Mayo Clinic.";
        let one_each = ev(&["The NIH funds asthma research.", "The CDC tracks asthma.", "The Mayo Clinic treats asthma."]);
        assert_eq!(unlinked_names(list, &one_each), None);
        // A name no passage gives is another check's business (a fact the evidence lacks).
        let absent = ev(&["Rick Scott was governor of Florida.", "The university is in Dallas."]);
        assert_eq!(unlinked_names(claim, &absent), None);
    }

    #[test]
    fn a_name_of_the_same_kind_is_the_rival_before_one_in_the_same_role() {
        let c = check(
            "East Orange is in the Eastern Time Zone.",
            &ev(&["East Orange, city in Essex County, New Jersey, United States, is in the Central Time Zone."]),
        );
        let names: Vec<&str> = c.conflicts.iter().filter(|x| x.kind == CheckKind::Name).map(|x| x.source_says.as_str()).collect();
        assert_eq!(names, ["Central Time Zone"], "{c:?}");
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
        assert!(check("Its 1,280-metre main span was the longest.", &ev(&["Its main span of 1,280 metres was the longest."]))
            .all_values_match());
        assert!(check("At 31, she became the youngest nominee.", &ev(&["The 31-year-old became the youngest nominee."])).all_values_match());
        let c = check("Its main span is 486 metres long.", &ev(&["With a main span of 486.3 metres, it was the longest."]));
        assert!(c.conflicts.is_empty() && c.all_values_match(), "{c:?}");
        let c = check("The tower is about 330 metres tall.", &ev(&["It stands 1,083 ft tall."]));
        assert!(c.conflicts.is_empty() && c.all_values_match(), "{c:?}");
        let c = check("The wall is about 21,000 kilometres long.", &ev(&["The wall measures 21,196 kilometres."]));
        assert!(c.all_values_match(), "{c:?}");
        let c = check(
            "It opened in 1883 after 13 years of construction.",
            &ev(&["Construction began in 1870 and the bridge opened on May 24, 1883."]),
        );
        assert!(c.all_values_match(), "{c:?}");
        let c = check("The war lasted from 1914 to 1918.", &ev(&["World War I was fought from 28 July 1914 to 11 November 1918."]));
        assert!(c.all_values_match(), "{c:?}");
    }

    #[test]
    fn different_values_in_the_same_place_conflict() {
        let c = check("The bridge opened on May 25, 1883.", &ev(&["The bridge opened on May 24, 1883."]));
        assert_eq!(c.conflicts.len(), 1);
        assert_eq!(c.conflicts[0].probe, "The bridge opened on May 24, 1883.");
        let c = check("Biden received 232 electoral votes.", &ev(&["Biden received 306 electoral votes to Trump's 232."]));
        assert!(c.conflicts.iter().any(|x| x.source_says == "306" && x.same_role), "{c:?}");
        let c = check("It has 136 floors.", &ev(&["It stands 828 metres tall and has 163 floors."]));
        assert_eq!(c.conflicts[0].probe, "It has 163 floors.");
    }

    #[test]
    fn a_date_alike_but_for_one_part_is_in_the_same_place() {
        let c = check(
            "The tower was completed on 31 March 1899.",
            &ev(&["Work was completed on 31 March 1889, and it opened on 15 May 1889."]),
        );
        let same: Vec<(&str, bool)> = c.conflicts.iter().map(|x| (x.source_says.as_str(), x.same_role)).collect();
        assert!(same.contains(&("31 March 1889", true)) && same.contains(&("15 May 1889", false)), "{same:?}");
    }

    #[test]
    fn a_date_given_less_precisely_is_no_conflict() {
        // The evidence gives the month and year, or the day without the year: nothing denies the claim.
        let c = check("It aired on March 4, 2019, in Australia.", &ev(&["It premiered in March 2019.", "Filming ended in June 2018."]));
        assert!(c.conflicts.is_empty(), "{c:?}");
        let c =
            check("The album came out on April 9, 2011.", &ev(&["The album came out on April 9.", "The tour began on February 22, 2011."]));
        assert!(c.conflicts.is_empty(), "{c:?}");
        // A different day of the same month still conflicts.
        let c = check("The album came out on April 9, 2011.", &ev(&["The album came out on April 19, 2011."]));
        assert_eq!(c.conflicts.len(), 1, "{c:?}");
    }

    #[test]
    fn season_spans_and_lists_are_no_conflicts() {
        let c = check(
            "The name change takes place during the 2018–19 academic year.",
            &ev(&["The new name is used from the 2018–19 academic year, starting on 4 September 2018."]),
        );
        assert!(c.conflicts.is_empty(), "{c:?}");
        let c = check(
            "Glossopteris fossils occur in Australia, New Zealand and India.",
            &ev_one("Glossopteris fossils are found in India, Australia and New Zealand."),
        );
        assert!(!c.conflicts.iter().any(|x| x.kind == CheckKind::Name), "{c:?}");
        let c = check("The species had been described as a subspecies.", &ev_one("It was falsely assumed to be a subspecies."));
        assert!(!c.conflicts.iter().any(|x| x.denial), "{c:?}");
    }

    #[test]
    fn converses_and_negations_on_both_sides_are_the_same_polarity() {
        let c = check(
            "Mandela spent 27 years in prison before his release in 1990.",
            &ev_one("Mandela was released in 1990 after 27 years in prison."),
        );
        assert!(!c.conflicts.iter().any(|x| x.kind == CheckKind::Polarity), "{c:?}");
        let c = check(
            "Switzerland does not belong to the European Union.",
            &ev_one("Switzerland is not a member of the European Union and is not in the eurozone."),
        );
        assert!(!c.conflicts.iter().any(|x| x.kind == CheckKind::Polarity), "{c:?}");
        let c = check("Switzerland belongs to the European Union.", &ev_one("Switzerland is not a member of the European Union."));
        assert!(c.conflicts.iter().any(|x| x.negated == Some(Side::Source)), "{c:?}");
    }

    #[test]
    fn an_antonym_after_the_same_verb_is_in_the_same_role() {
        let c = check("Cheetahs usually hunt at night.", &ev_one("Cheetahs hunt mostly in daylight."));
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Polarity && x.same_role), "{c:?}");
        // Nothing shared around it: an opposite somewhere else in the sentence.
        let c = check("Owls sleep at night.", &ev_one("Owls are rarely seen by day because they rest in daylight."));
        assert!(!c.conflicts.iter().any(|x| x.same_role), "{c:?}");
    }

    #[test]
    fn a_relation_with_its_ends_swapped_word_for_word_excludes_the_claim() {
        let c = check(
            "France took over the project from the United States in 1904.",
            &ev_one("The United States took over the project from France in 1904."),
        );
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Name && x.exclusive), "{c:?}");
        let c = check("The ship sailed from New York to Southampton.", &ev_one("The ship sailed from Southampton to New York."));
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Name && x.exclusive), "{c:?}");
        // A relation that holds both ways says the same in either order.
        let c = check("Marie married Pierre Curie in 1895.", &ev_one("Pierre Curie married Marie in 1895."));
        assert!(!c.conflicts.iter().any(|x| x.exclusive), "{c:?}");
        // Other words between the names: a swapped order the model has to weigh, not excluded by rule.
        let c = check("Tesla bought SolarCity from Musk.", &ev_one("Musk sold SolarCity to Tesla."));
        assert!(!c.conflicts.iter().any(|x| x.exclusive), "{c:?}");
    }

    #[test]
    fn only_a_belief_called_false_is_a_denial() {
        let c = check("Peruggia was convicted of the theft.", &ev_one("Peruggia was wrongly convicted of the theft."));
        assert!(!c.conflicts.iter().any(|x| x.denial), "{c:?}");
        let c = check("Edison invented the light bulb.", &ev_one("Edison is often falsely credited with inventing the light bulb."));
        assert!(c.conflicts.iter().any(|x| x.denial), "{c:?}");
    }

    #[test]
    fn a_year_inside_a_name_does_not_date_the_claim() {
        let ev = ev(&["Tokyo hosted the 2020 Summer Olympics, which were postponed and held in 2021."]);
        let c = check("Tokyo hosted the Olympics in 2020.", &ev);
        assert!(c.conflicts.iter().any(|x| x.source_says == "2021"), "{c:?}");
        // Alone in its sentence, the name's year still states it.
        let c = check("Curie shared the Nobel Prize in 1903.", &ev_one("She shared the 1903 Nobel Prize in Physics."));
        assert!(c.all_values_match(), "{c:?}");
    }

    fn ev_one(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn a_rank_given_otherwise_for_the_same_thing_conflicts() {
        let c = check(
            "Jupiter is the fourth planet from the Sun.",
            &ev(&["Jupiter is the fifth planet from the Sun and the largest in the Solar System."]),
        );
        let x = c.conflicts.iter().find(|x| x.kind == CheckKind::Number).expect("a rank conflict");
        assert_eq!((x.claim_says.as_str(), x.source_says.as_str()), ("fourth planet", "fifth planet"));
        assert_eq!(x.probe, "Jupiter is the fifth planet from the Sun.");
        let c = check("It was the 3rd-largest city.", &ev(&["It was the second-largest city."]));
        assert!(c.conflicts.iter().any(|x| x.probe == "It was the second-largest city."), "{c:?}");
        // Ranks of different things, or the claim's rank also given, are no conflict.
        let c = check("Its first car was the Roadster.", &ev(&["Its second model was the Model S; its first car was the Roadster."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Number), "{c:?}");
        let c = check("It was the second edition.", &ev(&["The first printing sold out."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Number), "{c:?}");
        // A name between the rank and its noun: "second World Cup title" ranks titles.
        let c = check(
            "It was France's first title.",
            &ev(&["The victory gave France its second World Cup title, after its first win on home soil in 1998."]),
        );
        let x = c.conflicts.iter().find(|x| x.kind == CheckKind::Number).expect("a rank conflict");
        assert_eq!((x.claim_says.as_str(), x.source_says.as_str()), ("first title", "second title"));
    }

    #[test]
    fn a_negation_reaches_to_the_end_of_its_clause() {
        // The second negation of the sentence denies the claim's predicate.
        let c = check(
            "Switzerland adopted the euro in 2002.",
            &ev(&["Switzerland is not a member of the European Union, and it has not adopted the euro."]),
        );
        let neg = c.conflicts.iter().find(|x| x.negated == Some(Side::Source)).expect("a source negation");
        assert!(neg.same_role, "{neg:?}");
        assert_eq!(neg.source_says, "has not adopted the euro");
        // "refused to concede and filed …": only "concede" is negated.
        let c = check("Trump conceded the election.", &ev(&["Trump refused to concede and filed dozens of lawsuits."]));
        assert!(c.conflicts.iter().any(|x| x.negated == Some(Side::Source) && x.same_role), "{c:?}");
        assert_eq!(negation_reach("He refused to concede and filed lawsuits.", "He filed lawsuits."), None);
        // Temporal and partial negations deny nothing the claim states.
        let c = check("The bridge opened in 1883.", &ev(&["The bridge did not open until 1883."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        let c = check("The museum is open on Sundays.", &ev(&["The museum is no longer open on Mondays."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        // An answer that states the exception agrees with the negation.
        let c = check("It is open every day except Mondays.", &ev(&["It is not open on Mondays."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        // Another subject's negation stands alone only when the sentence names the claim's opener.
        let c = check("The museum is open on Mondays.", &ev(&["The library is not open on Mondays."]));
        assert!(c.conflicts.iter().all(|x| !(x.negated == Some(Side::Source) && x.same_role)), "{c:?}");
        // A shorter form of the claim's name is the same subject.
        let c = check(
            "The Great Wall of China is visible to the naked eye from orbit.",
            &ev(&["Contrary to a popular myth, the Great Wall is not visible to the naked eye from low Earth orbit."]),
        );
        assert!(c.conflicts.iter().any(|x| x.negated == Some(Side::Source) && x.same_role), "{c:?}");
    }

    #[test]
    fn polarity_and_names() {
        let c =
            check("The Brooklyn Bridge was never open to pedestrians.", &ev(&["The Brooklyn Bridge carries vehicles and pedestrians."]));
        assert_eq!(c.conflicts[0].probe, "The Brooklyn Bridge was open to pedestrians.");
        let c = check("Earth is farthest from the Sun in early January.", &ev(&["Earth is closest to the Sun in early January."]));
        assert!(c.conflicts.iter().any(|x| x.probe == "Earth is closest from the Sun in early January."), "{c:?}");
        // Another subject's win says nothing of this one's.
        let c = check("Trump lost the popular vote.", &ev(&["Joe Biden won the popular vote, defeating Donald Trump."]));
        assert!(c.conflicts.iter().all(|x| x.kind != CheckKind::Polarity), "{c:?}");
        // A contrast on a name is not a negated verb.
        assert_eq!(without_negation("The capital is Canberra, not Sydney."), None);
        let c = check("The company was founded in Seattle.", &ev(&["Microsoft was founded on April 4, 1975, in Albuquerque, New Mexico."]));
        assert!(c.conflicts.iter().any(|x| x.kind == CheckKind::Name && x.source_says == "Albuquerque"), "{c:?}");
    }
}
