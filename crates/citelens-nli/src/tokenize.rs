//! Premise/hypothesis pairs to token sequences: `[CLS] premise [SEP] hypothesis [SEP]`, the premise cut
//! into overlapping windows when it does not fit, the hypothesis never cut.

use tokenizers::Tokenizer;

use crate::config::ModelConfig;
use crate::error::{NliError, Result, Side};

/// One model input row.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    pub input_ids: Vec<i64>,
    pub token_type_ids: Vec<i64>,
}

/// The part of the premise a window covers, in byte offsets into the premise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Window {
    pub index: usize,
    pub count: usize,
    pub start: usize,
    pub end: usize,
}

pub struct PairEncoder {
    tokenizer: Tokenizer,
    cls: i64,
    sep: i64,
}

/// Token ids and each token's byte offsets in the text it came from.
type TokensWithOffsets = (Vec<i64>, Vec<(usize, usize)>);

impl PairEncoder {
    pub fn from_bytes(json: &[u8]) -> Result<Self> {
        let mut tokenizer = Tokenizer::from_bytes(json).map_err(|e| NliError::Tokenizer(e.to_string()))?;
        // The shipped tokenizer.json carries its own truncation/padding; we do both ourselves.
        tokenizer.with_truncation(None).map_err(|e| NliError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);
        let id = |t: &str| tokenizer.token_to_id(t).map(i64::from).ok_or_else(|| NliError::Tokenizer(format!("vocabulary lacks {t}")));
        Ok(PairEncoder { cls: id("[CLS]")?, sep: id("[SEP]")?, tokenizer })
    }

    fn tokens(&self, text: &str) -> Result<TokensWithOffsets> {
        let enc = self.tokenizer.encode(text, false).map_err(|e| NliError::Tokenizer(e.to_string()))?;
        Ok((enc.get_ids().iter().map(|&i| i64::from(i)).collect(), enc.get_offsets().to_vec()))
    }

    /// Checks the limits, tokenizes, and returns one sequence per premise window.
    pub fn encode(&self, cfg: &ModelConfig, premise: &str, hypothesis: &str) -> Result<Vec<(Sequence, Window)>> {
        let limits = &cfg.limits;
        check_text(Side::Premise, premise, limits.max_premise_chars)?;
        check_text(Side::Hypothesis, hypothesis, limits.max_hypothesis_chars)?;
        let (hyp, _) = self.tokens(hypothesis)?;
        if hyp.is_empty() {
            return Err(NliError::EmptyText(Side::Hypothesis));
        }
        if hyp.len() > cfg.max_hypothesis_tokens {
            return Err(NliError::TooLong { side: Side::Hypothesis, actual: hyp.len(), limit: cfg.max_hypothesis_tokens, unit: "tokens" });
        }
        let (prem, offsets) = self.tokens(premise)?;
        if prem.is_empty() {
            return Err(NliError::EmptyText(Side::Premise));
        }
        let width = cfg.max_length - hyp.len() - 3;
        let spans = window_spans(prem.len(), width, cfg.window_overlap_tokens);
        if spans.len() > limits.max_windows {
            return Err(NliError::TooLong { side: Side::Premise, actual: spans.len(), limit: limits.max_windows, unit: "windows" });
        }
        let count = spans.len();
        Ok(spans
            .into_iter()
            .enumerate()
            .map(|(index, (a, b))| {
                let mut input_ids = Vec::with_capacity(b - a + hyp.len() + 3);
                input_ids.push(self.cls);
                input_ids.extend_from_slice(&prem[a..b]);
                input_ids.push(self.sep);
                let first_len = input_ids.len();
                input_ids.extend_from_slice(&hyp);
                input_ids.push(self.sep);
                let mut token_type_ids = vec![0; first_len];
                token_type_ids.resize(input_ids.len(), 1);
                let window = Window { index, count, start: offsets[a].0, end: offsets[b - 1].1 };
                (Sequence { input_ids, token_type_ids }, window)
            })
            .collect())
    }
}

impl PairEncoder {
    /// A sequence of exactly `len` tokens, the premise repeated or cut to fit (benchmarks).
    pub fn fixed_length(&self, premise: &str, hypothesis: &str, len: usize) -> Result<Sequence> {
        let (hyp, _) = self.tokens(hypothesis)?;
        let (prem, _) = self.tokens(premise)?;
        if prem.is_empty() || hyp.is_empty() || len < hyp.len() + 4 {
            return Err(NliError::Inference(format!("cannot build a {len}-token sequence from this pair")));
        }
        let mut input_ids = vec![self.cls];
        input_ids.extend(prem.iter().cycle().take(len - hyp.len() - 3));
        input_ids.push(self.sep);
        let first = input_ids.len();
        input_ids.extend_from_slice(&hyp);
        input_ids.push(self.sep);
        let mut token_type_ids = vec![0; first];
        token_type_ids.resize(input_ids.len(), 1);
        Ok(Sequence { input_ids, token_type_ids })
    }
}

fn check_text(side: Side, text: &str, limit: usize) -> Result<()> {
    if text.trim().is_empty() {
        return Err(NliError::EmptyText(side));
    }
    let chars = text.chars().count();
    if chars > limit {
        return Err(NliError::TooLong { side, actual: chars, limit, unit: "characters" });
    }
    Ok(())
}

/// Token ranges covering `n` tokens with windows of `width` sharing `overlap` tokens; the last window
/// is aligned to the end so that every window is full.
pub fn window_spans(n: usize, width: usize, overlap: usize) -> Vec<(usize, usize)> {
    if n <= width {
        return vec![(0, n)];
    }
    let stride = (width - overlap).max(1);
    let mut spans = Vec::new();
    let mut start = 0;
    loop {
        if start + width >= n {
            spans.push((n - width, n));
            return spans;
        }
        spans.push((start, start + width));
        start += stride;
    }
}

#[cfg(test)]
mod tests {
    use super::window_spans;

    #[test]
    fn short_premise_is_one_window() {
        assert_eq!(window_spans(10, 50, 8), vec![(0, 10)]);
    }

    #[test]
    fn windows_cover_everything_and_overlap() {
        let spans = window_spans(230, 100, 20);
        assert_eq!(spans.first().unwrap().0, 0);
        assert_eq!(spans.last().unwrap().1, 230);
        for pair in spans.windows(2) {
            assert!(pair[1].0 < pair[0].1, "consecutive windows must overlap: {pair:?}");
            assert!(pair[1].0 > pair[0].0);
        }
        assert!(spans.iter().all(|(a, b)| b - a == 100));
    }
}
