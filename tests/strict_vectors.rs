//! Every case of tests/fixtures/strict.json (copied from the shared vectors):
//! `want` is the exact output; where `fails` is true the call must fail.

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

fn vectors() -> Vectors {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/strict.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn apply_vectors() {
    let v = vectors();
    assert!(v.apply.len() >= 29);
    for c in &v.apply {
        match applypatch::apply(&c.input, &c.diff) {
            Ok(out) => {
                assert!(!c.fails, "{}: expected an error, got {out:?}", c.name);
                assert_eq!(out, c.want, "{}", c.name);
            }
            Err(e) => {
                assert!(c.fails, "{}: unexpected error {e}", c.name);
                assert!(!e.message.is_empty(), "{}", c.name);
            }
        }
    }
}

#[test]
fn batch_vectors() {
    let v = vectors();
    assert!(v.apply_batch.len() >= 6);
    for c in &v.apply_batch {
        match applypatch::apply_batch(&c.input, &c.diffs) {
            Ok(out) => {
                assert!(!c.fails, "{}: expected an error, got {out:?}", c.name);
                assert_eq!(out, c.want, "{}", c.name);
            }
            Err(e) => assert!(c.fails, "{}: unexpected error {e}", c.name),
        }
    }
}
