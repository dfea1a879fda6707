//! The model behind the batcher, on the backend and runtime chosen at start-up: tract's CUDA backend
//! when the worker is built with the `cuda` feature and a GPU is usable; on the CPU, onnxruntime when
//! its library is found (the faster one here) or tract. Every fallback is one log line.

use std::path::{Path, PathBuf};
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

/// Which runtime runs the model on the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RuntimeChoice {
    /// onnxruntime when its library is found (`--ort-library` or `ORT_DYLIB_PATH`), else tract.
    Auto,
    /// onnxruntime; an error when its library is not found.
    Ort,
    Tract,
}

/// The runtime flags, converted once.
#[derive(Debug, Clone)]
pub struct RuntimeConfig {
    pub choice: RuntimeChoice,
    /// `libonnxruntime` (else `ORT_DYLIB_PATH`).
    pub ort_library: Option<PathBuf>,
    /// onnxruntime's int8 kernels (`citelens_nli::OrtOptions::int8_products`).
    pub ort_int8: bool,
}

impl Default for RuntimeConfig {
    fn default() -> Self {
        RuntimeConfig { choice: RuntimeChoice::Auto, ort_library: None, ort_int8: false }
    }
}

impl RuntimeConfig {
    /// What runs the model on the CPU, with `sessions` batches at once. An explicit
    /// `ort` without its library is an error naming the flag and the variable; `auto` falls back to
    /// tract with one log line.
    fn cpu(&self, sessions: usize) -> anyhow::Result<citelens_nli::RunOn> {
        let tract = citelens_nli::RunOn::Tract(citelens_nli::Device::Cpu);
        if self.choice == RuntimeChoice::Tract {
            return Ok(tract);
        }
        match ort_library(self.ort_library.as_deref()) {
            Ok(library) => Ok(citelens_nli::RunOn::Ort(citelens_nli::OrtOptions { library, sessions, int8_products: self.ort_int8 })),
            Err(e) if self.choice == RuntimeChoice::Ort => Err(e),
            Err(e) => {
                eprintln!("citelens-worker: running the model on tract ({e:#})");
                Ok(tract)
            }
        }
    }
}

#[cfg(feature = "ort")]
fn ort_library(flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    Ok(citelens_nli::find_ort_library(flag)?)
}

#[cfg(not(feature = "ort"))]
fn ort_library(_flag: Option<&Path>) -> anyhow::Result<PathBuf> {
    anyhow::bail!("this worker was built without onnxruntime (the `ort` feature)")
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
    pub runtime: citelens_nli::RuntimeKind,
}

/// Loads a model directory (`config.json` naming the ONNX file and `tokenizer.json`; its labels must be
/// entailment, neutral, contradiction: the config maps a model's outputs onto them). On the CPU,
/// `sessions` batches may run at once (the model threads).
pub fn load(dir: &Path, choice: BackendChoice, runtime: &RuntimeConfig, sessions: usize) -> anyhow::Result<Loaded> {
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
    let on_cpu = || -> anyhow::Result<citelens_nli::NliModel> {
        let run_on = runtime.cpu(sessions)?;
        citelens_nli::NliModel::from_bytes_with(&onnx, &tokenizer, &config_json, &run_on)
            .with_context(|| format!("loading the model on {}", run_on.kind()))
    };
    if choice == BackendChoice::Cuda && runtime.choice == RuntimeChoice::Ort {
        anyhow::bail!("--backend cuda runs tract-cuda; onnxruntime runs on the CPU here (--runtime auto or tract)");
    }
    let (model, backend) = match choice {
        BackendChoice::Cpu => (on_cpu()?, Backend::Cpu),
        BackendChoice::Auto if runtime.choice == RuntimeChoice::Ort => (on_cpu()?, Backend::Cpu),
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
        runtime: model.runtime(),
        model: Arc::new(model),
        backend,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(choice: RuntimeChoice) -> RuntimeConfig {
        // A library path that does not exist: the flag wins over any ORT_DYLIB_PATH of the environment.
        RuntimeConfig { choice, ort_library: Some(PathBuf::from("/nonexistent/libonnxruntime.so")), ort_int8: false }
    }

    #[test]
    fn auto_falls_back_to_tract_without_the_library_and_ort_refuses() {
        let tract = citelens_nli::RunOn::Tract(citelens_nli::Device::Cpu);
        assert_eq!(config(RuntimeChoice::Tract).cpu(2).unwrap(), tract);
        assert_eq!(config(RuntimeChoice::Auto).cpu(2).unwrap(), tract);
        let err = format!("{:#}", config(RuntimeChoice::Ort).cpu(2).unwrap_err());
        #[cfg(feature = "ort")]
        assert!(err.contains("/nonexistent/libonnxruntime.so") && err.contains("--ort-library") && err.contains("ORT_DYLIB_PATH"), "{err}");
        #[cfg(not(feature = "ort"))]
        assert!(err.contains("without onnxruntime"), "{err}");
    }

    #[test]
    fn onnxruntime_is_not_asked_for_on_a_gpu() {
        let dir = citelens_nli::model_dir::find().expect("the shipped model");
        let err = load(&dir, BackendChoice::Cuda, &config(RuntimeChoice::Ort), 1).err().expect("refused");
        assert!(format!("{err:#}").contains("--backend cuda"), "{err:#}");
    }
}
