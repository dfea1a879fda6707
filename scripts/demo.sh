#!/usr/bin/env bash
# citelens' main job for now: score a cited claim against its evidence with the shipped model.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p citelens-cli
bin=target/release/citelens
premise="The Puppetoon Movie is a 1987 animated film written, produced, and directed by Arnold Leibovit"
echo "Evidence: $premise"
for claim in "George Pal directed a production called Puppetoons" \
             "Arnold Leibovit directed The Puppetoon Movie" \
             "The Puppetoon Movie was released in 1987"; do
  echo
  echo "Claim: $claim"
  "$bin" nli --premise "$premise" --hypothesis "$claim"
done
