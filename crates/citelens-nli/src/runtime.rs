//! The ONNX graph under tract: loaded once with symbolic batch and sequence sizes, then run on
//! batches padded only to their own longest row.

use std::sync::Arc;

use tract_onnx::prelude::*;

use crate::error::{NliError, Result};
use crate::tokenize::Sequence;

/// The inputs a graph may have; the first two it must have (an MPNet or RoBERTa graph has no
/// `token_type_ids`).
pub const INPUT_NAMES: [&str; 3] = ["input_ids", "attention_mask", "token_type_ids"];

/// Labels of the optional `four_way` output: CAQA's four categories.
pub const FOUR_WAY_LABELS: usize = 4;
/// Labels of the optional `evidence` output: not evidence, evidence.
pub const EVIDENCE_LABELS: usize = 2;

/// Where the graph runs. CUDA needs the `cuda` feature (tract-cuda) and a usable GPU and driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    Cpu,
    Cuda,
}

pub struct Runtime {
    plan: Arc<dyn Runnable>,
    /// For each of the graph's inputs, in its order, which of INPUT_NAMES it is.
    inputs: Vec<usize>,
    /// The id padded positions get (the tokenizer's pad id; the attention mask hides them).
    pad_id: i64,
    labels: usize,
    /// Position of the four-way head's logits among the outputs, when the graph has that head.
    four_way: Option<usize>,
    /// Position of the evidence head's logits, when the graph has that head.
    evidence: Option<usize>,
}

/// One row's outputs.
#[derive(Clone)]
pub struct RowLogits {
    pub nli: Vec<f32>,
    pub four_way: Option<Vec<f32>>,
    pub evidence: Option<Vec<f32>>,
}

impl Runtime {
    pub fn from_onnx_bytes_on(onnx: &[u8], labels: usize, device: Device, pad_id: i64) -> Result<Self> {
        let load = |e: TractError| NliError::ModelLoad(format!("{e:#}"));
        let mut model = tract_onnx::onnx().with_ignore_value_info(true).model_for_read(&mut std::io::Cursor::new(onnx)).map_err(load)?;
        let found: Vec<String> = model.input_outlets().map_err(load)?.iter().map(|o| model.node(o.node).name.clone()).collect();
        let wrong =
            || NliError::WrongInputs { expected: INPUT_NAMES.iter().map(|s| s.to_string()).collect(), found: found.clone(), labels };
        let output_names: Vec<String> = model.output_outlets().map_err(load)?.iter().map(|o| model.node(o.node).name.clone()).collect();
        let outputs = output_names.len();
        if !(1..=3).contains(&outputs) {
            return Err(wrong());
        }
        let inputs: Vec<usize> = found.iter().map(|f| INPUT_NAMES.iter().position(|n| n == f).ok_or_else(wrong)).collect::<Result<_>>()?;
        let mut sorted = inputs.clone();
        sorted.sort();
        if sorted != [0, 1] && sorted != [0, 1, 2] {
            return Err(wrong());
        }
        let batch = model.sym("B");
        let seq = model.sym("S");
        for ix in 0..inputs.len() {
            model.set_input_fact(ix, InferenceFact::dt_shape(i64::datum_type(), [batch.to_dim(), seq.to_dim()])).map_err(load)?;
        }
        let typed = model.into_typed().map_err(load)?;
        let out_shape = typed.output_fact(0).map_err(load)?.shape.to_tvec();
        if out_shape.len() != 2 || out_shape[1] != TDim::from(labels as i64) {
            return Err(wrong());
        }
        // Heads by output name; an unnamed second output is the four-way head (models exported
        // before the evidence head).
        let named = |n: &str| output_names.iter().position(|x| x == n);
        let evidence = named("evidence");
        let four_way = named("four_way").or_else(|| (outputs == 2 && evidence.is_none()).then_some(1));
        if outputs > 1 + four_way.is_some() as usize + evidence.is_some() as usize {
            return Err(wrong());
        }
        for (ix, width) in [(four_way, FOUR_WAY_LABELS), (evidence, EVIDENCE_LABELS)] {
            if let Some(ix) = ix {
                let shape = typed.output_fact(ix).map_err(load)?.shape.to_tvec();
                if shape.len() != 2 || shape[1] != TDim::from(width as i64) {
                    return Err(wrong());
                }
            }
        }
        let plan: Arc<dyn Runnable> = match device {
            Device::Cpu => Arc::new(typed.into_optimized().map_err(load)?.into_runnable().map_err(load)?),
            Device::Cuda => cuda_plan(typed)?,
        };
        Ok(Runtime { plan, inputs, pad_id, labels, four_way, evidence })
    }

    pub fn has_four_way(&self) -> bool {
        self.four_way.is_some()
    }

    pub fn has_evidence(&self) -> bool {
        self.evidence.is_some()
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
        let fail = |e: TractError| NliError::Inference(format!("{e:#}"));
        let shape = [rows.len(), width];
        let by_name = [ids, mask, types];
        let mut inputs: TVec<TValue> = TVec::new();
        for &slot in &self.inputs {
            inputs.push(Tensor::from_shape(&shape, &by_name[slot]).map_err(fail)?.into());
        }
        let out = self.plan.run(inputs).map_err(fail)?;
        let view = out[0].to_plain_array_view::<f32>().map_err(fail)?;
        if view.shape() != [rows.len(), self.labels] {
            return Err(NliError::Inference(format!("logits have shape {:?}", view.shape())));
        }
        let nli: Vec<Vec<f32>> = view.outer_iter().map(|row| row.iter().copied().collect()).collect();
        let head = |ix: Option<usize>, width: usize, what: &str| -> Result<Vec<Option<Vec<f32>>>> {
            let Some(ix) = ix else { return Ok(vec![None; rows.len()]) };
            let v = out[ix].to_plain_array_view::<f32>().map_err(fail)?;
            if v.shape() != [rows.len(), width] {
                return Err(NliError::Inference(format!("{what} logits have shape {:?}", v.shape())));
            }
            Ok(v.outer_iter().map(|row| Some(row.iter().copied().collect())).collect())
        };
        let four = head(self.four_way, FOUR_WAY_LABELS, "four-way")?;
        let evidence = head(self.evidence, EVIDENCE_LABELS, "evidence")?;
        Ok(nli.into_iter().zip(four).zip(evidence).map(|((nli, four_way), evidence)| RowLogits { nli, four_way, evidence }).collect())
    }
}

/// The graph prepared by tract-cuda's runtime (its transform, optimisation and device memory plan);
/// an error when the CUDA libraries or a GPU are missing, so the caller can fall back to the CPU.
#[cfg(feature = "cuda")]
fn cuda_plan(typed: TypedModel) -> Result<Arc<dyn Runnable>> {
    let unusable = |e: TractError| NliError::ModelLoad(format!("CUDA is not usable here: {e:#}"));
    tract_cuda::utils::ensure_cuda_runtime_dependencies("the CUDA runtime libraries were not found").map_err(unusable)?;
    let runtime = tract_onnx::tract_core::runtime::runtime_for_name("cuda")
        .map_err(unusable)?
        .ok_or_else(|| NliError::ModelLoad("tract-cuda's runtime is not registered".into()))?;
    Ok(Arc::from(runtime.prepare(typed).map_err(unusable)?))
}

#[cfg(not(feature = "cuda"))]
fn cuda_plan(_typed: TypedModel) -> Result<Arc<dyn Runnable>> {
    Err(NliError::ModelLoad("this build has no CUDA backend (build with the `cuda` feature)".into()))
}
