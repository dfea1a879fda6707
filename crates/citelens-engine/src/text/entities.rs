//! Entity-like spans (names, titles, numbers, dates) and whether a text mentions them.
//!
//! A light stand-in for NER: capitalised word runs (with inner connectors such as "of" or "the")
//! and tokens with digits. It is what lets a report mark the words a source lacks instead of the
//! whole sentence, and what links citations that share an entity.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::text::words::{self, WordList};
use regex::Regex;

#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    pub text: String,
    /// Byte range in the text it was found in.
    pub start: usize,
    pub end: usize,
}

fn word_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A word ends in a letter or digit: "'Oh What a Night'" names "Night", not "Night'".
    RE.get_or_init(|| Regex::new(r"[\p{L}\p{N}](?:[\p{L}\p{N}'’\-–]*[\p{L}\p{N}])?").expect("static regex"))
}

static CONNECTORS: WordList = WordList::new(|| words::list("connectors"));

/// Capitalised words that start sentences or questions without naming anything.
static NOT_NAMES: WordList = WordList::new(|| words::list("not_names"));

/// A text's first word, or a word after a sentence's end ("… 1883. Additionally, …"). (Not
/// `claims::opens_sentence`, which asks whether a name stands where a sentence's subject does.)
fn first_word_of_sentence(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end();
    before.is_empty() || before.ends_with(['.', '!', '?', ':', '\n', '"', '“'])
}

/// A sentence-opening adverb set off by a comma ("Additionally,", "Generally,", "Historically,"):
/// names rarely end in "-ly" and stand alone before a comma at a sentence's start.
fn opening_adverb(text: &str, start: usize, end: usize) -> bool {
    let word = &text[start..end];
    word.len() > 4 && word.ends_with("ly") && text[end..].starts_with(',') && first_word_of_sentence(text, start)
}

/// When one or two connectors at `j` lead to a name word, the index of that word.
fn connector_bridge(words: &[(usize, usize, &str)], j: usize, joined: &dyn Fn(usize, usize) -> bool) -> Option<usize> {
    let mut k = j;
    while k < words.len() && k - j < 2 && CONNECTORS.contains(&words[k].2) && words[k].2 != "and" && joined(k - 1, k) {
        k += 1;
    }
    (k > j && k < words.len() && is_name_word(words[k].2) && !NOT_NAMES.contains(&words[k].2) && joined(k - 1, k)).then_some(k)
}

fn is_name_word(w: &str) -> bool {
    let first = w.chars().next().unwrap_or(' ');
    first.is_uppercase() || w.chars().skip(1).any(char::is_uppercase) || w.chars().any(|c| c.is_ascii_digit())
}

/// Entity spans in `text`, in order.
pub fn extract(text: &str) -> Vec<Entity> {
    let words: Vec<(usize, usize, &str)> = word_re().find_iter(text).map(|m| (m.start(), m.end(), m.as_str())).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if !is_name_word(words[i].2) || NOT_NAMES.contains(&words[i].2) || opening_adverb(text, words[i].0, words[i].1) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        // Only spaces (or a colon, inside a title) may separate the words of one name.
        // An initial's full stop joins too ("John A. Roebling", "F. W. de Klerk").
        let joined = |a: usize, b: usize| {
            let gap = &text[words[a].1..words[b].0];
            gap.chars().all(|c| c == ' ' || c == ':')
                || (gap == ". " && words[a].2.chars().count() == 1 && words[a].2.chars().all(char::is_uppercase))
        };
        let is_number = |w: &str| w.chars().all(|c| c.is_ascii_digit());
        while j < words.len() {
            let (prev, word) = (words[j - 1].2, words[j].2);
            if is_name_word(word) && joined(j - 1, j) && !(is_number(prev) && !is_number(word)) {
                j += 1; // "Macintosh 128k", "July 8", "Remorse: The 14 Stories"
            } else if let Some(k) = connector_bridge(&words, j, &joined) {
                j = k + 1; // "University of Missouri", "Fiddler on the Roof"
            } else {
                break;
            }
        }
        let (start, end) = (words[i].0, words[j - 1].1);
        out.push(Entity { text: text[start..end].to_string(), start, end });
        i = j;
    }
    out
}

/// Lower-cased words with possessives and plural "s" taken off, for matching.
pub fn norm_words(text: &str) -> Vec<String> {
    word_re()
        .find_iter(text)
        .map(|m| {
            let mut w = m.as_str().to_lowercase().replace('’', "'");
            if let Some(stem) = w.strip_suffix("'s") {
                w = stem.to_string();
            }
            if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
                w.pop();
            }
            w
        })
        .collect()
}

/// A text's words, prepared once for many `mentions` checks.
pub struct Mentions {
    /// The text as given: the other names its things go by are read from it when first asked.
    text: String,
    words: Vec<String>,
    set: HashSet<String>,
    /// Built on the first `mentions` that the words alone do not answer: most checks never need it.
    other_names: OnceLock<OtherNames>,
}

/// The other names a text gives its things by: places by their people, names by their acronyms.
struct OtherNames {
    /// The text's words as a place's name may stand in a demonym ("canada", "canad"), for
    /// "Canadians" against a text about Canada.
    place_forms: HashSet<String>,
    /// The text's words as a demonym may stand for a place ("canadian" → "canad"), for "Canada"
    /// against a text about Canadians.
    demonym_roots: HashSet<String>,
    /// Acronyms the text writes ("US", "U.S." → "US") and the initials of its many-word names
    /// ("United States" → "US"): one thing under two names.
    acronyms: HashSet<String>,
    initials: HashSet<String>,
}

impl OtherNames {
    fn of(text: &str, set: &HashSet<String>) -> Self {
        OtherNames {
            place_forms: set.iter().flat_map(|w| place_forms(w)).collect(),
            demonym_roots: set.iter().flat_map(|w| demonym_roots(w)).collect(),
            acronyms: text.split(|c: char| !(c.is_alphanumeric() || c == '.')).filter_map(acronym).collect(),
            initials: extract(text).iter().filter_map(|e| initials_of(&e.text)).collect(),
        }
    }

    /// One word (lower-case, singular) the text names as a demonym of its place or a place of its
    /// demonym: a demonym's root among the text's place forms, or a place form among its demonym roots.
    fn names_as_demonym_or_place(&self, w: &str) -> bool {
        demonym_roots(w).iter().any(|r| self.place_forms.contains(r)) || place_forms(w).iter().any(|f| self.demonym_roots.contains(f))
    }

    /// A many-word name by its acronym, or an acronym by its name.
    fn names_by_acronym(&self, entity: &str) -> bool {
        initials_of(entity).is_some_and(|i| self.acronyms.contains(&i))
            || acronym(entity.trim()).is_some_and(|a| self.initials.contains(&a))
    }
}

/// Shortest root a demonym or place name is matched by: "Cuba"/"Cuban" ("cub") is left out so that
/// short names ("Dan", "Ivan") never match by their last letters.
const MIN_ROOT_CHARS: usize = 4;

/// Roots of a (lower-case, singular) word read as a demonym: "canadian" → "canad", "canadi";
/// "german" → "germ", "german"; "chinese" → "chin". Empty for a word that is none.
fn demonym_roots(w: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(r) = w.strip_suffix("ese") {
        out.push(r.to_string());
    }
    if let Some(r) = w.strip_suffix("ian") {
        out.push(r.to_string());
    }
    if let Some(r) = w.strip_suffix("an") {
        out.push(r.to_string());
        out.push(w.to_string()); // "german" for "Germany"
    }
    out.retain(|r| r.chars().count() >= MIN_ROOT_CHARS);
    out
}

/// Forms of a (lower-case) word read as a place's name: itself and, past `MIN_ROOT_CHARS`, without
/// its final vowel ("canada" → "canad", "germany" → "german", "mexico" → "mexic").
fn place_forms(w: &str) -> Vec<String> {
    let mut out = vec![w.to_string()];
    if let Some(r) = w.strip_suffix(['a', 'e', 'i', 'o', 'y']) {
        if r.chars().count() >= MIN_ROOT_CHARS {
            out.push(r.to_string());
        }
    }
    out
}

/// An acronym as written ("US", "U.S.", "NATO"), dots taken out; `None` for anything else.
fn acronym(word: &str) -> Option<String> {
    let bare: String = word.chars().filter(|&c| c != '.').collect();
    (bare.chars().count() >= 2 && bare.chars().all(|c| c.is_ascii_uppercase())).then_some(bare)
}

/// The capital initials of a many-word name ("United States of America" → "USA").
fn initials_of(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let initials: String = words.iter().filter_map(|w| w.chars().next()).filter(|c| c.is_uppercase()).collect();
    (words.len() >= 2 && initials.chars().count() >= 2).then_some(initials)
}

/// Whether name `a` mentions name `b` ("the Great Wall" of "the Great Wall of China" does not; the
/// other way it does), as `Mentions::mentions` reads a text.
pub fn name_mentions(a: &str, b: &str) -> bool {
    Mentions::new(a).mentions(b)
}

impl Mentions {
    pub fn new(text: &str) -> Self {
        let words = norm_words(text);
        let set = words.iter().cloned().collect();
        Mentions { text: text.to_string(), words, set, other_names: OnceLock::new() }
    }

    fn other_names(&self) -> &OtherNames {
        self.other_names.get_or_init(|| OtherNames::of(&self.text, &self.set))
    }

    /// Whether the text names `entity`: the whole phrase, for a two-word name its last word
    /// ("Jobs" for "Steve Jobs"), a place by its people or its people by the place ("Canadians",
    /// "Canada"), or a name by its acronym or an acronym by its name ("US", "United States").
    pub fn mentions(&self, entity: &str) -> bool {
        let want: Vec<String> = norm_words(entity).into_iter().filter(|w| !CONNECTORS.contains(&w.as_str())).collect();
        if want.is_empty() {
            return true;
        }
        let have: Vec<&String> = self.words.iter().filter(|w| !CONNECTORS.contains(&w.as_str())).collect();
        if have.windows(want.len()).any(|win| win.iter().zip(&want).all(|(a, b)| *a == b)) {
            return true;
        }
        if want.len() == 2 && want[1].chars().next().is_some_and(char::is_alphabetic) && self.set.contains(&want[1]) {
            return true;
        }
        let other = self.other_names();
        (want.len() == 1 && other.names_as_demonym_or_place(&want[0])) || other.names_by_acronym(entity)
    }

    /// Whether the text has every word of `entity` ("Atlantic Ocean" is not named by a text about
    /// the Pacific Ocean, though `mentions` would accept its last word as a surname).
    pub fn mentions_all(&self, entity: &str) -> bool {
        norm_words(entity).iter().filter(|w| !CONNECTORS.contains(&w.as_str())).all(|w| self.set.contains(w))
    }

    pub fn contains_word(&self, w: &str) -> bool {
        self.set.contains(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        extract(s).into_iter().map(|e| e.text).collect()
    }

    #[test]
    fn a_place_is_named_by_its_people_and_a_name_by_its_acronym() {
        let m = Mentions::new("Canada's population passed 40 million. About 90 percent lives within 160 km of the US border.");
        assert!(m.mentions("Canadians") && m.mentions("Canadian") && m.mentions("United States"));
        assert!(Mentions::new("Most Canadians live near the border.").mentions("Canada"));
        assert!(Mentions::new("The Germans invaded.").mentions("Germany") && Mentions::new("Chinese exports grew.").mentions("China"));
        assert!(Mentions::new("an Italian painter").mentions("Italy") && Mentions::new("Mexican food").mentions("Mexico"));
        assert!(
            Mentions::new("The United States of America signed.").mentions("USA")
                && Mentions::new("the U.S. Senate").mentions("United States")
        );
        // Names alike but for a last vowel or letters are other names; "us" is no acronym.
        assert!(!Mentions::new("Mario went home.").mentions("Maria"));
        assert!(!Mentions::new("Paula went home.").mentions("Paul"));
        assert!(!Mentions::new("Australia is large.").mentions("Austrians"));
        assert!(!Mentions::new("He told us about it.").mentions("United States"));
        assert!(!Mentions::new("Ivan left.").mentions("Iva"));
    }

    #[test]
    fn a_quoted_title_ends_at_its_last_word() {
        let names = texts("The Four Seasons sing 'Oh What a Night' in 1975.");
        assert!(names.contains(&"Night".to_string()) && names.iter().all(|n| !n.ends_with('\'')), "{names:?}");
    }

    #[test]
    fn finds_names_titles_and_numbers() {
        assert_eq!(
            texts("Rick Scott attended the University of Missouri–Kansas City and Southern Methodist University."),
            ["Rick Scott", "University of Missouri–Kansas City", "Southern Methodist University"]
        );
        assert_eq!(texts("The Puppetoon Movie is a 1987 film"), ["Puppetoon Movie", "1987"]);
        assert_eq!(texts("born on July 8, 1596 in Rome"), ["July 8", "1596", "Rome"]);
        assert_eq!(texts("designed by John A. Roebling and F. W. de Klerk"), ["John A. Roebling", "F. W. de Klerk"]);
    }

    #[test]
    fn sentence_openers_are_not_names() {
        assert_eq!(texts("Additionally, the psychologist can help. Generally, Kelly stores it in Italy."), ["Kelly", "Italy"]);
        assert_eq!(texts("Furthermore, drones can warn Sydney."), ["Sydney"]);
        assert_eq!(texts("Imagine a bridge in Brooklyn."), ["Brooklyn"]);
        // A name that happens to end in "-ly" and opens a sentence without a comma stays a name.
        assert_eq!(texts("Italy won in 2006."), ["Italy", "2006"]);
    }

    #[test]
    fn matches_phrases_surnames_and_plurals() {
        let m = Mentions::new("Several former Apple employees followed Jobs to NeXT. The Puppetoon Movie");
        assert!(m.mentions("Steve Jobs"));
        assert!(m.mentions("NeXT"));
        assert!(m.mentions("Puppetoons"));
        assert!(!m.mentions("Maryland Transportation Authority"));
        assert!(!m.mentions("George Pal"));
    }
}
