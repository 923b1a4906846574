//! Every case of tests/fixtures/strict.json (copied from the shared vectors),
//! each its own test (`apply::<case>`, `apply_batch::<case>`): `want` is the
//! exact output; where `fails` is true the call must fail with a message.

// The per-case harness (libtest-mimic) runs on the host only; `wasm-pack test`
// builds every test target for wasm32, where this file is an empty program.
#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod common;

#[cfg(not(target_arch = "wasm32"))]
use common::{fixture, run, slug, trial};
use serde::Deserialize;

#[derive(Deserialize)]
struct Vectors {
    apply: Vec<ApplyCase>,
    #[serde(rename = "applyBatch")]
    apply_batch: Vec<BatchCase>,
}

#[derive(Deserialize)]
struct ApplyCase {
    name: String,
    input: String,
    diff: String,
    want: String,
    fails: bool,
}

#[derive(Deserialize)]
struct BatchCase {
    name: String,
    input: String,
    diffs: Vec<String>,
    want: String,
    fails: bool,
}

fn check(result: applypatch::Result<String>, want: &str, fails: bool) -> Result<(), String> {
    match (result, fails) {
        (Ok(out), false) if out == want => Ok(()),
        (Ok(out), false) => Err(format!("output {out:?}\n  wanted {want:?}")),
        (Ok(out), true) => Err(format!("expected an error, got {out:?}")),
        (Err(e), true) if !e.message.is_empty() => Ok(()),
        (Err(e), true) => Err(format!("{} with an empty message", e.code())),
        (Err(e), false) => Err(format!("unexpected error {}: {}", e.code(), e.message)),
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let v: Vectors = fixture("strict.json");
    let (apply, batch) = (v.apply.len(), v.apply_batch.len());
    let mut trials = vec![trial("fixture_holds_every_case".into(), move || {
        if apply >= 29 && batch >= 6 {
            Ok(())
        } else {
            Err(format!("{apply} apply and {batch} applyBatch cases"))
        }
    })];
    for c in v.apply {
        trials.push(trial(format!("apply::{}", slug(&c.name)), move || check(applypatch::apply(&c.input, &c.diff), &c.want, c.fails)));
    }
    for c in v.apply_batch {
        trials.push(trial(format!("apply_batch::{}", slug(&c.name)), move || {
            check(applypatch::apply_batch(&c.input, &c.diffs), &c.want, c.fails)
        }));
    }
    run(trials)
}
