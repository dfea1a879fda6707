//! Premise/hypothesis pairs to token sequences in the model's own pair format (`[CLS] premise [SEP]
//! hypothesis [SEP]` for BERT, `<s> premise </s></s> hypothesis </s>` for MPNet and RoBERTa, as
//! `tokenizer.json`'s post-processor says), the premise cut into overlapping windows when it does not
//! fit, the hypothesis never cut.

use tokenizers::{Encoding, Token, Tokenizer};

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
    template: PairTemplate,
    pad: i64,
}

/// Where the special tokens and the two texts go in a pair, and each part's token type: read once
/// from the tokenizer's post-processor, so a window can be built without re-running it.
#[derive(Debug, Clone, PartialEq)]
pub struct PairTemplate {
    /// Special tokens (id, type) before the premise, between the texts, after the hypothesis.
    before: Vec<(i64, i64)>,
    between: Vec<(i64, i64)>,
    after: Vec<(i64, i64)>,
    premise_type: i64,
    hypothesis_type: i64,
}

impl PairTemplate {
    /// Runs the post-processor on a one-token premise and a one-token hypothesis whose ids no
    /// vocabulary has, and reads off where everything else went.
    fn of(tokenizer: &Tokenizer) -> Result<Self> {
        const PREMISE: u32 = u32::MAX - 1;
        const HYPOTHESIS: u32 = u32::MAX - 2;
        let processor = tokenizer.get_post_processor().ok_or_else(|| {
            NliError::Tokenizer("tokenizer.json has no post_processor, so it does not say how the model reads a pair".into())
        })?;
        let one = |id: u32| Encoding::from_tokens(vec![Token::new(id, String::new(), (0, 0))], 0);
        let pair = tokenizers::PostProcessor::process(processor, one(PREMISE), Some(one(HYPOTHESIS)), true)
            .map_err(|e| NliError::Tokenizer(format!("the post_processor failed on a pair: {e}")))?;
        let ids = pair.get_ids();
        let types = pair.get_type_ids();
        let at = |id: u32| ids.iter().position(|&i| i == id);
        let (Some(p), Some(h)) = (at(PREMISE), at(HYPOTHESIS)) else {
            return Err(NliError::Tokenizer("the post_processor drops a text of the pair".into()));
        };
        if p > h || ids.len() > 16 {
            return Err(NliError::Tokenizer(format!("the post_processor builds a pair this model cannot be read with: {ids:?}")));
        }
        let specials = |r: std::ops::Range<usize>| r.map(|i| (i64::from(ids[i]), i64::from(types[i]))).collect();
        Ok(PairTemplate {
            before: specials(0..p),
            between: specials(p + 1..h),
            after: specials(h + 1..ids.len()),
            premise_type: i64::from(types[p]),
            hypothesis_type: i64::from(types[h]),
        })
    }

    /// Special tokens the pair adds.
    pub fn added(&self) -> usize {
        self.before.len() + self.between.len() + self.after.len()
    }

    fn build(&self, premise: &[i64], hypothesis: &[i64]) -> Sequence {
        let len = premise.len() + hypothesis.len() + self.added();
        let mut input_ids = Vec::with_capacity(len);
        let mut token_type_ids = Vec::with_capacity(len);
        let specials = |s: &[(i64, i64)], ids: &mut Vec<i64>, types: &mut Vec<i64>| {
            ids.extend(s.iter().map(|t| t.0));
            types.extend(s.iter().map(|t| t.1));
        };
        specials(&self.before, &mut input_ids, &mut token_type_ids);
        input_ids.extend_from_slice(premise);
        token_type_ids.resize(input_ids.len(), self.premise_type);
        specials(&self.between, &mut input_ids, &mut token_type_ids);
        input_ids.extend_from_slice(hypothesis);
        token_type_ids.resize(input_ids.len(), self.hypothesis_type);
        specials(&self.after, &mut input_ids, &mut token_type_ids);
        Sequence { input_ids, token_type_ids }
    }
}

/// Token ids and each token's byte offsets in the text it came from.
type TokensWithOffsets = (Vec<i64>, Vec<(usize, usize)>);

impl PairEncoder {
    pub fn from_bytes(json: &[u8]) -> Result<Self> {
        let mut tokenizer = Tokenizer::from_bytes(json).map_err(|e| NliError::Tokenizer(e.to_string()))?;
        // A tokenizer.json may carry its own truncation/padding; we do both ourselves, padding with
        // its pad id (attention masks it either way).
        let pad = tokenizer.get_padding().map_or(0, |p| i64::from(p.pad_id));
        tokenizer.with_truncation(None).map_err(|e| NliError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);
        let template = PairTemplate::of(&tokenizer)?;
        Ok(PairEncoder { tokenizer, template, pad })
    }

    /// The id padded rows are filled with.
    pub fn pad_id(&self) -> i64 {
        self.pad
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
        let width = cfg.max_length.saturating_sub(hyp.len() + self.template.added()).max(1);
        let spans = window_spans(prem.len(), width, cfg.window_overlap_tokens);
        if spans.len() > limits.max_windows {
            return Err(NliError::TooLong { side: Side::Premise, actual: spans.len(), limit: limits.max_windows, unit: "windows" });
        }
        let count = spans.len();
        Ok(spans
            .into_iter()
            .enumerate()
            .map(|(index, (a, b))| {
                let window = Window { index, count, start: offsets[a].0, end: offsets[b - 1].1 };
                (self.template.build(&prem[a..b], &hyp), window)
            })
            .collect())
    }
}

impl PairEncoder {
    /// A sequence of exactly `len` tokens, the premise repeated or cut to fit (benchmarks).
    pub fn fixed_length(&self, premise: &str, hypothesis: &str, len: usize) -> Result<Sequence> {
        let (hyp, _) = self.tokens(hypothesis)?;
        let (prem, _) = self.tokens(premise)?;
        let added = self.template.added();
        if prem.is_empty() || hyp.is_empty() || len < hyp.len() + added + 1 {
            return Err(NliError::Inference(format!("cannot build a {len}-token sequence from this pair")));
        }
        let premise: Vec<i64> = prem.iter().copied().cycle().take(len - hyp.len() - added).collect();
        Ok(self.template.build(&premise, &hyp))
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
    use super::*;

    fn bert() -> PairEncoder {
        PairEncoder::from_bytes(include_bytes!("../../../models/citelens-nli-minilm/tokenizer.json")).unwrap()
    }

    /// A tokenizer.json with a RoBERTa/MPNet-style post-processor over a small vocabulary.
    fn roberta_style() -> PairEncoder {
        let json = serde_json::json!({
            "version": "1.0", "truncation": null, "added_tokens": [],
            "padding": { "strategy": { "Fixed": 128 }, "direction": "Right", "pad_to_multiple_of": null,
                          "pad_id": 1, "pad_type_id": 0, "pad_token": "<pad>" },
            "normalizer": { "type": "Lowercase" }, "pre_tokenizer": { "type": "Whitespace" },
            "post_processor": { "type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0],
                                "trim_offsets": true, "add_prefix_space": false },
            "decoder": null,
            "model": { "type": "WordLevel", "unk_token": "<unk>",
                       "vocab": { "<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3, "cats": 4, "sleep": 5, "dogs": 6, "bark": 7 } }
        });
        PairEncoder::from_bytes(json.to_string().as_bytes()).unwrap()
    }

    fn config() -> ModelConfig {
        serde_json::from_str(include_str!("../../../models/citelens-nli-minilm/config.json")).unwrap()
    }

    #[test]
    fn the_bert_template_is_cls_premise_sep_hypothesis_sep() {
        let enc = bert();
        let got = enc.encode(&config(), "Cats sleep.", "Dogs bark.").unwrap();
        let seq = &got[0].0;
        assert_eq!(seq.input_ids.first(), Some(&101));
        assert_eq!(seq.input_ids.iter().filter(|&&i| i == 102).count(), 2);
        let first_sep = seq.input_ids.iter().position(|&i| i == 102).unwrap();
        assert!(seq.token_type_ids[..=first_sep].iter().all(|&t| t == 0));
        assert!(seq.token_type_ids[first_sep + 1..].iter().all(|&t| t == 1), "{seq:?}");
        assert_eq!(enc.template.added(), 3);
        assert_eq!(enc.pad_id(), 0);
    }

    #[test]
    fn a_roberta_style_post_processor_gives_its_own_pair_format_and_pad_id() {
        let enc = roberta_style();
        let got = enc.encode(&config(), "cats sleep", "dogs bark").unwrap();
        assert_eq!(got[0].0.input_ids, vec![0, 4, 5, 2, 2, 6, 7, 2]);
        assert_eq!(enc.template.added(), 4);
        assert_eq!(enc.pad_id(), 1);
        // A long premise's windows leave room for all four special tokens.
        let long = vec!["cats"; 300].join(" ");
        for (seq, _) in enc.encode(&config(), &long, "dogs bark").unwrap() {
            assert!(seq.input_ids.len() <= config().max_length, "{}", seq.input_ids.len());
            assert_eq!(&seq.input_ids[seq.input_ids.len() - 4..], &[2, 6, 7, 2]);
        }
        assert_eq!(enc.fixed_length("cats", "dogs bark", 20).unwrap().input_ids.len(), 20);
    }

    #[test]
    fn a_tokenizer_without_a_post_processor_is_refused_with_a_reason() {
        let mut json: serde_json::Value =
            serde_json::from_slice(include_bytes!("../../../models/citelens-nli-minilm/tokenizer.json")).unwrap();
        json["post_processor"] = serde_json::Value::Null;
        let err = PairEncoder::from_bytes(json.to_string().as_bytes()).err().unwrap();
        assert!(err.to_string().contains("post_processor"), "{err}");
    }

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
