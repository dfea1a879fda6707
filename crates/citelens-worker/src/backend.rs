//! The model behind the batcher, on the backend chosen at start-up: tract on the CPU, or tract's CUDA
//! backend when the worker is built with the `cuda` feature and a GPU is usable; otherwise it falls
//! back to the CPU with one log line.

use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::batcher::PairModel;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BackendChoice {
    /// CUDA when built in and usable, else CPU.
    Auto,
    Cpu,
    Cuda,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Cpu,
    Cuda,
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Backend::Cpu => "cpu",
            Backend::Cuda => "cuda",
        })
    }
}

pub struct Loaded {
    pub model: Arc<dyn PairModel>,
    pub name: String,
    pub sha256: String,
    pub four_way: bool,
    /// The whole-sentence pairs the model's sentence head reads (its config's `sentence_pairs`).
    pub sentence_pairs: citelens_engine::SentencePairs,
    pub evidence: bool,
    pub backend: Backend,
}

/// Loads a model directory (`config.json` naming the ONNX file and `tokenizer.json`; its labels must be
/// entailment, neutral, contradiction: the config maps a model's outputs onto them).
pub fn load(dir: &Path, choice: BackendChoice) -> anyhow::Result<Loaded> {
    let config_json = std::fs::read(dir.join("config.json")).with_context(|| format!("reading {}/config.json", dir.display()))?;
    let config = citelens_nli::ModelConfig::from_json(&config_json).with_context(|| format!("{}/config.json", dir.display()))?;
    let onnx_path = dir.join(&config.model_file);
    let onnx = std::fs::read(&onnx_path).with_context(|| format!("reading {}", onnx_path.display()))?;
    let tokenizer =
        std::fs::read(dir.join(&config.tokenizer_file)).with_context(|| format!("reading {}/{}", dir.display(), config.tokenizer_file))?;
    let sha256 = format!("{:x}", Sha256::digest(&onnx));
    if let Some(want) = &config.model_sha256 {
        anyhow::ensure!(want.eq_ignore_ascii_case(&sha256), "{} has sha256 {sha256}, config.json expects {want}", onnx_path.display());
    }
    let on_cpu = || citelens_nli::NliModel::from_bytes(&onnx, &tokenizer, &config_json).context("loading the model");
    let (model, backend) = match choice {
        BackendChoice::Cpu => (on_cpu()?, Backend::Cpu),
        BackendChoice::Auto | BackendChoice::Cuda => {
            match citelens_nli::NliModel::from_bytes_on(&onnx, &tokenizer, &config_json, citelens_nli::Device::Cuda) {
                Ok(m) => (m, Backend::Cuda),
                Err(e) => {
                    // One line, then the CPU: a worker without a GPU still serves.
                    eprintln!("citelens-worker: no usable GPU ({e}); running on the CPU");
                    (on_cpu()?, Backend::Cpu)
                }
            }
        }
    };
    Ok(Loaded {
        name: config.name.clone(),
        sha256,
        four_way: model.has_four_way(),
        sentence_pairs: citelens_engine::Scorer::sentence_pairs(&model),
        evidence: model.has_evidence(),
        model: Arc::new(model),
        backend,
    })
}
