//! The report: overall verdict, the answer with highlighted spans (hover or focus shows the evidence
//! and marks it in the sources), per-sentence and per-citation badges, graphs, KG metrics, findings.

use citelens_types::{Category, CheckResult, Citation, DecidedBy, EvidenceRef, Input, Report, SentenceReport, SpanLabel, Verdict};
use yew::prelude::*;

use crate::draft::safe_href;
use crate::graph_view::{ReasoningGraphView, TriplesGraphView};
use crate::segments::{mark_ranges, segments, split3};

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
    badge_with(c, confidence, false, None)
}

/// What decided a verdict, in words, for its tooltip.
fn decided_by_text(d: DecidedBy) -> &'static str {
    match d {
        DecidedBy::Rules => "decided by the rules (CAQA's rule over the claims)",
        DecidedBy::FourWayHead => "decided by the four-way head",
        DecidedBy::Model => "decided by the model",
        DecidedBy::Combiner => "decided by the learned combiner",
        DecidedBy::Sentences => "gathered from the sentences' verdicts",
    }
}

/// A verdict's badge, its tooltip naming what decided it.
pub fn verdict_badge(v: &Verdict) -> Html {
    badge_with(v.category, v.confidence, v.uncertain, Some(v.decided_by))
}

/// A category badge; an unsure verdict keeps its category's colour in its own style and says so.
fn badge_with(c: Category, confidence: f32, uncertain: bool, decided_by: Option<DecidedBy>) -> Html {
    let title = match (uncertain, decided_by) {
        (true, Some(d)) => Some(format!("unsure: the evidence does not decide this clearly; {}", decided_by_text(d))),
        (true, None) => Some("unsure: the evidence does not decide this clearly".to_string()),
        (false, Some(d)) => Some(decided_by_text(d).to_string()),
        (false, None) => None,
    };
    html! {
        <span class={classes!("badge", c.as_str(), uncertain.then_some("unsure"))} data-category={c.as_str()} data-uncertain={uncertain.to_string()}
            data-decided-by={decided_by.map(|d| d.as_str())} title={title}>
            <span class="icon" aria-hidden="true">{ if uncertain { "?" } else { match c { Category::Supportive => "✓", Category::PartiallySupportive => "◐", Category::Contradictory => "✗", Category::Irrelevant => "∅" } } }</span>
            { if uncertain { format!(" unsure: {}", category_text(c)) } else { format!(" {} {:.0}%", category_text(c), confidence * 100.0) } }
        </span>
    }
}

/// The typed checks that found something, as the reader's sentences ("the source says 21 July; …").
fn check_lines(s: &citelens_types::SentenceReport) -> Html {
    let lines: Vec<String> =
        s.claims.iter().flat_map(|c| c.checks.iter()).filter(|k| k.result != CheckResult::Match).map(|k| k.message.clone()).collect();
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

/// What the reader is looking at: a highlighted span of the answer, or a sentence of the table.
#[derive(Clone, Copy, PartialEq)]
enum Focus {
    Span(usize),
    Sentence(usize),
}

/// The evidence of a sentence's claims (for a long document, where each claim's evidence was found).
fn sentence_evidence(s: &SentenceReport) -> Vec<EvidenceRef> {
    s.claims.iter().flat_map(|c| c.evidence.iter().cloned()).collect()
}

/// Where each marked piece of a source is: `(citation, start, end)` in characters.
type Marked = Vec<(String, usize, usize)>;

fn marked(evidence: &[EvidenceRef], sentence: Option<&SentenceReport>) -> Marked {
    let mut out: Marked = evidence.iter().filter_map(|e| Some((e.citation.clone(), e.start?, e.end?))).collect();
    // An abstaining sentence: the places its answer may be.
    if let Some(a) = sentence.and_then(|s| s.abstention.as_ref()) {
        out.extend(a.nearest.iter().map(|q| (q.citation.clone(), q.start, q.end)));
    }
    out
}

#[function_component(ReportView)]
pub fn report_view(p: &ReportProps) -> Html {
    let focus = use_state(|| None::<Focus>);
    let r = &p.report;
    let spans_html = segments(&p.input.answer, &r.spans)
        .into_iter()
        .map(|seg| match (seg.span, seg.label) {
            (Some(i), Some(label)) => {
                let enter = {
                    let focus = focus.clone();
                    Callback::from(move |_: MouseEvent| focus.set(Some(Focus::Span(i))))
                };
                let on_focus = {
                    let focus = focus.clone();
                    Callback::from(move |_: FocusEvent| focus.set(Some(Focus::Span(i))))
                };
                let is_active = *focus == Some(Focus::Span(i));
                html! {
                    <mark class={classes!(format!("span-{}", label_name(label)), is_active.then_some("active"))} data-label={label_name(label)}
                        tabindex="0" onmouseenter={enter} onfocus={on_focus} aria-label={format!("{}: {}", label_name(label), seg.text)}>{ seg.text }</mark>
                }
            }
            _ => html! { { seg.text } },
        })
        .collect::<Html>();
    let active_span = match *focus {
        Some(Focus::Span(i)) => r.spans.get(i),
        _ => None,
    };
    let active_sentence = match *focus {
        Some(Focus::Sentence(i)) => r.sentences.get(i),
        _ => None,
    };
    let active_evidence: Vec<EvidenceRef> = match (active_span, active_sentence) {
        (Some(s), _) => s.evidence.clone(),
        (None, Some(s)) => sentence_evidence(s),
        _ => Vec::new(),
    };
    let marks = marked(&active_evidence, active_sentence);
    let focus_sentence = |i: usize| {
        let focus = focus.clone();
        Callback::from(move |_: FocusEvent| focus.set(Some(Focus::Sentence(i))))
    };
    let has_triples = p.input.citations.iter().any(|c| c.triples.is_some());

    html! {
        <div class="report" data-partial={p.partial.to_string()}>
            <div class="overall">
                <span id="overall" data-category={r.overall.category.as_str()}>{ "Overall: " }{ verdict_badge(&r.overall) }</span>
                <span id="complexity" data-complexity={r.complexity.kind.as_str()}>{ format!("Reasoning: {}", r.complexity.kind.as_str()) }</span>
                if let Some(ms) = p.ms {
                    <span class="timing" id="timing">{ format!("verified in {ms:.0} ms, {} pairs", r.pairs_scored) }</span>
                }
            </div>
            { legend() }
            <p class="answer" id="answer-view">{ spans_html }</p>
            <div class="evidence-panel" id="evidence-panel">
                { match active_span {
                    None => match active_sentence {
                        Some(sentence) => sentence_focus_line(sentence, &active_evidence),
                        None => html! { <p class="hint">{ "Hover over or tab to a highlighted span, or click a sentence, to see its evidence." }</p> },
                    },
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
                    <tr class={classes!("sentence", (*focus == Some(Focus::Sentence(i))).then_some("active"))} data-index={i.to_string()} tabindex="0" onfocus={focus_sentence(i)}>
                        <td>{ s.text.clone() }{ check_lines(s) }{ abstention_line(s) }</td>
                        <td>{ match &s.verdict { Some(v) => verdict_badge(v), None => html! { <span class="badge none">{ "not cited" }</span> } } }</td>
                        <td>{ for s.per_citation.iter().map(|c| html! { <span class="per-citation">{ format!("[{}] ", c.citation) }{ badge(c.category, c.confidence) }</span> }) }</td>
                        <td>{ s.complexity.map_or("—", |c| c.as_str()) }</td>
                    </tr>
                }) }
                </tbody>
            </table>
            <h3>{ "Sources" }</h3>
            <div class="sources">
                { for p.input.citations.iter().map(|c| source_card(c, r, &active_evidence, &marks)) }
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
                    { for r.findings.iter().map(|f| html! { <li data-kind={f.kind.as_str()}>{ f.message.clone() }</li> }) }
                </ul>
            }
        </div>
    }
}

/// A source with its verdict; the active span's evidence sentences in it are marked.
fn source_card(c: &Citation, r: &Report, active: &[EvidenceRef], marks: &Marked) -> Html {
    let verdict = r.citations.iter().find(|v| v.citation == c.id);
    let title = c.title.clone().unwrap_or_else(|| format!("Source {}", c.id));
    let heading = match c.url.as_deref().and_then(safe_href) {
        Some(href) => html! { <a href={href} rel="noopener noreferrer" target="_blank">{ title }</a> },
        None => html! { { title } },
    };
    let mut ranges: Vec<(usize, usize)> = marks.iter().filter(|m| m.0 == c.id).map(|m| (m.1, m.2)).collect();
    // Evidence comes best first: the pane scrolls to the best, wherever it is in the document.
    let best = ranges.first().copied();
    ranges.sort();
    ranges.dedup();
    let body = match (&c.document, &c.text) {
        (Some(document), _) => {
            html! { <DocumentPane citation={c.id.clone()} text={AttrValue::from(document.clone())} ranges={ranges.clone()} best={best} /> }
        }
        (None, Some(text)) => {
            // Mark the first active evidence sentence (the best one); the rest are listed in the panel.
            match ranges.first() {
                Some(&(s, e)) => {
                    let (a, b, z) = split3(text, s, e);
                    html! { <p class="source-text">{ a }<mark class="evidence-active">{ b }</mark>{ z }</p> }
                }
                None => html! { <p class="source-text">{ text.clone() }</p> },
            }
        }
        (None, None) => html! {
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

/// The evidence panel for a focused sentence: its claims' evidence, or where it was not found.
fn sentence_focus_line(s: &SentenceReport, evidence: &[EvidenceRef]) -> Html {
    let not_found = s.claims.iter().filter(|c| c.not_found).count();
    html! {
        <>
            <p>{ format!("“{}”", s.text) }</p>
            if not_found > 0 {
                <p class="not-found">{ format!("{not_found} of its {} claim(s): nothing in the document bears on them; the nearest sentences are marked.", s.claims.len()) }</p>
            }
            if let Some(a) = &s.abstention {
                <p class="abstention">{ a.message.clone() }</p>
            }
            if evidence.is_empty() {
                <p>{ "No evidence sentence for it." }</p>
            } else {
                <ul>{ for evidence.iter().map(evidence_line) }</ul>
            }
        </>
    }
}

/// For an abstaining sentence ("The document does not say…"): whether the document really lacks it.
fn abstention_line(s: &SentenceReport) -> Html {
    match &s.abstention {
        Some(a) => {
            html! { <p class={classes!("abstention", a.unanswerable.then_some("confirmed"))} data-unanswerable={a.unanswerable.to_string()}>{ a.message.clone() }</p> }
        }
        None => html! {},
    }
}

#[derive(Properties, PartialEq)]
struct DocumentPaneProps {
    citation: String,
    text: AttrValue,
    /// Character ranges of the focused evidence, sorted.
    ranges: Vec<(usize, usize)>,
    /// The best of them (scrolled to).
    best: Option<(usize, usize)>,
}

/// A long document in a scrolling pane: the focused claim's evidence is marked and scrolled into
/// view inside the pane (the page itself does not jump).
#[function_component(DocumentPane)]
fn document_pane(p: &DocumentPaneProps) -> Html {
    let pane = use_node_ref();
    {
        let pane = pane.clone();
        use_effect_with(p.ranges.clone(), move |_| {
            if let Some(el) = pane.cast::<web_sys::HtmlElement>() {
                let first = el
                    .query_selector("mark.evidence-active.best")
                    .ok()
                    .flatten()
                    .and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok());
                if let Some(mark) = first {
                    // The pane is the marks' offset parent (position: relative in app.css).
                    el.set_scroll_top((mark.offset_top() - el.client_height() / 3).max(0));
                }
            }
        });
    }
    let pieces = mark_ranges(&p.text, &p.ranges);
    let best_start = p.best.map(|b| b.0);
    let mut at = 0;
    html! {
        <div class="document-pane" ref={pane} id={format!("document-{}", p.citation)} data-citation={p.citation.clone()} tabindex="0" aria-label={format!("document [{}]", p.citation)}>
            { for pieces.into_iter().map(|(text, marked)| {
                let start = at;
                at += text.chars().count();
                if marked {
                    html! { <mark class={classes!("evidence-active", (Some(start) == best_start).then_some("best"))}>{ text }</mark> }
                } else {
                    html! { { text } }
                }
            }) }
        </div>
    }
}
