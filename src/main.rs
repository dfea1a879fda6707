//! citelens' widget: a Yew app that takes a question, a cited answer and its sources, verifies it in
//! the browser (the model runs in a Web Worker through `www/citelens/citelens.js`), and shows the
//! categories, the highlighted spans and the reasoning graph.

// The pure modules below serve the wasm32 app and the native unit tests; a native build of the
// binary itself only says how to build the app, so it uses none of them.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

mod draft;
mod layout;
mod segments;

#[cfg(target_arch = "wasm32")]
mod api;
#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod form;
#[cfg(target_arch = "wasm32")]
mod graph_view;
#[cfg(target_arch = "wasm32")]
mod report_view;

#[cfg(target_arch = "wasm32")]
fn main() {
    yew::Renderer::<app::App>::new().render();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("citelens-web is the browser app: build it with `trunk build --release` (see README.md)");
    std::process::exit(2);
}
