//! Codex mode against what the real Codex CLI 0.171.0 binary did on the
//! parity corpus (tests/fixtures/codex-parity.json, recorded by
//! `scripts/parity.mjs --record`), without the binary. The same rules as
//! tests/parity/compare.mjs, which checks the npm package:
//! - success or failure agree;
//! - on success every resulting file agrees byte for byte, and [`summary`]
//!   agrees with the binary's stdout;
//! - on failure the first line of our message starts with the first line of
//!   the binary's stderr (the binary leaves earlier operations on disk, we
//!   return nothing, so files are not compared).
//!
//! Each case is two tests: `codex::<case>` (the comparison) and
//! `apply_is_apply_files::<case>` (for each update of the case, in both modes,
//! `apply(contents, op.diff)` does what `apply_files` does with the operation
//! alone).

// The per-case harness (libtest-mimic) runs on the host only; `wasm-pack test`
// builds every test target for wasm32, where this file is an empty program.
#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod common;

use applypatch::{apply_files, parse_patch, summary, Mode, Operation};
#[cfg(not(target_arch = "wasm32"))]
use common::{fixture, run, slug, trial};
use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
struct Recorded {
    cases: Vec<Case>,
}

#[derive(Deserialize, Clone)]
struct Case {
    name: String,
    files: BTreeMap<String, String>,
    patch: String,
    codex: Outcome,
}

#[derive(Deserialize, Clone)]
struct Outcome {
    ok: bool,
    #[serde(default)]
    files: BTreeMap<String, String>,
    #[serde(default)]
    stdout: String,
    #[serde(default)]
    error: String,
}

/// The one deliberate difference (README): `*** Move to:` the same path keeps
/// the file, where the Codex CLI writes it and then deletes it.
fn moves_to_itself(patch: &str) -> bool {
    parse_patch(patch)
        .is_ok_and(|p| p.operations().iter().any(|o| matches!(o, Operation::Update { path, move_to: Some(to), .. } if to == path)))
}

fn compare(c: &Case) -> Result<(), String> {
    let want = &c.codex;
    match apply_files(&c.files, &c.patch, Mode::Codex) {
        Ok(_) if !want.ok => Err(format!("we succeed, codex fails: {}", want.error)),
        Ok(files) => {
            if files != want.files {
                return Err(format!("files differ:\n  ours  {files:?}\n  codex {:?}", want.files));
            }
            let stdout = summary(&c.patch).map_err(|e| format!("summary fails: {}", e.message))?;
            if stdout != want.stdout {
                return Err(format!("summary {stdout:?}\n  codex {:?}", want.stdout));
            }
            Ok(())
        }
        Err(e) if want.ok => Err(format!("we fail ({}: {}), codex succeeds", e.code(), e.message)),
        Err(e) => {
            let first = e.message.lines().next().unwrap_or("");
            if first.starts_with(&want.error) {
                Ok(())
            } else {
                Err(format!("messages differ:\n  ours  {first:?}\n  codex {:?}", want.error))
            }
        }
    }
}

/// `apply` on an update's contents does what `apply_files` does with that
/// operation alone, in both modes (the same result or the same error code).
/// Returns how many (operation, mode) pairs were checked.
fn apply_is_apply_files(c: &Case) -> Result<usize, String> {
    let Ok(patch) = parse_patch(&c.patch) else { return Ok(0) };
    let mut checked = 0;
    for op in patch.operations() {
        let Operation::Update { path, move_to, diff, .. } = op else { continue };
        let Some(contents) = c.files.get(path) else { continue };
        for mode in [Mode::Strict, Mode::Codex] {
            let moved = move_to.as_ref().map_or(String::new(), |to| format!("*** Move to: {to}\n"));
            let alone = format!("*** Begin Patch\n*** Update File: {path}\n{moved}{diff}*** End Patch\n");
            let one = BTreeMap::from([(path.clone(), contents.clone())]);
            let dest = move_to.as_ref().unwrap_or(path);
            let via_files = apply_files(&one, &alone, mode).map(|mut f| f.remove(dest)).map_err(|e| e.code());
            let via_apply = mode.apply(contents, diff).map(Some).map_err(|e| e.code());
            if via_files != via_apply {
                return Err(format!("{path}, {mode:?}: apply gives {via_apply:?}, apply_files {via_files:?}"));
            }
            checked += 1;
        }
    }
    Ok(checked)
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let recorded: Recorded = fixture("codex-parity.json");
    let cases = recorded.cases;
    let mut trials = Vec::new();
    {
        let cases = cases.clone();
        trials.push(trial("corpus_is_large_and_varied".into(), move || {
            let ok = cases.iter().filter(|c| c.codex.ok).count();
            let crlf = cases.iter().any(|c| c.files.values().any(|f| f.contains("\r\n")));
            let lone_cr = cases.iter().any(|c| c.files.values().any(|f| f.replace("\r\n", "").contains('\r')));
            let explained: Vec<&str> = cases.iter().filter(|c| c.codex.ok && moves_to_itself(&c.patch)).map(|c| c.name.as_str()).collect();
            let updates: usize = cases.iter().map(|c| apply_is_apply_files(c).unwrap_or(0)).sum();
            match (cases.len() >= 300, ok >= 150, cases.len() - ok >= 50, crlf && lone_cr, updates > 300) {
                (true, true, true, true, true) if explained == ["ops: move to same path"] => Ok(()),
                _ => Err(format!(
                    "{} cases, {ok} succeed, CRLF {crlf}, lone CR {lone_cr}, {updates} updates checked, explained {explained:?}",
                    cases.len()
                )),
            }
        }));
    }
    for c in cases {
        let name = slug(&c.name);
        let explained = c.codex.ok && moves_to_itself(&c.patch);
        let d = c.clone();
        trials.push(trial(format!("codex::{name}"), move || match compare(&c) {
            Err(_) if explained => Ok(()),
            Ok(()) if explained => Err("the deliberate difference (move to the same path) is gone: update the README".into()),
            other => other,
        }));
        trials.push(trial(format!("apply_is_apply_files::{name}"), move || apply_is_apply_files(&d).map(|_| ())));
    }
    run(trials)
}
