//! Atomic claims: a sentence cut into the facts it states, each read on its own by the model.
//!
//! Rules a reader can follow, applied in this order:
//! 1. a sentence-initial pronoun or definite description ("It", "Its", "He", "The bridge") is read as
//!    the entity it refers to (the previous sentence's subject, or the question's);
//! 2. a relative or appositive clause after a name ("Roebling, who also supervised …",
//!    "Tenzing Norgay, a Sherpa from Nepal, …") is its own claim about that name;
//! 3. coordinated clauses and verb phrases ("is X and was Y", "… in 2000 and Ballmer replaced him")
//!    are separate claims, the second keeping the first one's subject;
//! 4. coordinated names ("with Pierre Curie and Henri Becquerel") are separate claims, except ranges
//!    ("between 1887 and 1889") and a plural subject ("Pashto and Dari are the languages").
//!
//! No tagger or parser crate is used: the ones on crates.io either ship weights far over the
//! browser's budget or need a C library; these rules cover the shapes AI answers use and every claim
//! keeps the byte ranges (`Piece`s) of the sentence it came from.

use std::sync::OnceLock;

use regex::Regex;

use crate::text::entities;
use crate::text::segment::Piece;
use crate::text::words::{self, WordList};

/// One atomic claim: its text as the model reads it, and the sentence ranges it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub text: String,
    /// Byte ranges (in the text the sentence came from) that this claim consists of.
    pub parts: Vec<Piece>,
    /// The coordinated name this claim is about, when it came from splitting one.
    pub conjunct: Option<Piece>,
}

/// More claims than this from one sentence are not split further (bounds the model's work).
pub const MAX_CLAIMS_PER_SENTENCE: usize = 8;

/// What sentence-initial pronouns can refer to: updated sentence by sentence.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discourse {
    /// The last person named as a subject ("He", "She", "His", "Her").
    pub person: Option<String>,
    /// Every thing named as a subject so far, first one first: "The war" is the latest whose name
    /// has "War" in it; "The city" (a general type word) is the first, the answer's topic.
    pub things: Vec<String>,
    /// The last plural subject ("They", "Their"): names joined by "and" ("Edmund Hillary and Tenzing
    /// Norgay") or a plural noun phrase ("Giant pandas", "The Wright brothers").
    pub group: Option<String>,
}

impl Discourse {
    /// The last sentence subject that is a thing ("It", "Its").
    pub fn thing(&self) -> Option<&String> {
        self.things.last()
    }

    /// The question's subject starts the discourse ("When did the Brooklyn Bridge open?").
    pub fn from_question(question: &str) -> Self {
        let mut d = Discourse::default();
        // The question's subject: its first name, close to its start and not the object of "of"
        // ("When did the Brooklyn Bridge open?", not "What is the capital of Australia?").
        let names: Vec<entities::Entity> =
            entities::extract(question).into_iter().filter(|e| e.text.chars().any(char::is_alphabetic)).collect();
        // A name right after the question's auxiliary is its subject ("What prizes did Marie Curie win?").
        let after_aux = names.iter().find(|e| {
            let before: Vec<&str> = question[..e.start].split_whitespace().collect();
            let n = before.len();
            let aux = |w: &str| matches!(w, "did" | "does" | "do" | "is" | "was" | "are" | "were" | "has" | "have" | "had");
            (n >= 1 && aux(before[n - 1])) || (n >= 2 && aux(before[n - 2]) && before[n - 1] == "the")
        });
        if let Some(e) = after_aux.or(names.first()) {
            let before: Vec<&str> = question[..e.start].split_whitespace().collect();
            if before.len() <= 4 && before.last().is_none_or(|w| !w.eq_ignore_ascii_case("of")) {
                let article = article_before(question, e.start);
                d.note(&format!("{article}{}", strip_possessive(&e.text)), &e.text, question, e.start);
            }
        }
        d
    }

    fn note(&mut self, phrase: &str, name: &str, text: &str, at: usize) {
        if is_person_like(name, text, at) {
            self.person = Some(phrase.to_string());
        } else {
            // A fuller name of a thing already noted ("Pride and Prejudice" after a question's
            // "Pride") is that thing: the fuller name stands for it from now on, the topic included.
            let fuller = |t: &String| phrase.len() > t.len() && phrase.starts_with(t.as_str()) && phrase[t.len()..].starts_with(' ');
            if let Some(i) = self.things.iter().position(fuller) {
                self.things[i] = phrase.to_string();
                if i + 1 == self.things.len() {
                    return;
                }
            }
            self.things.push(phrase.to_string());
        }
    }

    /// Reads a sentence's plural subject, if it has one ("Edmund Hillary and Tenzing Norgay
    /// reached …"): the sentence as written, since its claims name each of them alone.
    pub fn note_group(&mut self, sentence: &str) {
        if let Some(group) = plural_subject(sentence) {
            self.group = Some(group);
        }
    }

    /// Reads one sentence (as the reader sees it, pronouns resolved): its subject becomes the referent.
    pub fn update(&mut self, sentence: &str) {
        self.note_group(sentence);
        let ents = entities::extract(sentence);
        if let Some(fi) = ents.iter().position(|e| e.text.chars().any(char::is_alphabetic)) {
            let title = names_joined_as_one(sentence, &ents, fi);
            let first = title.as_ref().unwrap_or(&ents[fi]);
            let lead = &sentence[..first.start];
            let lead_words: Vec<&str> = lead.split_whitespace().collect();
            let name = head_name(&first.text);
            if opens_sentence(sentence, first.start) && !starts_with_pronoun(sentence) {
                let article = article_before(sentence, first.start);
                self.note(&format!("{article}{name}"), &first.text, sentence, first.start);
                return;
            }
            // "The capital of Australia is Canberra": a description equated with a name names the referent.
            if lead_words.len() > 1 && !starts_with_pronoun(sentence) {
                for e in &ents {
                    let before: Vec<&str> = sentence[..e.start].split_whitespace().collect();
                    let n = before.len();
                    let after_is = (n >= 1 && matches!(before[n - 1], "is" | "was"))
                        || (n >= 2 && matches!(before[n - 2], "is" | "was") && before[n - 1] == "the");
                    if after_is && e.text.chars().any(char::is_alphabetic) {
                        let article = article_before(sentence, e.start);
                        self.note(&format!("{article}{}", head_name(&e.text)), &e.text, sentence, e.start);
                        return;
                    }
                }
            }
        }
        // No named subject: the referents stay (a place named later is no "she").
    }

    /// What a sentence-initial referring word stands for, with the words it spans in `sentence`:
    /// `("It", "The Brooklyn Bridge")`, `("Its", "The Brooklyn Bridge's")`.
    pub fn resolve(&self, sentence: &str) -> Option<(usize, String)> {
        let first = word_re().find(sentence)?;
        if first.start() != 0 {
            return None;
        }
        let w = first.as_str();
        let possessive = |s: &String| if s.ends_with('s') { format!("{s}'") } else { format!("{s}'s") };
        let out = match w {
            "It" => self.thing().cloned(),
            "Its" => self.thing().map(possessive),
            "He" | "She" => self.person.clone(),
            "They" => self.group.clone(),
            "Their" => self.group.as_ref().map(possessive),
            "His" | "Her" => self.person.as_ref().map(possessive),
            "The" | "This" => {
                // "The bridge" for "the Brooklyn Bridge": the noun must be the referent's head word, or a
                // general type word for a thing.
                let second = word_re().find_at(sentence, first.end())?;
                let noun = second.as_str();
                if !noun.chars().next().is_some_and(char::is_lowercase) || second.start() != first.end() + 1 {
                    return None;
                }
                // The latest thing whose name has the noun ("The war" → "World War I"), else, for a
                // general type word, the topic ("The city" → "Canberra").
                let named = self.things.iter().rev().find(|t| t.split_whitespace().any(|w| w.eq_ignore_ascii_case(noun)));
                let thing = match named {
                    Some(t) => t,
                    None if TYPE_NOUNS.contains(&noun) => self.things.first()?,
                    None => return None,
                };
                // "The company's" keeps its possessive.
                let rest = &sentence[second.end()..];
                let (span_end, text) = if rest.starts_with("'s") || rest.starts_with("’s") {
                    (second.end() + rest.chars().take(2).map(char::len_utf8).sum::<usize>(), possessive(thing))
                } else {
                    (second.end(), thing.clone())
                };
                return Some((span_end, capitalise(&text)));
            }
            _ => None,
        }?;
        // "It was France's first title": a sentence that names the referent after its pronoun is
        // not about it through the pronoun.
        let name = strip_possessive(out.trim_start_matches("The ").trim_start_matches("the "));
        if sentence[first.end()..].contains(name) {
            return None;
        }
        Some((first.end(), capitalise(&out)))
    }
}

/// Verbs that agree only with a singular subject ("Paris is", "Athens has").
static SINGULAR_VERBS: WordList = WordList::new(|| words::list("singular_verbs"));

/// Names `ents[i]` and the next joined by "and" before a singular verb: one name, a title or a
/// firm ("Pride and Prejudice was published …", "Procter and Gamble is …"), as one entity.
fn names_joined_as_one(text: &str, ents: &[entities::Entity], i: usize) -> Option<entities::Entity> {
    let (l, r) = (ents.get(i)?, ents.get(i + 1)?);
    let next = text[r.end..].split_whitespace().next().unwrap_or("");
    (&text[l.end..r.start] == " and " && (SINGULAR_VERBS.contains(&next) || next == "remains")).then(|| entities::Entity {
        text: text[l.start..r.end].to_string(),
        start: l.start,
        end: r.end,
    })
}

/// The sentence's subject when it is plural: names joined by "and", or a short noun phrase ending in
/// a plural noun whose verb is not singular ("Cheetahs can reach …", not "Athens is …").
fn plural_subject(sentence: &str) -> Option<String> {
    if starts_with_pronoun(sentence) {
        return None;
    }
    let ws = words(sentence);
    let v = first_verb(&ws)?;
    let verb = ws[v].2;
    let mut end = v;
    while end > 0 && ADVERBS.contains(&ws[end - 1].2) {
        end -= 1;
    }
    if end == 0 || end > 6 {
        return None;
    }
    let subject = &sentence[..ws[end - 1].1];
    let subject_words = &ws[..end];
    let joined_names = subject_words.iter().enumerate().any(|(i, w)| {
        w.2 == "and"
            && i > 0
            && i + 1 < end
            && subject_words[i - 1].2.starts_with(char::is_uppercase)
            && subject_words[i + 1].2.starts_with(char::is_uppercase)
    });
    let last = subject_words[end - 1].2;
    let plural_noun = last.len() > 3 && last.ends_with('s') && !last.ends_with("ss") && !last.ends_with("'s") && !last.ends_with("’s");
    // A present tense in "-s" agrees with a singular subject ("lies", "covers"); plural subjects
    // take "are", "were", "have", modals, past tenses and bare forms, none of which end so.
    let singular_verb = SINGULAR_VERBS.contains(&verb) || (verb.ends_with('s') && !verb.ends_with("ss"));
    ((joined_names || plural_noun) && !singular_verb && !subject.contains(',')).then(|| subject.to_string())
}

/// General nouns a definite description of a thing may use ("The city was designed by …").
static TYPE_NOUNS: WordList = WordList::new(|| words::list("type_nouns"));

/// Whether a name at `at` is where the sentence's subject stands: at its start, after an article,
/// or after a leading time or place ("In 1911 Curie received …", "On 9 November, the wall fell").
pub fn opens_sentence(sentence: &str, at: usize) -> bool {
    let lead: Vec<&str> = sentence[..at].split_whitespace().collect();
    if lead.len() <= 1 {
        return lead.first().is_none_or(|w| matches!(w.to_lowercase().as_str(), "the" | "a" | "an"));
    }
    static OPENERS: WordList = WordList::new(|| words::list("claim_openers"));
    OPENERS.contains(&lead[0])
        && lead.len() <= 4
        && lead[1..].iter().all(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit() || c.is_uppercase()) || matches!(*w, "the" | "of"))
}

/// Words that end a name in an institution, place or thing rather than a person.
static THING_WORDS: WordList = WordList::new(|| words::list("thing_words"));

/// A name that reads as a person's: two to four capitalised words without digits, not led by "the",
/// not ending in an institution or place word.
pub fn is_person_like(name: &str, text: &str, at: usize) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    (2..=4).contains(&words.len())
        && words.iter().all(|w| w.chars().next().is_some_and(char::is_uppercase) && !w.chars().any(|c| c.is_ascii_digit()))
        && !words.iter().any(|w| THING_WORDS.contains(&w.trim_end_matches(['.', ','])))
        && !article_before(text, at).eq_ignore_ascii_case("the ")
}

fn article_before(text: &str, at: usize) -> &'static str {
    let before = text[..at].trim_end();
    let last = before.rsplit(|c: char| !c.is_alphabetic()).next().unwrap_or("");
    if last.eq_ignore_ascii_case("the") {
        "the "
    } else {
        ""
    }
}

/// The name a phrase found by `entities::extract` refers to: up to a possessive ("the Golden Gate
/// Bridge's 1,280-metre" → "Golden Gate Bridge"), and without a sentence-initial nominalisation
/// ("Construction of the Golden Gate Bridge" → "Golden Gate Bridge").
fn head_name(s: &str) -> String {
    let mut s = s;
    for p in ["'s", "’s"] {
        if let Some(i) = s.find(p) {
            s = &s[..i];
        }
    }
    if let Some((head, tail)) = s.split_once(" of ") {
        let nominal = ["tion", "sion", "ment", "ance", "ence", "ing", "ure", "ity"].iter().any(|suf| head.ends_with(suf));
        if !head.contains(' ') && nominal && !["University", "Department", "City", "Ministry", "Government"].contains(&head) {
            return tail.to_string();
        }
    }
    s.to_string()
}

fn strip_possessive(s: &str) -> &str {
    s.strip_suffix("'s").or_else(|| s.strip_suffix("’s")).unwrap_or(s)
}

/// The first letter upper-cased, unless the first word has capitals of its own ("iPhone", "eBay").
fn capitalise(s: &str) -> String {
    let first_word = s.split_whitespace().next().unwrap_or("");
    if first_word.chars().skip(1).any(char::is_uppercase) {
        return s.to_string();
    }
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn starts_with_pronoun(s: &str) -> bool {
    let w = s.split_whitespace().next().unwrap_or("");
    PRONOUNS.contains(&w)
}

static PRONOUNS: WordList = WordList::new(|| words::list("pronouns"));
static SUBJECT_PRONOUNS: WordList = WordList::new(|| words::list("subject_pronouns"));

fn word_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"[\p{L}\p{N}][\p{L}\p{N}'’\-–.]*[\p{L}\p{N}]|[\p{L}\p{N}]").expect("static regex"))
}

/// Finite verbs and auxiliaries that open a verb phrase. Regular past tenses ("-ed") are found by
/// their ending; these are the auxiliaries and the irregular verbs answers use most.
static VERBS: WordList = WordList::new(|| words::list("verbs"));
static ADVERBS: WordList = WordList::new(|| words::list("adverbs"));
/// Past participles ending in "-ed" that usually follow a noun as an adjective ("the bridge named …").
pub fn is_verb(w: &str) -> bool {
    let lw = w.to_lowercase();
    if lw != w {
        return false;
    }
    VERBS.contains(&w) || (w.len() >= 4 && w.ends_with("ed") && !w.ends_with("eed"))
}

/// A present-tense verb in the third person right after a name ("Denver observes …", "Gwinnett County
/// borders …") or a name's type noun ("Zimbabwe national football team plays …", "the city lies …"):
/// answers state facts in the present with verbs no list can hold. Only after a capitalised word or
/// a type noun, so a plural noun ("the colours") is not taken for one; "-ss", "-us" and "-is"
/// endings are nouns ("address", "campus", "analysis").
fn is_present_verb_after_name(ws: &[(usize, usize, &str)], i: usize) -> bool {
    let w = ws[i].2;
    i >= 1
        && (ws[i - 1].2.chars().next().is_some_and(char::is_uppercase) || TYPE_NOUNS.contains(&ws[i - 1].2))
        && w.len() >= 4
        && w.chars().all(|c| c.is_ascii_lowercase())
        && w.ends_with('s')
        && !["ss", "us", "is", "ics"].iter().any(|e| w.ends_with(e))
}

/// Words of `s` with byte ranges.
fn words(s: &str) -> Vec<(usize, usize, &str)> {
    word_re().find_iter(s).map(|m| (m.start(), m.end(), m.as_str())).collect()
}

/// Index (into `ws`) of the first finite verb, skipping the first word (a sentence opens with its
/// subject). A listed verb wins over an earlier "-ed" word, which is often a participle modifying
/// the subject ("The hemisphere tilted toward the Sun gets …").
fn first_verb(ws: &[(usize, usize, &str)]) -> Option<usize> {
    let end = ws.iter().position(|w| matches!(w.2, "and" | "but")).unwrap_or(ws.len());
    (1..end)
        .find(|&i| VERBS.contains(&ws[i].2))
        .or_else(|| (1..end).find(|&i| is_present_verb_after_name(ws, i)))
        .or_else(|| (1..ws.len()).find(|&i| is_verb(ws[i].2) && !matches!(ws[i - 1].2, "the" | "a" | "an")))
}

/// One sentence of an answer as the claim splitter reads it: its range, the ranges left once `[NA]`
/// segments are cut out, and whether its claims are wanted (a cited sentence that is not an
/// abstention; the others only move the discourse on).
#[derive(Debug, Clone)]
pub struct SentenceParts {
    pub piece: Piece,
    pub parts: Vec<Piece>,
    pub split: bool,
}

/// Every sentence's claims, in one pass over the answer `text`: each sentence's referring words are
/// read through what the question and the sentences before it named. A sentence not `split` gets
/// no claims.
pub fn claims_of_answer(text: &str, start: Discourse, sentences: &[SentenceParts]) -> Vec<Vec<Claim>> {
    let mut discourse = start;
    let mut out = Vec::with_capacity(sentences.len());
    for s in sentences {
        let claims = if s.split { claims_of_parts(text, &s.parts, &discourse) } else { Vec::new() };
        let sentence = &text[s.piece.start..s.piece.end];
        // The referent for the next sentence, read with this one's pronoun resolved.
        match claims.first() {
            Some(c) => discourse.update(&c.text),
            None => discourse.update(sentence),
        }
        discourse.note_group(sentence);
        out.push(claims);
    }
    out
}

/// Splits the sentence `text[parts]` (a sentence less what `[NA]` marks) into claims, reading
/// sentence-initial referring words through `discourse`.
pub fn claims_of_parts(text: &str, parts: &[Piece], discourse: &Discourse) -> Vec<Claim> {
    let parts: Vec<Piece> = parts.iter().filter(|p| p.end > p.start).cloned().collect();
    if parts.is_empty() {
        return Vec::new();
    }
    // Clause-level splits need the sentence whole; with an `[NA]` hole only names are split.
    let clauses: Vec<Draft> = if parts.len() == 1 {
        let p = &parts[0];
        let mut first = Draft { parts: vec![p.clone()], replace: None, prefix: None };
        if let Some((end, by)) = discourse.resolve(&text[p.start..p.end]) {
            first.replace = Some((Piece { start: p.start, end: p.start + end }, by));
        }
        split_clauses(text, first)
    } else {
        vec![Draft { parts, replace: None, prefix: None }]
    };
    let mut done: Vec<Claim> = Vec::new();
    let mut todo: Vec<Claim> = clauses.into_iter().rev().map(|d| d.into_claim(text)).collect();
    while let Some(claim) = todo.pop() {
        if done.len() + todo.len() + 1 >= MAX_CLAIMS_PER_SENTENCE {
            done.push(claim);
            continue;
        }
        match split_names_once(text, &claim) {
            Some((a, b)) => {
                todo.push(b);
                todo.push(a);
            }
            None => done.push(claim),
        }
    }
    // Splitting a list pairwise can reach the same claim twice.
    let mut seen = std::collections::HashSet::new();
    done.retain(|c| seen.insert(c.text.clone()));
    done
}

/// A claim under construction: sentence ranges, a referring word read as its referent, and words
/// put before it (the subject a relative clause or a second verb phrase shares).
#[derive(Debug, Clone)]
struct Draft {
    parts: Vec<Piece>,
    replace: Option<(Piece, String)>,
    prefix: Option<String>,
}

impl Draft {
    fn into_claim(self, text: &str) -> Claim {
        let mut pieces: Vec<String> = Vec::new();
        if let Some(p) = &self.prefix {
            pieces.push(p.clone());
        }
        for part in &self.parts {
            match &self.replace {
                Some((r, by)) if r.start >= part.start && r.end <= part.end => {
                    pieces.push(format!("{}{}{}", &text[part.start..r.start], by, &text[r.end..part.end]));
                }
                _ => pieces.push(text[part.start..part.end].to_string()),
            }
        }
        let mut out = String::new();
        for piece in pieces {
            if !out.is_empty() && !out.ends_with(' ') && !piece.starts_with([' ', ',', '.', ';', ':', '!', '?']) {
                out.push(' ');
            }
            out.push_str(&piece);
        }
        let mut t = out.split_whitespace().collect::<Vec<_>>().join(" ");
        t = t.trim_end_matches([',', ';', ' ']).to_string();
        if !t.ends_with(['.', '!', '?']) {
            t.push('.');
        }
        Claim { text: capitalise(&t), parts: self.parts, conjunct: None }
    }

    /// The claim's text so far (for finding its subject).
    fn text(&self, text: &str) -> String {
        self.clone().into_claim(text).text
    }
}

/// Relative and appositive clauses, then coordinated clauses and verb phrases.
fn split_clauses(text: &str, draft: Draft) -> Vec<Draft> {
    if let Some(out) = split_relative_clause(text, &draft) {
        return out;
    }
    split_coordination(text, draft)
}

/// Rule 2: ", who …" / ", which …" / ", a Sherpa from Nepal," after a name: the main clause (split
/// further) and the relative clause or appositive as a claim of its own about the name.
fn split_relative_clause(text: &str, draft: &Draft) -> Option<Vec<Draft>> {
    let p = draft.parts[0].clone();
    let s = &text[p.start..p.end];
    for e in entities::extract(s) {
        let after = &s[e.end..];
        let Some(rest) = after.strip_prefix(", ") else { continue };
        let rel = ["who ", "which "].iter().find(|w| rest.starts_with(*w)).map(|w| w.len());
        let appositive = ["a ", "an "].iter().any(|w| rest.starts_with(w));
        if rel.is_none() && !appositive {
            continue;
        }
        let body_start = e.end + 2 + rel.unwrap_or(0);
        // The clause runs to the next comma that closes it, or to the sentence's end.
        let close = s[body_start..].find(", ").map(|i| body_start + i);
        let body_end = close.unwrap_or_else(|| s.trim_end_matches(['.', '!', '?']).len());
        let body = &s[body_start..body_end];
        let body_words = words(body);
        if appositive && (close.is_none() || body_words.len() > 8 || body_words.iter().any(|w| is_verb(w.2))) {
            continue; // "X, a Y," must be a short noun phrase closed by a comma
        }
        if rel.is_some() && !body_words.iter().take(3).any(|w| is_verb(w.2)) {
            continue;
        }
        let antecedent = match &draft.replace {
            Some((r, by)) if r.start == p.start && r.end >= p.start + e.start => by.clone(),
            _ => e.text.clone(),
        };
        let mut main = draft.clone();
        let (cut_from, cut_to) = (p.start + e.end, p.start + close.map_or(body_end, |c| c + 1));
        main.parts = vec![Piece { start: p.start, end: cut_from }, Piece { start: cut_to, end: p.end }]
            .into_iter()
            .filter(|x| x.end > x.start)
            .collect();
        let linking = if appositive { Some(format!("{antecedent} is")) } else { Some(antecedent) };
        let clause = Draft { parts: vec![Piece { start: p.start + body_start, end: p.start + body_end }], replace: None, prefix: linking };
        // The main clause may split further; the relative clause stays one claim.
        let mut out = if main.parts.len() == 1 { split_clauses(text, main) } else { vec![main] };
        out.push(clause);
        return Some(out);
    }
    None
}

/// Rule 3: "… and was Y", "… and it was Y", "… and Ballmer replaced him", "…, but …": two clauses,
/// each split further, the second given the first's subject where it has none of its own.
fn split_coordination(text: &str, draft: Draft) -> Vec<Draft> {
    let p = draft.parts[0].clone();
    let s = &text[p.start..p.end];
    let ws = words(s);
    // A verb phrase split off with its subject carried as a prefix opens with its verb ("was born in
    // Flushing, and Flushing has …"): its first word is no subject to skip.
    let opens_with_verb = draft.prefix.is_some() && ws.first().is_some_and(|w| is_verb(w.2));
    let Some(verb) = (if opens_with_verb { Some(0) } else { first_verb(&ws) }) else { return vec![draft] };
    let titles = names_joined_twice(s);
    for (i, w) in ws.iter().enumerate().skip(verb + 1) {
        // A clause joined by a conjunction, or by a comma alone when a name or a pronoun with its own
        // verb follows ("… was made in Germany, Germany includes Hamburg, and …"): a comma before a
        // participle ("…, founded in 1887") or in a list of names is no boundary.
        let conjunction = matches!(w.2, "and" | "but") && !titles.iter().any(|t| t.start < w.0 && w.0 < t.end);
        let comma = !conjunction && s[ws[i - 1].1..w.0].contains(',');
        if !(conjunction || comma) || (conjunction && i + 1 >= ws.len()) {
            continue;
        }
        let first = if conjunction { i + 1 } else { i };
        // A range or a list of names ("between 1887 and 1889", "Pierre Curie and Henri Becquerel")
        // is no clause boundary.
        if ws[..i].iter().rev().take(3).any(|x| x.2 == "between") {
            continue;
        }
        let mut j = first;
        while j < ws.len() && ADVERBS.contains(&ws[j].2) {
            j += 1;
        }
        if j >= ws.len() {
            break;
        }
        let mut left_end = w.0;
        let before = s[..left_end].trim_end();
        left_end = before.trim_end_matches(',').len();
        let own_subject = SUBJECT_PRONOUNS.contains(&ws[j].2) && ws.get(j + 1).is_some_and(|x| is_verb(x.2) || ADVERBS.contains(&x.2));
        let named_subject = !own_subject && named_subject_at(&s[ws[j].0..], ws[j].0, &titles);
        // The first clause's verb again opens a parallel verb phrase of the same subject ("counts
        // Sigmund Freud as an influence and counts Thomas Mann as one"), listed or not.
        let shared_subject = !comma && !own_subject && !named_subject && (is_verb(ws[j].2) || ws[j].2 == ws[verb].2);
        if !(own_subject || named_subject || shared_subject) {
            continue;
        }
        let mut left = draft.clone();
        left.parts = vec![Piece { start: p.start, end: p.start + left_end }];
        if left.replace.as_ref().is_some_and(|(r, _)| r.end > p.start + left_end) {
            left.replace = None;
        }
        let right_start = p.start + ws[first].0;
        let mut right = Draft { parts: vec![Piece { start: right_start, end: p.end }], replace: None, prefix: None };
        let subject = subject_of(&left.text(text));
        if own_subject {
            // "and it was …": "it" is the first clause's subject, or that subject's owner when the
            // subject is a possessive ("Its main span is 486 metres and it was the longest …": the
            // bridge was the longest, "it" cannot be the span that "its" hangs on).
            let Some(subject) = subject else { continue };
            let pr = ws[j];
            let subject = match (pr.2.eq_ignore_ascii_case("it"), subject.find("'s ").or_else(|| subject.find("’s "))) {
                (true, Some(k)) => subject[..k].to_string(),
                _ => subject,
            };
            right.replace = Some((Piece { start: p.start + pr.0, end: p.start + pr.1 }, subject));
            if j > first {
                right.parts = vec![Piece { start: p.start + pr.0, end: p.end }];
                right.prefix = None;
            }
        } else if shared_subject {
            let Some(subject) = subject else { continue };
            right.prefix = Some(subject);
        }
        let mut out = split_clauses(text, left);
        out.extend(split_clauses(text, right));
        return out;
    }
    vec![draft]
}

/// A name opens `rest` (which starts at byte `offset` of the clause; an article may stand before it)
/// and a verb follows it: the subject of a clause of its own ("…, Germany includes Hamburg").
fn named_subject_at(rest: &str, offset: usize, titles: &[Piece]) -> bool {
    // The name may open with an article the name finder leaves out ("The Polar Express was …").
    let opens = |e: &entities::Entity| e.start == 0 || matches!(&rest[..e.start], "The " | "the ");
    entities::extract(rest).first().is_some_and(|e| {
        // A title named whole twice is one name: its end is the title's.
        let e_end = titles.iter().find(|t| t.start == offset + e.start).map_or(e.end, |t| t.end - offset);
        opens(e)
            && match (words(&rest[..e_end]).last(), words(&rest[e_end..]).first()) {
                (_, Some(next)) if is_verb(next.2) => true,
                // The same present-tense test as for a sentence's first verb, on the name's last word.
                (Some(&name_end), Some(&next)) => is_present_verb_after_name(&[name_end, next], 1),
                _ => false,
            }
    })
}

/// The words of a clause before its first verb: its subject.
fn subject_of(clause: &str) -> Option<String> {
    let tw = words(clause);
    first_verb(&tw).map(|v| clause[..tw[v].0].trim().to_string()).filter(|x| !x.is_empty())
}

/// Whether byte `at` of `s` lies inside a quotation ("…", “…”, ‘…’ or '…'). An apostrophe opens a
/// quotation only after a space or an opening bracket and before a letter, and closes one before
/// anything but a letter ("Trump's" is no quotation mark).
fn inside_quotes(s: &str, at: usize) -> bool {
    let (mut double, mut single) = (false, false);
    let mut prev = ' ';
    let mut chars = s[..at.min(s.len())].chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied().unwrap_or(' ');
        match c {
            '"' => double = !double,
            '“' => double = true,
            '”' => double = false,
            '‘' => single = true,
            '\'' | '’' if !single && (prev.is_whitespace() || prev == '(') && next.is_alphanumeric() => single = true,
            '\'' | '’' if single && !next.is_alphanumeric() => single = false,
            _ => {}
        }
        prev = c;
    }
    double || single
}

/// Every "A and B" of names that `s` names whole at least twice, where it stands: a title
/// ("acted in Dazed and Confused, and Dazed and Confused was made in …"), not two names.
fn names_joined_twice(s: &str) -> Vec<Piece> {
    let ents = entities::extract(s);
    let mut out: Vec<Piece> = Vec::new();
    for pair in ents.windows(2) {
        let (l, r) = (&pair[0], &pair[1]);
        if s[l.end..r.start].trim() != "and" {
            continue;
        }
        let joined = &s[l.start..r.end];
        if s.matches(joined).nth(1).is_some() {
            for (at, _) in s.match_indices(joined) {
                if !out.iter().any(|p| p.start == at) {
                    out.push(Piece { start: at, end: at + joined.len() });
                }
            }
        }
    }
    out
}

/// The first "A and B" of names in the claim, as two claims.
fn split_names_once(text: &str, claim: &Claim) -> Option<(Claim, Claim)> {
    let titles = names_joined_twice(text);
    // Work on each part: coordinated names sit inside one part.
    for (pi, part) in claim.parts.iter().enumerate() {
        let s = &text[part.start..part.end];
        let ents = entities::extract(s);
        let link = |i: usize| -> Link {
            let between = &s[ents[i].end..ents[i + 1].start];
            match between.trim_matches(|c: char| c == ',' || c.is_whitespace()) {
                "and" | "and the" | "or" | "as well as" => Link::And,
                "" if between.contains(',') => Link::Comma,
                _ => Link::None,
            }
        };
        for i in 0..ents.len().saturating_sub(1) {
            let (l, r) = (&ents[i], &ents[i + 1]);
            // "A, B and C": a comma counts when the list it starts ends in "and".
            let coordinated = match link(i) {
                Link::And => true,
                Link::Comma => (i + 1..ents.len() - 1).map(link).take_while(|k| *k != Link::None).any(|k| k == Link::And),
                Link::None => false,
            };
            if !coordinated {
                continue;
            }
            // "James and Oliver Phelps", "Fred and George Weasley": one surname shared, not two names.
            let shared_surname = !l.text.contains(' ')
                && r.text.split(' ').count() == 2
                && r.text.split(' ').all(|w| w.chars().next().is_some_and(char::is_uppercase));
            // "between 1887 and 1889": a range, one fact.
            let range = s[..l.start].split_whitespace().next_back().is_some_and(|w| w.eq_ignore_ascii_case("between"));
            // "Pashto and Dari are the languages": a plural subject, one fact about both.
            let plural_subject = {
                let next = s[r.end..].split_whitespace().next().unwrap_or("");
                matches!(next, "are" | "were" | "have" | "both" | "together" | "share" | "shared")
            };
            // "Pride and Prejudice was published in 1813": names joined by "and" before a singular
            // verb are one name (a title, a firm), whatever its words.
            let singular_subject = link(i) == Link::And && names_joined_as_one(s, &ents, i).is_some();
            // "Mars has two moons, Phobos and Deimos": a list set after a common noun by a comma says
            // what the noun is; either name alone in its place ("Mars has two moons, Phobos") is no claim.
            let appositive = {
                let mut first = i;
                while first > 0 && link(first - 1) != Link::None {
                    first -= 1;
                }
                let before = s[..ents[first].start].trim_end();
                before.strip_suffix(',').and_then(|b| b.split_whitespace().next_back()).is_some_and(|w| w.chars().all(|c| c.is_lowercase()))
            };
            // "sings 'God Gave Rock and Roll to You'": a title in quotes is one name.
            let quoted = inside_quotes(s, l.end);
            // "born in Denver, and Denver observes …": a name repeated as the next clause's subject is
            // no list of two names.
            let repeated = l.text == r.text;
            let named_twice = titles.iter().any(|t| t.start == part.start + l.start);
            if shared_surname || range || plural_subject || singular_subject || appositive || quoted || repeated || named_twice {
                continue;
            }
            let abs = |x: usize| part.start + x;
            let mut left_parts = claim.parts[..pi].to_vec();
            left_parts.push(Piece { start: part.start, end: abs(l.end) });
            left_parts.push(Piece { start: abs(r.end), end: part.end });
            left_parts.extend_from_slice(&claim.parts[pi + 1..]);
            let mut right_parts = claim.parts[..pi].to_vec();
            right_parts.push(Piece { start: part.start, end: abs(l.start) });
            right_parts.push(Piece { start: abs(r.start), end: part.end });
            right_parts.extend_from_slice(&claim.parts[pi + 1..]);
            // The claim's text may carry a resolved pronoun or a shared subject: substitute in it.
            let (lt, rt) = (&text[abs(l.start)..abs(l.end)], &text[abs(r.start)..abs(r.end)]);
            let joined = &text[abs(l.start)..abs(r.end)];
            let mk = |parts: Vec<Piece>, keep: &str, conj: Piece| {
                let parts: Vec<Piece> = parts.into_iter().filter(|p| p.end > p.start).collect();
                let t = claim.text.replacen(joined, keep, 1);
                Claim { text: t, parts, conjunct: Some(conj) }
            };
            if !claim.text.contains(joined) {
                continue;
            }
            return Some((
                mk(left_parts, lt, Piece { start: abs(l.start), end: abs(l.end) }),
                mk(right_parts, rt, Piece { start: abs(r.start), end: abs(r.end) }),
            ));
        }
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Link {
    And,
    Comma,
    None,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts_in(s: &str, d: &Discourse) -> Vec<String> {
        claims_of_parts(s, &[Piece { start: 0, end: s.len() }], d).into_iter().map(|c| c.text).collect()
    }

    fn texts(s: &str) -> Vec<String> {
        texts_in(s, &Discourse::default())
    }

    #[test]
    fn splits_coordinated_names() {
        assert_eq!(
            texts("Rick Scott attended the University of Missouri–Kansas City and Southern Methodist University."),
            ["Rick Scott attended the University of Missouri–Kansas City.", "Rick Scott attended the Southern Methodist University."]
        );
        assert_eq!(texts("It was in Paris, London and Rome.").len(), 3);
        assert_eq!(
            texts("She shared the 1903 prize with Pierre Curie and Henri Becquerel."),
            ["She shared the 1903 prize with Pierre Curie.", "She shared the 1903 prize with Henri Becquerel."]
        );
    }

    #[test]
    fn keeps_ranges_compounds_and_shared_surnames_whole() {
        assert_eq!(texts("Kiss sings 'God Gave Rock and Roll to You.'"), vec!["Kiss sings 'God Gave Rock and Roll to You.'."]);
        assert_eq!(
            texts("Kiss recorded \"Beth and Detroit Rock City\" in 1976."),
            vec!["Kiss recorded \"Beth and Detroit Rock City\" in 1976."]
        );
        assert!(!inside_quotes("Trump's and Biden's votes", 8));
        assert_eq!(texts("James and Oliver Phelps played the twins.").len(), 1);
        assert_eq!(texts("It was built between 1887 and 1889 as an arch.").len(), 1);
        assert_eq!(texts("The war lasted from 1914 to 1918.").len(), 1);
        assert_eq!(texts("Pashto and Dari are the official languages of Afghanistan.").len(), 1);
        assert_eq!(texts("Pride and Prejudice was written by Jane Austen."), ["Pride and Prejudice was written by Jane Austen."]);
        let mut d = Discourse::default();
        d.update("Pride and Prejudice was published in 1813.");
        assert_eq!(d.resolve("It was her second novel.").map(|r| r.1), Some("Pride and Prejudice".to_string()));
        let mut d = Discourse::default();
        d.update("France won the 2018 World Cup.");
        assert_eq!(d.resolve("It was France's first title."), None);
        assert!(d.resolve("It beat Croatia.").is_some());
        let mut d = Discourse::from_question("Who wrote Pride and Prejudice and when?");
        d.update("Pride and Prejudice was written by Jane Austen.");
        assert_eq!(d.resolve("The book was first called First Impressions.").map(|r| r.1), Some("Pride and Prejudice".to_string()));
        assert_eq!(texts("Mars has two small moons, Phobos and Deimos."), ["Mars has two small moons, Phobos and Deimos."]);
        assert_eq!(texts("It has three moons, Io, Europa and Ganymede.").len(), 1);
        // A list that is the verb's object, not set off after a noun, is still two claims.
        assert_eq!(texts("It was in Paris, London and Rome.").len(), 3);
        assert_eq!(
            texts("Matthew McConaughey acted in Dazed and Confused, and Dazed and Confused was made in Texas."),
            ["Matthew McConaughey acted in Dazed and Confused.", "Dazed and Confused was made in Texas."]
        );
    }

    #[test]
    fn splits_clauses_whose_subject_repeats_a_name_or_whose_verb_is_unlisted() {
        assert_eq!(
            texts("Bill Finger was born in Denver, and Denver observes the Mountain Time Zone."),
            ["Bill Finger was born in Denver.", "Denver observes the Mountain Time Zone."]
        );
        assert_eq!(
            texts("Gwinnett County borders DeKalb County, and DeKalb County contains Decatur."),
            ["Gwinnett County borders DeKalb County.", "DeKalb County contains Decatur."]
        );
        assert_eq!(
            texts("Steven Tyler had a role in The Polar Express, and The Polar Express was scripted by Robert Zemeckis."),
            ["Steven Tyler had a role in The Polar Express.", "The Polar Express was scripted by Robert Zemeckis."]
        );
        assert_eq!(
            texts("Zimbabwe national football team plays association football, and Springfield Falcons competes in ice hockey."),
            ["Zimbabwe national football team plays association football.", "Springfield Falcons competes in ice hockey."]
        );
        assert_eq!(texts("The team plays in Leeds and Manchester."), ["The team plays in Leeds.", "The team plays in Manchester."]);
        assert_eq!(
            texts("Silver Spring borders Takoma Park and keeps the Eastern Time Zone."),
            ["Silver Spring borders Takoma Park.", "Silver Spring keeps the Eastern Time Zone."]
        );
        // Plural nouns after a name are no verbs, and a list of two different names still splits.
        assert_eq!(texts("The Beatles recorded songs and albums in London."), ["The Beatles recorded songs and albums in London."]);
        assert_eq!(texts("Marie Curie worked in Paris and Warsaw."), ["Marie Curie worked in Paris.", "Marie Curie worked in Warsaw."]);
    }

    #[test]
    fn a_comma_before_a_new_subject_with_its_own_verb_ends_a_clause() {
        assert_eq!(
            texts("The Usual Suspects was made in Germany, Germany includes Hamburg, and Hamburg is a port."),
            ["The Usual Suspects was made in Germany.", "Germany includes Hamburg.", "Hamburg is a port."]
        );
        assert_eq!(
            texts("The bridge was opened in 1883, it is the oldest of its kind."),
            ["The bridge was opened in 1883.", "The bridge is the oldest of its kind."]
        );
        // A participle, a list of names or a place with its country after a comma is no new clause.
        assert_eq!(texts("The museum, founded in 1887, houses old maps."), ["The museum, founded in 1887, houses old maps."]);
        assert_eq!(texts("He was born in Paris, France in 1950."), ["He was born in Paris, France in 1950."]);
        assert_eq!(texts("In 1990, Smith moved to Berlin."), ["In 1990, Smith moved to Berlin."]);
    }

    #[test]
    fn splits_verb_phrases_and_clauses_keeping_the_subject() {
        assert_eq!(
            texts("Its main span is 486 metres long and it was the longest bridge until 1903."),
            ["Its main span is 486 metres long.", "Its main span was the longest bridge until 1903."]
        );
        assert_eq!(texts("He was born in 1950 and died in 2001."), ["He was born in 1950.", "He died in 2001."]);
        assert_eq!(
            texts("Gates stepped down as CEO in 2000 and Steve Ballmer replaced him."),
            ["Gates stepped down as CEO in 2000.", "Steve Ballmer replaced him."]
        );
        // A verb phrase split off splits again at its own clause.
        assert_eq!(
            texts("Bob Weinstein is an adherent of Judaism and was born in Flushing, and Flushing has Queens College within its borders."),
            [
                "Bob Weinstein is an adherent of Judaism.",
                "Bob Weinstein was born in Flushing.",
                "Flushing has Queens College within its borders."
            ]
        );
        // An unlisted verb repeated after "and" opens a second verb phrase; once, it does not.
        assert_eq!(
            texts("Theodor W. Adorno counts Sigmund Freud as an influence and counts Thomas Mann as an influence."),
            ["Theodor W. Adorno counts Sigmund Freud as an influence.", "Theodor W. Adorno counts Thomas Mann as an influence."]
        );
        assert_eq!(texts("The team counts wins and losses.").len(), 1);
    }

    #[test]
    fn relative_and_appositive_clauses_are_claims_about_their_name() {
        assert_eq!(
            texts("It was designed by John Roebling, who also supervised its construction until it was finished."),
            ["It was designed by John Roebling.", "John Roebling also supervised its construction until it was finished."]
        );
        assert_eq!(
            texts("Tenzing Norgay, a Sherpa from Nepal, reached the summit."),
            ["Tenzing Norgay reached the summit.", "Tenzing Norgay is a Sherpa from Nepal."]
        );
    }

    #[test]
    fn resolves_plural_pronouns_to_the_last_plural_subject() {
        let mut d = Discourse::default();
        d.update("Edmund Hillary and Tenzing Norgay first reached the summit in 1953.");
        assert_eq!(texts_in("They were the first to climb it.", &d), vec!["Edmund Hillary and Tenzing Norgay were the first to climb it."]);
        let mut d = Discourse::default();
        d.update("The Wright brothers made the first powered flight.");
        assert_eq!(texts_in("They paid for their experiments.", &d), vec!["The Wright brothers paid for their experiments."]);
        d.update("Cheetahs can reach speeds of 98 kilometres per hour.");
        assert_eq!(texts_in("Their cubs stay with the mother.", &d), vec!["Cheetahs' cubs stay with the mother."]);
        // A singular subject ending in "s" is no group.
        let mut d = Discourse::default();
        d.update("Athens is the capital of Greece.");
        assert_eq!(d.group, None);
    }

    #[test]
    fn an_answer_is_split_in_one_pass_and_unsplit_sentences_still_move_the_discourse() {
        let text = "Marie Curie was a physicist. She won two prizes. She was born in Warsaw and died in 1934.";
        let pieces = crate::text::segment::sentences(text);
        let wanted: Vec<SentenceParts> =
            pieces.iter().enumerate().map(|(i, p)| SentenceParts { piece: p.clone(), parts: vec![p.clone()], split: i != 0 }).collect();
        let claims = claims_of_answer(text, Discourse::default(), &wanted);
        let texts: Vec<Vec<&str>> = claims.iter().map(|cs| cs.iter().map(|c| c.text.as_str()).collect()).collect();
        // The first sentence is not split (no claims) but names the person the next ones refer to.
        assert_eq!(
            texts,
            vec![vec![], vec!["Marie Curie won two prizes."], vec!["Marie Curie was born in Warsaw.", "Marie Curie died in 1934."]]
        );
    }

    #[test]
    fn resolves_sentence_initial_referring_words() {
        let mut d = Discourse::from_question("When did the Brooklyn Bridge open and who designed it?");
        assert_eq!(texts_in("It was designed by John Roebling.", &d), ["The Brooklyn Bridge was designed by John Roebling."]);
        assert_eq!(texts_in("Its main span is 486 metres long.", &d), ["The Brooklyn Bridge's main span is 486 metres long."]);
        assert_eq!(
            texts_in("Its main span is 486 metres long and it was the longest bridge until 1903.", &d),
            ["The Brooklyn Bridge's main span is 486 metres long.", "The Brooklyn Bridge was the longest bridge until 1903."]
        );
        assert_eq!(texts_in("The bridge carries cars.", &d), ["The Brooklyn Bridge carries cars."]);
        d.update("Marie Curie was a physicist.");
        assert_eq!(texts_in("She won two prizes.", &d), ["Marie Curie won two prizes."]);
        assert_eq!(texts_in("It was designed by John Roebling.", &d), ["The Brooklyn Bridge was designed by John Roebling."]);
        // A definite description whose noun does not fit the referent stays as written.
        assert_eq!(texts_in("The man was tall.", &d), ["The man was tall."]);
        // A description equated with a name makes the name the referent; a possessive is not kept.
        let mut d = Discourse::from_question("What is the capital of Australia?");
        assert_eq!(d.thing(), None);
        d.update("The capital of Australia is Canberra, not Sydney.");
        assert_eq!(texts_in("It was chosen in 1908.", &d), ["Canberra was chosen in 1908."]);
        d.update("The Amazon's basin is large.");
        assert_eq!(d.thing().map(String::as_str), Some("the Amazon"));
        let mut w = Discourse::from_question("When did World War I take place?");
        w.update("The Treaty of Versailles was signed in 1919.");
        assert_eq!(texts_in("The war ended in 1918.", &w), ["World War I ended in 1918."]);
        d.update("Construction of the Golden Gate Bridge began in 1933.");
        assert_eq!(texts_in("Its main span was long.", &d), ["The Golden Gate Bridge's main span was long."]);
    }
}
