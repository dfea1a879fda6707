//! Batching like text-embeddings-inference: the pairs of concurrent requests wait in one bounded
//! queue. Whenever one of the model runners (one thread each, `--threads`, default one per core) is
//! free, everything queued is sorted by length and planned into batches whose padded size (longest
//! pair × pairs) stays within a token budget; the runner gets the batch that holds the oldest pair,
//! and the rest wait for the next free runner, so later arrivals still join them. A request whose
//! client has gone, or whose deadline has passed, is dropped before it reaches the model.
//!
//! Why runners and not one model thread: tract runs a batch on one core, so a single model thread
//! turned a 16-core machine into a one-core one (40.7 pairs/s there against 86 on two cores here).
//!
//! The queue is bounded by a semaphore counted in pairs: a request takes one permit per pair up front
//! (`try_submit`: all or nothing, so the caller can answer 429) and each pair gives its permit back
//! when it is answered or dropped.

use std::ops::Range;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Instant;

use citelens_engine::report::Probs;
use citelens_engine::ScoreError;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use crate::metrics::Metrics;

/// What the batcher runs: the model behind the `Scorer` seam, with a way to count a pair's tokens.
pub trait PairModel: Send + Sync + 'static {
    /// Probabilities for each pair, in order.
    fn predict(&self, pairs: &[(&str, &str)]) -> Vec<PairResult>;
    /// Tokens the pair costs (all of its windows); a pair the model will refuse costs 1.
    fn tokens(&self, premise: &str, hypothesis: &str) -> usize;
}

impl PairModel for citelens_nli::NliModel {
    fn predict(&self, pairs: &[(&str, &str)]) -> Vec<PairResult> {
        citelens_engine::Scorer::score(self, pairs)
    }
    fn tokens(&self, premise: &str, hypothesis: &str) -> usize {
        self.encode(premise, hypothesis).map(|w| w.iter().map(|(s, _)| s.input_ids.len()).sum()).unwrap_or(1).max(1)
    }
}

pub type PairResult = Result<Probs, ScoreError>;

struct Job {
    premise: String,
    hypothesis: String,
    tokens: usize,
    deadline: Instant,
    reply: oneshot::Sender<PairResult>,
    _permit: OwnedSemaphorePermit,
}

impl Job {
    /// Answers the pair, its permit given back first: a client that sends its next request on this
    /// answer finds room.
    fn answer(self, result: PairResult) {
        let Job { reply, _permit, .. } = self;
        drop(_permit);
        let _ = reply.send(result);
    }
}

/// The queue was full: `queued` pairs wait, `capacity` at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueFull {
    pub queued: usize,
    pub capacity: usize,
}

pub struct Batcher {
    tx: mpsc::Sender<Job>,
    permits: Arc<Semaphore>,
    capacity: usize,
    runners: usize,
    model: Arc<dyn PairModel>,
}

/// Splits jobs sorted by ascending token count into consecutive batches whose padded size
/// (the batch's longest × its count) is at most `budget`; a job over the budget alone is a batch.
pub fn plan_batches(sorted_tokens: &[usize], budget: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &t) in sorted_tokens.iter().enumerate() {
        if i > start && t * (i - start + 1) > budget {
            out.push(start..i);
            start = i;
        }
    }
    if start < sorted_tokens.len() {
        out.push(start..sorted_tokens.len());
    }
    out
}

impl Batcher {
    /// Starts `runners` model threads (at least one) and the thread that hands them batches.
    /// `capacity`: pairs queued at most; `budget`: padded tokens per batch.
    pub fn start(model: Arc<dyn PairModel>, capacity: usize, budget: usize, runners: usize, metrics: Arc<Metrics>) -> Self {
        let (tx, rx) = mpsc::channel::<Job>();
        let permits = Arc::new(Semaphore::new(capacity));
        let (idle_tx, idle_rx) = mpsc::channel::<usize>();
        let mut to_runners = Vec::new();
        let runners = runners.max(1);
        for id in 0..runners {
            let (batch_tx, batch_rx) = mpsc::channel::<Vec<Job>>();
            to_runners.push(batch_tx);
            let (model, metrics, idle) = (model.clone(), metrics.clone(), idle_tx.clone());
            std::thread::Builder::new()
                .name(format!("citelens-runner-{id}"))
                .spawn(move || run_batches(id, batch_rx, idle, model.as_ref(), &metrics))
                .expect("starting a model runner thread");
        }
        drop(idle_tx);
        std::thread::Builder::new()
            .name("citelens-batcher".into())
            .spawn(move || dispatch(rx, idle_rx, to_runners, budget, &metrics))
            .expect("starting the batcher thread");
        Batcher { tx, permits, capacity, runners, model }
    }

    /// Model runner threads.
    pub fn runners(&self) -> usize {
        self.runners
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Pairs waiting or being scored.
    pub fn queued(&self) -> usize {
        self.capacity - self.permits.available_permits()
    }

    fn enqueue(
        &self,
        pairs: Vec<(String, String)>,
        deadline: Instant,
        mut permit: OwnedSemaphorePermit,
    ) -> Vec<oneshot::Receiver<PairResult>> {
        pairs
            .into_iter()
            .map(|(premise, hypothesis)| {
                let (reply, rx) = oneshot::channel();
                let one = permit.split(1).expect("one permit per pair");
                let tokens = self.model.tokens(&premise, &hypothesis);
                // The thread only ends with the process: a send cannot fail while we run.
                let _ = self.tx.send(Job { premise, hypothesis, tokens, deadline, reply, _permit: one });
                rx
            })
            .collect()
    }

    /// Queues all the pairs or none (the queue is full).
    pub fn try_submit(&self, pairs: Vec<(String, String)>, deadline: Instant) -> Result<Vec<oneshot::Receiver<PairResult>>, QueueFull> {
        let full = QueueFull { queued: self.queued(), capacity: self.capacity };
        if pairs.is_empty() {
            return Ok(Vec::new());
        }
        let n = u32::try_from(pairs.len()).map_err(|_| full)?;
        let permit = self.permits.clone().try_acquire_many_owned(n).map_err(|_| full)?;
        Ok(self.enqueue(pairs, deadline, permit))
    }

    /// Queues the pairs once there is room, waiting at most until `deadline` (None: it passed).
    pub async fn submit_when_room(&self, pairs: Vec<(String, String)>, deadline: Instant) -> Option<Vec<oneshot::Receiver<PairResult>>> {
        if pairs.is_empty() {
            return Some(Vec::new());
        }
        // More pairs than the queue holds go in queue-sized parts.
        let mut out = Vec::with_capacity(pairs.len());
        let mut rest = pairs;
        while !rest.is_empty() {
            let tail = rest.split_off(rest.len().min(self.capacity));
            let n = rest.len() as u32;
            let permit = tokio::time::timeout_at(deadline.into(), self.permits.clone().acquire_many_owned(n)).await.ok()?.ok()?;
            out.extend(self.enqueue(rest, deadline, permit));
            rest = tail;
        }
        Some(out)
    }
}

/// The answers to queued pairs, in order (a pair the batcher dropped says so).
pub async fn answers(receivers: Vec<oneshot::Receiver<PairResult>>) -> Vec<PairResult> {
    let mut out = Vec::with_capacity(receivers.len());
    for rx in receivers {
        out.push(rx.await.unwrap_or_else(|_| Err(ScoreError::Refused("the batcher dropped the pair".into()))));
    }
    out
}

/// Hands batches to free runners. A runner says it is free by sending its number on `idle`.
fn dispatch(rx: mpsc::Receiver<Job>, idle: mpsc::Receiver<usize>, runners: Vec<mpsc::Sender<Vec<Job>>>, budget: usize, metrics: &Metrics) {
    let mut pending: Vec<(u64, Job)> = Vec::new();
    let mut arrivals: u64 = 0;
    while let Ok(runner) = idle.recv() {
        let batch = loop {
            if pending.is_empty() {
                match rx.recv() {
                    Ok(job) => pending.push((next(&mut arrivals), job)),
                    Err(_) => return, // the batcher is gone: the runners end when their senders drop
                }
            }
            pending.extend(rx.try_iter().map(|job| (next(&mut arrivals), job)));
            drop_unwanted(&mut pending, metrics);
            if !pending.is_empty() {
                break take_oldest_batch(&mut pending, budget);
            }
        };
        // A runner only ends with the process, so its channel is open while it is idle.
        let _ = runners[runner].send(batch);
    }
}

fn next(counter: &mut u64) -> u64 {
    *counter += 1;
    *counter
}

/// Pairs whose client went away, or whose deadline passed, leave the queue unscored (checked when a
/// runner is free, not when they came: a client may have gone while earlier batches ran).
fn drop_unwanted(pending: &mut Vec<(u64, Job)>, metrics: &Metrics) {
    let now = Instant::now();
    for (arrival, job) in std::mem::take(pending) {
        if job.reply.is_closed() {
            metrics.abandoned_pairs.inc();
        } else if job.deadline <= now {
            metrics.late_pairs.inc();
            job.answer(Err(ScoreError::Refused("the request's deadline passed before this pair was scored".into())));
        } else {
            pending.push((arrival, job));
        }
    }
}

/// Sorts the queue by length, plans it into batches, and takes out the batch holding the oldest pair
/// (so a long pair is not passed over for ever by shorter newcomers).
fn take_oldest_batch(pending: &mut Vec<(u64, Job)>, budget: usize) -> Vec<Job> {
    pending.sort_by_key(|(arrival, job)| (job.tokens, *arrival));
    let tokens: Vec<usize> = pending.iter().map(|(_, j)| j.tokens).collect();
    let oldest = (0..pending.len()).min_by_key(|&i| pending[i].0).expect("a non-empty queue");
    let range = plan_batches(&tokens, budget).into_iter().find(|r| r.contains(&oldest)).expect("the plan covers every pair");
    pending.drain(range).map(|(_, job)| job).collect()
}

/// One model runner: scores each batch it is given and answers its pairs, then says it is free.
fn run_batches(id: usize, batches: mpsc::Receiver<Vec<Job>>, idle: mpsc::Sender<usize>, model: &dyn PairModel, metrics: &Metrics) {
    if idle.send(id).is_err() {
        return;
    }
    while let Ok(batch) = batches.recv() {
        let pairs: Vec<(&str, &str)> = batch.iter().map(|j| (j.premise.as_str(), j.hypothesis.as_str())).collect();
        let padded = batch.iter().map(|j| j.tokens).max().unwrap_or(0) * batch.len();
        let results = model.predict(&pairs);
        metrics.batches.inc();
        metrics.batch_pairs.observe(batch.len() as f64);
        metrics.batch_tokens.observe(padded as f64);
        metrics.pairs_scored.inc_by(batch.len() as u64);
        for (job, result) in batch.into_iter().zip(results) {
            job.answer(result);
        }
        if idle.send(id).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::time::Duration;

    /// A test double: "scores" a pair by its premise's length and records every batch it is given.
    struct Recorder {
        batches: Mutex<Vec<Vec<String>>>,
        delay: Duration,
    }

    impl PairModel for Recorder {
        fn predict(&self, pairs: &[(&str, &str)]) -> Vec<PairResult> {
            std::thread::sleep(self.delay);
            self.batches.lock().unwrap().push(pairs.iter().map(|(p, _)| p.to_string()).collect());
            pairs
                .iter()
                .map(|(p, _)| Ok(Probs { entailment: p.len() as f32, neutral: 0.0, contradiction: 0.0, four_way: None, evidence: None }))
                .collect()
        }
        fn tokens(&self, premise: &str, _: &str) -> usize {
            premise.len()
        }
    }

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn plans_cover_every_job_once_within_budget() {
        let mut seed = 7;
        for _ in 0..500 {
            let n = (lcg(&mut seed) % 40) as usize;
            let budget = 16 + (lcg(&mut seed) % 600) as usize;
            let mut tokens: Vec<usize> = (0..n).map(|_| 1 + (lcg(&mut seed) % 200) as usize).collect();
            tokens.sort();
            let plan = plan_batches(&tokens, budget);
            let covered: Vec<usize> = plan.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(covered, (0..n).collect::<Vec<_>>(), "every job once, in order");
            for r in &plan {
                let padded = tokens[r.end - 1] * r.len();
                assert!(padded <= budget || r.len() == 1, "batch {r:?} of {tokens:?} over {budget}");
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn concurrent_requests_nothing_lost_or_duplicated() {
        let model = Arc::new(Recorder { batches: Mutex::new(Vec::new()), delay: Duration::from_millis(2) });
        let metrics = Arc::new(Metrics::new());
        let batcher = Arc::new(Batcher::start(model.clone(), 10_000, 300, 3, metrics.clone()));
        let deadline = Instant::now() + Duration::from_secs(600);
        let mut tasks = Vec::new();
        for r in 0..32 {
            let b = batcher.clone();
            tasks.push(tokio::spawn(async move {
                let pairs: Vec<(String, String)> =
                    (0..(1 + r % 7)).map(|i| ("x".repeat(1 + (r * 13 + i * 7) % 90), format!("{r}-{i}"))).collect();
                let want: Vec<f32> = pairs.iter().map(|(p, _)| p.len() as f32).collect();
                let rxs = b.submit_when_room(pairs, deadline).await.unwrap();
                let got: Vec<f32> = answers(rxs).await.into_iter().map(|r| r.unwrap().entailment).collect();
                assert_eq!(got, want, "each request gets its own answers, in order");
                want.len()
            }));
        }
        let mut total = 0;
        for t in tasks {
            total += t.await.unwrap();
        }
        let batches = model.batches.lock().unwrap().clone();
        assert_eq!(batches.iter().map(Vec::len).sum::<usize>(), total, "every pair scored exactly once");
        for b in &batches {
            let padded = b.iter().map(String::len).max().unwrap() * b.len();
            assert!(padded <= 300 || b.len() == 1);
        }
        assert_eq!(batcher.queued(), 0, "every permit given back");
        assert_eq!(metrics.pairs_scored.get() as usize, total);
    }

    /// A test double that counts how many of its calls run at once. Each call waits until `meet`
    /// calls are in at the same time (or, once they have met, not at all), so the count shows what
    /// the batcher allows, whatever the machine's speed; a batcher that cannot run `meet` calls at
    /// once leaves the first call waiting, and the wait's upper bound fails the test, not hangs it.
    struct Overlap {
        meet: usize,
        state: Mutex<(usize, usize, bool)>, // (running now, most at once, met)
        changed: std::sync::Condvar,
    }

    impl Overlap {
        fn new(meet: usize) -> Self {
            Overlap { meet, state: Mutex::new((0, 0, false)), changed: std::sync::Condvar::new() }
        }
        fn most(&self) -> usize {
            self.state.lock().unwrap().1
        }
    }

    impl PairModel for Overlap {
        fn predict(&self, pairs: &[(&str, &str)]) -> Vec<PairResult> {
            let mut s = self.state.lock().unwrap();
            s.0 += 1;
            s.1 = s.1.max(s.0);
            if s.0 >= self.meet {
                s.2 = true;
                self.changed.notify_all();
            }
            // Not a timing assumption: the bound only turns a batcher that never overlaps into a failure.
            let (mut s, _) = self.changed.wait_timeout_while(s, Duration::from_secs(60), |s| !s.2).unwrap();
            s.0 -= 1;
            drop(s);
            pairs.iter().map(|_| Ok(Probs { entailment: 1.0, neutral: 0.0, contradiction: 0.0, four_way: None, evidence: None })).collect()
        }
        fn tokens(&self, _: &str, _: &str) -> usize {
            10
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn runners_score_batches_at_the_same_time_and_one_runner_never_does() {
        for (runners, want) in [(1, 1), (3, 3)] {
            let model = Arc::new(Overlap::new(runners));
            // A budget of one pair per batch: 12 pairs are 12 batches.
            let batcher = Batcher::start(model.clone(), 100, 10, runners, Arc::new(Metrics::new()));
            let deadline = Instant::now() + Duration::from_secs(600);
            let pairs = (0..12).map(|i| (format!("p{i}"), "h".to_string())).collect();
            let got = answers(batcher.try_submit(pairs, deadline).unwrap()).await;
            assert_eq!(got.len(), 12);
            assert!(got.iter().all(Result::is_ok));
            assert_eq!(model.most(), want, "{runners} runners");
        }
    }

    #[test]
    fn the_batch_holding_the_oldest_pair_goes_first() {
        let permits = Arc::new(Semaphore::new(10));
        let job = |tokens: usize| {
            let (reply, rx) = oneshot::channel();
            std::mem::forget(rx);
            Job {
                premise: String::new(),
                hypothesis: String::new(),
                tokens,
                deadline: Instant::now(),
                reply,
                _permit: permits.clone().try_acquire_owned().unwrap(),
            }
        };
        // Arrival 1 is the longest pair: it must not wait behind the short newcomers.
        let mut pending = vec![(1, job(90)), (2, job(5)), (3, job(6)), (4, job(7))];
        let first = take_oldest_batch(&mut pending, 100);
        assert_eq!(first.iter().map(|j| j.tokens).collect::<Vec<_>>(), vec![90]);
        let second = take_oldest_batch(&mut pending, 100);
        assert_eq!(second.iter().map(|j| j.tokens).collect::<Vec<_>>(), vec![5, 6, 7]);
        assert!(pending.is_empty());
    }

    /// A test double that records what it scores, and holds its first call until the test opens it:
    /// the test knows the model is busy when `entered` is set, not after some sleep.
    struct Held {
        inner: Recorder,
        state: Mutex<(bool, bool)>, // (entered, open)
        changed: std::sync::Condvar,
    }

    impl Held {
        fn entered(&self) -> bool {
            self.state.lock().unwrap().0
        }
        fn open(&self) {
            self.state.lock().unwrap().1 = true;
            self.changed.notify_all();
        }
    }

    impl PairModel for Held {
        fn predict(&self, pairs: &[(&str, &str)]) -> Vec<PairResult> {
            let mut s = self.state.lock().unwrap();
            s.0 = true;
            drop(self.changed.wait_while(s, |s| !s.1).unwrap());
            self.inner.predict(pairs)
        }
        fn tokens(&self, premise: &str, hypothesis: &str) -> usize {
            self.inner.tokens(premise, hypothesis)
        }
    }

    #[tokio::test]
    async fn full_queue_refuses_and_abandoned_pairs_never_reach_the_model() {
        let model = Arc::new(Held {
            inner: Recorder { batches: Mutex::new(Vec::new()), delay: Duration::ZERO },
            state: Mutex::new((false, false)),
            changed: std::sync::Condvar::new(),
        });
        let metrics = Arc::new(Metrics::new());
        let batcher = Batcher::start(model.clone(), 2, 1000, 1, metrics.clone());
        let deadline = Instant::now() + Duration::from_secs(600);
        let first = batcher.try_submit(vec![("busy".into(), "h".into())], deadline).unwrap();
        // Room for one more pair, not for two: all or nothing.
        assert_eq!(
            batcher.try_submit(vec![("a".into(), "h".into()), ("b".into(), "h".into())], deadline).unwrap_err(),
            QueueFull { queued: 1, capacity: 2 }
        );
        while !model.entered() {
            tokio::task::yield_now().await; // until the model is busy with "busy"
        }
        let gone = batcher.try_submit(vec![("abandoned".into(), "h".into())], deadline).unwrap();
        drop(gone); // the client went away
        model.open();
        assert!(first.into_iter().next().unwrap().await.unwrap().is_ok());
        // The abandoned pair's permit comes back when the batcher reaches it and drops it.
        while batcher.queued() > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let after = batcher.try_submit(vec![("later".into(), "h".into())], deadline).unwrap();
        after.into_iter().next().unwrap().await.unwrap().unwrap();
        let seen: Vec<String> = model.inner.batches.lock().unwrap().iter().flatten().cloned().collect();
        assert_eq!(seen, vec!["busy".to_string(), "later".to_string()]);
        assert_eq!(metrics.abandoned_pairs.get(), 1);
        assert_eq!(batcher.queued(), 0);
    }
}
