//! Positions for the reasoning graph: nodes in layers by longest path from the sources, so single and
//! union draw as citations → answer, intersection as citations → shared entity → answer, and
//! concatenation as a chain citation → bridge → citation → answer.

use citelens_types::{NodeKind, ReasoningGraph};

#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub x: f64,
    pub y: f64,
}

pub const NODE_W: f64 = 150.0;
pub const NODE_H: f64 = 36.0;
pub const GAP_X: f64 = 70.0;
const GAP_Y: f64 = 24.0;
const MARGIN: f64 = 10.0;
/// Room above and below the nodes for edges that skip a column.
pub const ARC_MARGIN: f64 = 44.0;

/// Node positions (top-left corners, same order as `graph.nodes`) and the drawing's size.
pub fn layout(graph: &ReasoningGraph) -> (Vec<Placed>, f64, f64) {
    let n = graph.nodes.len();
    let index = |id: &str| graph.nodes.iter().position(|g| g.id == id);
    let edges: Vec<(usize, usize)> =
        graph.edges.iter().filter_map(|e| Some((index(&e.from)?, index(&e.to)?))).filter(|(a, b)| a != b).collect();
    // Longest path by relaxation; n rounds bound it even if the graph has a cycle.
    let mut layer = vec![0usize; n];
    for _ in 0..n {
        let mut changed = false;
        for &(a, b) in &edges {
            if layer[b] < layer[a] + 1 && layer[a] + 1 < n.max(1) {
                layer[b] = layer[a] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // The answer always sits in the last column.
    let last = layer.iter().copied().max().unwrap_or(0);
    for (i, node) in graph.nodes.iter().enumerate() {
        if node.kind == NodeKind::Answer {
            layer[i] = last.max(1);
        }
    }
    let columns = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut rows = vec![0usize; columns];
    let mut slot = vec![0usize; n];
    for i in 0..n {
        slot[i] = rows[layer[i]];
        rows[layer[i]] += 1;
    }
    let tallest = rows.iter().copied().max().unwrap_or(1).max(1);
    let height = 2.0 * (MARGIN + ARC_MARGIN) + tallest as f64 * NODE_H + (tallest - 1) as f64 * GAP_Y;
    let placed = (0..n)
        .map(|i| {
            let in_col = rows[layer[i]].max(1) as f64;
            let col_h = in_col * NODE_H + (in_col - 1.0) * GAP_Y;
            Placed { x: MARGIN + layer[i] as f64 * (NODE_W + GAP_X), y: (height - col_h) / 2.0 + slot[i] as f64 * (NODE_H + GAP_Y) }
        })
        .collect();
    let width = MARGIN * 2.0 + columns.max(1) as f64 * NODE_W + columns.saturating_sub(1) as f64 * GAP_X;
    (placed, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use citelens_types::{EdgeKind, GraphEdge, GraphNode};

    fn graph(nodes: &[(&str, NodeKind)], edges: &[(&str, &str)]) -> ReasoningGraph {
        ReasoningGraph {
            nodes: nodes.iter().map(|(id, kind)| GraphNode { id: id.to_string(), kind: *kind, label: id.to_string() }).collect(),
            edges: edges.iter().map(|(a, b)| GraphEdge { from: a.to_string(), to: b.to_string(), kind: EdgeKind::Cited }).collect(),
        }
    }

    #[test]
    fn chain_lays_out_left_to_right() {
        let g = graph(
            &[("answer", NodeKind::Answer), ("c1", NodeKind::Citation), ("b", NodeKind::Bridge), ("c2", NodeKind::Citation)],
            &[("c1", "b"), ("b", "c2"), ("c2", "answer")],
        );
        let (p, w, _) = layout(&g);
        assert!(p[1].x < p[2].x && p[2].x < p[3].x && p[3].x < p[0].x, "{p:?}");
        assert!(w > 3.0 * NODE_W);
    }

    #[test]
    fn union_stacks_citations_and_cycles_terminate() {
        let g = graph(
            &[("answer", NodeKind::Answer), ("c1", NodeKind::Citation), ("c2", NodeKind::Citation)],
            &[("c1", "answer"), ("c2", "answer")],
        );
        let (p, _, _) = layout(&g);
        assert_eq!(p[1].x, p[2].x);
        assert_ne!(p[1].y, p[2].y);
        let cyc = graph(&[("a", NodeKind::Citation), ("b", NodeKind::Citation)], &[("a", "b"), ("b", "a")]);
        assert_eq!(layout(&cyc).0.len(), 2);
    }
}
