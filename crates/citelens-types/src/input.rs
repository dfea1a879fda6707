//! The input document: a question, an answer with citation markers, and the cited evidence.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::InputError;

type Result<T> = std::result::Result<T, InputError>;

/// One cited answer to verify.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Input {
    /// The user's question (optional; used to tell union from intersection).
    #[serde(default)]
    pub question: Option<String>,
    /// The answer text with markers such as `[1]`, `[1][2]`, `[1, 2]`, `[NA]` or
    /// `[Q212657, occupation: painter]`.
    pub answer: String,
    #[serde(default)]
    pub citations: Vec<Citation>,
    /// For knowledge-graph answers: the triples a complete answer must cite (KaLMA's minimum knowledge).
    #[serde(default)]
    pub minimum_knowledge: Option<Vec<Triple>>,
}

/// A cited source: a passage (`text`) or knowledge-graph facts (`triples`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Citation {
    /// Matches the marker: `1` for `[1]`, `Q212657` for `[Q212657, ...]`.
    #[serde(deserialize_with = "id_from_string_or_number")]
    #[schemars(with = "String")]
    pub id: String,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub triples: Option<Vec<Triple>>,
    /// The knowledge-graph entity these triples describe (its label or id).
    #[serde(default)]
    pub entity: Option<String>,
    /// A long document (a web page, paper or report, as plain text) to find the evidence in: the
    /// engine retrieves and reranks the sentences bearing on each claim, or says none does. Used
    /// in place of `text` when both are given.
    #[serde(default)]
    pub document: Option<String>,
}

/// `[subject, relation, object]`.
pub type Triple = [String; 3];

fn id_from_string_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        other => Err(serde::de::Error::custom(format!("citation id must be a string or number, got {other}"))),
    }
}

/// Size caps: an input over any of them is refused with an error naming the cap.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Caps {
    pub max_answer_chars: usize,
    pub max_citations: usize,
    pub max_citation_chars: usize,
    pub max_triples: usize,
    pub max_question_chars: usize,
    /// A `document`'s length: about 150,000 words, far past LAB's longest articles.
    #[serde(default = "default_max_document_chars")]
    pub max_document_chars: usize,
}

fn default_max_document_chars() -> usize {
    1_048_576
}

impl Default for Caps {
    fn default() -> Self {
        Caps {
            max_answer_chars: 8_000,
            max_citations: 32,
            max_citation_chars: 50_000,
            max_triples: 500,
            max_question_chars: 2_000,
            max_document_chars: default_max_document_chars(),
        }
    }
}

/// One thing `Input::fit_to` cut, for telling the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cut {
    pub what: String,
    pub cap: String,
    pub from: usize,
    pub to: usize,
}

fn cut_chars(text: &mut String, limit: usize, what: String, cap: &str, cuts: &mut Vec<Cut>) {
    let n = text.chars().count();
    if n > limit {
        *text = text.chars().take(limit).collect();
        cuts.push(Cut { what, cap: cap.into(), from: n, to: limit });
    }
}

impl Input {
    /// Cuts the input down to `caps` (for UIs that verify what fits and say what was cut, where the
    /// engine itself refuses); returns what was cut, empty when the input already fits.
    pub fn fit_to(&mut self, caps: &Caps) -> Vec<Cut> {
        let mut cuts = Vec::new();
        cut_chars(&mut self.answer, caps.max_answer_chars, "the answer (characters)".into(), "max_answer_chars", &mut cuts);
        if let Some(q) = &mut self.question {
            cut_chars(q, caps.max_question_chars, "the question (characters)".into(), "max_question_chars", &mut cuts);
        }
        if self.citations.len() > caps.max_citations {
            cuts.push(Cut {
                what: "the citations (count)".into(),
                cap: "max_citations".into(),
                from: self.citations.len(),
                to: caps.max_citations,
            });
            self.citations.truncate(caps.max_citations);
        }
        for c in &mut self.citations {
            if let Some(t) = &mut c.title {
                cut_chars(t, caps.max_citation_chars, format!("citation {:?}'s title (characters)", c.id), "max_citation_chars", &mut cuts);
            }
            let title = c.title.as_deref().map_or(0, |t| t.chars().count());
            if let Some(text) = &mut c.text {
                let room = caps.max_citation_chars.saturating_sub(title);
                cut_chars(text, room, format!("citation {:?}'s text (characters)", c.id), "max_citation_chars", &mut cuts);
            }
            if let Some(d) = &mut c.document {
                cut_chars(
                    d,
                    caps.max_document_chars,
                    format!("citation {:?}'s document (characters)", c.id),
                    "max_document_chars",
                    &mut cuts,
                );
            }
            if let Some(t) = &mut c.triples {
                if t.len() > caps.max_triples {
                    cuts.push(Cut {
                        what: format!("citation {:?}'s triples", c.id),
                        cap: "max_triples".into(),
                        from: t.len(),
                        to: caps.max_triples,
                    });
                    t.truncate(caps.max_triples);
                }
            }
        }
        cuts
    }

    pub fn from_json(text: &str) -> Result<Self> {
        // Name the field that is wrong ("answer: invalid type ..."), not only the column.
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| InputError::Json(e.to_string()))
    }

    pub fn check(&self, caps: &Caps) -> Result<()> {
        let over = |what: String, cap, actual, limit| {
            if actual > limit {
                Err(InputError::TooLarge { what, cap, actual, limit })
            } else {
                Ok(())
            }
        };
        over("the answer's length in characters".into(), "max_answer_chars", self.answer.chars().count(), caps.max_answer_chars)?;
        if let Some(q) = &self.question {
            over("the question's length in characters".into(), "max_question_chars", q.chars().count(), caps.max_question_chars)?;
        }
        over("the number of citations".into(), "max_citations", self.citations.len(), caps.max_citations)?;
        for c in &self.citations {
            let chars = c.text.as_deref().map_or(0, |t| t.chars().count()) + c.title.as_deref().map_or(0, |t| t.chars().count());
            over(format!("citation {:?}'s length in characters", c.id), "max_citation_chars", chars, caps.max_citation_chars)?;
            let triples = c.triples.as_ref().map_or(0, Vec::len);
            over(format!("citation {:?}'s number of triples", c.id), "max_triples", triples, caps.max_triples)?;
            if let Some(d) = &c.document {
                over(
                    format!("citation {:?}'s document length in characters", c.id),
                    "max_document_chars",
                    d.chars().count(),
                    caps.max_document_chars,
                )?;
                crate::document_text::check(d).map_err(|error| InputError::Document { citation: c.id.clone(), error })?;
            }
        }
        Ok(())
    }
}

/// The JSON Schema of the input document (`citelens schema`).
pub fn input_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Input)).expect("schema serialises")
}
