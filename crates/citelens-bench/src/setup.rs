//! What every command sets up before it verifies: the model, the thresholds and what decides a
//! sentence. One place, so that a benchmark runs the engine exactly as `citelens verify` does.

use std::path::PathBuf;

use anyhow::Context;
use citelens_engine::{Engine, Thresholds};
use citelens_nli::NliModel;

/// The model every command runs: `--model DIR`, else the shipped model found without configuration.
/// The one place the CLI loads a model, so each command's error names the folder the same way.
pub fn load_model(explicit: Option<PathBuf>) -> anyhow::Result<citelens_nli::NliModel> {
    load_model_on(explicit, &RuntimeArgs::default())
}

/// Which runtime runs the model (`citelens nli`): tract unless asked, so that a command's figures do
/// not change with what happens to be installed.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RuntimeArgs {
    /// The runtime: tract, or onnxruntime (`ort`, from --ort-library or $ORT_DYLIB_PATH).
    #[arg(long, value_enum, default_value = "tract")]
    pub runtime: RuntimeName,
    /// onnxruntime's shared library (default: $ORT_DYLIB_PATH).
    #[arg(long)]
    pub ort_library: Option<PathBuf>,
    /// onnxruntime's int8 kernels for the int8 matrix products (faster; probabilities move).
    #[arg(long)]
    pub ort_int8: bool,
}

#[derive(clap::ValueEnum, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum RuntimeName {
    #[default]
    Tract,
    Ort,
}

impl RuntimeArgs {
    fn run_on(&self) -> anyhow::Result<citelens_nli::RunOn> {
        match self.runtime {
            RuntimeName::Tract => Ok(citelens_nli::RunOn::Tract(citelens_nli::Device::Cpu)),
            RuntimeName::Ort => ort(self),
        }
    }
}

#[cfg(feature = "ort")]
fn ort(args: &RuntimeArgs) -> anyhow::Result<citelens_nli::RunOn> {
    let library = citelens_nli::find_ort_library(args.ort_library.as_deref())?;
    Ok(citelens_nli::RunOn::Ort(citelens_nli::OrtOptions { library, sessions: 1, int8_products: args.ort_int8 }))
}

#[cfg(not(feature = "ort"))]
fn ort(_args: &RuntimeArgs) -> anyhow::Result<citelens_nli::RunOn> {
    anyhow::bail!("this build has no onnxruntime (the `ort` feature)")
}

/// The model `load_model` finds, under the runtime `runtime` names.
pub fn load_model_on(explicit: Option<PathBuf>, runtime: &RuntimeArgs) -> anyhow::Result<citelens_nli::NliModel> {
    let dir = match explicit {
        Some(dir) => dir,
        None => citelens_nli::model_dir::find().map_err(anyhow::Error::msg)?,
    };
    let run_on = runtime.run_on()?;
    citelens_nli::NliModel::from_dir_with(&dir, &run_on)
        .with_context(|| format!("loading model from {} on {}", dir.display(), run_on.kind()))
}

pub fn load_engine(model: Option<PathBuf>, thresholds: Option<PathBuf>) -> anyhow::Result<Engine<NliModel>> {
    let nli = load_model(model)?;
    let mut engine = Engine::new(nli);
    if let Some(path) = thresholds {
        engine.thresholds = read_thresholds(&path)?;
    }
    Ok(engine)
}

/// A thresholds file (`--thresholds`, as `bench --save-thresholds` writes it).
pub fn read_thresholds(path: &std::path::Path) -> anyhow::Result<Thresholds> {
    serde_json::from_str(&std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?)
        .with_context(|| format!("{} is not a thresholds file", path.display()))
}

/// What decides a sentence's category.
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum SentenceDecider {
    /// CAQA's rule over the claims, with the four-way head where the rules leave it open (the default).
    Rules,
    /// The learned combiner over the model's sentence head and the engine's readings (`training/combiner.py`).
    Combiner,
    /// The model's sentence head alone, under the combiner's costs and unsure level.
    Model,
}

/// Sets what decides `engine`'s sentences. A model without the sentence head (an NLI-only model)
/// leaves them to the rules, as `Engine::new` does.
pub fn set_decider<S: citelens_engine::Scorer>(
    engine: &mut Engine<S>,
    decide: SentenceDecider,
    path: Option<&std::path::Path>,
) -> anyhow::Result<()> {
    if engine.scorer.has_four_way() {
        engine.combiner = sentence_decider(decide, path)?;
    }
    Ok(())
}

/// The combiner `decide` asks for: the shipped one, or the file `path` names.
pub fn sentence_decider(decide: SentenceDecider, path: Option<&std::path::Path>) -> anyhow::Result<Option<citelens_engine::Combiner>> {
    Ok(match (decide, path) {
        (SentenceDecider::Rules, _) => None,
        (SentenceDecider::Combiner, Some(path)) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
            Some(citelens_engine::Combiner::from_json(&text).with_context(|| path.display().to_string())?)
        }
        (SentenceDecider::Combiner, None) => Some(citelens_engine::Combiner::shipped()),
        (SentenceDecider::Model, path) => sentence_decider(SentenceDecider::Combiner, path)?.map(|c| c.head_only()),
    })
}
