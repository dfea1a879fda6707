//! What the form holds, and how it becomes the engine's input document.

use citelens_types::{Citation, Input};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    Passage,
    Triples,
    /// A long document (a page, paper or report as text) the evidence is found in.
    Document,
}

/// One source as the user edits it.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceDraft {
    pub kind: SourceKind,
    pub id: String,
    pub title: String,
    pub url: String,
    pub text: String,
    /// Triples, one per line: `subject | relation | object`.
    pub triples: String,
    pub entity: String,
}

impl SourceDraft {
    pub fn passage(id: usize) -> Self {
        SourceDraft {
            kind: SourceKind::Passage,
            id: id.to_string(),
            title: String::new(),
            url: String::new(),
            text: String::new(),
            triples: String::new(),
            entity: String::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Draft {
    pub question: String,
    pub answer: String,
    pub sources: Vec<SourceDraft>,
}

fn non_empty(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// A change to the form.
#[derive(Debug, Clone, PartialEq)]
pub enum DraftEdit {
    /// The whole form (typing, an example, pasted JSON).
    Replace(Draft),
    /// A file's text for the document source `id` (`name`: the file's name, the title if none).
    DocumentRead { id: String, name: String, text: String },
}

/// A triples line that is not `subject | relation | object`.
#[derive(Debug, PartialEq)]
pub struct BadTriple {
    pub source: String,
    pub line: usize,
}

pub fn parse_triples(text: &str) -> Result<Vec<[String; 3]>, usize> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        match parts.as_slice() {
            [s, r, o] if !s.is_empty() && !r.is_empty() && !o.is_empty() => out.push([s.to_string(), r.to_string(), o.to_string()]),
            _ => return Err(i + 1),
        }
    }
    Ok(out)
}

impl Draft {
    pub fn to_input(&self) -> Result<Input, BadTriple> {
        let mut citations = Vec::new();
        for s in &self.sources {
            let mut c = Citation { id: s.id.trim().to_string(), ..Default::default() };
            match s.kind {
                SourceKind::Passage => {
                    c.text = Some(s.text.clone());
                    c.title = non_empty(&s.title);
                    c.url = non_empty(&s.url);
                }
                SourceKind::Triples => {
                    c.triples = Some(parse_triples(&s.triples).map_err(|line| BadTriple { source: s.id.clone(), line })?);
                    c.entity = non_empty(&s.entity);
                }
                SourceKind::Document => {
                    c.document = Some(s.text.clone());
                    c.title = non_empty(&s.title);
                    c.url = non_empty(&s.url);
                }
            }
            citations.push(c);
        }
        Ok(Input { question: non_empty(&self.question), answer: self.answer.clone(), citations, minimum_knowledge: None })
    }

    /// The form for an input document (pasted JSON or an example).
    pub fn from_input(input: &Input) -> Self {
        let sources = input
            .citations
            .iter()
            .map(|c| match (&c.triples, &c.document) {
                (_, Some(d)) => SourceDraft {
                    kind: SourceKind::Document,
                    id: c.id.clone(),
                    title: c.title.clone().unwrap_or_default(),
                    url: c.url.clone().unwrap_or_default(),
                    text: d.clone(),
                    triples: String::new(),
                    entity: String::new(),
                },
                (Some(t), None) => SourceDraft {
                    kind: SourceKind::Triples,
                    id: c.id.clone(),
                    title: c.title.clone().unwrap_or_default(),
                    url: c.url.clone().unwrap_or_default(),
                    text: String::new(),
                    triples: t.iter().map(|[s, r, o]| format!("{s} | {r} | {o}")).collect::<Vec<_>>().join("\n"),
                    entity: c.entity.clone().unwrap_or_default(),
                },
                (None, None) => SourceDraft {
                    kind: SourceKind::Passage,
                    id: c.id.clone(),
                    title: c.title.clone().unwrap_or_default(),
                    url: c.url.clone().unwrap_or_default(),
                    text: c.text.clone().unwrap_or_default(),
                    triples: String::new(),
                    entity: String::new(),
                },
            })
            .collect();
        Draft { question: input.question.clone().unwrap_or_default(), answer: input.answer.clone(), sources }
    }

    /// Applies one edit. A document read from a file arrives after a while: it goes to the
    /// document source with that id if there still is one (never to whatever took its place), and
    /// edits made while it was read are kept.
    pub fn apply(&mut self, edit: DraftEdit) {
        match edit {
            DraftEdit::Replace(d) => *self = d,
            DraftEdit::DocumentRead { id, name, text } => {
                if let Some(s) = self.sources.iter_mut().find(|s| s.kind == SourceKind::Document && s.id == id) {
                    s.text = text;
                    if s.title.trim().is_empty() {
                        s.title = name;
                    }
                }
            }
        }
    }

    /// The next unused numeric id for a new source.
    pub fn next_id(&self) -> usize {
        self.sources.iter().filter_map(|s| s.id.trim().parse::<usize>().ok()).max().unwrap_or(0) + 1
    }
}

/// Only http(s) URLs become links; anything else (`javascript:`, `data:`) is shown as text.
pub fn safe_href(url: &str) -> Option<String> {
    let u = url.trim();
    let lower = u.to_ascii_lowercase();
    (lower.starts_with("https://") || lower.starts_with("http://")).then(|| u.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_passages_and_triples() {
        let input = Input::from_json(
            r#"{"question":"Q?","answer":"A [1] [Q1, occupation: painter].","citations":[
                {"id":1,"text":"Passage.","title":"T","url":"https://x.org"},
                {"id":"Q1","triples":[["Q1","occupation","painter"]],"entity":"Ann"}]}"#,
        )
        .unwrap();
        let draft = Draft::from_input(&input);
        assert_eq!(draft.sources[1].triples, "Q1 | occupation | painter");
        let back = draft.to_input().unwrap();
        assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&input).unwrap());
        assert_eq!(draft.next_id(), 2);
    }

    #[test]
    fn round_trip_long_documents() {
        let input = Input::from_json(
            r#"{"answer":"The museum opened in 1887.","citations":[{"id":"doc","document":"Long text.\n\nMore.","title":"Museum"}]}"#,
        )
        .unwrap();
        let draft = Draft::from_input(&input);
        assert_eq!(draft.sources[0].kind, SourceKind::Document);
        assert_eq!(serde_json::to_value(draft.to_input().unwrap()).unwrap(), serde_json::to_value(&input).unwrap());
    }

    #[test]
    fn a_document_read_late_keeps_later_edits() {
        let mut typed = Draft { answer: "typed while the file was read".into(), ..Draft::default() };
        typed.sources.push(SourceDraft { kind: SourceKind::Document, ..SourceDraft::passage(1) });
        typed.sources.push(SourceDraft::passage(2));
        let mut d = Draft::default();
        d.apply(DraftEdit::Replace(typed));
        d.apply(DraftEdit::DocumentRead { id: "1".into(), name: "paper.pdf".into(), text: "Body.".into() });
        assert_eq!((d.sources[0].text.as_str(), d.sources[0].title.as_str()), ("Body.", "paper.pdf"));
        assert_eq!(d.answer, "typed while the file was read");
        // The source was removed (or is a passage now): the text goes nowhere.
        d.apply(DraftEdit::DocumentRead { id: "2".into(), name: "x.txt".into(), text: "Other.".into() });
        assert_eq!(d.sources[1].text, "");
    }

    #[test]
    fn bad_triple_line_is_named() {
        let mut d = Draft::default();
        d.sources.push(SourceDraft {
            kind: SourceKind::Triples,
            triples: "a | b | c\n\nonly two | parts".into(),
            ..SourceDraft::passage(3)
        });
        assert_eq!(d.to_input().unwrap_err(), BadTriple { source: "3".into(), line: 3 });
    }

    #[test]
    fn only_http_urls_are_links() {
        assert_eq!(safe_href(" https://a.org/x "), Some("https://a.org/x".into()));
        assert_eq!(safe_href("javascript:alert(1)"), None);
        assert_eq!(safe_href("JaVaScRiPt:alert(1)"), None);
        assert_eq!(safe_href("data:text/html,<script>"), None);
    }
}
