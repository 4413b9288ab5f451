#!/usr/bin/env bash
# Regenerates the page's trained presets (src/core/train/presets/*.json) with `attnlab train`: the tasks' default
# sizes, steps and learning rates, seed 1, weights saved as 16-bit floats (--f16). Training is deterministic, so the
# same attnlab gives the same bytes; the ctest trained_presets_reproduce runs this into a temporary folder and
# compares.
#   tools/models/make_trained_presets.sh [ATTNLAB] [OUTDIR]   (defaults: build/native/attnlab, src/core/train/presets)
set -euo pipefail
cd "$(dirname "$0")/../.."
ATTNLAB=${1:-build/native/attnlab}
OUT=${2:-src/core/train/presets}
mkdir -p "$OUT"
for task in reverse kv-lookup translation; do
  "$ATTNLAB" train --task "$task" --seed 1 --format json --f16 --save "$OUT/$task.json" > /dev/null
  echo "$OUT/$task.json: $(wc -c < "$OUT/$task.json") bytes"
done
