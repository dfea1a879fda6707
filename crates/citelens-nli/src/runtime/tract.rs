//! The graph under tract: read, given symbolic batch and sequence sizes, optimised for the CPU or
//! prepared by tract-cuda's runtime.

use std::sync::Arc;

use tract_onnx::prelude::*;

use super::{Batch, Device, Graph, OutputDecl, OutputTensor};
use crate::error::{NliError, Result};

fn load_error(e: TractError) -> NliError {
    NliError::ModelLoad(format!("{e:#}"))
}

/// A graph read but not yet typed: its input names can be checked before tract is asked to type it.
pub(crate) struct ReadGraph {
    model: InferenceModel,
    pub inputs: Vec<String>,
}

impl ReadGraph {
    pub fn read(onnx: &[u8]) -> Result<Self> {
        let model = tract_onnx::onnx().with_ignore_value_info(true).model_for_read(&mut std::io::Cursor::new(onnx)).map_err(load_error)?;
        let inputs = model.input_outlets().map_err(load_error)?.iter().map(|o| model.node(o.node).name.clone()).collect();
        Ok(ReadGraph { model, inputs })
    }

    /// Every input as `[B, S]` int64, typed, and made runnable on `device`; with its outputs' shapes.
    pub fn prepare(self, device: Device) -> Result<(TractGraph, Vec<OutputDecl>)> {
        let mut model = self.model;
        let names: Vec<String> = model.output_outlets().map_err(load_error)?.iter().map(|o| model.node(o.node).name.clone()).collect();
        let batch = model.sym("B");
        let seq = model.sym("S");
        for ix in 0..self.inputs.len() {
            model.set_input_fact(ix, InferenceFact::dt_shape(i64::datum_type(), [batch.to_dim(), seq.to_dim()])).map_err(load_error)?;
        }
        let typed = model.into_typed().map_err(load_error)?;
        let outputs = names
            .into_iter()
            .enumerate()
            .map(|(ix, name)| {
                let shape = typed.output_fact(ix).map_err(load_error)?.shape.to_tvec();
                let width = shape.last().and_then(|d| d.to_i64().ok()).map(|w| w as usize);
                Ok(OutputDecl { name, rank: shape.len(), width })
            })
            .collect::<Result<Vec<_>>>()?;
        let plan: Arc<dyn Runnable> = match device {
            Device::Cpu => Arc::new(typed.into_optimized().map_err(load_error)?.into_runnable().map_err(load_error)?),
            Device::Cuda => cuda_plan(typed)?,
        };
        Ok((TractGraph { plan }, outputs))
    }
}

pub(crate) struct TractGraph {
    plan: Arc<dyn Runnable>,
}

impl Graph for TractGraph {
    fn run(&self, batch: Batch) -> Result<Vec<OutputTensor>> {
        let fail = |e: TractError| NliError::Inference(format!("{e:#}"));
        let shape = [batch.rows, batch.width];
        let inputs: TVec<TValue> = batch
            .inputs
            .iter()
            .map(|values| Tensor::from_shape(&shape, values).map(TValue::from))
            .collect::<TractResult<_>>()
            .map_err(fail)?;
        let out = self.plan.run(inputs).map_err(fail)?;
        out.iter()
            .map(|t| {
                let view = t.to_plain_array_view::<f32>().map_err(fail)?;
                Ok(OutputTensor { shape: view.shape().to_vec(), values: view.iter().copied().collect() })
            })
            .collect()
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
