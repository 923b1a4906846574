#!/usr/bin/env bash
# npm test: set up what is missing, build, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s\n' "$*"; }

step "setup"
bash scripts/setup.sh
step "build"
node scripts/build.mjs --if-needed
step "cargo test"
cargo test --release --quiet
step "JS tests against the built package (ESM and CJS)"
node --test tests/js/
step "packed tarball in an empty project"
node tests/pack/run.mjs
step "playground in headless Chromium"
node --test tests/browser/
