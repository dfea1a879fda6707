//! The input form: question, answer, sources (passages or triples) that can be added and removed,
//! a pasted JSON document, and the paper examples.

use citelens_engine::Input;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::api;
use crate::draft::{Draft, SourceDraft, SourceKind};

#[derive(Properties, PartialEq)]
pub struct FormProps {
    pub draft: Draft,
    pub on_change: Callback<Draft>,
    pub on_verify: Callback<Input>,
    pub can_verify: bool,
}

fn input_value(e: &InputEvent) -> String {
    let t = e.target();
    if let Some(el) = t.as_ref().and_then(|t| wasm_bindgen::JsCast::dyn_ref::<HtmlTextAreaElement>(t)) {
        return el.value();
    }
    t.as_ref().and_then(|t| wasm_bindgen::JsCast::dyn_ref::<HtmlInputElement>(t)).map(|el| el.value()).unwrap_or_default()
}

/// A callback that edits a copy of the draft with the input's new value.
fn edit(p: &FormProps, f: impl Fn(&mut Draft, String) + 'static) -> Callback<InputEvent> {
    let draft = p.draft.clone();
    let on_change = p.on_change.clone();
    Callback::from(move |e: InputEvent| {
        let mut d = draft.clone();
        f(&mut d, input_value(&e));
        on_change.emit(d);
    })
}

#[function_component(InputForm)]
pub fn input_form(p: &FormProps) -> Html {
    let examples = use_state(|| None::<Result<Vec<serde_json::Value>, String>>);
    let paste = use_state(String::new);
    let message = use_state(|| None::<String>);
    {
        let examples = examples.clone();
        use_effect_with((), move |_| wasm_bindgen_futures::spawn_local(async move { examples.set(Some(api::fetch_examples().await)) }));
    }

    let on_example = {
        let examples = examples.clone();
        let on_change = p.on_change.clone();
        let message = message.clone();
        Callback::from(move |e: Event| {
            let Some(sel) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlSelectElement>(t).ok()) else { return };
            let Ok(i) = sel.value().parse::<usize>() else { return };
            if let Some(Ok(list)) = &*examples {
                match list.get(i).map(|v| serde_json::from_value::<Input>(v.clone())) {
                    Some(Ok(input)) => {
                        on_change.emit(Draft::from_input(&input));
                        message.set(None);
                    }
                    Some(Err(err)) => message.set(Some(format!("That example does not parse: {err}"))),
                    None => {}
                }
            }
        })
    };
    let on_paste_input = {
        let paste = paste.clone();
        Callback::from(move |e: InputEvent| paste.set(input_value(&e)))
    };
    let on_load_json = {
        let paste = paste.clone();
        let on_change = p.on_change.clone();
        let message = message.clone();
        Callback::from(move |_| match Input::from_json(&paste) {
            Ok(input) => {
                on_change.emit(Draft::from_input(&input));
                message.set(None);
            }
            Err(e) => message.set(Some(e.to_string())),
        })
    };
    let on_submit = {
        let draft = p.draft.clone();
        let on_verify = p.on_verify.clone();
        let message = message.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match draft.to_input() {
                Ok(input) if input.answer.trim().is_empty() => message.set(Some("The answer is empty: there is nothing to verify.".into())),
                Ok(input) => {
                    message.set(None);
                    on_verify.emit(input);
                }
                Err(bad) => message.set(Some(format!("Source {}: line {} of its triples is not `subject | relation | object`.", bad.source, bad.line))),
            }
        })
    };
    let add = |kind: SourceKind| {
        let draft = p.draft.clone();
        let on_change = p.on_change.clone();
        Callback::from(move |_| {
            let mut d = draft.clone();
            d.sources.push(SourceDraft { kind, ..SourceDraft::passage(d.next_id()) });
            on_change.emit(d);
        })
    };

    let example_menu = match &*examples {
        None => html! { <option disabled=true>{ "loading examples…" }</option> },
        Some(Err(_)) => html! { <option disabled=true>{ "examples not available" }</option> },
        Some(Ok(list)) => html! {
            { for list.iter().enumerate().map(|(i, v)| {
                let id = v.get("id").and_then(|x| x.as_str()).unwrap_or("example");
                let src = v.get("source").and_then(|x| x.as_str()).unwrap_or("");
                html! { <option value={i.to_string()}>{ format!("{id} ({src})") }</option> }
            }) }
        },
    };

    html! {
        <form onsubmit={on_submit} id="input-form">
            <label class="row">{ "Paper examples " }
                <select id="example-menu" onchange={on_example}>
                    <option value="" selected=true>{ "— pick one —" }</option>
                    { example_menu }
                </select>
            </label>
            <label for="question">{ "Question (optional)" }</label>
            <input id="question" type="text" value={p.draft.question.clone()} oninput={edit(p, |d, v| d.question = v)} />
            <label for="answer">{ "Answer, with citation markers such as [1], [1][2], [NA] or [Q212657, occupation: painter]" }</label>
            <textarea id="answer" rows="5" value={p.draft.answer.clone()} oninput={edit(p, |d, v| d.answer = v)} />
            <h2>{ format!("Sources ({})", p.draft.sources.len()) }</h2>
            if p.draft.sources.is_empty() {
                <p class="notice warn" id="no-sources">{ "No sources yet: without them every claim is unverifiable. Add a passage or triples." }</p>
            }
            { for p.draft.sources.iter().enumerate().map(|(i, s)| source_editor(p, i, s)) }
            <div class="row">
                <button type="button" id="add-passage" onclick={add(SourceKind::Passage)}>{ "+ Passage" }</button>
                <button type="button" id="add-triples" onclick={add(SourceKind::Triples)}>{ "+ Knowledge-graph triples" }</button>
            </div>
            <details>
                <summary>{ "Paste a JSON input document" }</summary>
                <textarea id="json-input" rows="6" value={(*paste).clone()} oninput={on_paste_input}
                    placeholder={r#"{"question": "...", "answer": "... [1]", "citations": [{"id": 1, "text": "..."}]}"#} />
                <button type="button" id="load-json" onclick={on_load_json}>{ "Load JSON" }</button>
            </details>
            if let Some(m) = &*message {
                <p class="notice error" id="form-error" role="alert">{ m.clone() }</p>
            }
            <button type="submit" id="verify" class="primary" disabled={!p.can_verify}>{ "Verify" }</button>
        </form>
    }
}

fn source_editor(p: &FormProps, i: usize, s: &SourceDraft) -> Html {
    let remove = {
        let draft = p.draft.clone();
        let on_change = p.on_change.clone();
        Callback::from(move |_| {
            let mut d = draft.clone();
            d.sources.remove(i);
            on_change.emit(d);
        })
    };
    let body = match s.kind {
        SourceKind::Passage => html! {
            <>
                <input class="src-title" placeholder="title" value={s.title.clone()} oninput={edit(p, move |d, v| d.sources[i].title = v)} />
                <input class="src-url" placeholder="https://…" value={s.url.clone()} oninput={edit(p, move |d, v| d.sources[i].url = v)} />
                <textarea class="src-text" rows="4" placeholder="passage text" value={s.text.clone()} oninput={edit(p, move |d, v| d.sources[i].text = v)} />
            </>
        },
        SourceKind::Triples => html! {
            <>
                <input class="src-entity" placeholder="entity (label or id)" value={s.entity.clone()} oninput={edit(p, move |d, v| d.sources[i].entity = v)} />
                <textarea class="src-triples" rows="4" placeholder="subject | relation | object (one per line)" value={s.triples.clone()} oninput={edit(p, move |d, v| d.sources[i].triples = v)} />
            </>
        },
    };
    html! {
        <fieldset class="source" data-index={i.to_string()}>
            <legend>{ if s.kind == SourceKind::Passage { "Passage" } else { "Triples" } }</legend>
            <div class="row">
                <label>{ "id " }<input class="src-id" size="10" value={s.id.clone()} oninput={edit(p, move |d, v| d.sources[i].id = v)} /></label>
                <button type="button" class="remove" onclick={remove} aria-label={format!("remove source {}", s.id)}>{ "Remove" }</button>
            </div>
            { body }
        </fieldset>
    }
}
