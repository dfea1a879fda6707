//! The graph under onnxruntime (the `ort` crate), from a `libonnxruntime` loaded at run time: nothing
//! is linked or downloaded at build time, and a build without the library still runs on tract.
//!
//! The same `model.onnx` as tract's, computed as tract computes it: the weight-only int8 matrices are
//! dequantized once at load and the products run in fp32, so the probabilities are tract's (and the
//! browser's). `OrtOptions::int8_products` lets onnxruntime's optimiser fuse each DequantizeLinear →
//! MatMul into its own int8 kernel instead: faster on the larger model, but it moves some pairs'
//! probabilities (docs/WORKER.md has both).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::{Tensor, ValueType};

use super::{Batch, Graph, LoadedGraph, OrtOptions, OutputDecl, OutputTensor};
use crate::error::{NliError, Result};

/// The environment variable naming the library (the `ort` crate's own name for it).
pub const LIBRARY_ENV: &str = "ORT_DYLIB_PATH";

/// The library the user named: `flag` (a command's `--ort-library`), else `$ORT_DYLIB_PATH`. An error
/// names both when neither is given or the file is missing.
pub fn find_library(flag: Option<&Path>) -> Result<PathBuf> {
    let env = std::env::var_os(LIBRARY_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let Some(path) = flag.map(Path::to_path_buf).or(env) else {
        return Err(NliError::OrtMissing { why: "neither was given".into() });
    };
    if !path.is_file() {
        return Err(NliError::OrtMissing { why: format!("{} is not a file", path.display()) });
    }
    Ok(path)
}

/// onnxruntime's session setting that keeps DequantizeLinear → MatMul unfused (fp32 products, as tract).
const DISABLE_QDQ_FUSION: &str = "session.disable_quant_qdq";

/// The one onnxruntime environment of the process (the library allows one), and the library it came
/// from: a second graph from another library is an error, not a silent mix.
static ENVIRONMENT: OnceLock<std::result::Result<(PathBuf, ort::environment::Environment), String>> = OnceLock::new();

fn environment(library: &Path) -> Result<&'static ort::environment::Environment> {
    let loaded = ENVIRONMENT.get_or_init(|| {
        // `ort` panics when the library's API is older than the one it asks for: a typed error here.
        let init = std::panic::catch_unwind(|| {
            ort::init_from(library).map_err(|e| e.to_string())?.with_name("citelens").build().map_err(|e| e.to_string())
        });
        match init {
            Ok(Ok(env)) => Ok((library.to_path_buf(), env)),
            Ok(Err(e)) => Err(format!("{}: {e}", library.display())),
            Err(_) => Err(format!("{}: not a usable onnxruntime (version 1.17 or later is needed)", library.display())),
        }
    });
    match loaded {
        Ok((path, env)) if path == library => Ok(env),
        Ok((path, _)) => {
            Err(NliError::ModelLoad(format!("onnxruntime is already loaded from {}; not loading {}", path.display(), library.display())))
        }
        Err(e) => Err(NliError::ModelLoad(format!("could not load onnxruntime from {e}"))),
    }
}

/// Sessions over one graph; a run takes a free one (a session runs one batch at a time).
pub(crate) struct OrtGraph {
    sessions: Vec<Mutex<Session>>,
    next: std::sync::atomic::AtomicUsize,
    inputs: Vec<String>,
    outputs: Vec<String>,
}

impl OrtGraph {
    /// The graph, with its input names and output declarations.
    pub fn load(onnx: &[u8], options: &OrtOptions) -> Result<LoadedGraph> {
        let env = environment(&options.library)?;
        let load = |e: ort::Error| NliError::ModelLoad(format!("onnxruntime: {e}"));
        let session = || -> Result<Session> {
            let builder = Session::builder(env).map_err(load)?;
            let mut builder = builder
                .with_optimization_level(GraphOptimizationLevel::All)
                .map_err(|e| load(e.into()))?
                .with_intra_threads(1)
                .map_err(|e| load(e.into()))?
                .with_inter_threads(1)
                .map_err(|e| load(e.into()))?;
            if !options.int8_products {
                builder = builder.with_config_entry(DISABLE_QDQ_FUSION, "1").map_err(|e| load(e.into()))?;
            }
            builder.commit_from_memory(onnx).map_err(load)
        };
        let sessions: Vec<Session> = (0..options.sessions.max(1)).map(|_| session()).collect::<Result<_>>()?;
        let first = &sessions[0];
        let inputs: Vec<String> = first.inputs().iter().map(|o| o.name().to_string()).collect();
        let decls: Vec<OutputDecl> = first
            .outputs()
            .iter()
            .map(|o| {
                let (rank, width) = match o.dtype() {
                    ValueType::Tensor { shape, .. } => (shape.len(), shape.last().and_then(|&w| usize::try_from(w).ok())),
                    _ => (0, None),
                };
                OutputDecl { name: o.name().to_string(), rank, width }
            })
            .collect();
        let outputs = decls.iter().map(|d| d.name.clone()).collect();
        let graph = OrtGraph {
            sessions: sessions.into_iter().map(Mutex::new).collect(),
            next: Default::default(),
            inputs: inputs.clone(),
            outputs,
        };
        Ok(LoadedGraph { graph: Box::new(graph), inputs, outputs: decls })
    }

    /// A free session, or (all busy) the next in turn.
    fn session(&self) -> std::sync::MutexGuard<'_, Session> {
        let start = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let n = self.sessions.len();
        for k in 0..n {
            if let Ok(s) = self.sessions[(start + k) % n].try_lock() {
                return s;
            }
        }
        // A poisoned session only means another thread panicked mid-run; onnxruntime keeps no state between runs.
        self.sessions[start % n].lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Graph for OrtGraph {
    fn run(&self, batch: Batch) -> Result<Vec<OutputTensor>> {
        let fail = |e: ort::Error| NliError::Inference(format!("onnxruntime: {e}"));
        let shape = [batch.rows as i64, batch.width as i64];
        let mut feed = Vec::with_capacity(batch.inputs.len());
        for (name, values) in self.inputs.iter().zip(batch.inputs) {
            let tensor = Tensor::from_array((shape, values)).map_err(fail)?;
            feed.push((std::borrow::Cow::from(name.as_str()), ort::session::SessionInputValue::from(tensor)));
        }
        let mut session = self.session();
        let out = session.run(feed).map_err(fail)?;
        self.outputs
            .iter()
            .map(|name| {
                let (shape, values) = out[name.as_str()].try_extract_tensor::<f32>().map_err(fail)?;
                let shape = shape.iter().map(|&d| usize::try_from(d).unwrap_or(0)).collect();
                Ok(OutputTensor { shape, values: values.to_vec() })
            })
            .collect()
    }
}
