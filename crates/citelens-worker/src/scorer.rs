//! The engine's `Scorer` seam for one request: its pairs go through the shared batcher, so pairs of
//! concurrent verifications share batches. The engine is synchronous and runs on a blocking thread;
//! this scorer blocks that thread (never an async one) until its pairs are answered, its deadline
//! passes, or its client goes away (then it answers at once and the queued pairs are dropped unscored).

use std::sync::Arc;
use std::time::Instant;

use citelens_engine::report::Probs;
use citelens_engine::{ScoreError, Scorer};
use tokio::sync::watch;

use crate::batcher::{answers, Batcher};

pub struct QueueScorer {
    pub batcher: Arc<Batcher>,
    pub deadline: Instant,
    /// Becomes true (or its sender is dropped) when the request is abandoned.
    pub cancel: watch::Receiver<bool>,
    pub runtime: tokio::runtime::Handle,
    pub name: String,
    pub four_way: bool,
    pub sentence_pairs: citelens_engine::SentencePairs,
    pub evidence: bool,
}

/// Dropped with the request's future: tells the scorer to stop.
pub struct CancelOnDrop(pub watch::Sender<bool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let _ = self.0.send(true);
    }
}

impl Scorer for QueueScorer {
    fn score(&self, pairs: &[(&str, &str)]) -> Vec<Result<Probs, ScoreError>> {
        let fail = |why: &str| pairs.iter().map(|_| Err(ScoreError::Refused(why.to_string()))).collect::<Vec<_>>();
        if *self.cancel.borrow() {
            return fail("the client went away");
        }
        let owned: Vec<(String, String)> = pairs.iter().map(|(p, h)| (p.to_string(), h.to_string())).collect();
        self.runtime.block_on(async {
            let mut cancel = self.cancel.clone();
            let work = async { Some(answers(self.batcher.submit_when_room(owned, self.deadline).await?).await) };
            tokio::select! {
                done = tokio::time::timeout_at(self.deadline.into(), work) => match done {
                    Ok(Some(out)) => out,
                    _ => fail("the request's deadline passed"),
                },
                _ = cancel.wait_for(|gone| *gone) => fail("the client went away"),
            }
        })
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn has_four_way(&self) -> bool {
        self.four_way
    }

    fn has_evidence(&self) -> bool {
        self.evidence
    }

    fn sentence_pairs(&self) -> citelens_engine::SentencePairs {
        self.sentence_pairs
    }
}
