//! `--format pretty`: the answer with coloured spans, the categories, and the reasoning graph.

use std::io::Write;

use citelens_engine::{Input, Report, SpanLabel};

const RESET: &str = "\x1b[0m";

/// Answer and evidence come from web pages: their control characters (escape sequences) are
/// shown as U+FFFD, never sent to the terminal.
fn printable(c: char) -> char {
    if c.is_control() && c != '\n' && c != '\t' {
        '\u{FFFD}'
    } else {
        c
    }
}

fn clean(s: &str) -> String {
    s.chars().map(printable).collect()
}

fn colour(label: SpanLabel) -> &'static str {
    match label {
        SpanLabel::Supported => "\x1b[32m",
        SpanLabel::Missing => "\x1b[33;4m",
        SpanLabel::Contradicted => "\x1b[31;1m",
        SpanLabel::NotVerifiable => "\x1b[90m",
    }
}

pub fn write(out: &mut impl Write, input: &Input, r: &Report) -> std::io::Result<()> {
    if let Some(q) = input.question.as_deref().filter(|q| !q.is_empty()) {
        writeln!(out, "\x1b[1mQ: {}{RESET}", clean(q))?;
    }
    let chars: Vec<char> = input.answer.chars().map(printable).collect();
    let mut line = String::new();
    let mut at = 0;
    for s in &r.spans {
        line.extend(chars[at.min(chars.len())..s.start.min(chars.len())].iter());
        line.push_str(colour(s.label));
        line.extend(chars[s.start.min(chars.len())..s.end.min(chars.len())].iter());
        line.push_str(RESET);
        at = s.end;
    }
    line.extend(chars[at.min(chars.len())..].iter());
    writeln!(out, "{line}")?;
    writeln!(
        out,
        "  {}supported{RESET}  {}missing{RESET}  {}contradicted{RESET}  {}not verifiable{RESET}",
        colour(SpanLabel::Supported),
        colour(SpanLabel::Missing),
        colour(SpanLabel::Contradicted),
        colour(SpanLabel::NotVerifiable)
    )?;
    writeln!(out, "overall: {} ({:.2})   complexity: {}", r.overall.category.as_str(), r.overall.confidence, r.complexity.kind.as_str())?;
    for (i, s) in r.sentences.iter().enumerate() {
        let verdict = s.verdict.as_ref().map_or("not verified".to_string(), |v| format!("{} ({:.2})", v.category.as_str(), v.confidence));
        writeln!(out, "sentence {}: {verdict}", i + 1)?;
        for c in &s.per_citation {
            writeln!(out, "    [{}] {} ({:.2})", clean(&c.citation), c.category.as_str(), c.confidence)?;
        }
        for c in &s.claims {
            let p = c.probabilities;
            writeln!(
                out,
                "    claim {:?}: {:?} (e {:.2} n {:.2} c {:.2}, by {})",
                clean(&c.text),
                c.status,
                p.entailment,
                p.neutral,
                p.contradiction,
                c.decided_by
            )?;
            if let Some(e) = c.evidence.first() {
                writeln!(out, "      evidence [{}]: {:?}", clean(&e.citation), clean(&e.text))?;
            }
        }
    }
    writeln!(out, "reasoning graph:")?;
    for e in &r.complexity.graph.edges {
        let label = |id: &str| r.complexity.graph.nodes.iter().find(|n| n.id == id).map_or(id.to_string(), |n| n.label.clone());
        writeln!(out, "    {} --{}--> {}", clean(&label(&e.from)), e.kind, clean(&label(&e.to)))?;
    }
    if let Some(kg) = &r.kg {
        writeln!(
            out,
            "knowledge graph: correctness {:.2}, precision {:.2}, recall {}, alignment {:.2}",
            kg.correctness,
            kg.precision,
            kg.recall.map_or("n/a".into(), |x| format!("{x:.2}")),
            kg.alignment
        )?;
        for i in &kg.not_verifiable_sentences {
            writeln!(out, "    sentence {}: [NA], not verifiable from the graph", i + 1)?;
        }
    }
    for f in &r.findings {
        writeln!(out, "finding {}: {}", f.kind, clean(&f.message))?;
    }
    writeln!(out)?;
    Ok(())
}
