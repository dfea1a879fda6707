//! Character offsets of byte offsets in O(1): the report counts characters (Unicode scalar values),
//! the engine slices by bytes, and an answer's offsets are converted many times per report.

/// A text's byte → character and character → byte tables, built once in one pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CharIndex {
    /// For each byte offset 0..=len: how many characters start before it.
    chars_before_byte: Vec<u32>,
    /// For each character 0..=count: its first byte (the text's length at the end).
    byte_of_char: Vec<u32>,
}

impl CharIndex {
    /// Texts are bounded by the input's caps (megabytes at most), so `u32` offsets always fit.
    pub fn new(text: &str) -> Self {
        let mut chars_before_byte = Vec::with_capacity(text.len() + 1);
        let mut byte_of_char = Vec::with_capacity(text.len() / 2 + 1);
        let mut count = 0u32;
        for b in 0..text.len() {
            chars_before_byte.push(count);
            if text.is_char_boundary(b) {
                byte_of_char.push(b as u32);
                count += 1;
            }
        }
        chars_before_byte.push(count);
        byte_of_char.push(text.len() as u32);
        CharIndex { chars_before_byte, byte_of_char }
    }

    /// The character offset of a byte offset: the number of characters that start before it (a
    /// byte inside a character counts that character; a byte past the end is the end).
    pub fn char_of_byte(&self, byte: usize) -> usize {
        let last = self.chars_before_byte.len() - 1;
        self.chars_before_byte[byte.min(last)] as usize
    }

    /// The byte offset where character `char` starts (the text's length past the end).
    pub fn byte_of_char(&self, char: usize) -> usize {
        let last = self.byte_of_char.len() - 1;
        self.byte_of_char[char.min(last)] as usize
    }

    /// How many characters the text has.
    pub fn chars(&self) -> usize {
        self.byte_of_char.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the index replaces: counting characters from the start at each call.
    fn counted(text: &str, byte: usize) -> usize {
        text.char_indices().take_while(|(i, _)| *i < byte.min(text.len())).count()
    }

    #[test]
    fn agrees_with_counting_at_every_byte_of_mixed_width_text() {
        for text in ["", "plain ascii", "Zoë’s café — 東京 🚀 done", "🚀"] {
            let index = CharIndex::new(text);
            for byte in 0..=text.len() + 3 {
                assert_eq!(index.char_of_byte(byte), counted(text, byte), "{text:?} at byte {byte}");
            }
            assert_eq!(index.chars(), text.chars().count());
            for (c, (b, _)) in text.char_indices().enumerate() {
                assert_eq!(index.byte_of_char(c), b);
                assert_eq!(index.char_of_byte(b), c);
            }
            assert_eq!(index.byte_of_char(index.chars() + 5), text.len());
        }
    }
}
