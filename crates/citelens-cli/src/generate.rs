//! `citelens generate caqa`: CAQA-style benchmark data from a knowledge graph.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand};

use citelens_caqa_gen::{caqa, graph, CitationStyle, Split};

#[derive(Args)]
pub struct GenerateArgs {
    #[command(subcommand)]
    what: What,
}

#[derive(Subcommand)]
enum What {
    /// Cited answers with gold category and complexity, from a knowledge graph's facts.
    Caqa(CaqaArgs),
}

#[derive(Args)]
pub struct CaqaArgs {
    /// The graph: triple files (`subject<TAB>relation<TAB>object`, or a .tar.gz of them) and a
    /// names file (`entity2text.txt` or `names.tsv`).
    #[arg(long)]
    kg: PathBuf,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Examples to make (each written once per citation style).
    #[arg(long)]
    count: usize,
    /// Subjects are split 8:1:1 by a hash of their id: no test subject is a train subject.
    #[arg(long, value_enum)]
    split: Split,
    #[arg(long, value_enum, default_value_t = CitationStyle::Passage)]
    citations: CitationStyle,
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Caqa(a) => run_caqa(a),
    }
}

fn run_caqa(a: CaqaArgs) -> anyhow::Result<ExitCode> {
    if a.count == 0 {
        anyhow::bail!("--count must be at least 1");
    }
    let g = graph::Graph::read(&a.kg)?;
    eprintln!("{}: {} facts, {} named entities, {} relations", a.kg.display(), g.facts.len(), g.entities.len(), g.relations.len());
    let mut gen = caqa::Generator::new(&g, a.seed, a.split)?;
    let examples = gen.generate(a.count)?;
    let split = format!("{:?}", a.split).to_lowercase();
    let mut rows = Vec::new();
    for (i, ex) in examples.iter().enumerate() {
        rows.extend(gen.rows(ex, &format!("caqa-{split}-{}-{i}", a.seed), a.citations));
    }
    let mut out = std::io::BufWriter::new(std::fs::File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?);
    for r in &rows {
        writeln!(out, "{}", serde_json::to_string(r)?)?;
    }
    out.flush().with_context(|| format!("writing {}", a.out.display()))?;
    println!("{} rows ({} examples) written to {}", rows.len(), examples.len(), a.out.display());
    print!("{}", caqa::stats_table(&rows));
    Ok(ExitCode::SUCCESS)
}
