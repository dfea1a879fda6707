//! The plan stage: the answer's text cut into sentences and claims, and every (premise, claim) pair
//! the model must score, made once per request. Scoring fills `Scores`; the decide and report stages
//! read both. Streaming UIs report growing prefixes of the same plan.

pub mod abstain;
pub mod checks;
pub mod document;
pub mod evidence;
pub mod retrieve;

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::Result;
use crate::plan::document::Document;
use crate::plan::evidence::ChosenEvidence;
use crate::plan::retrieve::{Retriever, Unit};
use crate::text::analysed::Analysed;
use crate::text::claims::{self, Claim, Discourse, SentenceParts};
use crate::text::kg;
use crate::text::markers::{self, CleanAnswer, MarkerKind};
use crate::text::question;
use crate::text::segment::{self, Piece};
use crate::text::words::{self, WordList};
use abstain::AbstentionCheck;
use checks::CheckOutcome;
use citelens_types::input::{Caps, Citation, Input};
use citelens_types::report::{Finding, FindingKind, Probs};

/// Index of a pair in `Plan::pairs`.
pub type PairId = usize;

/// One source as the model reads it.
pub struct Source {
    pub citation: Citation,
    /// Premise text (passage, or triples as sentences).
    pub premise: String,
    /// Evidence units: sentences (byte ranges into `citation.text`, or into `citation.document`
    /// for a document) or triples.
    pub units: Vec<Unit>,
    /// A long document: each sentence reads only the units chosen for it (see `evidence`), never
    /// the whole text.
    pub is_document: bool,
}

/// A typed check's probe and the pair that scores it, beside the claim's own score on the same
/// evidence sentence.
pub struct ProbePlan {
    pub probe: PairId,
    pub original: PairId,
    /// Position (in the sentence's `cited`) of the source the evidence sentence belongs to.
    pub source_pos: usize,
    /// The evidence sentence (unit of that source).
    pub unit: usize,
}

/// A claim's candidate evidence in one cited document (round one of a verification with documents).
pub struct DocCandidates {
    /// Position of the document among the sentence's cited sources.
    pub pos: usize,
    /// BM25's candidates, best first, each with its pair against the claim.
    pub units: Vec<(usize, PairId)>,
    /// The top candidates read together (document order).
    pub joint: Option<(Vec<usize>, PairId)>,
    /// The claim's terms and which of them each candidate names (`evidence::complete`).
    pub terms: evidence::ClaimTerms,
}

pub struct ClaimPlan {
    pub claim: Claim,
    /// The claim's text analysed once, for its checks and every decision on it.
    pub analysed: Analysed,
    /// Round one only: candidate evidence from each cited document.
    pub candidates: Vec<DocCandidates>,
    /// Pair per cited source, in the sentence's citation order.
    pub indiv: Vec<PairId>,
    pub joint: Option<PairId>,
    /// (source position, unit index, pair) for evidence units.
    pub units: Vec<(usize, usize, PairId)>,
    /// The claim read without what it copied from the question: (source position, or `None` for
    /// the joint reading, pair).
    pub restated: Vec<(Option<usize>, PairId)>,
    /// Typed checks against the cited evidence sentences, and their probes (same order as
    /// `checks.conflicts`).
    pub checks: CheckOutcome,
    pub probes: Vec<ProbePlan>,
    /// The names in the answer's words the claim was built from (clean-text ranges), to mark those the
    /// evidence lacks.
    pub part_names: Vec<(Piece, String)>,
}

pub struct SentencePlan {
    pub piece: Piece,
    /// Citation indices, in marker order.
    pub cited: Vec<usize>,
    pub na: Vec<Piece>,
    pub graph_facts: Vec<(usize, String, String, String)>,
    pub claims: Vec<ClaimPlan>,
    pub alignment: Vec<PairId>,
    /// The whole sentence (its claims as read) against all its cited evidence: the pair whose
    /// four-way reading (`Probs::four_way`, when the model has that head) the decider may use.
    pub whole: Option<PairId>,
    /// Per cited source: the premise this sentence reads.
    pub premises: Vec<String>,
    /// Per cited source: for a document, the units this sentence reads (document order).
    pub views: Vec<Option<Vec<usize>>>,
    /// The sentence abstains ("The document does not say…"): not verified as claims, but checked
    /// for whether the cited evidence really lacks the answer.
    pub abstention: Option<AbstentionCheck>,
    /// A cited sentence's evidence as its decisions read it (set with its claims).
    pub evidence: Option<EvidenceWords>,
}

/// A cited sentence's evidence, analysed once for the decisions on its claims and its reasoning.
pub struct EvidenceWords {
    /// The sentence itself.
    pub sentence: Analysed,
    /// Per cited source, the premise the sentence reads (`SentencePlan::premise`).
    pub premises: Vec<Analysed>,
    /// All its evidence together, with the names its pronouns refer to and the citations' titles
    /// ("The painting was stolen" names the Mona Lisa).
    pub together: Analysed,
    /// Each cited source alone, with the names its pronouns refer to.
    pub alone: Vec<Analysed>,
}

/// What every claim of one sentence is read against: its premises' words, their joint reading, the
/// links between its passages and the evidence sentences its typed checks look in.
struct SentenceReading {
    joint_premise: Option<String>,
    /// All the sentence's premises together, and each alone.
    cited_words: Analysed,
    premise_words: Vec<Analysed>,
    links: checks::PassageLinks,
    /// (source position, unit) of every cited evidence sentence, and each analysed.
    check_sentences: Vec<(usize, usize)>,
    check_analysed: Vec<Arc<Analysed>>,
}

impl SentencePlan {
    /// The premise this sentence reads from its cited source at `pos`: a document's chosen
    /// sentences, or the whole source.
    pub fn premise<'a>(&'a self, pos: usize, sources: &'a [Source]) -> &'a str {
        match self.views.get(pos) {
            Some(Some(_)) => &self.premises[pos],
            _ => &sources[self.cited[pos]].premise,
        }
    }

    /// The units this sentence reads from its cited source at `pos`.
    pub fn units<'a>(&'a self, pos: usize, sources: &'a [Source]) -> impl Iterator<Item = &'a Unit> + 'a {
        let src = &sources[self.cited[pos]];
        let ids: Vec<usize> = match self.views.get(pos) {
            Some(Some(units)) => units.clone(),
            _ => (0..src.units.len()).collect(),
        };
        ids.into_iter().filter_map(move |u| src.units.get(u))
    }
}

pub struct Plan {
    pub input: Input,
    pub clean: CleanAnswer,
    /// The question (empty when there is none), analysed once.
    pub question: Analysed,
    pub sources: Vec<Source>,
    pub sentences: Vec<SentencePlan>,
    /// Findings known before scoring (markers, empty citations).
    pub findings: Vec<Finding>,
    /// Citations some marker cites.
    pub used: Vec<bool>,
    /// The evidence chosen in round one (empty without documents, and in round one itself).
    pub chosen: ChosenEvidence,
    /// This is round one: only documents' candidate pairs are listed.
    pub candidates_only: bool,
    pairs: Vec<(String, String)>,
    index: HashMap<(String, String), PairId>,
    /// Answers already known for some pairs (round one of a verification with documents read
    /// these), by `PairId`: never scored again.
    prescored: Vec<Option<Probs>>,
    /// Round one's pairs this plan does not list (candidates not chosen): the model read them too.
    read_in_round_one: usize,
    /// Round one: each cited document's term weights, by source index (built on first use).
    coverage: HashMap<usize, evidence::Coverage>,
}

/// Where a verification with long documents stands (see `evidence`).
pub enum DocumentStage {
    /// Round one: each claim's candidate sentences from each cited document, to be scored; with
    /// `joint`, the top candidates read together too (the NLI head's way to find evidence spread
    /// over sentences; a model with the evidence head ranks without it).
    Candidates { joint: bool },
    /// Round two (and every plan without documents): read the evidence chosen from round one.
    Chosen(ChosenEvidence),
}

/// Evidence units per source scored for each claim. One: a second sentence per source changed no
/// verdict of the suite, the paper examples or AttributionBench's first 500 and cost WiCE 0.3 points
/// of binary F1, while it added a quarter of the pairs (Brooklyn: 26 → 19).
pub const UNITS_PER_SOURCE: usize = 1;
/// About one 128-token window of English text: passages longer than this together are not joined.
pub const JOINT_MAX_BYTES: usize = 600;
/// A passage this short (about two sentences) is not also read sentence by sentence against a claim.
pub const UNIT_PAIR_MIN_PASSAGE_BYTES: usize = 300;
/// Which whole-sentence pairs a plan asks for: what the model's sentence (four-way) head was trained to
/// read (`Scorer::sentence_pairs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SentencePairs {
    /// No sentence head: no whole-sentence pairs.
    #[default]
    None,
    /// The sentence against all its cited passages joined (the branch heads before issue 43).
    Passages,
    /// The sentence against its cited sentences that share the most words with it, in one window
    /// (`sentence_evidence`; issue 43's end-to-end model). A short passage is then not also read
    /// sentence by sentence against each claim.
    Selected,
}

/// Words of a whole-sentence pair (evidence and sentence) that fit one 128-token model window: about
/// 1.3 WordPiece tokens a word in this prose, less the three special tokens.
pub const SENTENCE_WINDOW_WORDS: usize = 90;
/// Evidence words a whole-sentence pair keeps even when the sentence itself is long.
pub const SENTENCE_MIN_EVIDENCE_WORDS: usize = 30;

fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

impl Plan {
    /// Plans `input` (checked against `caps`).
    pub fn new(input: &Input, caps: &Caps, retriever: &dyn Retriever) -> Result<Plan> {
        Self::with_whole_sentences(input, caps, retriever, SentencePairs::None)
    }

    /// Plans `input`, and each cited sentence's whole-sentence pair of the kind `whole` names (the
    /// scorer's `sentence_pairs()`: `None` without a four-way head, where the pair would cost a model
    /// pass for nothing).
    pub fn with_whole_sentences(input: &Input, caps: &Caps, retriever: &dyn Retriever, whole: SentencePairs) -> Result<Plan> {
        Self::with_stage(input, caps, retriever, whole, DocumentStage::Chosen(ChosenEvidence::default()))
    }

    /// Whether any citation is a long document (whose evidence is chosen in two rounds).
    pub fn has_documents(input: &Input) -> bool {
        input.citations.iter().any(|c| c.document.as_deref().is_some_and(|d| !d.trim().is_empty()))
    }

    /// Plans `input` at a stage of a verification with documents: round one lists each claim's
    /// candidate evidence pairs and nothing else (`retriever` picks them from each cited document);
    /// round two reads the chosen evidence (`retriever` picks a passage's sentences, as always).
    pub fn with_stage(input: &Input, caps: &Caps, retriever: &dyn Retriever, whole: SentencePairs, stage: DocumentStage) -> Result<Plan> {
        input.check(caps)?;
        let mut findings = Vec::new();
        let ids: Vec<&str> = input.citations.iter().map(|c| c.id.as_str()).collect();
        let clean = markers::strip(&input.answer, &ids);
        let question = input.question.clone().unwrap_or_default();
        if clean.text.trim().is_empty() {
            findings.push(finding(FindingKind::EmptyAnswer, "the answer has no text to verify".into()));
        }
        let question_discourse = Discourse::from_question(input.question.as_deref().unwrap_or(""));
        let sources: Vec<Source> = input.citations.iter().map(|c| source_of(c, &question_discourse)).collect();
        for s in &sources {
            if s.premise.trim().is_empty() && s.units.is_empty() {
                findings.push(finding(
                    FindingKind::EmptyCitation,
                    format!("citation {:?} has neither text, document nor triples", s.citation.id),
                ));
            }
        }
        let pieces = segment::sentences(&clean.text);
        let (sentences, used) = cite(input, &clean, &pieces, &sources, &mut findings);

        let (chosen, candidates_only, joint_candidates) = match stage {
            DocumentStage::Candidates { joint } => (ChosenEvidence::default(), true, joint),
            DocumentStage::Chosen(c) => (c, false, false),
        };
        let mut plan = Plan {
            input: input.clone(),
            clean,
            question: Analysed::new(question),
            sources,
            sentences: Vec::new(),
            findings,
            used,
            chosen,
            candidates_only,
            pairs: Vec::new(),
            index: HashMap::new(),
            prescored: Vec::new(),
            read_in_round_one: 0,
            coverage: HashMap::new(),
        };
        // A cited abstention ("I could not find …") is checked as a whole; every other cited
        // sentence is split into claims, by the text stage in one pass.
        let abstains: Vec<bool> =
            sentences.iter().map(|w| !w.cited.is_empty() && abstain::is_abstention(&plan.clean.text[w.piece.start..w.piece.end])).collect();
        let wanted: Vec<SentenceParts> = sentences
            .iter()
            .zip(&abstains)
            .map(|(w, &abstains)| SentenceParts {
                piece: w.piece.clone(),
                parts: minus(&w.piece, &w.na),
                split: !w.cited.is_empty() && !abstains,
            })
            .collect();
        let claims = claims::claims_of_answer(&plan.clean.text, question_discourse, &wanted);
        for (si, ((mut w, claims), abstains)) in sentences.into_iter().zip(claims).zip(abstains).enumerate() {
            if abstains {
                plan.check_abstention(&mut w);
            } else if !w.cited.is_empty() {
                if plan.candidates_only {
                    plan.plan_candidates(&mut w, claims, retriever, joint_candidates);
                } else {
                    plan.plan_claims(si, &mut w, claims, retriever, whole);
                }
            }
            plan.sentences.push(w);
        }
        Ok(plan)
    }

    fn ask(&mut self, premise: &str, hypothesis: &str) -> PairId {
        let key = (premise.to_string(), hypothesis.to_string());
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        self.pairs.push(key.clone());
        self.index.insert(key, self.pairs.len() - 1);
        self.pairs.len() - 1
    }

    /// A cited sentence that abstains, checked against the cited sentences: is the answer really not
    /// there? (No claims, no pairs.)
    fn check_abstention(&self, w: &mut SentencePlan) {
        let sentence = &self.clean.text[w.piece.start..w.piece.end];
        let query = if self.question.text().trim().is_empty() { abstain::asked_about(sentence) } else { self.question.text().to_string() };
        let sentences: Vec<(String, usize, usize, String)> = w
            .cited
            .iter()
            .flat_map(|&ix| {
                let src = &self.sources[ix];
                src.units.iter().filter_map(|u| u.chars.map(|(s, e)| (src.citation.id.clone(), s, e, u.text.clone())))
            })
            .collect();
        w.abstention = Some(abstain::check(&query, &sentences));
    }

    /// Round one: each claim's candidate evidence sentences in each cited document, and their pairs.
    fn plan_candidates(&mut self, w: &mut SentencePlan, claims: Vec<Claim>, retriever: &dyn Retriever, joint_candidates: bool) {
        for claim in claims {
            let analysed = Analysed::new(claim.text.as_str());
            let mut candidates = Vec::new();
            for (pos, &ix) in w.cited.iter().enumerate() {
                if !self.sources[ix].is_document {
                    continue;
                }
                // Round one's retriever (BM25 in the engine) over the whole document.
                let hits = retriever.retrieve(&self.sources[ix].units, &claim.text, evidence::CANDIDATES);
                let units: Vec<(usize, PairId)> =
                    hits.iter().map(|&u| (u, self.ask(&self.sources[ix].units[u].resolved.clone(), &claim.text))).collect();
                let mut top: Vec<usize> = hits.iter().copied().take(evidence::JOINT_CANDIDATES).collect();
                top.sort_unstable();
                let joint = (joint_candidates && top.len() > 1).then(|| {
                    let premise = join_passages(&top.iter().map(|&u| self.sources[ix].units[u].resolved.clone()).collect::<Vec<_>>());
                    (top.clone(), self.ask(&premise, &claim.text))
                });
                let units_of_source = &self.sources[ix].units;
                let coverage = self
                    .coverage
                    .entry(ix)
                    .or_insert_with(|| evidence::Coverage::new(&units_of_source.iter().map(|u| u.resolved.as_str()).collect::<Vec<_>>()));
                let terms = coverage.claim_terms(&analysed, &hits);
                candidates.push(DocCandidates { pos, units, joint, terms });
            }
            w.claims.push(ClaimPlan {
                analysed,
                claim,
                candidates,
                indiv: vec![],
                joint: None,
                units: vec![],
                restated: vec![],
                checks: CheckOutcome::default(),
                probes: vec![],
                part_names: vec![],
            });
        }
    }

    /// Sentence `si`'s claims against its cited evidence (each source alone, together, sentence by
    /// sentence, and the typed checks' probes), then the whole sentence's and its graph facts' pairs.
    fn plan_claims(&mut self, si: usize, w: &mut SentencePlan, claims: Vec<Claim>, retriever: &dyn Retriever, whole: SentencePairs) {
        w.views = (0..w.cited.len())
            .map(|pos| self.sources[w.cited[pos]].is_document.then(|| self.chosen.sentence_units(si, claims.len(), pos)))
            .collect();
        w.premises = w
            .cited
            .iter()
            .zip(&w.views)
            .map(|(&ix, view)| match view {
                Some(units) => join_passages(&units.iter().map(|&u| self.sources[ix].units[u].resolved.clone()).collect::<Vec<_>>()),
                None => premise_for(&self.sources[ix], &w.graph_facts, ix),
            })
            .collect();
        w.evidence = Some(self.evidence_words(w));
        let evidence = self.sentence_reading(w);
        for claim in claims {
            let planned = self.plan_claim(w, &evidence, claim, retriever, whole);
            w.claims.push(planned);
        }
        let sentence_text = w.claims.iter().map(|c| c.claim.text.as_str()).collect::<Vec<_>>().join(" ");
        if whole != SentencePairs::None && !sentence_text.trim().is_empty() {
            let premise = match whole {
                SentencePairs::Selected => self.sentence_evidence(&w.cited, &w.views, &w.premises, &sentence_text),
                _ => join_passages(&w.premises),
            };
            w.whole = Some(self.ask(&premise, &sentence_text));
        }
        for (ix, entity, rel, val) in w.graph_facts.clone() {
            let subject = subject_label(&self.input.citations[ix], &entity);
            let id = self.ask(&sentence_text, &kg::verbalize(&subject, &rel, &val));
            w.alignment.push(id);
        }
    }

    /// Sentence `w`'s evidence, analysed for the decisions (its premises are set).
    fn evidence_words(&self, w: &SentencePlan) -> EvidenceWords {
        let sources = &self.sources;
        let positions = 0..w.cited.len();
        let evidence_text: String = positions.clone().map(|pos| w.premise(pos, sources)).collect::<Vec<_>>().join(" ");
        let resolved: String =
            positions.clone().flat_map(|pos| w.units(pos, sources)).map(|u| u.named.as_str()).collect::<Vec<_>>().join(" ");
        let titles: String = w.cited.iter().filter_map(|&ix| self.input.citations[ix].title.clone()).collect::<Vec<_>>().join(" ");
        EvidenceWords {
            sentence: Analysed::new(&self.clean.text[w.piece.start..w.piece.end]),
            premises: positions.clone().map(|pos| Analysed::new(w.premise(pos, sources))).collect(),
            together: Analysed::new(format!("{evidence_text} {resolved} {titles}")),
            alone: positions
                .map(|pos| {
                    let named: String = w.units(pos, sources).map(|u| u.named.as_str()).collect::<Vec<_>>().join(" ");
                    Analysed::new(format!("{} {named}", w.premise(pos, sources)))
                })
                .collect(),
        }
    }

    /// What every claim of sentence `w` is read against (its premises are set).
    fn sentence_reading(&self, w: &SentencePlan) -> SentenceReading {
        let premises = &w.premises;
        // Read together only when the passages fit one model window: longer ones are read in
        // windows anyway, which joining would only repeat.
        let joint_premise =
            (premises.len() > 1 && premises.iter().map(|p| p.len()).sum::<usize>() <= JOINT_MAX_BYTES).then(|| join_passages(premises));
        // Each cited passage with its title, for whether the passages link a claim's names.
        let titled: Vec<Analysed> = w
            .cited
            .iter()
            .zip(premises)
            .map(|(&ix, p)| match self.input.citations[ix].title.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
                Some(t) => Analysed::new(format!("{t}. {p}")),
                None => Analysed::new(p.as_str()),
            })
            .collect();
        // Every cited evidence sentence, as the model reads it, for the typed checks.
        let mut check_sentences: Vec<(usize, usize)> = Vec::new();
        for (pos, &ix) in w.cited.iter().enumerate() {
            match &w.views[pos] {
                Some(units) => check_sentences.extend(units.iter().map(|&u| (pos, u))),
                None => check_sentences.extend((0..self.sources[ix].units.len()).map(|u| (pos, u))),
            }
        }
        SentenceReading {
            joint_premise,
            cited_words: Analysed::new(premises.join(" ")),
            premise_words: premises.iter().map(|p| Analysed::new(p.as_str())).collect(),
            links: checks::PassageLinks::new(titled),
            check_analysed: check_sentences.iter().map(|&(pos, u)| Arc::clone(&self.sources[w.cited[pos]].units[u].analysed)).collect(),
            check_sentences,
        }
    }

    /// One claim's pairs: each cited source alone, all together (when no one passage has all its
    /// words), restated without the question's words, its evidence sentences, and its checks' probes.
    fn plan_claim(
        &mut self,
        w: &SentencePlan,
        ev: &SentenceReading,
        claim: Claim,
        retriever: &dyn Retriever,
        whole: SentencePairs,
    ) -> ClaimPlan {
        let premises = &w.premises;
        let analysed = Analysed::new(claim.text.as_str());
        let indiv = premises.iter().map(|p| self.ask(p, &claim.text)).collect();
        // The passages read together matter when the claim's facts are spread over them; a passage
        // that has every word of the claim can state it alone, and the joint reading (the longest
        // pair there is) is not scored.
        let words = analysed.content_words();
        let one_passage_has_all = !words.is_empty() && ev.premise_words.iter().any(|p| words.iter().all(|w| p.mentions().contains_word(w)));
        let joint = ev.joint_premise.as_ref().filter(|_| !one_passage_has_all).map(|p| self.ask(p, &claim.text));
        let mut restated = Vec::new();
        if let Some(plain) = question::without_question_descriptors(&analysed, &self.question, ev.cited_words.mentions()) {
            for (pos, p) in premises.iter().enumerate() {
                restated.push((Some(pos), self.ask(p, &plain)));
            }
            if let Some(p) = &ev.joint_premise {
                restated.push((None, self.ask(p, &plain)));
            }
        }
        let mut units = Vec::new();
        for (pos, &ix) in w.cited.iter().enumerate() {
            // A document's chosen sentences were each read against the claim in round one.
            let picked = match &w.views[pos] {
                Some(units) => units.clone(),
                // A short passage is read whole in one window: its best sentence alone is mostly the same text again.
                None if whole == SentencePairs::Selected && premises[pos].len() <= UNIT_PAIR_MIN_PASSAGE_BYTES => Vec::new(),
                None => retriever.retrieve(&self.sources[ix].units, &claim.text, UNITS_PER_SOURCE),
            };
            for u in picked {
                let text = self.sources[ix].units[u].resolved.clone();
                units.push((pos, u, self.ask(&text, &claim.text)));
            }
        }
        let check_refs: Vec<&Analysed> = ev.check_analysed.iter().map(|a| a.as_ref()).collect();
        let mut outcome = checks::check(&analysed, &check_refs);
        outcome.unlinked = ev.links.unlinked(&analysed);
        let probes = self.plan_probes(w, ev, &claim, &outcome);
        let part_names = claim
            .parts
            .iter()
            .flat_map(|p| {
                let words = Analysed::new(&self.clean.text[p.start..p.end]);
                words.names().iter().map(|e| (Piece { start: p.start + e.start, end: p.start + e.end }, e.text.clone())).collect::<Vec<_>>()
            })
            .collect();
        ClaimPlan { claim, analysed, candidates: vec![], indiv, joint, units, restated, checks: outcome, probes, part_names }
    }

    /// Each conflict's probe, and the claim's own pair on the same evidence. The probe is read against
    /// the whole passage when it fits one window (the sentence with the other value may lean on its
    /// neighbours: "Apollo 11 … landed on 20 July"), else against the sentence and the one before it.
    fn plan_probes(&mut self, w: &SentencePlan, ev: &SentenceReading, claim: &Claim, outcome: &CheckOutcome) -> Vec<ProbePlan> {
        let mut probes = Vec::new();
        for c in &outcome.conflicts {
            let (pos, unit) = ev.check_sentences[c.sentence];
            let src = &self.sources[w.cited[pos]];
            let premise = if w.premises[pos].len() <= JOINT_MAX_BYTES {
                w.premises[pos].clone()
            } else if unit > 0 {
                format!("{} {}", src.units[unit - 1].resolved, src.units[unit].resolved)
            } else {
                src.units[unit].resolved.clone()
            };
            let original = self.ask(&premise, &claim.text);
            let probe = self.ask(&premise, &c.probe);
            probes.push(ProbePlan { probe, original, source_pos: pos, unit });
        }
        probes
    }

    /// The evidence the sentence head reads for a whole sentence: the cited sentences that share the
    /// most content words with it, across all its sources, until one model window is full
    /// (`SENTENCE_WINDOW_WORDS` less the sentence's own words), kept in source order. The head then
    /// reads a sentence once, in one window, on the text it was trained on (`citelens pairs` writes
    /// the same pairs), instead of every window of every cited passage.
    fn sentence_evidence(&self, cited: &[usize], views: &[Option<Vec<usize>>], premises: &[String], sentence: &str) -> String {
        let budget = SENTENCE_WINDOW_WORDS.saturating_sub(word_count(sentence)).max(SENTENCE_MIN_EVIDENCE_WORDS);
        let words: std::collections::HashSet<String> = checks::content_words(sentence).into_iter().collect();
        // (shared content words, source position, unit index, text): every candidate sentence.
        let mut candidates: Vec<(usize, usize, usize, &str)> = Vec::new();
        for (pos, &ix) in cited.iter().enumerate() {
            let src = &self.sources[ix];
            let units: Vec<usize> = match views.get(pos) {
                Some(Some(chosen)) => chosen.clone(),
                _ if src.units.len() > 1 && src.citation.triples.is_none() => (0..src.units.len()).collect(),
                // One unit or triples: the premise as the claims read it.
                _ => {
                    let shared = retrieve::shared_words(&words, &checks::content_words(&premises[pos]));
                    candidates.push((shared, pos, 0, premises[pos].as_str()));
                    continue;
                }
            };
            for u in units {
                let unit = &src.units[u];
                candidates.push((retrieve::shared_words(&words, unit.analysed.content_words()), pos, u, unit.resolved.as_str()));
            }
        }
        let mut order: Vec<usize> = (0..candidates.len()).collect();
        order.sort_by(|&a, &b| candidates[b].0.cmp(&candidates[a].0).then(a.cmp(&b)));
        let mut kept: Vec<usize> = Vec::new();
        let mut used = 0;
        for i in order {
            let n = word_count(candidates[i].3);
            // The best sentence is always kept (the runtime windows it if it is long); the others only if they fit.
            if kept.is_empty() || used + n <= budget {
                kept.push(i);
                used += n;
            }
            if used >= budget {
                break;
            }
        }
        if kept.len() == candidates.len() {
            // Everything fits: the passages as the claims read them (one pair fewer where a one-claim
            // sentence's pair is its claim's).
            return join_passages(premises);
        }
        kept.sort_by_key(|&i| (candidates[i].1, candidates[i].2));
        join_passages(&kept.iter().map(|&i| candidates[i].3.to_string()).collect::<Vec<_>>())
    }

    /// Each cited sentence's whole-sentence pair (see `SentencePlan::whole`), in sentence order.
    pub fn sentence_pairs(&self) -> Vec<(String, String)> {
        self.sentences.iter().filter_map(|w| w.whole).map(|i| self.pairs[i].clone()).collect()
    }

    /// Distinct pairs the model reads for this verification: the plan's, and round one's candidates
    /// that were not chosen.
    pub fn pairs_read(&self) -> usize {
        self.pairs.len() + self.read_in_round_one
    }

    /// Every distinct (premise, hypothesis) pair the plan needs scored, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// The pairs the first `n` sentences need that earlier sentences did not: what a streaming UI
    /// scores before showing sentence `n`.
    pub fn pairs_by_sentence(&self) -> Vec<Vec<PairId>> {
        let mut seen = vec![false; self.pairs.len()];
        self.sentences
            .iter()
            .map(|w| {
                let mut ids: Vec<PairId> = Vec::new();
                for c in &w.claims {
                    for d in &c.candidates {
                        ids.extend(d.units.iter().map(|u| u.1));
                        ids.extend(d.joint.as_ref().map(|j| j.1));
                    }
                    ids.extend(c.indiv.iter().copied());
                    ids.extend(c.joint);
                    ids.extend(c.units.iter().map(|u| u.2));
                    ids.extend(c.restated.iter().map(|r| r.1));
                    for p in &c.probes {
                        ids.push(p.original);
                        ids.push(p.probe);
                    }
                }
                ids.extend(w.alignment.iter().copied());
                ids.extend(w.whole);
                // Pairs round one already read need no worker.
                ids.into_iter().filter(|&i| !std::mem::replace(&mut seen[i], true) && self.known(i).is_none()).collect()
            })
            .collect()
    }

    /// The id of a (premise, hypothesis) pair this plan lists.
    pub fn pair_id(&self, key: &(String, String)) -> Option<PairId> {
        self.index.get(key).copied()
    }

    /// Takes answers already known, by `PairId` (round one's, for the pairs round two lists too),
    /// and how many pairs round one read that this plan does not list.
    pub fn prescore(&mut self, known: Vec<Option<Probs>>, read_in_round_one: usize) {
        self.prescored = known;
        self.read_in_round_one = read_in_round_one;
    }

    /// The answer already known for pair `i` (round one read it), if any.
    pub fn known(&self, i: PairId) -> Option<Probs> {
        self.prescored.get(i).copied().flatten()
    }
}

/// The answer's sentences (`pieces`) with what each cites, by its markers (or, in an answer without
/// markers, every cited document), and which citations are cited; unknown markers and citations never
/// cited are findings.
fn cite(
    input: &Input,
    clean: &CleanAnswer,
    pieces: &[Piece],
    sources: &[Source],
    findings: &mut Vec<Finding>,
) -> (Vec<SentencePlan>, Vec<bool>) {
    let by_id: HashMap<&str, usize> = input.citations.iter().enumerate().map(|(i, c)| (c.id.as_str(), i)).collect();
    let entity_of = |e: &str| by_id.get(e).copied().or_else(|| input.citations.iter().position(|c| c.entity.as_deref() == Some(e)));

    let mut sentences: Vec<SentencePlan> = pieces
        .iter()
        .map(|p| SentencePlan {
            piece: p.clone(),
            cited: vec![],
            na: vec![],
            graph_facts: vec![],
            claims: vec![],
            alignment: vec![],
            whole: None,
            premises: vec![],
            views: vec![],
            abstention: None,
            evidence: None,
        })
        .collect();
    let mut used = vec![false; input.citations.len()];
    for m in &clean.markers {
        let Some(si) = sentence_of(pieces, m.clean_at) else { continue };
        let w = &mut sentences[si];
        let mut cite = |w: &mut SentencePlan, ix: usize| {
            used[ix] = true;
            if !w.cited.contains(&ix) {
                w.cited.push(ix);
            }
        };
        match &m.kind {
            MarkerKind::Ids(list) => {
                for id in list {
                    match by_id.get(id.as_str()) {
                        Some(&ix) => cite(w, ix),
                        None => findings.push(finding(FindingKind::UnknownMarker, format!("marker [{id}] names no citation"))),
                    }
                }
            }
            MarkerKind::NotAvailable => {
                let seg = na_segment(clean, &w.piece, m.clean_at);
                w.na.push(seg);
            }
            MarkerKind::Graph { entity, facts } => match entity_of(entity) {
                Some(ix) => {
                    cite(w, ix);
                    for (rel, val) in facts {
                        w.graph_facts.push((ix, entity.clone(), rel.clone(), val.clone()));
                    }
                }
                None => findings.push(finding(
                    FindingKind::UnknownMarker,
                    format!("knowledge-graph marker names {entity}, which no citation describes"),
                )),
            },
        }
    }
    // Post-hoc: an answer without markers, given documents, has every sentence checked against
    // them all.
    if clean.markers.is_empty() {
        let documents: Vec<usize> = sources.iter().enumerate().filter(|(_, s)| s.is_document).map(|(i, _)| i).collect();
        for w in sentences.iter_mut().filter(|w| !clean.text[w.piece.start..w.piece.end].trim().is_empty()) {
            w.cited = documents.clone();
        }
        for &i in &documents {
            used[i] = true;
        }
    }
    for (i, c) in input.citations.iter().enumerate() {
        if !used[i] {
            findings.push(finding(FindingKind::UncitedCitation, format!("citation {:?} is never cited", c.id)));
        }
    }
    (sentences, used)
}

fn finding(kind: FindingKind, message: String) -> Finding {
    Finding { kind, message }
}

fn source_of(c: &Citation, question: &Discourse) -> Source {
    if let Some(text) = c.document.as_deref().filter(|t| !t.trim().is_empty()) {
        // Checked with the input; a document that fails here gives no units rather than a panic.
        let spans: Vec<(usize, usize)> = Document::new(text).map(|d| d.sentences.iter().map(|s| s.bytes).collect()).unwrap_or_default();
        let units = resolved_units(text, &spans, c.title.as_deref(), question, true);
        return Source { citation: c.clone(), premise: String::new(), units, is_document: true };
    }
    if let Some(text) = c.text.as_deref().filter(|t| !t.trim().is_empty()) {
        let spans: Vec<(usize, usize)> = segment::sentences(text).into_iter().map(|p| (p.start, p.end)).collect();
        let units = resolved_units(text, &spans, c.title.as_deref(), question, false);
        let premise = match c.title.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(title) if !text.starts_with(title) => format!("{title}. {text}"),
            _ => text.to_string(),
        };
        return Source { citation: c.clone(), premise, units, is_document: false };
    }
    let units: Vec<Unit> = c
        .triples
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|t| {
            let text = kg::verbalize(&t[0], &t[1], &t[2]);
            Unit {
                range: None,
                chars: None,
                triple: Some(t.clone()),
                analysed: Arc::new(Analysed::new(text.as_str())),
                resolved: text.clone(),
                named: text.clone(),
                text,
            }
        })
        .collect();
    let premise = units.iter().map(|u| u.text.as_str()).collect::<Vec<_>>().join(" ");
    Source { citation: c.clone(), premise, units, is_document: false }
}

/// A passage's or document's sentences (byte spans of `text`) as units, read with their pronouns
/// resolved as the answer's are: "It carries pedestrians" says nothing about the bridge to a model
/// that reads it alone. A cited passage is usually about the question's subject, so that is where
/// its "It" starts.
///
/// In a long document (`pronouns_only`) only pronouns are resolved: hundreds of sentences from the
/// title, "The museum" is as likely a room of it as the title's museum, and a wrong referent reads as
/// a contradiction.
fn resolved_units(text: &str, spans: &[(usize, usize)], title: Option<&str>, question: &Discourse, pronouns_only: bool) -> Vec<Unit> {
    let mut discourse = question.clone();
    let mut own_discourse = Discourse::default();
    if let Some(title) = title {
        discourse.update(title);
        own_discourse.update(title);
    }
    let read = |d: &Discourse, s: &str| match d.resolve(s) {
        Some(_) if pronouns_only && (s.starts_with("The ") || s.starts_with("This ")) => s.to_string(),
        Some((end, by)) => format!("{by}{}", &s[end..]),
        None => s.to_string(),
    };
    // Spans come in increasing order: characters are counted once through the text.
    let (mut byte, mut chars) = (0, 0);
    let mut char_at = |b: usize| {
        if b >= byte {
            chars += text[byte..b].chars().count();
        } else {
            chars -= text[b..byte].chars().count();
        }
        byte = b;
        chars
    };
    spans
        .iter()
        .map(|&(start, end)| {
            let own = &text[start..end];
            let span_chars = (char_at(start), char_at(end));
            let resolved = read(&discourse, own);
            let named = read(&own_discourse, own);
            discourse.update(&resolved);
            own_discourse.update(&named);
            Unit {
                range: Some((start, end)),
                chars: Some(span_chars),
                triple: None,
                text: own.to_string(),
                analysed: Arc::new(Analysed::new(resolved.as_str())),
                resolved,
                named,
            }
        })
        .collect()
}

/// The premise for a cited source: for knowledge-graph markers, the facts the sentence cites
/// (those that exist in the graph); otherwise the whole source.
fn premise_for(source: &Source, facts: &[(usize, String, String, String)], ix: usize) -> String {
    let mine: Vec<&(usize, String, String, String)> = facts.iter().filter(|f| f.0 == ix).collect();
    let triples = source.citation.triples.as_deref().unwrap_or(&[]);
    if mine.is_empty() || triples.is_empty() {
        return source.premise.clone();
    }
    let found: Vec<String> =
        mine.iter().filter_map(|(_, _, r, v)| kg::find(triples, r, v)).map(|t| kg::verbalize(&t[0], &t[1], &t[2])).collect();
    if found.is_empty() {
        source.premise.clone()
    } else {
        found.join(" ")
    }
}

/// Cited passages read together, each ending as a sentence (snippets are often cut mid-sentence,
/// and without a full stop the model reads two passages as one run-on sentence).
fn join_passages(premises: &[String]) -> String {
    let mut out = String::new();
    for p in premises {
        let p = p.trim();
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(p.trim_end_matches(','));
        if !p.ends_with(['.', '!', '?', '"', '\'']) {
            out.push('.');
        }
    }
    out
}

fn subject_label(c: &Citation, entity: &str) -> String {
    c.triples.as_ref().and_then(|t| t.first()).map(|t| t[0].clone()).or_else(|| c.entity.clone()).unwrap_or_else(|| entity.to_string())
}

fn sentence_of(pieces: &[Piece], at: usize) -> Option<usize> {
    // A marker belongs to the sentence it ends or sits in.
    pieces.iter().position(|p| at > p.start && at <= p.end).or_else(|| pieces.iter().rposition(|p| p.start <= at))
}

/// What `[NA]` at `at` marks: the clause just before it, from the nearest preposition, relative
/// pronoun or comma (the last one whose clause names something), e.g. "on July 8, 1596".
fn na_segment(clean: &CleanAnswer, sentence: &Piece, at: usize) -> Piece {
    let text = &clean.text[sentence.start..at.min(sentence.end)];
    static OPENERS: WordList = WordList::new(|| words::list("na_clause_openers"));
    let mut best = 0;
    for (i, _) in text.char_indices() {
        if OPENERS.iter().any(|o| text[i..].starts_with(o)) && !Analysed::new(&text[i..]).names().is_empty() {
            best = i + 1;
        }
    }
    Piece { start: sentence.start + best, end: sentence.start + text.len() }
}

/// `piece` less the given sub-ranges.
fn minus(piece: &Piece, holes: &[Piece]) -> Vec<Piece> {
    let mut out = vec![piece.clone()];
    for h in holes {
        out = out
            .into_iter()
            .flat_map(|p| {
                if h.end <= p.start || h.start >= p.end {
                    return vec![p];
                }
                vec![Piece { start: p.start, end: h.start.max(p.start) }, Piece { start: h.end.min(p.end), end: p.end }]
            })
            .filter(|p| p.end > p.start)
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::retrieve::WordOverlap;

    fn input(answer: &str, passages: &[(&str, &str)]) -> Input {
        Input {
            question: Some("When did the Brooklyn Bridge open?".into()),
            answer: answer.into(),
            citations: passages
                .iter()
                .map(|(id, text)| Citation { id: (*id).into(), text: Some((*text).into()), ..Default::default() })
                .collect(),
            minimum_knowledge: None,
        }
    }

    fn plan(answer: &str, passages: &[(&str, &str)], whole: SentencePairs) -> Plan {
        Plan::with_whole_sentences(&input(answer, passages), &Caps::default(), &WordOverlap, whole).unwrap()
    }

    const PASSAGES: [(&str, &str); 2] = [
        ("1", "The Brooklyn Bridge opened on May 24, 1883. It was designed by John A. Roebling."),
        ("2", "Its main span is 486 metres long."),
    ];

    #[test]
    fn markers_say_what_each_sentence_cites_and_wrong_ones_are_findings() {
        let p = plan("The bridge opened in 1883 [1][9]. It was a marvel. Its span is 486 metres [2].", &PASSAGES, SentencePairs::None);
        let cited: Vec<Vec<usize>> = p.sentences.iter().map(|w| w.cited.clone()).collect();
        assert_eq!(cited, [vec![0], vec![], vec![1]]);
        assert!(p.findings.iter().any(|f| f.kind == FindingKind::UnknownMarker && f.message.contains("[9]")), "{:?}", p.findings);
        let unused = plan("The bridge opened in 1883 [1].", &PASSAGES, SentencePairs::None);
        assert!(
            unused.findings.iter().any(|f| f.kind == FindingKind::UncitedCitation && f.message.contains("\"2\"")),
            "{:?}",
            unused.findings
        );
        assert_eq!(unused.used, [true, false]);
    }

    #[test]
    fn each_pair_is_listed_once_and_streamed_in_the_first_step_that_needs_it() {
        // Two sentences with the same claim against the same passage ask the model once.
        let p = plan("The bridge opened in 1883 [1]. The bridge opened in 1883 [1].", &PASSAGES, SentencePairs::None);
        let mut pairs = p.pairs().to_vec();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), p.pairs().len(), "no pair twice");
        let steps = p.pairs_by_sentence();
        let mut streamed: Vec<PairId> = steps.concat();
        streamed.sort_unstable();
        assert_eq!(streamed, (0..p.pairs().len()).collect::<Vec<_>>(), "every pair in exactly one step");
        assert!(steps[1].is_empty(), "the second sentence needs nothing the first did not");
    }

    #[test]
    fn a_sentence_pair_only_for_a_model_with_a_sentence_head_and_none_for_an_abstention() {
        let answer = "The bridge opened in 1883 [1]. The sources do not say who paid for it [2].";
        let without = plan(answer, &PASSAGES, SentencePairs::None);
        assert!(without.sentences.iter().all(|w| w.whole.is_none()));
        let with = plan(answer, &PASSAGES, SentencePairs::Passages);
        assert!(with.sentences[0].whole.is_some());
        // The abstaining sentence is checked as a whole, not split into claims.
        let abstains = &with.sentences[1];
        assert!(abstains.abstention.is_some() && abstains.claims.is_empty() && abstains.whole.is_none());
        assert!(with.sentences[0].evidence.is_some() && abstains.evidence.is_none());
    }

    #[test]
    fn a_claims_part_names_point_into_the_answer() {
        let answer = "It was designed by John A. Roebling [1].";
        let p = plan(answer, &PASSAGES, SentencePairs::None);
        let names = &p.sentences[0].claims[0].part_names;
        assert!(names.iter().any(|(piece, name)| name == "John A. Roebling" && &p.clean.text[piece.start..piece.end] == name), "{names:?}");
    }
}
