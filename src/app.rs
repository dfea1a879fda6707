//! The page: model status, the input form, and the report of the last run.

use citelens_types::{Caps, Category, Cut, Input, Report};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::api::{self, ModelInfo, Progress};
use crate::draft::{Draft, DraftEdit};
use crate::form::{GeneratedGold, InputForm};
use crate::report_view::ReportView;

#[derive(Clone, PartialEq)]
pub enum ModelState {
    Waiting,
    Loading(Progress),
    Ready(ModelInfo),
    Failed(String),
}

#[derive(Clone, PartialEq)]
pub enum RunState {
    Idle,
    /// `evidence`: with long documents, candidate sentences scored of all (before the first report).
    Running {
        input: Input,
        partial: Option<(Report, u32, u32)>,
        evidence: Option<(u32, u32)>,
    },
    Done {
        input: Input,
        report: Report,
        ms: f64,
    },
    Failed(String),
}

/// `?worker=0` forces the single-threaded fallback (the engine on the page's thread).
fn worker_wanted() -> bool {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    !search.contains("worker=0")
}

fn start_loading(model: UseStateHandle<ModelState>) {
    let progress = model.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let result = api::load(worker_wanted(), move |p| progress.set(ModelState::Loading(p))).await;
        model.set(match result {
            Ok(info) => ModelState::Ready(info),
            Err(e) => ModelState::Failed(e),
        });
    });
}

#[function_component(App)]
pub fn app() -> Html {
    let model = use_state(|| ModelState::Waiting);
    let run = use_state(|| RunState::Idle);
    let cuts = use_state(Vec::<Cut>::new);
    // A reducer, not a plain state: a file read in the background edits the form it finds then.
    let draft = use_reducer(FormState::default);
    // Finished runs, on the report panel as data-runs: lets scripts and tests wait for a new result.
    let runs = use_state(|| 0u32);
    // The generated example last picked, with its gold category.
    let picked = use_state(|| None::<GeneratedGold>);

    {
        let model = model.clone();
        use_effect_with((), move |_| {
            if api::available() {
                start_loading(model);
            } else {
                // index.html sets window.citelens from a module script that may finish after us.
                let listener = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || start_loading(model.clone()));
                if let Some(w) = web_sys::window() {
                    let opts = web_sys::AddEventListenerOptions::new();
                    opts.set_once(true);
                    let _ = w.add_event_listener_with_callback_and_add_event_listener_options(
                        "citelens-api-ready",
                        listener.as_ref().unchecked_ref(),
                        &opts,
                    );
                }
                listener.forget();
            }
        });
    }

    let on_verify = {
        let run = run.clone();
        let cuts = cuts.clone();
        let runs = runs.clone();
        Callback::from(move |mut input: Input| {
            cuts.set(input.fit_to(&Caps::default()));
            run.set(RunState::Running { input: input.clone(), partial: None, evidence: None });
            let run = run.clone();
            let runs = runs.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let started = api::now_ms();
                let (partial_run, evidence_run) = (run.clone(), run.clone());
                let (partial_input, evidence_input) = (input.clone(), input.clone());
                let result = api::verify(
                    &input,
                    move |report, done, total| {
                        partial_run.set(RunState::Running {
                            input: partial_input.clone(),
                            partial: Some((report, done, total)),
                            evidence: None,
                        })
                    },
                    move |done, total| {
                        evidence_run.set(RunState::Running { input: evidence_input.clone(), partial: None, evidence: Some((done, total)) })
                    },
                )
                .await;
                run.set(match result {
                    Ok(report) => RunState::Done { input, report, ms: api::now_ms() - started },
                    Err(e) => RunState::Failed(e),
                });
                runs.set(*runs + 1);
            });
        })
    };
    let on_draft = {
        let draft = draft.clone();
        Callback::from(move |d: Draft| draft.dispatch(DraftEdit::Replace(d)))
    };
    let on_draft_edit = {
        let draft = draft.clone();
        Callback::from(move |e: DraftEdit| draft.dispatch(e))
    };
    let on_gold = {
        let picked = picked.clone();
        Callback::from(move |g: Option<GeneratedGold>| picked.set(g))
    };
    let retry = {
        let model = model.clone();
        Callback::from(move |_| start_loading(model.clone()))
    };

    let ready = matches!(*model, ModelState::Ready(_));
    let busy = matches!(*run, RunState::Running { .. });
    html! {
        <div class="page">
            <header>
                <h1>{ "citelens" }</h1>
                <p class="tagline">{ "Does the cited source say what the answer claims? Checked in your browser; nothing is sent anywhere." }</p>
                <ModelStatus state={(*model).clone()} retry={retry} />
            </header>
            <main class="columns">
                <section class="input-panel" aria-label="Input">
                    <InputForm draft={draft.0.clone()} on_change={on_draft} on_edit={on_draft_edit} on_verify={on_verify} can_verify={ready && !busy} on_gold={on_gold} />
                </section>
                <section class="output-panel" aria-label="Report" aria-live="polite" data-runs={runs.to_string()}>
                    { cut_notice(&cuts) }
                    { run_view(&run) }
                    { gold_agreement(&run, picked.as_ref()) }
                </section>
            </main>
        </div>
    }
}

/// The form's contents, changed only through `DraftEdit`s.
#[derive(Default, PartialEq)]
struct FormState(Draft);

impl Reducible for FormState {
    type Action = DraftEdit;

    fn reduce(self: std::rc::Rc<Self>, action: DraftEdit) -> std::rc::Rc<Self> {
        let mut draft = self.0.clone();
        draft.apply(action);
        FormState(draft).into()
    }
}

fn cut_notice(cuts: &[Cut]) -> Html {
    if cuts.is_empty() {
        return html! {};
    }
    html! {
        <div class="notice warn" id="cut-notice" role="status">
            <strong>{ "The input was over the size limits; this was cut before verifying:" }</strong>
            <ul>{ for cuts.iter().map(|c| html! { <li>{ format!("{}: {} → {} (limit {})", c.what, c.from, c.to, c.cap) }</li> }) }</ul>
        </div>
    }
}

fn run_view(run: &RunState) -> Html {
    match run {
        RunState::Idle => {
            html! { <p class="empty" id="run-status">{ "Fill in an answer and its sources, or pick an example, then press Verify." }</p> }
        }
        RunState::Running { partial: None, evidence: Some((done, total)), .. } => html! {
            <div class="busy" id="run-status">
                <progress id="evidence-progress" max={total.to_string()} value={done.to_string()} aria-label="evidence search"></progress>
                <span>{ format!(" Finding the evidence in the document: {done} of {total} candidate sentences read") }</span>
            </div>
        },
        RunState::Running { partial: None, .. } => html! { <p class="busy" id="run-status">{ "Verifying…" }</p> },
        RunState::Running { input, partial: Some((report, done, total)), .. } => html! {
            <>
                <p class="busy" id="run-status">{ format!("Verifying… {done} of {total} parts of the answer checked") }</p>
                <ReportView input={input.clone()} report={report.clone()} partial={true} ms={None::<f64>} />
            </>
        },
        RunState::Done { input, report, ms } => html! {
            <ReportView input={input.clone()} report={report.clone()} partial={false} ms={Some(*ms)} />
        },
        RunState::Failed(e) => {
            html! { <div class="notice error" id="run-status" role="alert">{ format!("Verification failed: {e}") }</div> }
        }
    }
}

/// Whether the finished report agrees with the picked generated example's gold category; nothing when
/// the verified input is not that example's (the form was edited, or another example picked).
fn gold_agreement(run: &RunState, picked: Option<&GeneratedGold>) -> Html {
    let (RunState::Done { input, report, .. }, Some(gold)) = (run, picked) else {
        return html! {};
    };
    if *input != gold.input {
        return html! {};
    }
    let ours = report.overall.category;
    let agrees = ours == gold.category;
    let name = |c: Category| c.as_str().replace('_', " ");
    let (class, text) = if agrees {
        ("notice", format!("citelens reads this answer as {}: it agrees with the generator's gold category.", name(ours)))
    } else {
        ("notice warn", format!("citelens reads this answer as {}; the generator's gold category is {}.", name(ours), name(gold.category)))
    };
    html! { <p class={class} id="gold-agreement" data-agrees={agrees.to_string()}>{ text }</p> }
}

#[derive(Properties, PartialEq)]
struct ModelStatusProps {
    state: ModelState,
    retry: Callback<MouseEvent>,
}

#[function_component(ModelStatus)]
fn model_status(p: &ModelStatusProps) -> Html {
    match &p.state {
        ModelState::Waiting => html! { <p class="model-status" id="model-status" data-state="waiting">{ "Model not loaded yet…" }</p> },
        ModelState::Loading(pr) => {
            let label = match pr.stage.as_str() {
                "download" if pr.cached => "Model found in the browser cache".to_string(),
                // A compressed response gives no size to count the unpacked bytes against.
                "download" if pr.total <= 0.0 => format!("Downloading the model: {:.1} MB", pr.loaded / 1e6),
                "download" => format!("Downloading the model: {:.1} / {:.1} MB", pr.loaded / 1e6, pr.total / 1e6),
                "compile" => "Preparing the model…".to_string(),
                _ => "Starting the engine…".to_string(),
            };
            let value = if pr.total > 0.0 { pr.loaded / pr.total } else { 0.0 };
            html! {
                <div class="model-status" id="model-status" data-state="loading">
                    <progress max="1" value={value.to_string()} aria-label="model download"></progress>
                    <span>{ label }</span>
                </div>
            }
        }
        ModelState::Ready(info) => html! {
            <p class="model-status" id="model-status" data-state="ready">
                { format!("Model {} ready ({:.1} MB, {} in {:.0} ms, {})", info.model, info.bytes / 1e6,
                    if info.cached { "from the browser cache" } else { "downloaded" }, info.load_ms,
                    if info.mode == "worker" { format!("scoring in {} Web Worker(s)", info.workers.max(1)) } else { "on the page's thread".to_string() }) }
            </p>
        },
        ModelState::Failed(e) => html! {
            <div class="model-status notice error" id="model-status" data-state="failed" role="alert">
                { format!("The model is not loaded: {e}. ") }
                <button onclick={p.retry.clone()}>{ "Try again" }</button>
            </div>
        },
    }
}
