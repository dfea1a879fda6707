//! The ONNX graph under a runtime: tract (natively, in wasm32, and through tract-cuda on a GPU) or,
//! with the `ort` feature, onnxruntime from a `libonnxruntime` loaded at run time. Either loads the
//! graph with symbolic batch and sequence sizes and runs batches padded only to their own longest
//! row; what the graph must look like (its inputs, its heads) is checked here, once for both.

#[cfg(feature = "ort")]
mod onnxruntime;
mod tract;

use crate::error::{NliError, Result};
use crate::tokenize::Sequence;

#[cfg(feature = "ort")]
pub use onnxruntime::find_library as find_ort_library;

/// The inputs a graph may have; the first two it must have (an MPNet or RoBERTa graph has no
/// `token_type_ids`).
pub const INPUT_NAMES: [&str; 3] = ["input_ids", "attention_mask", "token_type_ids"];

/// Labels of the optional `four_way` output: CAQA's four categories.
pub const FOUR_WAY_LABELS: usize = 4;
/// Labels of the optional `evidence` output: not evidence, evidence.
pub const EVIDENCE_LABELS: usize = 2;

/// Where tract runs the graph. CUDA needs the `cuda` feature (tract-cuda) and a usable GPU and driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    Cpu,
    Cuda,
}

/// The runtime that runs the graph, as a report or `/v1/info` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuntimeKind {
    Tract,
    Ort,
}

impl std::fmt::Display for RuntimeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RuntimeKind::Tract => "tract",
            RuntimeKind::Ort => "ort",
        })
    }
}

/// onnxruntime's settings (the `ort` feature).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrtOptions {
    /// The `libonnxruntime` shared library (`find_ort_library` looks where the user said).
    pub library: std::path::PathBuf,
    /// Sessions over the one graph: how many batches may run at once (a session runs one at a time),
    /// one per thread that calls the model. Each session runs its batch on one core.
    pub sessions: usize,
    /// Let onnxruntime fuse each weight-only int8 matrix product into its own int8 kernel (its
    /// optimiser's default): faster on the larger model here, but some pairs' probabilities move from
    /// tract's (docs/WORKER.md has the figures). Off: fp32 products, tract's probabilities.
    pub int8_products: bool,
}

/// Which runtime runs the graph, and on what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOn {
    Tract(Device),
    Ort(OrtOptions),
}

impl RunOn {
    pub fn kind(&self) -> RuntimeKind {
        match self {
            RunOn::Tract(_) => RuntimeKind::Tract,
            RunOn::Ort(_) => RuntimeKind::Ort,
        }
    }
}

/// One of the graph's outputs as its runtime declares it: its name, rank and last dimension (when
/// the graph fixes it).
pub(crate) struct OutputDecl {
    pub name: String,
    pub rank: usize,
    pub width: Option<usize>,
}

/// A batch as the graph takes it: for each of the graph's inputs, in its order, a row-major
/// `[rows, width]` tensor.
pub(crate) struct Batch {
    pub rows: usize,
    pub width: usize,
    pub inputs: Vec<Vec<i64>>,
}

/// One output of a run: its shape and its values, row-major.
pub(crate) struct OutputTensor {
    pub shape: Vec<usize>,
    pub values: Vec<f32>,
}

/// A loaded graph under one runtime: runs a batch and returns every output, in the graph's order.
pub(crate) trait Graph: Send + Sync {
    fn run(&self, batch: Batch) -> Result<Vec<OutputTensor>>;
}

/// A graph loaded by a runtime, with its input names and output declarations (in the graph's order).
pub(crate) struct LoadedGraph {
    pub graph: Box<dyn Graph>,
    pub inputs: Vec<String>,
    pub outputs: Vec<OutputDecl>,
}

/// Which outputs hold which head, read from the graph's declarations once.
struct Heads {
    labels: usize,
    /// Position of the four-way head's logits among the outputs, when the graph has that head.
    four_way: Option<usize>,
    /// Position of the evidence head's logits, when the graph has that head.
    evidence: Option<usize>,
}

impl Heads {
    /// The first output is the NLI head (`labels` wide); others by name, an unnamed second output
    /// being the four-way head (models exported before the evidence head).
    fn of(outputs: &[OutputDecl], labels: usize, wrong: &dyn Fn() -> NliError) -> Result<Self> {
        if !(1..=3).contains(&outputs.len()) {
            return Err(wrong());
        }
        let fits = |o: &OutputDecl, width: usize| o.rank == 2 && o.width.is_none_or(|w| w == width);
        if !fits(&outputs[0], labels) {
            return Err(wrong());
        }
        let named = |n: &str| outputs.iter().position(|o| o.name == n);
        let evidence = named("evidence");
        let four_way = named("four_way").or_else(|| (outputs.len() == 2 && evidence.is_none()).then_some(1));
        if outputs.len() > 1 + four_way.is_some() as usize + evidence.is_some() as usize {
            return Err(wrong());
        }
        for (ix, width) in [(four_way, FOUR_WAY_LABELS), (evidence, EVIDENCE_LABELS)] {
            if ix.is_some_and(|ix| !fits(&outputs[ix], width)) {
                return Err(wrong());
            }
        }
        Ok(Heads { labels, four_way, evidence })
    }
}

/// For each of the graph's inputs, in its order, which of INPUT_NAMES it is; an error naming what
/// was found when the graph lacks one of the first two or has another.
fn input_slots(found: &[String], wrong: &dyn Fn() -> NliError) -> Result<Vec<usize>> {
    let slots: Vec<usize> = found.iter().map(|f| INPUT_NAMES.iter().position(|n| n == f).ok_or_else(wrong)).collect::<Result<_>>()?;
    let mut sorted = slots.clone();
    sorted.sort();
    if sorted != [0, 1] && sorted != [0, 1, 2] {
        return Err(wrong());
    }
    Ok(slots)
}

pub struct Runtime {
    graph: Box<dyn Graph>,
    kind: RuntimeKind,
    /// For each of the graph's inputs, in its order, which of INPUT_NAMES it is.
    inputs: Vec<usize>,
    /// The id padded positions get (the tokenizer's pad id; the attention mask hides them).
    pad_id: i64,
    heads: Heads,
}

/// One row's outputs.
#[derive(Clone)]
pub struct RowLogits {
    pub nli: Vec<f32>,
    pub four_way: Option<Vec<f32>>,
    pub evidence: Option<Vec<f32>>,
}

impl Runtime {
    pub fn from_onnx_bytes(onnx: &[u8], labels: usize, run_on: &RunOn, pad_id: i64) -> Result<Self> {
        let wrong_with = |found: &[String]| {
            let found = found.to_vec();
            move || NliError::WrongInputs { expected: INPUT_NAMES.iter().map(|s| s.to_string()).collect(), found: found.clone(), labels }
        };
        let (graph, inputs, heads): (Box<dyn Graph>, Vec<usize>, Heads) = match run_on {
            RunOn::Tract(device) => {
                let read = tract::ReadGraph::read(onnx)?;
                let wrong = wrong_with(&read.inputs);
                let inputs = input_slots(&read.inputs, &wrong)?;
                let (graph, outputs) = read.prepare(*device)?;
                (Box::new(graph), inputs, Heads::of(&outputs, labels, &wrong)?)
            }
            RunOn::Ort(options) => {
                let loaded = ort_graph(onnx, options)?;
                let wrong = wrong_with(&loaded.inputs);
                let inputs = input_slots(&loaded.inputs, &wrong)?;
                (loaded.graph, inputs, Heads::of(&loaded.outputs, labels, &wrong)?)
            }
        };
        Ok(Runtime { graph, kind: run_on.kind(), inputs, pad_id, heads })
    }

    pub fn kind(&self) -> RuntimeKind {
        self.kind
    }

    pub fn has_four_way(&self) -> bool {
        self.heads.four_way.is_some()
    }

    pub fn has_evidence(&self) -> bool {
        self.heads.evidence.is_some()
    }

    /// NLI logits for each sequence (the four-way head's, if any, are dropped).
    pub fn logits(&self, rows: &[&Sequence]) -> Result<Vec<Vec<f32>>> {
        Ok(self.run(rows)?.into_iter().map(|r| r.nli).collect())
    }

    /// Every head's logits for each sequence, padding the batch to its longest row.
    pub fn run(&self, rows: &[&Sequence]) -> Result<Vec<RowLogits>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let width = rows.iter().map(|r| r.input_ids.len()).max().unwrap_or(0);
        let mut ids = vec![self.pad_id; rows.len() * width];
        let mut mask = vec![0i64; rows.len() * width];
        let mut types = vec![0i64; rows.len() * width];
        for (r, row) in rows.iter().enumerate() {
            let base = r * width;
            ids[base..base + row.input_ids.len()].copy_from_slice(&row.input_ids);
            types[base..base + row.token_type_ids.len()].copy_from_slice(&row.token_type_ids);
            mask[base..base + row.input_ids.len()].fill(1);
        }
        let mut by_name = [Some(ids), Some(mask), Some(types)];
        let inputs = self.inputs.iter().map(|&slot| by_name[slot].take().unwrap_or_default()).collect();
        let out = self.graph.run(Batch { rows: rows.len(), width, inputs })?;
        let head = |ix: Option<usize>, width: usize, what: &str| -> Result<Vec<Option<Vec<f32>>>> {
            let Some(ix) = ix else { return Ok(vec![None; rows.len()]) };
            let t = out.get(ix).ok_or_else(|| NliError::Inference(format!("the graph gave no {what} output")))?;
            if t.shape != [rows.len(), width] || t.values.len() != rows.len() * width {
                return Err(NliError::Inference(format!("{what} logits have shape {:?}", t.shape)));
            }
            Ok(t.values.chunks(width).map(|row| Some(row.to_vec())).collect())
        };
        let nli = head(Some(0), self.heads.labels, "NLI")?;
        let four = head(self.heads.four_way, FOUR_WAY_LABELS, "four-way")?;
        let evidence = head(self.heads.evidence, EVIDENCE_LABELS, "evidence")?;
        Ok(nli
            .into_iter()
            .zip(four)
            .zip(evidence)
            .map(|((nli, four_way), evidence)| RowLogits { nli: nli.unwrap_or_default(), four_way, evidence })
            .collect())
    }
}

#[cfg(feature = "ort")]
fn ort_graph(onnx: &[u8], options: &OrtOptions) -> Result<LoadedGraph> {
    onnxruntime::OrtGraph::load(onnx, options)
}

#[cfg(not(feature = "ort"))]
fn ort_graph(_onnx: &[u8], _options: &OrtOptions) -> Result<LoadedGraph> {
    Err(NliError::ModelLoad("this build has no onnxruntime backend (build with the `ort` feature)".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(name: &str, width: Option<usize>) -> OutputDecl {
        OutputDecl { name: name.into(), rank: 2, width }
    }

    fn wrong() -> NliError {
        NliError::Inference("wrong".into())
    }

    #[test]
    fn heads_are_found_by_name_and_an_unnamed_second_output_is_the_four_way_head() {
        let h = Heads::of(&[decl("logits", Some(3)), decl("evidence", Some(2)), decl("four_way", Some(4))], 3, &wrong).unwrap();
        assert_eq!((h.four_way, h.evidence), (Some(2), Some(1)));
        let h = Heads::of(&[decl("logits", None), decl("x", Some(4))], 3, &wrong).unwrap();
        assert_eq!((h.four_way, h.evidence), (Some(1), None));
        assert!(Heads::of(&[decl("logits", Some(2))], 3, &wrong).is_err(), "an NLI head of the wrong width");
        assert!(Heads::of(&[decl("logits", Some(3)), decl("four_way", Some(3))], 3, &wrong).is_err());
        assert!(Heads::of(&[decl("logits", Some(3)), decl("a", Some(4)), decl("b", Some(4))], 3, &wrong).is_err(), "outputs nobody reads");
    }

    #[test]
    fn inputs_need_ids_and_mask_and_nothing_unknown() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(input_slots(&names(&["attention_mask", "input_ids"]), &wrong).unwrap(), [1, 0]);
        assert_eq!(input_slots(&names(&["input_ids", "attention_mask", "token_type_ids"]), &wrong).unwrap(), [0, 1, 2]);
        assert!(input_slots(&names(&["input_ids"]), &wrong).is_err());
        assert!(input_slots(&names(&["input_ids", "attention_mask", "pixels"]), &wrong).is_err());
    }
}
