#!/usr/bin/env bash
# Installs what building and testing applypatch needs, each piece only when it
# is missing (or at the wrong version), so a second run takes a second:
#   - the Rust target wasm32-unknown-unknown and the clippy and rustfmt components (rustup)
#   - wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock
#   - wasm-pack
#   - node_modules (npm ci, from package-lock.json)
#   - Chromium for the browser test (apt-get, as root; see scripts/test.sh)
# Usage: bash scripts/setup.sh [--no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
say() { printf 'setup: %s\n' "$*"; }

command -v cargo >/dev/null || { say "cargo is missing: install Rust with rustup (https://rustup.rs) first"; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# clippy enforces the engine's no-panic lints (npm test runs it).
if ! cargo clippy --version >/dev/null 2>&1; then
  say "adding the Rust component clippy"
  rustup component add clippy
fi

# rustfmt: npm test runs cargo fmt --check.
if ! cargo fmt --version >/dev/null 2>&1; then
  say "adding the Rust component rustfmt"
  rustup component add rustfmt
fi

# The wasm-bindgen CLI must be exactly the crate's version (pinned with = in Cargo.toml).
want=$(sed -n 's/^wasm-bindgen = .*"=\([0-9.]*\)".*/\1/p' Cargo.toml)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  say "installing wasm-bindgen-cli $want (found: ${have:-none}); this takes a few minutes"
  # --locked first; some of its locked dependencies may be missing from a
  # registry mirror, and then an unlocked install of the same version works.
  cargo install --quiet wasm-bindgen-cli --version "=$want" --locked ||
    cargo install --quiet wasm-bindgen-cli --version "=$want" --force
fi

if ! command -v wasm-pack >/dev/null; then
  say "installing wasm-pack; this takes a few minutes"
  cargo install --quiet wasm-pack --locked || cargo install --quiet wasm-pack
fi

# npm ci when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing node_modules (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# git: tests/js/merge.test.mjs runs git merge-file live (the three-way merge's reference).
if ! command -v git >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing git for the merge differential test (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq git >/dev/null || say "could not install git"
  else
    say "git is missing: tests/js/merge.test.mjs needs it (apt-get install git)"
  fi
fi

if [ "${1:-}" != "--no-browser" ] && ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing Chromium for the browser test (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null || say "could not install Chromium"
  else
    say "Chromium is missing and cannot be installed here (needs root and apt-get)"
  fi
fi
say "ready"
