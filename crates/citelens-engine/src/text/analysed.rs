//! A claim or an evidence sentence analysed once. Its names, its numbers and dates, its content
//! words and its word index are read on first use and kept, so that every check and every decision
//! reads the same analysis instead of re-reading the text.

use std::sync::OnceLock;

use crate::text::entities::{self, Entity, Mentions};
use crate::text::values::{self, Value};

#[derive(Default)]
pub struct Analysed {
    text: String,
    names: OnceLock<Vec<Entity>>,
    values: OnceLock<Vec<Value>>,
    content_words: OnceLock<Vec<String>>,
    words: OnceLock<Vec<String>>,
    mentions: OnceLock<Mentions>,
}

impl Analysed {
    pub fn new(text: impl Into<String>) -> Self {
        Analysed { text: text.into(), ..Default::default() }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its names, numbers and dates as `entities::extract` finds them.
    pub fn names(&self) -> &[Entity] {
        self.names.get_or_init(|| entities::extract(&self.text))
    }

    /// Its numbers and dates, parsed (`values::values`).
    pub fn values(&self) -> &[Value] {
        self.values.get_or_init(|| values::values(&self.text))
    }

    /// Its words that carry content (`values::content_words`).
    pub fn content_words(&self) -> &[String] {
        self.content_words.get_or_init(|| values::content_words(&self.text))
    }

    /// All its words, normalised (`entities::norm_words`).
    pub fn words(&self) -> &[String] {
        self.words.get_or_init(|| entities::norm_words(&self.text))
    }

    /// Its words, indexed for "does it name this?" (`Mentions`).
    pub fn mentions(&self) -> &Mentions {
        self.mentions.get_or_init(|| Mentions::new(&self.text))
    }
}

impl std::fmt::Debug for Analysed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Analysed").field(&self.text).finish()
    }
}

/// A copy starts its analysis afresh (what was read is cheap to read again, and `Mentions` keeps
/// no copy of its own).
impl Clone for Analysed {
    fn clone(&self) -> Self {
        Analysed::new(self.text.clone())
    }
}

/// Two analyses are equal when their texts are: the analysis follows from the text.
impl PartialEq for Analysed {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_part_once_and_as_the_parsers_do() {
        let text = "The Brooklyn Bridge opened on May 24, 1883, after 13 years of construction.";
        let a = Analysed::new(text);
        assert_eq!(a.names(), entities::extract(text).as_slice());
        assert_eq!(a.values(), values::values(text).as_slice());
        assert_eq!(a.content_words(), values::content_words(text).as_slice());
        assert!(std::ptr::eq(a.values(), a.values()), "the second read is the first's result");
        assert!(a.mentions().mentions("Brooklyn Bridge"));
        assert_eq!(a.clone(), a);
    }
}
