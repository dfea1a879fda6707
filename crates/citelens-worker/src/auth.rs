//! Bearer-token auth: the keys come from a file (one per line; blank lines and `#` comments skipped),
//! and a presented token is compared with every key in constant time, so timing says nothing about
//! how much of a key was right.

use std::path::Path;

use subtle::ConstantTimeEq;

/// Shortest key accepted: a short key is guessable whatever the comparison.
pub const MIN_KEY_LEN: usize = 16;

#[derive(Clone)]
pub struct Keys(Vec<Vec<u8>>);

impl Keys {
    pub fn from_text(text: &str) -> Result<Self, String> {
        let mut keys = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let key = line.trim();
            if key.is_empty() || key.starts_with('#') {
                continue;
            }
            if key.len() < MIN_KEY_LEN || key.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(format!("line {}: a key must be at least {MIN_KEY_LEN} characters, without spaces", i + 1));
            }
            keys.push(key.as_bytes().to_vec());
        }
        if keys.is_empty() {
            return Err("no keys in the keys file".into());
        }
        Ok(Keys(keys))
    }

    pub fn from_file(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        Self::from_text(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// `header`: the `Authorization` header's value.
    pub fn allows(&self, header: Option<&str>) -> bool {
        let Some(token) = header.and_then(|h| h.strip_prefix("Bearer ")).map(str::trim) else {
            return false;
        };
        // Every key is compared (no early exit), each in constant time for its length.
        self.0.iter().fold(subtle::Choice::from(0), |any, key| any | key.as_slice().ct_eq(token.as_bytes())).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_file_and_bearer_header() {
        let keys = Keys::from_text("# citelens keys\n\nabcdefghijklmnop1234\nzyxwvutsrqponmlk9876\n").unwrap();
        assert!(keys.allows(Some("Bearer abcdefghijklmnop1234")));
        assert!(keys.allows(Some("Bearer zyxwvutsrqponmlk9876")));
        assert!(!keys.allows(Some("Bearer abcdefghijklmnop123")));
        assert!(!keys.allows(Some("abcdefghijklmnop1234")));
        assert!(!keys.allows(Some("Basic abcdefghijklmnop1234")));
        assert!(!keys.allows(None));
        assert!(Keys::from_text("short\n").is_err());
        assert!(Keys::from_text("# only a comment\n").is_err());
    }
}
