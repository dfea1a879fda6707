//! The report: overall verdict, the answer with highlighted spans (hover or focus shows the evidence
//! and marks it in the sources), per-sentence and per-citation badges, graphs, KG metrics, findings.

use citelens_engine::{Category, Citation, EvidenceRef, Input, Report, SpanLabel};
use yew::prelude::*;

use crate::draft::safe_href;
use crate::graph_view::{ReasoningGraphView, TriplesGraphView};
use crate::segments::{segments, split3};

#[derive(Properties, PartialEq)]
pub struct ReportProps {
    pub input: Input,
    pub report: Report,
    pub partial: bool,
    pub ms: Option<f64>,
}

pub fn category_text(c: Category) -> &'static str {
    match c {
        Category::Supportive => "Supportive",
        Category::PartiallySupportive => "Partially supportive",
        Category::Contradictory => "Contradictory",
        Category::Irrelevant => "Irrelevant",
    }
}

fn label_name(l: SpanLabel) -> &'static str {
    match l {
        SpanLabel::Supported => "supported",
        SpanLabel::Missing => "missing",
        SpanLabel::Contradicted => "contradicted",
        SpanLabel::NotVerifiable => "not_verifiable",
    }
}

pub fn badge(c: Category, confidence: f32) -> Html {
    verdict_badge(c, confidence, false)
}

/// A category badge; an unsure verdict keeps its category's colour in its own style and says so.
pub fn verdict_badge(c: Category, confidence: f32, uncertain: bool) -> Html {
    html! {
        <span class={classes!("badge", c.as_str(), uncertain.then_some("unsure"))} data-category={c.as_str()} data-uncertain={uncertain.to_string()}
            title={uncertain.then_some("unsure: the evidence does not decide this clearly")}>
            <span class="icon" aria-hidden="true">{ if uncertain { "?" } else { match c { Category::Supportive => "✓", Category::PartiallySupportive => "◐", Category::Contradictory => "✗", Category::Irrelevant => "∅" } } }</span>
            { if uncertain { format!(" unsure: {}", category_text(c)) } else { format!(" {} {:.0}%", category_text(c), confidence * 100.0) } }
        </span>
    }
}

/// The typed checks that found something, as the reader's sentences ("the source says 21 July; …").
fn check_lines(s: &citelens_engine::SentenceReport) -> Html {
    let lines: Vec<String> = s
        .claims
        .iter()
        .flat_map(|c| c.checks.iter())
        .filter(|k| k.result == "mismatch" || k.result == "absent" || k.result == "unconfirmed")
        .map(|k| k.message.clone())
        .collect();
    if lines.is_empty() {
        return html! {};
    }
    html! { <ul class="checks">{ for lines.into_iter().map(|l| html! { <li class="check">{ l }</li> }) }</ul> }
}

fn legend() -> Html {
    html! {
        <p class="legend" aria-label="legend">
            <mark class="span-supported">{ "✓ supported" }</mark>{ " " }
            <mark class="span-missing">{ "? missing (not in the source)" }</mark>{ " " }
            <mark class="span-contradicted">{ "✗ contradicted" }</mark>{ " " }
            <mark class="span-not_verifiable">{ "NA not verifiable from the graph" }</mark>
        </p>
    }
}

fn evidence_line(e: &EvidenceRef) -> Html {
    html! {
        <li>
            <strong>{ format!("[{}] ", e.citation) }</strong>
            { e.text.clone() }
            <span class="probs">{ format!(" (entails {:.0}%, contradicts {:.0}%)", e.probabilities.entailment * 100.0, e.probabilities.contradiction * 100.0) }</span>
        </li>
    }
}

#[function_component(ReportView)]
pub fn report_view(p: &ReportProps) -> Html {
    let active = use_state(|| None::<usize>);
    let r = &p.report;
    let spans_html = segments(&p.input.answer, &r.spans)
        .into_iter()
        .map(|seg| match (seg.span, seg.label) {
            (Some(i), Some(label)) => {
                let enter = {
                    let active = active.clone();
                    Callback::from(move |_: MouseEvent| active.set(Some(i)))
                };
                let focus = {
                    let active = active.clone();
                    Callback::from(move |_: FocusEvent| active.set(Some(i)))
                };
                let is_active = *active == Some(i);
                html! {
                    <mark class={classes!(format!("span-{}", label_name(label)), is_active.then_some("active"))} data-label={label_name(label)}
                        tabindex="0" onmouseenter={enter} onfocus={focus} aria-label={format!("{}: {}", label_name(label), seg.text)}>{ seg.text }</mark>
                }
            }
            _ => html! { { seg.text } },
        })
        .collect::<Html>();
    let active_span = active.and_then(|i| r.spans.get(i));
    let has_triples = p.input.citations.iter().any(|c| c.triples.is_some());

    html! {
        <div class="report" data-partial={p.partial.to_string()}>
            <div class="overall">
                <span id="overall" data-category={r.overall.category.as_str()}>{ "Overall: " }{ verdict_badge(r.overall.category, r.overall.confidence, r.overall.uncertain) }</span>
                <span id="complexity" data-complexity={r.complexity.kind.as_str()}>{ format!("Reasoning: {}", r.complexity.kind.as_str()) }</span>
                if let Some(ms) = p.ms {
                    <span class="timing" id="timing">{ format!("verified in {ms:.0} ms, {} pairs", r.pairs_scored) }</span>
                }
            </div>
            { legend() }
            <p class="answer" id="answer-view">{ spans_html }</p>
            <div class="evidence-panel" id="evidence-panel">
                { match active_span {
                    None => html! { <p class="hint">{ "Hover over or tab to a highlighted span to see its evidence." }</p> },
                    Some(s) if s.evidence.is_empty() => html! { <p>{ format!("“{}”: {} — no evidence sentence backs it.", s.text, label_name(s.label)) }</p> },
                    Some(s) => html! {
                        <>
                            <p>{ format!("“{}” is {} by:", s.text, label_name(s.label).replace('_', " ")) }</p>
                            <ul>{ for s.evidence.iter().map(evidence_line) }</ul>
                        </>
                    },
                } }
            </div>
            <h3>{ "Sentences" }</h3>
            <table class="sentences">
                <thead><tr><th>{ "sentence" }</th><th>{ "verdict" }</th><th>{ "per citation" }</th><th>{ "reasoning" }</th></tr></thead>
                <tbody>
                { for r.sentences.iter().enumerate().map(|(i, s)| html! {
                    <tr class="sentence" data-index={i.to_string()}>
                        <td>{ s.text.clone() }{ check_lines(s) }</td>
                        <td>{ match &s.verdict { Some(v) => verdict_badge(v.category, v.confidence, v.uncertain), None => html! { <span class="badge none">{ "not cited" }</span> } } }</td>
                        <td>{ for s.per_citation.iter().map(|c| html! { <span class="per-citation">{ format!("[{}] ", c.citation) }{ badge(c.category, c.confidence) }</span> }) }</td>
                        <td>{ s.complexity.map_or("—", |c| c.as_str()) }</td>
                    </tr>
                }) }
                </tbody>
            </table>
            <h3>{ "Sources" }</h3>
            <div class="sources">
                { for p.input.citations.iter().map(|c| source_card(c, r, active_span.map(|s| s.evidence.as_slice()).unwrap_or(&[]))) }
            </div>
            <h3>{ "Reasoning graph" }</h3>
            <ReasoningGraphView graph={r.complexity.graph.clone()} kind={r.complexity.kind} />
            if has_triples {
                <h3>{ "Knowledge-graph citations" }</h3>
                <TriplesGraphView citations={p.input.citations.clone()} />
            }
            if let Some(kg) = &r.kg {
                <table class="kg" id="kg-metrics">
                    <tr><th>{ "citation correctness" }</th><td>{ format!("{:.0}%", kg.correctness * 100.0) }</td></tr>
                    <tr><th>{ "precision" }</th><td>{ format!("{:.0}%", kg.precision * 100.0) }</td></tr>
                    <tr><th>{ "recall" }</th><td>{ kg.recall.map_or("— (no minimum knowledge given)".to_string(), |v| format!("{:.0}%", v * 100.0)) }</td></tr>
                    <tr><th>{ "alignment" }</th><td>{ format!("{:.0}%", kg.alignment * 100.0) }</td></tr>
                    <tr><th>{ "not verifiable from the graph ([NA])" }</th><td>{ format!("{} sentence(s)", kg.not_verifiable_sentences.len()) }</td></tr>
                </table>
            }
            if !r.findings.is_empty() {
                <h3>{ "Findings" }</h3>
                <ul class="findings" id="findings">
                    { for r.findings.iter().map(|f| html! { <li data-kind={f.kind.clone()}>{ f.message.clone() }</li> }) }
                </ul>
            }
        </div>
    }
}

/// A source with its verdict; the active span's evidence sentences in it are marked.
fn source_card(c: &Citation, r: &Report, active: &[EvidenceRef]) -> Html {
    let verdict = r.citations.iter().find(|v| v.citation == c.id);
    let title = c.title.clone().unwrap_or_else(|| format!("Source {}", c.id));
    let heading = match c.url.as_deref().and_then(safe_href) {
        Some(href) => html! { <a href={href} rel="noopener noreferrer" target="_blank">{ title }</a> },
        None => html! { { title } },
    };
    let mut ranges: Vec<(usize, usize)> = active.iter().filter(|e| e.citation == c.id).filter_map(|e| Some((e.start?, e.end?))).collect();
    ranges.sort();
    let body = match &c.text {
        Some(text) => {
            // Mark the first active evidence sentence (the best one); the rest are listed in the panel.
            match ranges.first() {
                Some(&(s, e)) => {
                    let (a, b, z) = split3(text, s, e);
                    html! { <p class="source-text">{ a }<mark class="evidence-active">{ b }</mark>{ z }</p> }
                }
                None => html! { <p class="source-text">{ text.clone() }</p> },
            }
        }
        None => html! {
            <ul class="triples">
                { for c.triples.iter().flatten().map(|t| {
                    let on = active.iter().any(|e| e.citation == c.id && e.triple.as_ref() == Some(t));
                    html! { <li class={classes!(on.then_some("evidence-active"))}>{ format!("{} — {} — {}", t[0], t[1], t[2]) }</li> }
                }) }
            </ul>
        },
    };
    html! {
        <div class="source-card" data-citation={c.id.clone()}>
            <div class="source-head"><strong>{ format!("[{}] ", c.id) }</strong>{ heading }{ " " }
                { verdict.map_or(html! { <span class="badge none">{ "not cited" }</span> }, |v| badge(v.category, v.confidence)) }
            </div>
            { body }
        </div>
    }
}
