//! Every case of apply-edit-block's vectors (tests/fixtures/apply-edit-block.*.json,
//! copied from the shared vectors: results of the published package 0.1.0)
//! gives the same `ok`, text, strategy, similarity and offsets with the
//! default options. The vectors' offsets are code points; the Rust API's are
//! bytes, converted here. Each vector is its own test: `cases::<name>`,
//! `upstream::<test>`.

// The per-case harness (libtest-mimic) runs on the host only; `wasm-pack test`
// builds every test target for wasm32, where this file is an empty program.
#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod common;

use applypatch::blocks::{apply_edit, apply_edits, parse_blocks, similarity, Edit, EditResult, Options};
#[cfg(not(target_arch = "wasm32"))]
use common::{fixture, run, slug, trial};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, Debug)]
struct Expected {
    ok: bool,
    strategy: Option<String>,
    similarity: f64,
    start: i64,
    end: i64,
}

/// Code points before byte `offset` of `text`.
fn code_points(text: &str, offset: usize) -> i64 {
    text[..offset].chars().count() as i64
}

fn check(name: &str, source: &str, got: &EditResult, want: &Expected) {
    assert_eq!(got.ok, want.ok, "{name}: ok");
    assert_eq!(got.strategy.map(|s| s.as_str()), want.strategy.as_deref(), "{name}: strategy");
    assert_eq!(got.similarity, want.similarity, "{name}: similarity");
    let (start, end) = match &got.range {
        Some(r) => (code_points(source, r.start), code_points(source, r.end)),
        None => (-1, -1),
    };
    assert_eq!((start, end), (want.start, want.end), "{name}: offsets");
}

fn options(slack: Option<&Value>, threshold: Option<&Value>) -> Options {
    let mut o = Options::COMPATIBLE;
    if let Some(s) = slack.and_then(Value::as_i64) {
        o.anchor_slack = s;
    }
    if let Some(t) = threshold.and_then(Value::as_f64) {
        o.threshold = t;
    }
    o
}

fn edits(v: &Value) -> Vec<Edit> {
    v.as_array().unwrap().iter().map(|e| Edit::new(e["search"].as_str().unwrap(), e["replace"].as_str().unwrap())).collect()
}

/// One case of apply-edit-block.cases.json: parse_blocks of a `patch`, or
/// apply_edits of `edits` on `source`.
fn case(c: &Value) {
    let name = c["name"].as_str().unwrap();
    if let Some(patch) = c.get("patch") {
        assert_eq!(parse_blocks(patch.as_str().unwrap()), edits(&c["expected_blocks"]), "{name}");
        return;
    }
    let source = c["source"].as_str().unwrap();
    let opts = options(c.get("anchor_slack"), c.get("threshold"));
    let r = apply_edits(source, &edits(&c["edits"]), &opts).unwrap();
    let want = &c["expected"];
    assert_eq!(r.ok, want["ok"].as_bool().unwrap(), "{name}");
    assert_eq!(r.text, want["text"].as_str().unwrap(), "{name}");
    assert_eq!(r.applied as u64, want["applied"].as_u64().unwrap(), "{name}");
    let results: Vec<Expected> = serde_json::from_value(want["results"].clone()).unwrap();
    assert_eq!(r.results.len(), results.len(), "{name}");
    let mut step_source = source.to_string();
    for (got, want) in r.results.iter().zip(&results) {
        check(name, &step_source, got, want);
        step_source.clone_from(&got.text);
    }
}

/// One vector of apply-edit-block.upstream-tests.json (its own test suite's
/// calls and results).
fn upstream(t: &Value) {
    let name = t["test"].as_str().unwrap();
    let args = t["args"].as_array().unwrap();
    if t.get("raises").is_some() {
        // A non-string source or search: the Rust API's types rule it out;
        // the npm package throws TypeError (tests/js/blocks.test.mjs).
        assert!(!args[0].is_string() || !args[1]["search"].is_string(), "{name}");
        return;
    }
    let kw = &t["kwargs"];
    let opts = options(kw.get("anchor_slack"), kw.get("threshold"));
    let result = &t["result"];
    match t["fn"].as_str().unwrap() {
        "apply_edit" => {
            let source = args[0].as_str().unwrap();
            let e = &args[1];
            let r = apply_edit(source, &Edit::new(e["search"].as_str().unwrap(), e["replace"].as_str().unwrap()), &opts).unwrap();
            assert_eq!(r.text, result["text"].as_str().unwrap(), "{name}");
            check(name, source, &r, &serde_json::from_value(result.clone()).unwrap());
        }
        "apply_edits" => {
            let source = args[0].as_str().unwrap();
            let r = apply_edits(source, &edits(&args[1]), &opts).unwrap();
            assert_eq!(r.ok, result["ok"].as_bool().unwrap(), "{name}");
            assert_eq!(r.text, result["text"].as_str().unwrap(), "{name}");
            assert_eq!(r.applied as u64, result["applied"].as_u64().unwrap(), "{name}");
            let results = result["results"].as_array().unwrap();
            assert_eq!(r.results.len(), results.len(), "{name}");
            let mut step_source = source.to_string();
            for (got, want) in r.results.iter().zip(results) {
                assert_eq!(got.text, want["text"].as_str().unwrap(), "{name}");
                check(name, &step_source, got, &serde_json::from_value(want.clone()).unwrap());
                step_source.clone_from(&got.text);
            }
        }
        "similarity" => {
            let got = similarity(args[0].as_str().unwrap(), args[1].as_str().unwrap()).unwrap();
            assert_eq!(got, result.as_f64().unwrap(), "{name}");
        }
        "parse_blocks" => assert_eq!(parse_blocks(args[0].as_str().unwrap()), edits(result), "{name}"),
        other => panic!("unknown fn {other}"),
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let cases: Value = fixture("apply-edit-block.cases.json");
    let cases = cases["cases"].as_array().unwrap().clone();
    let upstream_tests: Value = fixture("apply-edit-block.upstream-tests.json");
    let vectors = upstream_tests["vectors"].as_array().unwrap().clone();
    let (n_cases, n_vectors, n_raises) = (cases.len(), vectors.len(), vectors.iter().filter(|t| t.get("raises").is_some()).count());
    let mut trials = vec![trial("fixtures_hold_every_case".into(), move || match (n_cases, n_vectors, n_raises) {
        (41, 27, 2) => Ok(()),
        counts => Err(format!("(cases, upstream vectors, raising) = {counts:?}, wanted (41, 27, 2)")),
    })];
    for c in cases {
        let name = format!("cases::{}", slug(c["name"].as_str().unwrap()));
        trials.push(libtest_mimic::Trial::test(name, move || {
            case(&c);
            Ok(())
        }));
    }
    for (i, t) in vectors.into_iter().enumerate() {
        // Upstream test names repeat (one test makes several calls): number them.
        let name = format!("upstream::{}_{i}", slug(t["test"].as_str().unwrap()));
        trials.push(libtest_mimic::Trial::test(name, move || {
            upstream(&t);
            Ok(())
        }));
    }
    run(trials)
}
