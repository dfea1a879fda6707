//! Knowledge-graph citations: triples as sentences, and matching cited facts against the graph.

use crate::text::entities::norm_words;
use citelens_types::input::Triple;

/// A triple as a sentence the NLI model can read.
pub fn verbalize(subject: &str, relation: &str, object: &str) -> String {
    format!("{subject}'s {relation} is {object}.")
}

/// Whether a cited relation name matches the graph's ("citizen" ~ "country of citizenship").
pub fn relation_matches(cited: &str, graph: &str) -> bool {
    let (a, b) = (norm_words(cited), norm_words(graph));
    if a == b {
        return true;
    }
    // Every cited word starts some word of the graph's relation, or the other way round.
    let covers = |x: &[String], y: &[String]| !x.is_empty() && x.iter().all(|w| y.iter().any(|v| v.starts_with(w.as_str())));
    covers(&a, &b) || covers(&b, &a)
}

pub fn value_matches(cited: &str, graph: &str) -> bool {
    norm_words(cited) == norm_words(graph)
}

/// The graph's triple that a cited (relation, value) names, if any.
pub fn find<'a>(triples: &'a [Triple], relation: &str, value: &str) -> Option<&'a Triple> {
    triples.iter().find(|t| relation_matches(relation, &t[1]) && value_matches(value, &t[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_shorthand_relations() {
        assert!(relation_matches("citizen", "country of citizenship"));
        assert!(relation_matches("place of birth", "place of birth"));
        assert!(!relation_matches("occupation", "place of birth"));
        let g = [["A".to_string(), "occupation".to_string(), "painter".to_string()]];
        assert!(find(&g, "occupation", "Painter").is_some());
        assert!(find(&g, "occupation", "sculptor").is_none());
    }
}
