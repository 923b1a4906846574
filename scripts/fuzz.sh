#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/fuzz_targets/) for a given time each and
# prints the executions and findings of each run.
#
#   npm run fuzz                 (60 s per target)
#   npm run fuzz -- 300          (300 s per target)
#   npm run fuzz -- 30 v4a       (only the targets named)
#
# Needs the nightly toolchain (`rustup toolchain install nightly`) and
# cargo-fuzz (`cargo install cargo-fuzz`). New inputs go to fuzz/corpus/ (not
# committed); the committed seeds are fuzz/seeds/; a finding is written to
# fuzz/artifacts/<target>/ and its path printed. Reproduce one with
# `cargo +nightly fuzz run -s none <target> <file>`.
#
# No sanitizer by default (FUZZ_SANITIZER=address for AddressSanitizer): the
# engine is safe Rust, and without it a target runs several times more
# inputs in the same time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(v4a patch blocks similarity roundtrip)
fi
command -v cargo-fuzz >/dev/null || { echo "fuzz: cargo-fuzz is not installed (cargo install cargo-fuzz)" >&2; exit 2; }

san="${FUZZ_SANITIZER:-none}"
# Longest input libFuzzer makes (FUZZ_MAX_LEN to change it). Shorter inputs run
# faster; cost at size is what `npm run stress` measures.
max_len="${FUZZ_MAX_LEN:-8192}"
cargo +nightly fuzz build -O -s "$san" >/dev/null

total=0
failed=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  log="fuzz/corpus/$t.log"
  set +e
  # A case over 10 s or 2 GB of memory is a finding too.
  cargo +nightly fuzz run -O -s "$san" "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1 || true)
  runs=${runs:-0}
  total=$((total + runs))
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: $runs executions in ${seconds} s, no finding"
  elif grep -q 'libFuzzer: run interrupted' "$log"; then
    echo "fuzz $t: $runs executions, interrupted, no finding"
  else
    failed=$((failed + 1))
    echo "fuzz $t: FINDING after $runs executions (exit $rc):"
    grep -E 'panicked|ERROR|SUMMARY|Test unit written|assertion' "$log" | head -8 | sed 's/^/  /'
  fi
done
echo "fuzz: $total executions in all, $failed target(s) with a finding"
[ $failed -eq 0 ]
