//! The numbers and dates of a text (units, rounding, "about", partial dates), and its content
//! words: what the typed checks and the decisions compare, parsed once per text (`Analysed`).

use std::sync::OnceLock;

use regex::Regex;

use crate::text::entities;
use crate::text::words::{self, WordList};

pub(crate) static STOPWORDS: WordList = WordList::new(|| words::list("stopwords"));

pub fn content_words(text: &str) -> Vec<String> {
    entities::norm_words(text).into_iter().filter(|w| w.len() > 2 && !STOPWORDS.contains(&w.as_str())).collect()
}

/// A number or date found in a text.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub text: String,
    pub start: usize,
    pub end: usize,
    /// The number (a date's year when it has one).
    pub number: f64,
    /// What it measures or counts: a date, a year, a span of years, a unit, a counted noun.
    pub unit: Option<ValueUnit>,
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

/// What a value measures or counts. Two units are the same when their names are (`name`).
#[derive(Debug, Clone)]
pub enum ValueUnit {
    /// A date with a month and a day or a year ("24 May 1883", "May 1883", "May 24").
    Date,
    /// A bare year that dates what the sentence says ("opened in 1883").
    YearOf,
    /// A span of years ("13 years").
    YearSpan,
    /// A unit of measure, normalised ("metre", "percent", "hour").
    Measure(&'static str),
    /// The noun a bare number counts, normalised ("306 electoral votes" → "vote").
    Counted(String),
}

impl ValueUnit {
    /// The unit's name, as the unit table (`UNITS`) and the word lists know it.
    pub fn name(&self) -> &str {
        match self {
            ValueUnit::Date => "date",
            ValueUnit::YearOf => "year_of",
            ValueUnit::YearSpan => "year_span",
            ValueUnit::Measure(name) => name,
            ValueUnit::Counted(noun) => noun,
        }
    }

    /// A date or a year: too common to show that two texts speak of the same thing.
    pub fn is_calendar(&self) -> bool {
        matches!(self, ValueUnit::Date | ValueUnit::YearOf) || self.name() == "year"
    }
}

impl PartialEq for ValueUnit {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Value {
    pub(crate) fn is_date(&self) -> bool {
        self.month.is_some() || self.unit == Some(ValueUnit::YearOf)
    }

    fn family(&self) -> Option<&'static str> {
        let u = self.unit.as_ref()?.name();
        UNITS.iter().find(|(name, _, _)| *name == u).map(|(_, fam, _)| *fam)
    }

    /// Values that could fill the same place: dates with dates, years with years, numbers of one
    /// unit family (or both without a unit).
    pub(crate) fn comparable(&self, other: &Value) -> bool {
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
    pub(crate) fn agrees(&self, other: &Value) -> bool {
        if !(self.is_date() && other.is_date()) {
            return self.matches(other);
        }
        let parts = self.date_parts_agree(other);
        let shares_month_or_year = parts[0] == Some(true) || parts[1] == Some(true);
        shares_month_or_year && parts.iter().all(|p| *p != Some(false))
    }

    /// Two full dates alike but for one part ("31 March 1899" against "31 March 1889"): the same
    /// date, written or remembered wrongly.
    pub(crate) fn differs_in_one_part(&self, other: &Value) -> bool {
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
    pub(crate) fn matches(&self, other: &Value) -> bool {
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

pub(crate) fn round_sig(x: f64, sig: u32) -> f64 {
    if x == 0.0 || sig == 0 {
        return x;
    }
    let mag = x.abs().log10().floor() as i32;
    let factor = 10f64.powi(sig as i32 - 1 - mag);
    (x * factor).round() / factor
}

/// (unit as normalised, family, scale to the family's base).
pub(crate) static UNITS: std::sync::LazyLock<&'static [(&'static str, &'static str, f64)]> =
    std::sync::LazyLock::new(crate::text::words::units);

pub(crate) fn unit_of(word: &str, next: &str) -> Option<(&'static str, bool)> {
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
    let key = w.trim_end_matches('.').trim_start_matches('-');
    let u = UNIT_ALIASES.iter().find(|(alias, _)| *alias == key).map(|(_, unit)| *unit)?;
    Some((u, false))
}

/// (how a text writes a unit, the unit as `UNITS` names it).
static UNIT_ALIASES: std::sync::LazyLock<&'static [(&'static str, &'static str)]> =
    std::sync::LazyLock::new(crate::text::words::unit_aliases);

pub(crate) static MONTHS: WordList = WordList::new(|| words::list("months"));

pub(crate) fn month_of(w: &str) -> Option<u32> {
    let l = w.to_lowercase();
    let l = l.trim_end_matches('.');
    MONTHS
        .iter()
        .position(|m| *m == l || (l.len() >= 3 && m.starts_with(l) && l != "mar" && l != "may" || l == "mar" && *m == "march"))
        .map(|i| i as u32 + 1)
}

pub(crate) static NUMBER_WORDS: std::sync::LazyLock<&'static [(&'static str, f64)]> =
    std::sync::LazyLock::new(crate::text::words::number_words);

pub(crate) static APPROX: WordList = WordList::new(|| words::list("approx"));

pub(crate) fn token_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[\p{L}%°]+(?:['’]s)?|-[\p{L}]+").expect("static regex"))
}

/// Numbers, years and dates in `text`, in order.
pub fn values(text: &str) -> Vec<Value> {
    let toks: Vec<Token> = token_re().find_iter(text).map(|m| (m.start(), m.end(), m.as_str())).collect();
    let mut out: Vec<Value> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if counts_nothing(text, &toks, i) {
            i += 1;
            continue;
        }
        if let Some((v, next)) = date_at(text, &toks, i) {
            // "24 May 1883": the day read before as a number is the date's.
            if v.start != toks[i].0 {
                out.retain(|o| o.start != v.start);
            }
            out.push(v);
            i = next;
            continue;
        }
        match quantity_at(text, &toks, i) {
            Some((v, next)) => {
                out.extend(v);
                i = next;
            }
            None => i += 1,
        }
    }
    out
}

/// A token of `values`' text: (start, end, text).
type Token<'a> = (usize, usize, &'a str);

fn is_num(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// Significant digits of a written number ("1,200" → 2, "1.50" → 3).
fn significant_digits(t: &str) -> u32 {
    let digits: String = t.chars().filter(|c| c.is_ascii_digit()).collect();
    let trimmed = if t.contains('.') {
        digits.trim_start_matches('0').to_string()
    } else {
        digits.trim_start_matches('0').trim_end_matches('0').to_string()
    };
    trimmed.len().max(1) as u32
}

/// A word of `APPROX` ("about", "nearly") stands right before byte `at`.
fn approx_before(text: &str, at: usize) -> bool {
    let before = text[..at].to_lowercase();
    let before = before.trim_end();
    APPROX.iter().any(|a| before.ends_with(a))
}

/// Digits at token `i` that are no value: a year span's second half ("the 2018–19 season"), or
/// digits joined to letters before them, part of a name ("C3", "KDM4", "M2").
fn counts_nothing(text: &str, toks: &[Token], i: usize) -> bool {
    let (s, _, t) = toks[i];
    if !is_num(t) {
        return false;
    }
    let year_span_end =
        t.len() == 2 && i > 0 && toks[i - 1].2.len() == 4 && is_num(toks[i - 1].2) && ["-", "–", "/"].contains(&&text[toks[i - 1].1..s]);
    year_span_end || text[..s].chars().next_back().is_some_and(char::is_alphabetic)
}

/// A date at token `i` (a capitalised month name): "24 May 1883", "May 24, 1883", "May 1883",
/// "May 24"; with the index of the token after it. A month without day or year is no date.
fn date_at(text: &str, toks: &[Token], i: usize) -> Option<(Value, usize)> {
    let (s, e, t) = toks[i];
    let m = month_of(t).filter(|_| t.chars().next().is_some_and(char::is_uppercase))?;
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
    if day.is_none() && year.is_none() {
        return None;
    }
    let value = Value {
        text: text[start..end].to_string(),
        start,
        end,
        number: year.unwrap_or(0) as f64,
        unit: Some(ValueUnit::Date),
        scale: 1.0,
        significant: 4,
        approximate: false,
        day,
        month: Some(m),
        year,
        in_name: false,
    };
    Some((value, j))
}

/// A number at token `i` (digits, or a number word that counts something: "seven million votes",
/// "six hours"), with its multipliers and unit, and the index of the token after it; `None` when the
/// token is no number, `Some((None, _))` for a number word that counts nothing ("one of the").
fn quantity_at(text: &str, toks: &[Token], i: usize) -> Option<(Option<Value>, usize)> {
    let (s, e, t) = toks[i];
    let word_number = NUMBER_WORDS.iter().find(|(w, _)| *w == t.to_lowercase()).map(|(_, n)| *n);
    let mut n = if is_num(t) { t.replace(',', "").parse::<f64>().ok() } else { word_number }?;
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
    let unit =
        unit_of(next, after_next).filter(|_| toks.get(j).is_some_and(|x| text[end..x.0].trim().is_empty() || text[end..x.0].trim() == "-"));
    if plain_year && unit.is_none() {
        let value = Value {
            text: t.to_string(),
            start: s,
            end: e,
            number: n,
            unit: Some(ValueUnit::YearOf),
            scale: 1.0,
            significant: 4,
            approximate: false,
            day: None,
            month: None,
            year: Some(n as i32),
            in_name: toks.get(i + 1).is_some_and(|x| x.2.chars().next().is_some_and(char::is_uppercase) && text[e..x.0].trim().is_empty()),
        };
        return Some((Some(value), i + 1));
    }
    if !is_num(t) && unit.is_none() && end == e {
        return Some((None, i + 1)); // "one of the", "half of": not a quantity
    }
    let (unit_name, scale, end) = match unit {
        Some((u, two)) => {
            let k = if two { j + 1 } else { j };
            let scale = UNITS.iter().find(|(name, _, _)| *name == u).map(|(_, _, s)| *s).unwrap_or(1.0);
            let unit = if u == "year_span" { ValueUnit::YearSpan } else { ValueUnit::Measure(u) };
            (Some(unit), scale, toks[k].1)
        }
        // The counted noun stands in for a unit ("306 electoral votes" vs "232 floors").
        None => (counted_noun(toks, j).map(ValueUnit::Counted), 1.0, end),
    };
    // "the 1903 Nobel Prize": a year used as a modifier is still a year.
    let significant = if is_num(t) { significant_digits(t) } else { 1 };
    let value = Value {
        text: text[s..end].to_string(),
        start: s,
        end,
        number: n,
        unit: unit_name,
        scale,
        significant,
        approximate: approx_before(text, s),
        day: None,
        month: None,
        year: None,
        in_name: false,
    };
    Some((Some(value), toks.iter().position(|x| x.0 >= end).unwrap_or(toks.len())))
}

/// The noun a bare number counts ("306 electoral votes" → "vote"), normalised, as its unit.
pub(crate) fn counted_noun(toks: &[(usize, usize, &str)], j: usize) -> Option<String> {
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
