//! citelens' benchmark harness: the engine over labelled data sets (`citelens bench`), the model's
//! latency (`nli-bench`), one long document timed (`doc-bench`), and the whole-sentence training
//! pairs of a data set (`citelens pairs`). The CLI's commands are thin over it; [`setup`] loads the
//! model, thresholds and sentence decider for the CLI and the benchmarks alike.
//!
//! Data sets: [`datasets`] (CAQA, AttributionBench, MultiNLI-style rows), [`cases`] (whole answers
//! with per-sentence gold: the suite and citelens_synth), [`lab`] (long documents: WiCE and
//! Evidence Inference); [`metrics`] turns predictions into the papers' tables.

pub mod bench;
pub mod cases;
pub mod datasets;
pub mod doc_bench;
pub mod doc_text;
pub mod lab;
pub mod metrics;
pub mod nli_bench;
pub mod pairs;
pub mod setup;
mod timed;
