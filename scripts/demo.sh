#!/usr/bin/env bash
# citelens' main job: verify the cited answers printed in the CAQA and KaLMA papers with the shipped
# model, and show each one's coloured spans, categories and reasoning graph in the terminal.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${CITELENS_DATA_DIR:-../shared/data}"
cargo build --release -q -p citelens-cli
bin=target/release/citelens
"$bin" verify --input "$data/paper_examples/paper_examples.jsonl" --format pretty
