//! `/metrics`: the worker's counters in Prometheus' text format (the `prometheus` crate's registry).

use prometheus::{Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder};

pub struct Metrics {
    registry: Registry,
    pub requests: IntCounterVec,
    pub pairs_scored: IntCounter,
    pub batches: IntCounter,
    pub batch_pairs: Histogram,
    pub batch_tokens: Histogram,
    pub abandoned_pairs: IntCounter,
    pub late_pairs: IntCounter,
    pub rejected: IntCounterVec,
    pub queue_depth: IntGauge,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let registry = Registry::new_custom(Some("citelens_worker".into()), None).expect("a valid prefix");
        let requests =
            IntCounterVec::new(Opts::new("http_requests_total", "HTTP requests by route and status"), &["route", "status"]).expect("valid");
        let pairs_scored = IntCounter::new("pairs_scored_total", "premise/hypothesis pairs run through the model").expect("valid");
        let batches = IntCounter::new("batches_total", "model batches run").expect("valid");
        let batch_pairs = Histogram::with_opts(
            HistogramOpts::new("batch_pairs", "pairs per batch").buckets(vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0]),
        )
        .expect("valid");
        let batch_tokens = Histogram::with_opts(
            HistogramOpts::new("batch_padded_tokens", "padded tokens per batch")
                .buckets(prometheus::exponential_buckets(64.0, 2.0, 12).expect("valid")),
        )
        .expect("valid");
        let abandoned_pairs =
            IntCounter::new("abandoned_pairs_total", "pairs dropped before the model because their client had gone").expect("valid");
        let late_pairs =
            IntCounter::new("late_pairs_total", "pairs dropped before the model because their deadline had passed").expect("valid");
        let rejected = IntCounterVec::new(Opts::new("rejected_requests_total", "requests refused before any work, by reason"), &["reason"])
            .expect("valid");
        let queue_depth = IntGauge::new("queue_pairs", "pairs queued or being scored (at the last scrape)").expect("valid");
        for c in [
            Box::new(requests.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(pairs_scored.clone()),
            Box::new(batches.clone()),
            Box::new(batch_pairs.clone()),
            Box::new(batch_tokens.clone()),
            Box::new(abandoned_pairs.clone()),
            Box::new(late_pairs.clone()),
            Box::new(rejected.clone()),
            Box::new(queue_depth.clone()),
        ] {
            registry.register(c).expect("each metric once");
        }
        Metrics { registry, requests, pairs_scored, batches, batch_pairs, batch_tokens, abandoned_pairs, late_pairs, rejected, queue_depth }
    }

    pub fn render(&self) -> String {
        let mut out = Vec::new();
        TextEncoder::new().encode(&self.registry.gather(), &mut out).expect("text encoding never fails");
        String::from_utf8(out).expect("the text format is UTF-8")
    }
}
