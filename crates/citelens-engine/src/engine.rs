//! The engine: plan → score → decide → report, each stage taking the previous one's type. `Plan`
//! (plan/) cuts the answer into claims and lists the model's pairs; a `Scorer` fills `Scores`
//! (score/, in two rounds with long documents); `decide` turns the scores and typed checks into
//! `Decisions`; `report_with` (assemble/) formats them as the report.

use crate::assemble::report_with;
use crate::decide::answer::{decide, Decisions};
use crate::decide::combiner::Combiner;
use crate::decide::RuleDecider;
use crate::error::Result;
use crate::plan::Plan;
use crate::score::rounds::{final_plan, round_one, round_two};
use crate::score::{ScoreTable, Scorer, Scores};
use crate::thresholds::Thresholds;
use citelens_types::input::{Caps, Input};
use citelens_types::report::Report;

pub struct Engine<S: Scorer> {
    pub scorer: S,
    pub thresholds: Thresholds,
    pub caps: Caps,
    /// Decides each sentence's category from the engine's readings (`Combiner::shipped()`, or its
    /// sentence head alone: `Combiner::head_only`); `None`, the default, leaves it to the rules and the
    /// four-way head (`combine`). docs/COMBINER.md has the figures on both sides, and issue 43's
    /// end-to-end model (MODEL.md) those of a combiner retrained on it.
    pub combiner: Option<Combiner>,
}

impl<S: Scorer> Engine<S> {
    pub fn new(scorer: S) -> Self {
        Engine { scorer, thresholds: Thresholds::default(), caps: Caps::default(), combiner: None }
    }

    /// The same thresholds and caps over another scorer.
    pub fn with_scorer<T: Scorer>(&self, scorer: T) -> Engine<T> {
        Engine { scorer, thresholds: self.thresholds, caps: self.caps, combiner: self.combiner.clone() }
    }

    /// The plan stage: sentences, claims, typed checks and the pairs to score. With long documents
    /// this scores round one here (each claim's BM25 candidates, see `score::rounds`) and plans round
    /// two on the evidence chosen; round one's answers come with the plan and are not asked again.
    pub fn plan(&self, input: &Input) -> Result<Plan> {
        final_plan(input, &self.caps, &self.thresholds, &self.scorer)
    }

    /// Round one of a verification with long documents (`score::round_one`), to be scored by this
    /// engine's scorer or elsewhere (the browser's worker pool). `None` when no citation is a document.
    pub fn round_one(&self, input: &Input) -> Result<Option<Plan>> {
        round_one(input, &self.caps, &self.scorer)
    }

    /// Round two: the plan that reads each claim against the evidence chosen from round one's `scores`
    /// (`score::round_two`).
    pub fn round_two(&self, input: &Input, first: &Plan, scores: &Scores) -> Result<Plan> {
        round_two(input, &self.caps, &self.thresholds, &self.scorer, first, scores)
    }

    pub fn verify(&self, input: &Input) -> Result<Report> {
        let plan = self.plan(input)?;
        let scores = Scores::all(&plan, &self.scorer);
        Ok(self.report(&plan, &scores, plan.sentences.len()))
    }

    /// The distinct (premise, hypothesis) pairs `verify(input)` asks the model, in order.
    pub fn pairs_needed(&self, input: &Input) -> Result<Vec<(String, String)>> {
        Ok(self.plan(input)?.pairs().to_vec())
    }

    /// The report `verify(input)` would give, from `scores` of the pairs `pairs_needed(input)` listed.
    pub fn verify_with_scores(&self, input: &Input, scores: &ScoreTable) -> Result<Report> {
        let plan = self.plan(input)?;
        let scores = Scores::from_table(&plan, scores);
        Ok(self.report(&plan, &scores, plan.sentences.len()))
    }

    /// The decide stage for the first `upto` sentences of the plan, with this engine's thresholds and
    /// combiner.
    pub fn decide(&self, plan: &Plan, scores: &Scores, upto: usize) -> Decisions {
        let decider = RuleDecider { thresholds: self.thresholds };
        decide(plan, scores, upto, &decider, self.combiner.as_ref())
    }

    /// The report of the first `upto` sentences of the plan (all of them for the full report).
    pub fn report(&self, plan: &Plan, scores: &Scores, upto: usize) -> Report {
        let decisions = self.decide(plan, scores, upto);
        report_with(plan, scores, &decisions, self.scorer.name())
    }
}
