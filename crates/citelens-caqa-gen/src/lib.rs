//! CAQA-style benchmark data (CAQA §4) from a knowledge graph: a query is sampled from the graph,
//! its grounding subgraph becomes the cited evidence, and edits to it give the four categories in
//! the four complexities. `citelens generate caqa` is its command; the engine is never consulted,
//! so the data cannot be shaped by what the engine gets right.
//!
//! Stages: [`graph`] reads the triple and name files; [`templates`] words a relation; [`caqa`]
//! samples, edits and writes the rows.

pub mod caqa;
pub mod graph;
pub mod templates;

pub use caqa::{stats_table, CitationStyle, Generator, Split};
pub use graph::Graph;
