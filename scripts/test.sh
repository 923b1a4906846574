#!/usr/bin/env bash
# npm test: set up what is missing, build, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s\n' "$*"; }

step "setup"
bash scripts/setup.sh
step "format and lint: rustfmt, Biome (js/, www/, tests/, scripts/, bench/)"
cargo fmt --check
node node_modules/@biomejs/biome/bin/biome check --error-on-warnings .
step "layers: no import cycle in src/, no name through lib.rs, the binding through the public API (docs/architecture.md)"
node scripts/layers.mjs
step "build"
node scripts/build.mjs --if-needed
step "cargo test"
cargo test --release --quiet
step "clippy: the engine's no-panic lints (no indexing, unwrap or panic outside tests), host and wasm32"
cargo clippy --quiet --release --all-targets -- -D warnings
cargo clippy --quiet --release --lib --features serde -- -D warnings
cargo clippy --quiet --release --target wasm32-unknown-unknown --lib --features wasm -- -D warnings
# Each wasm module of the package alone, with its features (scripts/build.mjs).
for features in wasm-core wasm-blocks,wasm-unified; do
  cargo clippy --quiet --release --target wasm32-unknown-unknown --lib --no-default-features --features "$features" -- -D warnings
done
step "the Rust library: every public item documented, links resolve; the crate packages"
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps
cargo package --quiet --allow-dirty --no-verify >/dev/null
cargo run --quiet --release --example use_the_library >/dev/null
# The fuzz targets still compile against the public API (npm run fuzz builds them with nightly).
cargo check --quiet --manifest-path fuzz/Cargo.toml --bins
step "the engine inside wasm32, under Node (wasm-bindgen-test)"
# (no --quiet: wasm-pack would pass it on to the test runner, which rejects it)
wasm-pack test --node --release -- --test wasm 2>&1 | grep -v '^\s*\(Compiling\|Finished\|Running\)\|^\[INFO\]'
# The npm engines' allocator: the `wasm` feature installs it for the test binary.
wasm-pack test --node --release -- --features wasm --test wasm_alloc 2>&1 | grep -v '^\s*\(Compiling\|Finished\|Running\)\|^\[INFO\]'
step "JS tests against the built package (ESM and CJS)"
# --test-force-exit: a test process exits when its tests are done. Node 20 can
# deadlock at exit, waiting in NodePlatform::DrainTasks for a worker task
# (nodejs/node#54918, seen once here under load, after every test of
# tests/js/strict.test.mjs had passed); the runner would wait forever.
node --test --test-force-exit tests/js/
step "the shipped .d.ts types, from ESM and CJS consumers"
node node_modules/typescript/bin/tsc -p tests/types
step "packed tarball in an empty project"
node tests/pack/run.mjs
step "every code example of README.md and docs/, against the packed tarball (tests/docs/)"
node --test --test-force-exit tests/docs/
step "playground in headless Chromium"
node --test --test-force-exit tests/browser/
step "bundler matrix: Vite, webpack, esbuild, Rollup, Parcel, bun builds in Chromium; Node bundles; worker; CSP; Deno, Bun"
# Installs the pinned bundlers into tests/bundlers/node_modules on its first run (npm ci).
node --test --test-force-exit tests/bundlers/
