//! The input form: question, answer, sources (passages, triples or long documents: pasted, or read
//! from a .txt / .html / .pdf file) that can be added and removed, a pasted JSON document, the paper
//! examples and the CAQA generator's examples.

use citelens_types::{Category, Input};
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::api;
use crate::draft::{Draft, DraftEdit, SourceDraft, SourceKind};

#[derive(Properties, PartialEq)]
pub struct FormProps {
    pub draft: Draft,
    pub on_change: Callback<Draft>,
    /// Edits that arrive later than the input event (a file's text).
    pub on_edit: Callback<DraftEdit>,
    pub on_verify: Callback<Input>,
    pub can_verify: bool,
    /// A generated example was picked (its gold), or another example replaced it (None).
    pub on_gold: Callback<Option<GeneratedGold>>,
}

/// A generated example's input and gold category: the report of that same input says whether
/// citelens agrees with the generator.
#[derive(Clone, PartialEq)]
pub struct GeneratedGold {
    pub input: Input,
    pub category: Category,
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
    let paste = use_state(String::new);
    let message = use_state(|| None::<String>);
    // A file being read into a document source ("Reading report.pdf…").
    let reading = use_state(|| None::<String>);
    // The gold reading of a generated example, shown beside the form so the verdict can be compared.
    let gold = use_state(|| None::<String>);

    let on_pick = |with_gold: bool| {
        let on_change = p.on_change.clone();
        let message = message.clone();
        let gold = gold.clone();
        let on_gold = p.on_gold.clone();
        Callback::from(move |v: serde_json::Value| match serde_json::from_value::<Input>(v.clone()) {
            Ok(input) => {
                on_change.emit(Draft::from_input(&input));
                message.set(None);
                gold.set(if with_gold { gold_reading(&v) } else { None });
                let category = v.get("label").cloned().and_then(|l| serde_json::from_value::<Category>(l).ok());
                on_gold.emit(category.filter(|_| with_gold).map(|category| GeneratedGold { input, category }));
            }
            Err(err) => message.set(Some(format!("That example does not parse: {err}"))),
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
                Err(bad) => message
                    .set(Some(format!("Source {}: line {} of its triples is not `subject | relation | object`.", bad.source, bad.line))),
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

    html! {
        <form onsubmit={on_submit} id="input-form">
            <ExampleMenu file="examples.json" label="Paper examples " id="example-menu" kind={ExampleKind::Paper} on_pick={on_pick(false)} />
            <ExampleMenu file="generated.json" label="Generated examples (CAQA test split) " id="generated-menu" kind={ExampleKind::Generated} on_pick={on_pick(true)} />
            if let Some(g) = &*gold {
                <p class="notice" id="generated-gold">{ g.clone() }</p>
            }
            <label for="question">{ "Question (optional)" }</label>
            <input id="question" type="text" value={p.draft.question.clone()} oninput={edit(p, |d, v| d.question = v)} />
            <label for="answer">{ "Answer, with citation markers such as [1], [1][2], [NA] or [Q212657, occupation: painter]" }</label>
            <textarea id="answer" rows="5" value={p.draft.answer.clone()} oninput={edit(p, |d, v| d.answer = v)} />
            <h2>{ format!("Sources ({})", p.draft.sources.len()) }</h2>
            if p.draft.sources.is_empty() {
                <p class="notice warn" id="no-sources">{ "No sources yet: without them every claim is unverifiable. Add a passage or triples." }</p>
            }
            { for p.draft.sources.iter().enumerate().map(|(i, s)| source_editor(p, i, s, &message, &reading)) }
            <div class="row">
                <button type="button" id="add-passage" onclick={add(SourceKind::Passage)}>{ "+ Passage" }</button>
                <button type="button" id="add-triples" onclick={add(SourceKind::Triples)}>{ "+ Knowledge-graph triples" }</button>
                <button type="button" id="add-document" onclick={add(SourceKind::Document)}>{ "+ Long document" }</button>
            </div>
            <details>
                <summary>{ "Paste a JSON input document" }</summary>
                <textarea id="json-input" rows="6" value={(*paste).clone()} oninput={on_paste_input}
                    placeholder={r#"{"question": "...", "answer": "... [1]", "citations": [{"id": 1, "text": "..."}]}"#} />
                <button type="button" id="load-json" onclick={on_load_json}>{ "Load JSON" }</button>
            </details>
            if let Some(r) = &*reading {
                <p class="notice" id="file-status" role="status">{ r.clone() }</p>
            }
            if let Some(m) = &*message {
                <p class="notice error" id="form-error" role="alert">{ m.clone() }</p>
            }
            <button type="submit" id="verify" class="primary" disabled={!p.can_verify}>{ "Verify" }</button>
        </form>
    }
}

fn field<'a>(v: &'a serde_json::Value, key: &str) -> &'a str {
    v.get(key).and_then(|x| x.as_str()).unwrap_or("")
}

/// Which list a menu shows, and so how an entry is named.
#[derive(Clone, Copy, PartialEq)]
enum ExampleKind {
    Paper,
    Generated,
}

impl ExampleKind {
    fn describe(self, v: &serde_json::Value) -> String {
        match self {
            ExampleKind::Paper => format!("{} ({})", v.get("id").and_then(|x| x.as_str()).unwrap_or("example"), field(v, "source")),
            // The gold cell first ("partially supportive · union · triples — What is …?"): the menu
            // is for trying each category and complexity.
            ExampleKind::Generated => {
                let question: String = field(v, "question").chars().take(80).collect();
                format!(
                    "{} · {} · {} — {}",
                    field(v, "label").replace('_', " "),
                    field(v, "complexity"),
                    field(v, "citation_style"),
                    question
                )
            }
        }
    }
}

fn gold_reading(v: &serde_json::Value) -> Option<String> {
    let label = field(v, "label");
    (!label.is_empty()).then(|| {
        format!(
            "Generated example {}: gold category {}, complexity {}, {} citations.",
            field(v, "id"),
            label.replace('_', " "),
            field(v, "complexity"),
            field(v, "citation_style")
        )
    })
}

#[derive(Properties, PartialEq)]
struct ExampleMenuProps {
    /// Staged beside the app at build time (scripts/stage-engine.sh).
    file: AttrValue,
    label: AttrValue,
    id: AttrValue,
    kind: ExampleKind,
    on_pick: Callback<serde_json::Value>,
}

/// A drop-down of examples fetched from a JSON list; says so when the list is missing.
#[function_component(ExampleMenu)]
fn example_menu(p: &ExampleMenuProps) -> Html {
    let examples = use_state(|| None::<Result<Vec<serde_json::Value>, String>>);
    {
        let examples = examples.clone();
        use_effect_with(p.file.clone(), move |file| {
            let file = file.clone();
            wasm_bindgen_futures::spawn_local(async move { examples.set(Some(api::fetch_example_list(&file).await)) })
        });
    }
    let on_change = {
        let examples = examples.clone();
        let on_pick = p.on_pick.clone();
        Callback::from(move |e: Event| {
            let Some(sel) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlSelectElement>(t).ok()) else { return };
            let Ok(i) = sel.value().parse::<usize>() else { return };
            if let Some(Ok(list)) = &*examples {
                if let Some(v) = list.get(i) {
                    on_pick.emit(v.clone());
                }
            }
        })
    };
    let options = match &*examples {
        None => html! { <option disabled=true>{ "loading examples…" }</option> },
        Some(Err(_)) => html! { <option disabled=true>{ "examples not available" }</option> },
        Some(Ok(list)) => html! {
            { for list.iter().enumerate().map(|(i, v)| html! { <option value={i.to_string()}>{ p.kind.describe(v) }</option> }) }
        },
    };
    html! {
        <label class="row">{ p.label.clone() }
            <select id={p.id.clone()} onchange={on_change}>
                <option value="" selected=true>{ "— pick one —" }</option>
                { options }
            </select>
        </label>
    }
}

/// Reads the file picked for document source `id` in the background; its text comes back as an edit.
fn on_document_file(
    p: &FormProps,
    id: String,
    message: &UseStateHandle<Option<String>>,
    reading: &UseStateHandle<Option<String>>,
) -> Callback<Event> {
    let on_edit = p.on_edit.clone();
    let (message, reading) = (message.clone(), reading.clone());
    Callback::from(move |e: Event| {
        let Some(input) = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let (on_edit, message, reading, id) = (on_edit.clone(), message.clone(), reading.clone(), id.clone());
        reading.set(Some(format!("Reading {}…", file.name())));
        // The same file picked again must fire `change` again.
        input.set_value("");
        wasm_bindgen_futures::spawn_local(async move {
            let result = api::document_text(&file).await;
            reading.set(None);
            match result {
                Ok(doc) => {
                    message.set(doc.cut.then(|| {
                        format!(
                            "{} has {:.0} characters of text: only the first {} are kept and verified against.",
                            file.name(),
                            doc.chars,
                            doc.text.chars().count()
                        )
                    }));
                    on_edit.emit(DraftEdit::DocumentRead { id, name: file.name(), text: doc.text });
                }
                Err(e) => message.set(Some(format!("{} could not be read: {e}", file.name()))),
            }
        });
    })
}

/// "1,234 words" for the document editor.
fn size_line(text: &str) -> String {
    let words = text.split_whitespace().count();
    if words == 0 {
        return "empty: paste the text, or open a .txt, .html or .pdf file".into();
    }
    format!("{words} words, {} characters", text.chars().count())
}

fn source_editor(
    p: &FormProps,
    i: usize,
    s: &SourceDraft,
    message: &UseStateHandle<Option<String>>,
    reading: &UseStateHandle<Option<String>>,
) -> Html {
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
        SourceKind::Document => html! {
            <>
                <input class="src-title" placeholder="title" value={s.title.clone()} oninput={edit(p, move |d, v| d.sources[i].title = v)} />
                <input class="src-url" placeholder="https://…" value={s.url.clone()} oninput={edit(p, move |d, v| d.sources[i].url = v)} />
                <label class="row">{ "Open a file " }
                    <input type="file" class="src-file" accept=".txt,.md,.html,.htm,.pdf,text/plain,text/html,application/pdf" onchange={on_document_file(p, s.id.clone(), message, reading)} />
                </label>
                <textarea class="src-document" rows="8" placeholder="or paste the document's text (a web page, a paper, a report)" value={s.text.clone()} oninput={edit(p, move |d, v| d.sources[i].text = v)} />
                <p class="doc-size">{ size_line(&s.text) }</p>
            </>
        },
    };
    html! {
        <fieldset class="source" data-index={i.to_string()}>
            <legend>{ match s.kind { SourceKind::Passage => "Passage", SourceKind::Triples => "Triples", SourceKind::Document => "Long document" } }</legend>
            <div class="row">
                <label>{ "id " }<input class="src-id" size="10" value={s.id.clone()} oninput={edit(p, move |d, v| d.sources[i].id = v)} /></label>
                <button type="button" class="remove" onclick={remove} aria-label={format!("remove source {}", s.id)}>{ "Remove" }</button>
            </div>
            { body }
        </fieldset>
    }
}
