//! A scorer that times the model: the seconds spent in it and the pairs it was asked, for the
//! benchmarks' pairs per second (what the engine adds around the model is the rest of the wall time).

use std::cell::Cell;
use std::time::Instant;

use citelens_engine::score::Answer;
use citelens_engine::Scorer;

pub struct Timed<S> {
    pub inner: S,
    pub seconds: Cell<f64>,
    pub pairs: Cell<usize>,
}

impl<S> Timed<S> {
    pub fn new(inner: S) -> Self {
        Timed { inner, seconds: Cell::new(0.0), pairs: Cell::new(0) }
    }

    /// Starts counting again from nothing.
    pub fn reset(&self) {
        self.seconds.set(0.0);
        self.pairs.set(0);
    }
}

impl<S: Scorer> Scorer for Timed<S> {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Answer> {
        let t = Instant::now();
        let out = self.inner.score(pairs);
        self.seconds.set(self.seconds.get() + t.elapsed().as_secs_f64());
        self.pairs.set(self.pairs.get() + pairs.len());
        out
    }

    citelens_engine::forward_scorer_info!(inner);
}
