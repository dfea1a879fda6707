//! SVG drawings: the reasoning graph (laid out per complexity by `layout`) and the cited triples.

use citelens_types::{Citation, ComplexityType, EdgeKind, ReasoningGraph};
use yew::prelude::*;

use crate::layout::{layout, ARC_MARGIN, GAP_X, NODE_H, NODE_W};

#[derive(Properties, PartialEq)]
pub struct GraphProps {
    pub graph: ReasoningGraph,
    pub kind: ComplexityType,
}

/// Long labels are cut to fit a node; the full label is in the node's <title>.
fn short(label: &str, max: usize) -> String {
    if label.chars().count() <= max {
        label.to_string()
    } else {
        format!("{}…", label.chars().take(max - 1).collect::<String>())
    }
}

fn edge_class(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Supports => "edge supports",
        EdgeKind::PartiallySupports => "edge partially",
        EdgeKind::Contradicts => "edge contradicts",
        EdgeKind::Cited | EdgeKind::Mentions | EdgeKind::LeadsTo | EdgeKind::Names => "edge neutral",
    }
}

#[function_component(ReasoningGraphView)]
pub fn reasoning_graph(p: &GraphProps) -> Html {
    let (pos, w, h) = layout(&p.graph);
    let at = |id: &str| p.graph.nodes.iter().position(|n| n.id == id).map(|i| &pos[i]);
    html! {
        <svg class="graph" id="reasoning-graph" data-complexity={p.kind.as_str()} viewBox={format!("0 0 {w} {h}")} width={w.to_string()} height={h.to_string()} role="img"
            aria-label={format!("reasoning graph: {}", p.kind.as_str())}>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M 0 0 L 10 5 L 0 10 z" fill="#555" />
                </marker>
            </defs>
            { for p.graph.edges.iter().filter_map(|e| {
                let (a, b) = (at(&e.from)?, at(&e.to)?);
                let (x1, y1, x2, y2) = (a.x + NODE_W, a.y + NODE_H / 2.0, b.x, b.y + NODE_H / 2.0);
                // An edge that skips a column bends around the nodes between (above for the upper
                // half, below for the lower), into the margin `layout` leaves for it.
                let skips = b.x - a.x > NODE_W + GAP_X + 1.0;
                let bend = if y1 <= h / 2.0 { ARC_MARGIN * 0.5 - y1.min(y2) } else { h - ARC_MARGIN * 0.5 - y1.max(y2) };
                let (cx, cy) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0 + if skips { 2.0 * bend } else { 0.0 });
                let (lx, ly) = ((x1 + x2) / 2.0, if skips { (y1 + y2) / 2.0 + bend } else { (y1 + y2) / 2.0 } - 4.0);
                Some(html! {
                    <g class={edge_class(e.kind)} data-kind={e.kind.as_str()}>
                        <path d={format!("M {x1} {y1} Q {cx} {cy} {x2} {y2}")} fill="none" marker-end="url(#arrow)" />
                        <text x={lx.to_string()} y={ly.to_string()} text-anchor="middle" class="edge-label">{ e.kind.as_str().replace('_', " ") }</text>
                    </g>
                })
            }) }
            { for p.graph.nodes.iter().zip(&pos).map(|(n, q)| html! {
                <g class={classes!("node", n.kind.as_str())} data-kind={n.kind.as_str()}>
                    <title>{ n.label.clone() }</title>
                    <rect x={q.x.to_string()} y={q.y.to_string()} width={NODE_W.to_string()} height={NODE_H.to_string()} rx="8" />
                    <text x={(q.x + NODE_W / 2.0).to_string()} y={(q.y + NODE_H / 2.0 + 4.0).to_string()} text-anchor="middle">{ short(&n.label, 22) }</text>
                </g>
            }) }
        </svg>
    }
}

#[derive(Properties, PartialEq)]
pub struct TriplesProps {
    pub citations: Vec<Citation>,
}

/// Subjects on the left, objects on the right, one labelled arrow per triple.
#[function_component(TriplesGraphView)]
pub fn triples_graph(p: &TriplesProps) -> Html {
    let triples: Vec<&[String; 3]> = p.citations.iter().flat_map(|c| c.triples.iter().flatten()).take(60).collect();
    let mut subjects: Vec<&str> = Vec::new();
    let mut objects: Vec<&str> = Vec::new();
    for t in &triples {
        if !subjects.contains(&t[0].as_str()) {
            subjects.push(&t[0]);
        }
        if !objects.contains(&t[2].as_str()) {
            objects.push(&t[2]);
        }
    }
    let row = 44.0;
    let h = 20.0 + row * subjects.len().max(objects.len()) as f64;
    let (xs, xo, w) = (10.0, 360.0, 520.0);
    let y = |i: usize| 10.0 + i as f64 * row;
    html! {
        <svg class="graph triples" id="triples-graph" viewBox={format!("0 0 {w} {h}")} width={w.to_string()} height={h.to_string()} role="img" aria-label="cited triples">
            { for triples.iter().map(|t| {
                let ys = y(subjects.iter().position(|s| *s == t[0]).unwrap_or(0)) + 15.0;
                let yo = y(objects.iter().position(|o| *o == t[2]).unwrap_or(0)) + 15.0;
                html! {
                    <g class="edge neutral">
                        <line x1={(xs + 150.0).to_string()} y1={ys.to_string()} x2={xo.to_string()} y2={yo.to_string()} marker-end="url(#arrow)" />
                        <text x={((xs + 150.0 + xo) / 2.0).to_string()} y={((ys + yo) / 2.0 - 4.0).to_string()} text-anchor="middle" class="edge-label">{ short(&t[1], 28) }</text>
                    </g>
                }
            }) }
            { for subjects.iter().enumerate().map(|(i, s)| html! {
                <g class="node citation"><title>{ s.to_string() }</title>
                    <rect x={xs.to_string()} y={y(i).to_string()} width="150" height="30" rx="8" />
                    <text x={(xs + 75.0).to_string()} y={(y(i) + 19.0).to_string()} text-anchor="middle">{ short(s, 22) }</text></g>
            }) }
            { for objects.iter().enumerate().map(|(i, o)| html! {
                <g class="node entity"><title>{ o.to_string() }</title>
                    <rect x={xo.to_string()} y={y(i).to_string()} width="150" height="30" rx="8" />
                    <text x={(xo + 75.0).to_string()} y={(y(i) + 19.0).to_string()} text-anchor="middle">{ short(o, 22) }</text></g>
            }) }
        </svg>
    }
}
