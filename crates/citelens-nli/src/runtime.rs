//! The ONNX graph under tract: loaded once with symbolic batch and sequence sizes, then run on
//! batches padded only to their own longest row.

use std::sync::Arc;

use tract_onnx::prelude::*;

use crate::error::{NliError, Result};
use crate::tokenize::Sequence;

pub const INPUT_NAMES: [&str; 3] = ["input_ids", "attention_mask", "token_type_ids"];

/// Labels of the optional second output: CAQA's four categories.
pub const FOUR_WAY_LABELS: usize = 4;

pub struct Runtime {
    plan: Arc<TypedRunnableModel>,
    /// Position of each of INPUT_NAMES among the model's inputs.
    order: [usize; 3],
    labels: usize,
    /// The graph has a second output: the four-way head's logits.
    four_way: bool,
}

/// One row's outputs.
#[derive(Clone)]
pub struct RowLogits {
    pub nli: Vec<f32>,
    pub four_way: Option<Vec<f32>>,
}

impl Runtime {
    pub fn from_onnx_bytes(onnx: &[u8], labels: usize) -> Result<Self> {
        let load = |e: TractError| NliError::ModelLoad(format!("{e:#}"));
        let mut model = tract_onnx::onnx()
            .with_ignore_value_info(true)
            .model_for_read(&mut std::io::Cursor::new(onnx))
            .map_err(load)?;
        let found: Vec<String> = model
            .input_outlets()
            .map_err(load)?
            .iter()
            .map(|o| model.node(o.node).name.clone())
            .collect();
        let wrong = || NliError::WrongInputs {
            expected: INPUT_NAMES.iter().map(|s| s.to_string()).collect(),
            found: found.clone(),
            labels,
        };
        let outputs = model.output_outlets().map_err(load)?.len();
        if found.len() != INPUT_NAMES.len() || !(1..=2).contains(&outputs) {
            return Err(wrong());
        }
        let mut order = [0; 3];
        for (slot, name) in INPUT_NAMES.iter().enumerate() {
            order[slot] = found.iter().position(|f| f == name).ok_or_else(wrong)?;
        }
        let batch = model.sym("B");
        let seq = model.sym("S");
        for ix in 0..3 {
            model
                .set_input_fact(ix, InferenceFact::dt_shape(i64::datum_type(), [batch.to_dim(), seq.to_dim()]))
                .map_err(load)?;
        }
        let typed = model.into_typed().map_err(load)?;
        let out_shape = typed.output_fact(0).map_err(load)?.shape.to_tvec();
        if out_shape.len() != 2 || out_shape[1] != TDim::from(labels as i64) {
            return Err(wrong());
        }
        if outputs == 2 {
            let four = typed.output_fact(1).map_err(load)?.shape.to_tvec();
            if four.len() != 2 || four[1] != TDim::from(FOUR_WAY_LABELS as i64) {
                return Err(wrong());
            }
        }
        let plan = typed.into_optimized().map_err(load)?.into_runnable().map_err(load)?;
        Ok(Runtime { plan, order, labels, four_way: outputs == 2 })
    }

    pub fn has_four_way(&self) -> bool {
        self.four_way
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
        let mut ids = vec![0i64; rows.len() * width];
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
        for model_ix in 0..3 {
            let slot = self.order.iter().position(|&o| o == model_ix).unwrap_or(model_ix);
            inputs.push(Tensor::from_shape(&shape, &by_name[slot]).map_err(fail)?.into());
        }
        let out = self.plan.run(inputs).map_err(fail)?;
        let view = out[0].to_plain_array_view::<f32>().map_err(fail)?;
        if view.shape() != [rows.len(), self.labels] {
            return Err(NliError::Inference(format!("logits have shape {:?}", view.shape())));
        }
        let nli: Vec<Vec<f32>> = view.outer_iter().map(|row| row.iter().copied().collect()).collect();
        let four: Vec<Option<Vec<f32>>> = if self.four_way {
            let v = out[1].to_plain_array_view::<f32>().map_err(fail)?;
            if v.shape() != [rows.len(), FOUR_WAY_LABELS] {
                return Err(NliError::Inference(format!("four-way logits have shape {:?}", v.shape())));
            }
            v.outer_iter().map(|row| Some(row.iter().copied().collect())).collect()
        } else {
            vec![None; rows.len()]
        };
        Ok(nli.into_iter().zip(four).map(|(nli, four_way)| RowLogits { nli, four_way }).collect())
    }
}
