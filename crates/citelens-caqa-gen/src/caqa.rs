//! CAQA-style examples from a knowledge graph (CAQA §4): a query is sampled from the graph, its
//! grounding subgraph becomes the cited evidence, and edits to that subgraph give the four categories.
//!
//! - supportive: the evidence states every fact the answer states;
//! - partially supportive: one fact (a hop of a chain, a branch of an intersection, one of two facts)
//!   is deleted: its citation states other facts of the same entity instead;
//! - contradictory: the evidence gives another entity of the same type (another object of the same
//!   relation) where the answer's is; only for single-valued relations, where the two deny each other;
//! - irrelevant: the same structure about other entities (sometimes sharing the answer's object).
//!
//! Single-triple partials come from answers that state two facts of one entity (CAQA's own
//! generator cannot make them: deleting the only triple leaves nothing relevant).

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use crate::graph::{Fact, Graph, Id};
use crate::templates::{class_words, indefinite_article, phrasing, relation_words, Phrasing};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum)]
pub enum Split {
    Train,
    Dev,
    Test,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CitationStyle {
    /// Passages written from the facts.
    Passage,
    /// KaLMA-style knowledge-graph triples.
    Triples,
    /// Each example twice: passages, then triples.
    Both,
}

pub const LABELS: [&str; 4] = ["supportive", "partially_supportive", "contradictory", "irrelevant"];
pub const COMPLEXITIES: [&str; 4] = ["single", "union", "intersection", "concatenation"];

/// Tenths of subjects (by a hash of their id) in each split: 8 train, 1 dev, 1 test.
fn split_of(key: &str) -> Split {
    // FNV-1a: stable across platforms and versions, unlike std's hasher.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in key.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    match h % 10 {
        8 => Split::Dev,
        9 => Split::Test,
        _ => Split::Train,
    }
}

/// What one citation says: facts about one entity, the first the one the query needs (or its
/// replacement).
#[derive(Debug, Clone)]
struct Said {
    facts: Vec<Fact>,
}

#[derive(Debug, Clone)]
pub struct Example {
    question: String,
    answer: String,
    citations: Vec<Said>,
    label: usize,
    complexity: usize,
    /// The facts the answer states.
    grounding: Vec<Fact>,
}

/// At most this many other facts of the cited entity join a citation, so the evidence is a passage,
/// not a single sentence that repeats the answer.
const MAX_DISTRACTORS: usize = 2;
/// Tries per example before the generator gives up on a cell (a graph too small for the query shape).
const TRIES_PER_EXAMPLE: usize = 400;
/// Share of questions worded in GrailQA's style (written from graph queries: "x was born in which
/// location?", "what is the birthplace of x?", names often in lower case) instead of the hand-written
/// phrasings; GrailQA's questions ground poorly in FB15k-237, so only their wording is taken.
const GRAILQA_STYLE_SHARE: f64 = 0.5;
/// Share of GrailQA-style questions that write names in lower case, as GrailQA's do.
const LOWER_CASE_NAMES_SHARE: f64 = 0.5;
/// Share of intersection examples that are trees (one constraint is a two-hop branch), and of
/// concatenation examples that are three-hop chains.
const TREE_SHARE: f64 = 1.0 / 3.0;
const THREE_HOP_SHARE: f64 = 1.0 / 3.0;

pub struct Generator<'g> {
    g: &'g Graph,
    rng: ChaCha8Rng,
    /// Subjects of the split with at least one templated fact.
    subjects: Vec<Id>,
    /// Facts with a templated relation, by relation.
    by_relation: Vec<Vec<Fact>>,
    templated: Vec<bool>,
    /// Per entity: whether it is a person (has a gender), and which.
    pronoun: Vec<&'static str>,
    /// How the example being made words its question.
    style: QuestionStyle,
}

/// How a question is worded: the hand-written phrasings, or GrailQA's style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuestionStyle {
    Plain,
    GrailQa { lower_case_names: bool },
}

impl<'g> Generator<'g> {
    pub fn new(g: &'g Graph, seed: u64, split: Split) -> anyhow::Result<Self> {
        let templated: Vec<bool> = g.relations.iter().map(|r| phrasing(r).is_some()).collect();
        let mut by_relation = vec![Vec::new(); g.relations.len()];
        for f in &g.facts {
            if templated[f.relation as usize] {
                by_relation[f.relation as usize].push(*f);
            }
        }
        let subjects: Vec<Id> = (0..g.entities.len() as Id)
            .filter(|&e| split_of(&g.entities[e as usize].key) == split && g.about(e).iter().any(|f| templated[f.relation as usize]))
            .collect();
        if subjects.is_empty() {
            anyhow::bail!("no subject with a templated relation falls in the {split:?} split");
        }
        let gender = g.relations.iter().position(|r| r.ends_with("/person/gender"));
        let pronoun = (0..g.entities.len() as Id)
            .map(|e| {
                let Some(gr) = gender else { return "" };
                match g.objects_of(e, gr as u16).next().map(|o| g.name(o).to_lowercase()).as_deref() {
                    Some("male") => "He",
                    Some("female") => "She",
                    _ if g.about(e).iter().any(|f| g.relations[f.relation as usize].starts_with("/people/person/")) => "",
                    _ => "It",
                }
            })
            .collect();
        let stream = match split {
            Split::Train => 1,
            Split::Dev => 2,
            Split::Test => 3,
        };
        Ok(Generator {
            g,
            rng: ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E3779B97F4A7C15) ^ stream),
            subjects,
            by_relation,
            templated,
            pronoun,
            style: QuestionStyle::Plain,
        })
    }

    fn phr(&self, relation: u16) -> &'static Phrasing {
        phrasing(&self.g.relations[relation as usize]).expect("only templated relations are sampled")
    }

    /// `e`'s facts that have a phrasing and that its name does not give away: "Province of Naples
    /// includes Naples" or "University of Hamburg is based in Hamburg" needs no evidence, so deleting
    /// it would not make an answer partially supported.
    fn templated_facts(&self, e: Id) -> Vec<Fact> {
        self.g
            .about(e)
            .iter()
            .copied()
            .filter(|f| self.templated[f.relation as usize] && !names_overlap(self.g.name(f.subject), self.g.name(f.object)))
            .collect()
    }

    fn subject(&mut self) -> Id {
        *self.subjects.choose(&mut self.rng).expect("non-empty")
    }

    fn fact_of(&mut self, e: Id, not_relations: &[u16]) -> Option<Fact> {
        let facts: Vec<Fact> = self.templated_facts(e).into_iter().filter(|f| !not_relations.contains(&f.relation)).collect();
        facts.choose(&mut self.rng).copied()
    }

    /// Up to MAX_DISTRACTORS other facts of `e`, none of a relation in `avoid`.
    fn distractors(&mut self, e: Id, avoid: &[u16]) -> Vec<Fact> {
        let mut facts: Vec<Fact> = self.templated_facts(e).into_iter().filter(|f| !avoid.contains(&f.relation)).collect();
        let mut out = Vec::new();
        let n = self.rng.random_range(0..=MAX_DISTRACTORS);
        while out.len() < n && !facts.is_empty() {
            let f = facts.swap_remove(self.rng.random_range(0..facts.len()));
            if !out.iter().any(|o: &Fact| o.relation == f.relation) {
                out.push(f);
            }
        }
        out
    }

    /// Another object of `f`'s relation that `f`'s subject does not have: a same-type entity that
    /// does not satisfy the query. `None` when the relation is not single-valued.
    fn replaced(&mut self, f: Fact) -> Option<Fact> {
        if !self.g.single_valued(f.relation) {
            return None;
        }
        let range = self.g.range(f.relation);
        for _ in 0..20 {
            let o = *range.choose(&mut self.rng)?;
            if o != f.subject && !self.g.holds(f.subject, f.relation, o) && self.g.name(o) != self.g.name(f.object) {
                return Some(Fact { object: o, ..f });
            }
        }
        None
    }

    /// Another subject with `f`'s relation (and `also`, when given); with `may_share`, half the time
    /// one that shares `f`'s object (a harder irrelevant passage: "Y was born in Cowes" for an answer
    /// about X's birth in Cowes).
    fn other_subject(&mut self, f: Fact, also: Option<u16>, may_share: bool) -> Option<Fact> {
        let same_object = may_share && self.rng.random_bool(0.5);
        let pool = &self.by_relation[f.relation as usize];
        if same_object {
            let sharing: Vec<Fact> = pool.iter().copied().filter(|o| o.object == f.object && o.subject != f.subject).collect();
            if let Some(x) = sharing.choose(&mut self.rng) {
                if also.is_none_or(|r| self.g.about(x.subject).iter().any(|y| y.relation == r)) {
                    return Some(*x);
                }
            }
        }
        for _ in 0..50 {
            let x = *pool.choose(&mut self.rng)?;
            if x.subject != f.subject
                && self.g.name(x.subject) != self.g.name(f.subject)
                && also.is_none_or(|r| self.g.about(x.subject).iter().any(|y| y.relation == r))
            {
                return Some(x);
            }
        }
        None
    }

    /// A citation stating `main` first, then other facts of the same subject.
    fn cite(&mut self, main: Vec<Fact>, avoid: &[u16]) -> Said {
        let subject = main[0].subject;
        let mut avoid = avoid.to_vec();
        avoid.extend(main.iter().map(|f| f.relation));
        let mut facts = main;
        facts.extend(self.distractors(subject, &avoid));
        Said { facts }
    }

    /// Stands in for a deleted fact: other facts of the same entity, never one of `avoid`'s relations.
    fn cite_without(&mut self, e: Id, avoid: &[u16]) -> Option<Said> {
        let first = self.fact_of(e, avoid)?;
        Some(self.cite(vec![first], avoid))
    }

    /// The citation of stated fact `f` under the example's edit (CAQA's subgraph edits): when `f` is
    /// the edited fact, deleted (partially supportive: other facts of its subject, none of `avoid`'s
    /// relations) or replaced (contradictory); another entity's fact for irrelevant; else `f` itself.
    /// Each comes with other facts of its subject.
    fn edited_citation(&mut self, label: usize, is_edited: bool, f: Fact, irrelevant: Option<Fact>, avoid: &[u16]) -> Option<Said> {
        match label {
            1 if is_edited => self.cite_without(f.subject, avoid),
            2 if is_edited => {
                let rf = self.replaced(f)?;
                Some(self.cite(vec![rf], avoid))
            }
            3 => Some(self.cite(vec![irrelevant?], avoid)),
            _ => Some(self.cite(vec![f], avoid)),
        }
    }

    pub fn example(&mut self, complexity: usize, label: usize) -> Option<Example> {
        self.style = if self.rng.random_bool(GRAILQA_STYLE_SHARE) {
            QuestionStyle::GrailQa { lower_case_names: self.rng.random_bool(LOWER_CASE_NAMES_SHARE) }
        } else {
            QuestionStyle::Plain
        };
        let mut ex = match complexity {
            0 => self.single(label),
            1 => self.union(label),
            2 if self.rng.random_bool(TREE_SHARE) => self.tree(label),
            2 => self.intersection(label),
            _ if self.rng.random_bool(THREE_HOP_SHARE) => self.three_hops(label),
            _ => self.concatenation(label),
        }?;
        for c in &mut ex.citations {
            c.facts.retain(|f| !restates_grounding(f, &ex.grounding));
        }
        // A citation left with nothing to say: try another query.
        if ex.citations.iter().any(|c| c.facts.is_empty()) {
            return None;
        }
        Some(ex)
    }

    fn grail(&self) -> bool {
        matches!(self.style, QuestionStyle::GrailQa { .. })
    }

    /// A name as the question writes it: GrailQA's questions often write names in lower case.
    fn qname(&self, e: Id) -> String {
        match self.style {
            QuestionStyle::GrailQa { lower_case_names: true } => self.g.name(e).to_lowercase(),
            _ => self.g.name(e).to_string(),
        }
    }

    /// What the objects of `relation` are called: their schema class ("location"), or the relation's
    /// noun when the graph has no schema.
    fn object_class(&self, relation: u16) -> String {
        self.g.range_class(relation).map(class_words).unwrap_or_else(|| self.phr(relation).noun.to_string())
    }

    /// GrailQA asks "which …" and "what …" alike.
    fn wh_word(&mut self) -> &'static str {
        if self.rng.random_bool(0.5) {
            "which"
        } else {
            "what"
        }
    }

    /// "which location" for the objects of `relation`.
    fn wh_object(&mut self, relation: u16) -> String {
        let class = self.object_class(relation);
        format!("{} {class}", self.wh_word())
    }

    /// "`subject` was born in which location?": the fact's object asked for in place; `None` when
    /// no predicate of the relation ends with its object.
    fn ask_in_place(&mut self, subject: &str, f: Fact) -> Option<String> {
        let p = self.phr(f.relation);
        let ix = *p.asking_predicates().choose(&mut self.rng)?;
        let phrase = self.wh_object(f.relation);
        Some(format!("{subject} {}?", p.asking_predicate(ix, &phrase)?))
    }

    /// A question for one fact of `x` in the example's style.
    fn ask_fact(&mut self, x: Id, f: Fact) -> String {
        let p = self.phr(f.relation);
        if !self.grail() {
            return p.ask(self.g.name(x));
        }
        let name = self.qname(x);
        if self.rng.random_bool(0.5) {
            if let Some(q) = self.ask_in_place(&name, f) {
                return q;
            }
        }
        format!("what is the {} of {name}?", p.noun)
    }

    /// Who or what meets every predicate: "Who", or GrailQA's "which person".
    fn wh_subject(&mut self, relation: u16) -> String {
        let p = self.phr(relation);
        if !self.grail() {
            return p.wh.to_string();
        }
        match self.g.domain_class(relation) {
            Some(c) => format!("{} {}", self.wh_word(), class_words(c)),
            None => p.wh.to_lowercase(),
        }
    }

    fn pred(&mut self, f: Fact) -> (String, usize) {
        let p = self.phr(f.relation);
        let ix = self.rng.random_range(0..p.predicates.len());
        (p.predicate(ix, self.g.name(f.object)), ix)
    }

    fn single(&mut self, label: usize) -> Option<Example> {
        let x = self.subject();
        let f1 = self.fact_of(x, &[])?;
        let two = label == 1 || self.rng.random_bool(0.5);
        let f2 = if two { Some(self.fact_of(x, &[f1.relation])?) } else { None };
        let stated: Vec<Fact> = std::iter::once(f1).chain(f2).collect();
        let relations: Vec<u16> = stated.iter().map(|f| f.relation).collect();
        let (xn, p1) = (self.g.name(x).to_string(), self.phr(f1.relation));
        let question = match f2 {
            None => self.ask_fact(x, f1),
            Some(f2) if self.grail() => format!("what are the {} and {} of {}?", p1.noun, self.phr(f2.relation).noun, self.qname(x)),
            Some(f2) => format!("What are {xn}'s {} and {}?", p1.noun, self.phr(f2.relation).noun),
        };
        let body = match f2 {
            None => self.pred(f1).0,
            Some(f2) => format!("{} and {}", self.pred(f1).0, self.pred(f2).0),
        };
        let citation = match label {
            0 => self.cite(stated.clone(), &[]),
            1 => self.cite(vec![f1], &relations),
            2 => {
                // Replace one stated fact; the other (when two) stays as it is.
                let which = if two && self.rng.random_bool(0.5) { 1 } else { 0 };
                let mut facts = stated.clone();
                facts[which] = self.replaced(stated[which])?;
                self.cite(facts, &relations)
            }
            _ => {
                let other = self.other_subject(f1, f2.map(|f| f.relation), true)?;
                let mut facts = vec![other];
                if let Some(f2) = f2 {
                    facts.push(self.g.fact_with(other.subject, f2.relation)?);
                }
                self.cite(facts, &relations)
            }
        };
        Some(Example { question, answer: format!("{xn} {body}"), citations: vec![citation], label, complexity: 0, grounding: stated })
    }

    fn union(&mut self, label: usize) -> Option<Example> {
        let x = self.subject();
        let fx = self.fact_of(x, &[])?;
        let r = fx.relation;
        let p = self.phr(r);
        // One subject with two objects of a many-valued relation ("appeared in A and B"), or two
        // subjects with one each ("X was born in A, and Y in B"); contradictions need the second.
        // Not for classes ("known as an author and as a writer", "a republic and a presidential
        // system"): one class often implies the other, so deleting one would not make a partial.
        let same_subject = label != 2 && !self.g.single_valued(r) && !p.class_valued() && self.rng.random_bool(0.5);
        let xn = self.g.name(x).to_string();
        let (second, question, answer) = if same_subject {
            let b = self.g.objects_of(x, r).filter(|&o| o != fx.object).collect::<Vec<_>>();
            let b = *b.choose(&mut self.rng)?;
            let (body, ix) = self.pred(fx);
            let second_body = p.predicate(ix, self.g.name(b));
            (Fact { object: b, ..fx }, self.ask_fact(x, fx), format!("{xn} {body} and {second_body}"))
        } else {
            let fy = self.other_subject(fx, None, false)?;
            if split_of(&self.g.entities[fy.subject as usize].key) != split_of(&self.g.entities[x as usize].key) {
                return None;
            }
            let yn = self.g.name(fy.subject).to_string();
            let (a, b) = (self.pred(fx).0, self.pred(fy).0);
            let question = if self.grail() {
                format!("what is the {} of {} and of {}?", p.noun, self.qname(x), self.qname(fy.subject))
            } else {
                format!("{} What about {yn}?", p.ask(&xn))
            };
            (fy, question, format!("{xn} {a}, and {yn} {b}"))
        };
        let stated = vec![fx, second];
        let mut citations = Vec::new();
        let broken = self.rng.random_range(0..2);
        for (i, f) in stated.iter().enumerate() {
            let c = match label {
                1 if i == broken => self.cite_without(f.subject, &[r])?,
                2 if i == broken => {
                    let rf = self.replaced(*f)?;
                    self.cite(vec![rf], &[])
                }
                3 => {
                    let o = self.other_subject(*f, None, true)?;
                    self.cite(vec![o], &[])
                }
                _ => self.cite(vec![*f], &[]),
            };
            citations.push(c);
        }
        if same_subject {
            // Two passages about one subject: neither may state the other's object.
            for (i, c) in citations.iter_mut().enumerate() {
                c.facts.retain(|f| f.relation != r || f.object == stated[i].object || label == 3);
            }
        }
        Some(Example { question, answer, citations, label, complexity: 1, grounding: stated })
    }

    fn intersection(&mut self, label: usize) -> Option<Example> {
        let x = self.subject();
        let f1 = self.fact_of(x, &[])?;
        let f2 = self.fact_of(x, &[f1.relation])?;
        let (p1, p2) = (self.phr(f1.relation), self.phr(f2.relation));
        if p1.wh != p2.wh {
            return None; // relations of different kinds of subject: the question would not read
        }
        let (a, b) = (self.pred(f1).0, self.pred(f2).0);
        let question = format!("{} {a} and {b}?", self.wh_subject(f1.relation));
        let xn = self.g.name(x).to_string();
        let answer = format!("{xn} {a} and {b}");
        let relations = [f1.relation, f2.relation];
        let broken = self.rng.random_range(0..2);
        let stated = [f1, f2];
        let other = if label == 3 { Some(self.other_subject(f1, Some(f2.relation), true)?) } else { None };
        let mut citations = Vec::new();
        for (i, f) in stated.iter().enumerate() {
            let irrelevant = match other {
                Some(o) if i == 0 => Some(o),
                Some(o) => Some(self.g.fact_with(o.subject, f2.relation)?),
                None => None,
            };
            citations.push(self.edited_citation(label, i == broken, *f, irrelevant, &relations)?);
        }
        Some(Example { question, answer, citations, label, complexity: 2, grounding: stated.to_vec() })
    }

    fn concatenation(&mut self, label: usize) -> Option<Example> {
        let x = self.subject();
        let f1 = self.fact_of(x, &[])?;
        let m = f1.object;
        let f2 = self.fact_of(m, &[])?;
        if f2.object == x {
            return None; // a chain back to its start says nothing new
        }
        let (p1, p2) = (self.phr(f1.relation), self.phr(f2.relation));
        let (xn, mn, on) = (self.g.name(x).to_string(), self.g.name(m).to_string(), self.g.name(f2.object).to_string());
        let question = self.ask_chain(x, &[f1, f2]);
        // Half the answers name the bridge entity; the others state only the end of the chain.
        let answer = if self.rng.random_bool(0.5) {
            format!("{xn} {}, and {mn} {}", self.pred(f1).0, self.pred(f2).0)
        } else {
            format!("The {} of {xn}'s {} is {on}", p2.noun, p1.noun)
        };
        let broken = self.rng.random_range(0..2);
        let citations = match label {
            0 => vec![self.cite(vec![f1], &[]), self.cite(vec![f2], &[])],
            1 if broken == 0 => vec![self.cite_without(x, &[f1.relation])?, self.cite(vec![f2], &[])],
            1 => vec![self.cite(vec![f1], &[]), self.cite_without(m, &[f2.relation])?],
            2 => {
                // The chain's end replaced: the first hop alone cannot be, once the answer omits the bridge.
                let rf = self.replaced(f2)?;
                vec![self.cite(vec![f1], &[]), self.cite(vec![rf], &[f2.relation])]
            }
            _ => {
                let o1 = self.other_subject(f1, None, false)?;
                let o2 = self.g.fact_with(o1.object, f2.relation)?;
                vec![self.cite(vec![o1], &[]), self.cite(vec![o2], &[])]
            }
        };
        Some(Example { question, answer, citations, label, complexity: 3, grounding: vec![f1, f2] })
    }

    /// The question of a chain from `x`: "What is the country of the birthplace of X?", or in
    /// GrailQA's style "the birthplace of x lies within which country?".
    fn ask_chain(&mut self, x: Id, hops: &[Fact]) -> String {
        let (last, path) = hops.split_last().expect("a chain has hops");
        let nouns: String = path.iter().rev().map(|f| format!("the {} of ", self.phr(f.relation).noun)).collect();
        if !self.grail() {
            return format!("What is the {} of {nouns}{}?", self.phr(last.relation).noun, self.g.name(x));
        }
        let subject = format!("{nouns}{}", self.qname(x));
        if self.rng.random_bool(0.5) {
            if let Some(q) = self.ask_in_place(&subject, *last) {
                return q;
            }
        }
        format!("what is the {} of {subject}?", self.phr(last.relation).noun)
    }

    /// A tree (CAQA's mixes of query shapes): the answer meets one constraint and a two-hop branch,
    /// `x r1 a`, `x r2 m`, `m r3 b` ("Who was born in Cowes and worked for an employer that is based in
    /// London?"), one citation per fact. Partially supportive: one fact, a branch's hop included,
    /// deleted; contradictory: a single-valued fact's object replaced.
    fn tree(&mut self, label: usize) -> Option<Example> {
        let x = self.subject();
        let f1 = self.fact_of(x, &[])?;
        let f2 = self.fact_of(x, &[f1.relation])?;
        let m = f2.object;
        let f3 = self.fact_of(m, &[])?;
        if f3.object == x || f3.object == f1.object || m == f1.object || self.phr(f1.relation).wh != self.phr(f2.relation).wh {
            return None;
        }
        // The branch's end, asked as a noun phrase in the second constraint's object place.
        let class = self.object_class(f2.relation);
        let article = indefinite_article(&class);
        let (branch, _) = self.pred(f3);
        let p2 = self.phr(f2.relation);
        let ix = *p2.asking_predicates().choose(&mut self.rng)?;
        let constraint2 = p2.asking_predicate(ix, &format!("{article} {class} that {branch}"))?;
        let (a, _) = self.pred(f1);
        let question = format!("{} {a} and {constraint2}?", self.wh_subject(f1.relation));
        let (xn, mn) = (self.g.name(x).to_string(), self.g.name(m).to_string());
        let (b, _) = self.pred(f2);
        let (c, _) = self.pred(f3);
        let answer = format!("{xn} {a} and {b}, and {mn} {c}");
        let stated = [f1, f2, f3];
        let broken = self.rng.random_range(0..3);
        let other = if label == 3 {
            let o1 = self.other_subject(f1, Some(f2.relation), true)?;
            let o2 = self.g.fact_with(o1.subject, f2.relation)?;
            let o3 = self.g.fact_with(o2.object, f3.relation)?;
            Some([o1, o2, o3])
        } else {
            None
        };
        let mut citations = Vec::new();
        for (i, f) in stated.iter().enumerate() {
            let avoid: Vec<u16> = if i < 2 { vec![f1.relation, f2.relation] } else { vec![f3.relation] };
            citations.push(self.edited_citation(label, i == broken, *f, other.map(|o| o[i]), &avoid)?);
        }
        Some(Example { question, answer, citations, label, complexity: 2, grounding: stated.to_vec() })
    }

    /// A three-hop chain (`x r1 m1`, `m1 r2 m2`, `m2 r3 o`), one citation per hop: CAQA's longer paths.
    fn three_hops(&mut self, label: usize) -> Option<Example> {
        let x = self.subject();
        let f1 = self.fact_of(x, &[])?;
        let f2 = self.fact_of(f1.object, &[])?;
        let f3 = self.fact_of(f2.object, &[])?;
        let visited = [x, f1.object, f2.object];
        if visited[1..].contains(&x) || visited[..2].contains(&f3.object) || f2.object == f1.object {
            return None; // a chain that comes back says nothing new
        }
        let hops = [f1, f2, f3];
        let question = self.ask_chain(x, &hops);
        let names: Vec<String> = [x, f1.object, f2.object, f3.object].iter().map(|&e| self.g.name(e).to_string()).collect();
        let answer = if self.rng.random_bool(0.5) {
            let (a, b, c) = (self.pred(f1).0, self.pred(f2).0, self.pred(f3).0);
            format!("{} {a}, {} {b}, and {} {c}", names[0], names[1], names[2])
        } else {
            let (n1, n2, n3) = (self.phr(f1.relation).noun, self.phr(f2.relation).noun, self.phr(f3.relation).noun);
            format!("The {n3} of the {n2} of {}'s {n1} is {}", names[0], names[3])
        };
        let broken = self.rng.random_range(0..3);
        let mut citations = Vec::new();
        let other = if label == 3 {
            let o1 = self.other_subject(f1, None, false)?;
            let o2 = self.g.fact_with(o1.object, f2.relation)?;
            let o3 = self.g.fact_with(o2.object, f3.relation)?;
            Some([o1, o2, o3])
        } else {
            None
        };
        for (i, f) in hops.iter().enumerate() {
            let c = match label {
                1 if i == broken => self.cite_without(f.subject, &[f.relation])?,
                // The chain's end replaced: an earlier hop's cannot be, once the answer names only the end.
                2 if i == 2 => {
                    let rf = self.replaced(*f)?;
                    self.cite(vec![rf], &[f.relation])
                }
                3 => self.cite(vec![other.expect("made above")[i]], &[]),
                _ => self.cite(vec![*f], &[]),
            };
            citations.push(c);
        }
        Some(Example { question, answer, citations, label, complexity: 3, grounding: hops.to_vec() })
    }

    /// A passage: the subject named (with its description, sometimes) in the first sentence, then
    /// a pronoun or the name again; the predicates are drawn afresh, so they often paraphrase the
    /// answer's.
    /// `answer_names`: the entities the answer's facts name; a description that mentions one is left
    /// out (see `description_leaks`).
    fn passage(&mut self, said: &Said, answer_names: &[&str]) -> (String, String) {
        let s = said.facts[0].subject;
        let name = self.g.name(s).to_string();
        let mut order: Vec<Fact> = said.facts.clone();
        // The needed fact is not always first.
        if order.len() > 1 && self.rng.random_bool(0.5) {
            let i = self.rng.random_range(1..order.len());
            order.swap(0, i);
        }
        let mut sentences = Vec::new();
        for (i, f) in order.iter().enumerate() {
            let subject = if i == 0 {
                match &self.g.entities[s as usize].description {
                    Some(d) if self.rng.random_bool(0.5) && !description_leaks(d, &name, answer_names) => format!("{name}, {d},"),
                    _ => name.clone(),
                }
            } else {
                match self.pronoun[s as usize] {
                    "" => name.clone(),
                    p if self.rng.random_bool(0.7) => p.to_string(),
                    _ => name.clone(),
                }
            };
            let (pred, _) = self.pred(*f);
            // A name that ends with a full stop ("Washington, D.C.") ends the sentence too.
            let stop = if pred.ends_with('.') { "" } else { "." };
            sentences.push(format!("{subject} {pred}{stop}"));
        }
        (name, sentences.join(" "))
    }

    fn triple(&self, f: &Fact) -> Value {
        json!([self.g.name(f.subject), relation_words(&self.g.relations[f.relation as usize]), self.g.name(f.object)])
    }

    /// The example as citelens input documents with gold labels: one per citation style asked for.
    pub fn rows(&mut self, ex: &Example, id: &str, style: CitationStyle) -> Vec<Value> {
        let markers: String = (1..=ex.citations.len()).map(|i| format!("[{i}]")).collect();
        let answer = format!("{} {markers}.", ex.answer);
        let mut out = Vec::new();
        let grounding: Vec<Value> = ex.grounding.iter().map(|f| self.triple(f)).collect();
        let row = |cits: Vec<Value>, style: &str| {
            json!({
                "id": format!("{id}-{style}"),
                "question": ex.question,
                "answer": answer,
                "citations": cits,
                "label": LABELS[ex.label],
                "complexity": COMPLEXITIES[ex.complexity],
                "citation_style": style,
                "grounding": grounding,
            })
        };
        if matches!(style, CitationStyle::Passage | CitationStyle::Both) {
            let names: Vec<String> = ex.grounding.iter().flat_map(|f| [f.subject, f.object]).map(|e| self.g.name(e).to_string()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let cits: Vec<Value> = ex
                .citations
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let (title, text) = self.passage(c, &names);
                    json!({"id": (i + 1).to_string(), "title": title, "text": text})
                })
                .collect();
            out.push(row(cits, "passage"));
        }
        if matches!(style, CitationStyle::Triples | CitationStyle::Both) {
            let cits: Vec<Value> = ex
                .citations
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    json!({"id": (i + 1).to_string(), "entity": self.g.name(c.facts[0].subject),
                           "triples": c.facts.iter().map(|f| self.triple(f)).collect::<Vec<_>>()})
                })
                .collect();
            out.push(row(cits, "triples"));
        }
        out
    }

    /// `count` examples, the 16 (category, complexity) cells in turn.
    pub fn generate(&mut self, count: usize) -> anyhow::Result<Vec<Example>> {
        let mut out = Vec::with_capacity(count);
        for i in 0..count {
            let (complexity, label) = ((i / 4) % 4, i % 4);
            let ex = (0..TRIES_PER_EXAMPLE).find_map(|_| self.example(complexity, label));
            match ex {
                Some(ex) => out.push(ex),
                None => anyhow::bail!(
                    "could not build a {} {} example in {TRIES_PER_EXAMPLE} tries: the graph has too few facts of a templated relation",
                    LABELS[label],
                    COMPLEXITIES[complexity]
                ),
            }
        }
        Ok(out)
    }
}

/// CAQA Table 1's layout: category × complexity counts.
pub fn stats_table(rows: &[Value]) -> String {
    let mut counts = [[0usize; 4]; 4];
    for r in rows {
        let l = LABELS.iter().position(|x| r["label"] == *x).unwrap_or(0);
        let c = COMPLEXITIES.iter().position(|x| r["complexity"] == *x).unwrap_or(0);
        counts[l][c] += 1;
    }
    let mut s = format!("{:<22}", "category");
    for c in COMPLEXITIES {
        s += &format!("{c:>14}");
    }
    s += &format!("{:>10}\n", "total");
    for (l, row) in counts.iter().enumerate() {
        s += &format!("{:<22}", LABELS[l]);
        for n in row {
            s += &format!("{n:>14}");
        }
        s += &format!("{:>10}\n", row.iter().sum::<usize>());
    }
    s += &format!("{:<22}", "total");
    for c in 0..4 {
        s += &format!("{:>14}", counts.iter().map(|r| r[c]).sum::<usize>());
    }
    s += &format!("{:>10}\n", rows.len());
    s
}

/// Whether a citation's fact links two entities of the answer's facts by another relation than
/// the answer's ("Masovian Voivodeship, country, Poland" beside the answer's "is a region of
/// Poland"): it would restate a fact the edit deleted, so a partial example would be supportive.
/// Such facts are left out of every category alike, so their absence says nothing of the label.
fn restates_grounding(f: &Fact, grounding: &[Fact]) -> bool {
    let named = |e: Id| grounding.iter().any(|g| g.subject == e || g.object == e);
    !grounding.contains(f) && named(f.subject) && named(f.object)
}

/// Whether one name is made of the other's words ("Naples" in "Province of Naples", "Hamburg" in
/// "University of Hamburg"): a fact between the two is given away by the names.
fn names_overlap(a: &str, b: &str) -> bool {
    fn words(s: &str) -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
    }
    let (a, b) = (words(a), words(b));
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    !short.is_empty() && short.iter().all(|w| long.contains(w))
}

/// Whether a description would state one of the answer's facts by itself ("Styria, federated state in
/// Austria," when the edit took "lies in Austria" away or replaced it): such an appositive would make
/// a partial or contradictory example supportive. A word of the description and a word of another
/// named entity of the answer that share their first five letters (or the whole shorter word) count,
/// so "American" matches "United States of America". Applied to every category alike, so that
/// whether a passage has a description says nothing of its label.
fn description_leaks(description: &str, own_name: &str, answer_names: &[&str]) -> bool {
    fn words(s: &str) -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 4).map(str::to_lowercase).collect()
    }
    fn stem(w: &str) -> String {
        w.chars().take(5).collect()
    }
    let own = words(own_name);
    let described = words(description);
    answer_names.iter().filter(|n| **n != own_name).flat_map(|n| words(n)).filter(|w| !own.contains(w)).any(|w| {
        let w = stem(&w);
        described.iter().any(|d| stem(d) == w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_made_of_the_other_names_words_gives_the_fact_away() {
        assert!(names_overlap("Province of Naples", "Naples"));
        assert!(names_overlap("University of Hamburg", "Hamburg"));
        assert!(names_overlap("Santa Cruz", "Santa Cruz County"));
        assert!(!names_overlap("Cecil County", "Eastern Time Zone"));
        assert!(!names_overlap("New Castle County", "Cecil County"));
        assert!(!names_overlap("", "Naples"));
    }

    #[test]
    fn a_description_that_states_an_answer_fact_is_left_out() {
        let names = ["Styria", "Austria"];
        assert!(description_leaks("federated state in Austria", "Styria", &names));
        assert!(description_leaks("American jazz singer", "Ella Fitzgerald", &["Ella Fitzgerald", "United States of America"]));
        assert!(!description_leaks("American jazz singer", "Ella Fitzgerald", &["Ella Fitzgerald", "Newport News"]));
        // The described entity's own name is no leak.
        assert!(!description_leaks("state of Austria named Styria", "Styria", &["Styria"]));
    }

    #[test]
    fn a_fact_linking_two_answer_entities_by_another_relation_is_left_out() {
        let (x, warsaw, poland, paris) = (1, 2, 3, 4);
        let (contains, region_of, country) = (10, 11, 12);
        let grounding = [Fact { subject: x, relation: contains, object: warsaw }, Fact { subject: x, relation: region_of, object: poland }];
        // The deleted "is a region of Poland" would come back as "country Poland".
        assert!(restates_grounding(&Fact { subject: x, relation: country, object: poland }, &grounding));
        // Nor the other way round ("Poland contains X").
        assert!(restates_grounding(&Fact { subject: poland, relation: contains, object: x }, &grounding));
        // The answer's own facts, and facts naming another entity, stay.
        assert!(!restates_grounding(&grounding[0], &grounding));
        assert!(!restates_grounding(&Fact { subject: x, relation: country, object: paris }, &grounding));
    }

    #[test]
    fn splits_are_stable_and_cover_all_three() {
        assert_eq!(split_of("/m/06rf7"), split_of("/m/06rf7"));
        let keys: Vec<String> = (0..200).map(|i| format!("/m/{i:05x}")).collect();
        for s in [Split::Train, Split::Dev, Split::Test] {
            assert!(keys.iter().any(|k| split_of(k) == s), "{s:?}");
        }
    }
}
