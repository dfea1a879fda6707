//! Which reasoning the citations need, after CAQA: `single` (one citation), `union` (independent
//! facts, one answer each), `intersection` (one answer meeting constraints from several citations,
//! which share it), `concatenation` (a chain: the citations share a bridge entity the answer never
//! names).

use crate::text::analysed::Analysed;
use crate::text::entities::{self, Mentions};
use citelens_types::report::{Category, ClaimDecider, ComplexityType, EdgeKind, GraphEdge, GraphNode, NodeKind, ReasoningGraph};

/// What one sentence's evidence looks like to the complexity rule.
pub struct SentenceEvidence<'a> {
    /// Cited citations in marker order: (id, the text the model read, analysed).
    pub citations: Vec<(&'a str, &'a Analysed)>,
    pub sentence: &'a Analysed,
    pub question: &'a Analysed,
    /// For each claim split from a coordination: the conjunct's text and the citation that decided it.
    pub conjuncts: Vec<(String, ClaimDecider)>,
}

pub struct Shared {
    pub entity: String,
    /// Indices into `citations` that mention it.
    pub citations: Vec<usize>,
    pub in_answer: bool,
}

/// Entities that two or more cited passages mention.
pub fn shared_entities(ev: &SentenceEvidence) -> Vec<Shared> {
    let mentions: Vec<&Mentions> = ev.citations.iter().map(|(_, t)| t.mentions()).collect();
    let answer = ev.sentence.mentions();
    let question = ev.question.mentions();
    let mut out: Vec<Shared> = Vec::new();
    for (i, (_, text)) in ev.citations.iter().enumerate() {
        for e in text.names() {
            if e.text.chars().all(|c| c.is_ascii_digit()) {
                continue; // a bare year shared by two passages is rarely the link between them
            }
            if out.iter().any(|s| entities::name_mentions(&s.entity, &e.text) || entities::name_mentions(&e.text, &s.entity)) {
                continue;
            }
            let cites: Vec<usize> = (0..mentions.len()).filter(|&j| j == i || mentions[j].mentions(&e.text)).collect();
            if cites.len() >= 2 {
                let in_answer = answer.mentions(&e.text) || question.mentions(&e.text);
                out.push(Shared { entity: e.text.clone(), citations: cites, in_answer });
            }
        }
    }
    out
}

/// The sentence's complexity type.
pub fn classify(ev: &SentenceEvidence, shared: &[Shared]) -> ComplexityType {
    if ev.citations.len() < 2 {
        return ComplexityType::Single;
    }
    if shared.iter().any(|s| !s.in_answer) {
        return ComplexityType::Concatenation;
    }
    // Coordinated answers (not constraints copied from the question), each backed by its own
    // citation: independent facts.
    let question = ev.question.mentions();
    let answers: Vec<&(String, ClaimDecider)> = ev.conjuncts.iter().filter(|(c, _)| !question.mentions(c)).collect();
    let deciders: std::collections::HashSet<&str> =
        answers.iter().filter(|(_, d)| *d != ClaimDecider::Joint).map(|(_, d)| d.as_str()).collect();
    if answers.len() >= 2 && deciders.len() >= 2 {
        return ComplexityType::Union;
    }
    if !shared.is_empty() {
        return ComplexityType::Intersection;
    }
    ComplexityType::Union
}

/// The answer's complexity: the hardest any sentence needs (concatenation, then intersection, then
/// union); with none of those, union over several distinct citations, single over one.
pub fn overall(sentence_kinds: &[ComplexityType], distinct_citations: usize) -> ComplexityType {
    [ComplexityType::Concatenation, ComplexityType::Intersection, ComplexityType::Union]
        .into_iter()
        .find(|k| sentence_kinds.contains(k))
        .unwrap_or(if distinct_citations > 1 { ComplexityType::Union } else { ComplexityType::Single })
}

/// The citation → answer edge that draws a citation's verdict.
pub fn citation_edge(category: Category) -> EdgeKind {
    match category {
        Category::Supportive => EdgeKind::Supports,
        Category::PartiallySupportive => EdgeKind::PartiallySupports,
        Category::Contradictory => EdgeKind::Contradicts,
        Category::Irrelevant => EdgeKind::Cited,
    }
}

/// Adds a sentence's reasoning to the graph: citation → answer edges typed by what the citation
/// does, and shared entities with their `mentions` / `leads_to` / `names` edges.
pub fn add_to_graph(graph: &mut ReasoningGraph, ev: &SentenceEvidence, shared: &[Shared], citation_edges: &[(String, EdgeKind)]) {
    let node = |graph: &mut ReasoningGraph, id: String, kind: NodeKind, label: &str| {
        if !graph.nodes.iter().any(|n| n.id == id) {
            graph.nodes.push(GraphNode { id, kind, label: label.into() });
        }
    };
    let edge = |graph: &mut ReasoningGraph, from: String, to: String, kind: EdgeKind| {
        if !graph.edges.iter().any(|e| e.from == from && e.to == to && e.kind == kind) {
            graph.edges.push(GraphEdge { from, to, kind });
        }
    };
    node(graph, "answer".into(), NodeKind::Answer, "answer");
    for (id, _) in &ev.citations {
        node(graph, format!("citation:{id}"), NodeKind::Citation, &format!("[{id}]"));
    }
    for s in shared {
        let id = format!("entity:{}", s.entity);
        node(graph, id.clone(), if s.in_answer { NodeKind::Entity } else { NodeKind::Bridge }, &s.entity);
        if s.in_answer {
            for &c in &s.citations {
                edge(graph, format!("citation:{}", ev.citations[c].0), id.clone(), EdgeKind::Mentions);
            }
            edge(graph, id, "answer".into(), EdgeKind::Names);
        } else {
            // A chain in marker order: the first citation names the bridge, which leads to the rest.
            let first = s.citations[0];
            edge(graph, format!("citation:{}", ev.citations[first].0), id.clone(), EdgeKind::Mentions);
            for &c in &s.citations[1..] {
                edge(graph, id.clone(), format!("citation:{}", ev.citations[c].0), EdgeKind::LeadsTo);
            }
        }
    }
    for (id, kind) in citation_edges {
        edge(graph, format!("citation:{id}"), "answer".into(), *kind);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(passages: &[&str], sentence: &str, question: &str, conjuncts: &[(&str, &str)]) -> ComplexityType {
        let analysed: Vec<Analysed> = passages.iter().map(|p| Analysed::new(*p)).collect();
        let ids: Vec<String> = (1..=passages.len()).map(|i| i.to_string()).collect();
        let (sentence, question) = (Analysed::new(sentence), Analysed::new(question));
        let ev = SentenceEvidence {
            citations: ids.iter().map(String::as_str).zip(&analysed).collect(),
            sentence: &sentence,
            question: &question,
            conjuncts: conjuncts.iter().map(|(c, by)| (c.to_string(), ClaimDecider::Citation(by.to_string()))).collect(),
        };
        classify(&ev, &shared_entities(&ev))
    }

    #[test]
    fn one_citation_is_single_and_a_bridge_the_answer_never_names_is_a_chain() {
        assert_eq!(kind(&["Keith Moon was born in England."], "Keith Moon was English.", "", &[]), ComplexityType::Single);
        let chain = ["Keith Moon holds the nationality of England.", "England includes the University of Reading."];
        assert_eq!(kind(&chain, "Keith Moon's country includes the University of Reading.", "", &[]), ComplexityType::Concatenation);
        // The answer names the shared entity: both citations meet on it.
        assert_eq!(kind(&chain, "Keith Moon's England includes the University of Reading.", "", &[]), ComplexityType::Intersection);
    }

    #[test]
    fn coordinated_answers_each_backed_by_its_own_citation_are_a_union() {
        let passages = ["Pierre Curie shared the 1903 Nobel Prize in Physics.", "Henri Becquerel shared the 1903 Nobel Prize in Physics."];
        let sentence = "Marie Curie shared it with Pierre Curie and Henri Becquerel.";
        let by_each = [("Pierre Curie", "1"), ("Henri Becquerel", "2")];
        assert_eq!(kind(&passages, sentence, "Who shared the 1903 Nobel Prize in Physics?", &by_each), ComplexityType::Union);
        // Coordinated names the question itself lists are its constraints, not answers.
        let asked = "Did Pierre Curie and Henri Becquerel share the prize?";
        assert_ne!(kind(&passages, sentence, asked, &by_each), ComplexityType::Union);
    }

    #[test]
    fn the_answer_needs_its_hardest_sentence() {
        use ComplexityType::*;
        assert_eq!(overall(&[Single, Intersection, Union], 3), Intersection);
        assert_eq!(overall(&[Union, Concatenation], 2), Concatenation);
        assert_eq!(overall(&[Single, Single], 2), Union, "two sentences on two citations");
        assert_eq!(overall(&[Single], 1), Single);
        assert_eq!(citation_edge(Category::Irrelevant), EdgeKind::Cited);
    }
}
