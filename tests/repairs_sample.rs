//! A fixed sample of the repairs corpus (`npm run repairs`, README
//! "Repairs"): real edits of this repository's history, each with one line
//! of its diff mutated the way models slip. Drift is repaired to exactly the
//! real new file; content mistakes are refused.
#![cfg(not(target_arch = "wasm32"))]

use applypatch::repair::{self, Allow};
use applypatch::ErrorKind;
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    kind: String,
    source: String,
    input: String,
    diff: String,
    /// The real new file, or null when the case must be refused.
    expected: Option<String>,
}

#[test]
fn the_sample_repairs_drift_and_refuses_content_mistakes() {
    let cases: Vec<Case> = serde_json::from_str(include_str!("fixtures/repairs-sample.json")).unwrap();
    assert!(cases.len() >= 30, "{}", cases.len());
    let (mut drift, mut content) = (0, 0);
    for c in &cases {
        let got = repair::apply(&c.input, &c.diff, Allow::ALL);
        let drifted = c.kind.starts_with("drift:");
        match (&c.expected, got) {
            (Some(want), Ok(r)) => {
                assert!(drifted || c.kind == "content:missing-line", "{} {}: a content mistake applied", c.kind, c.source);
                assert_eq!(&r.value, want, "{} {}", c.kind, c.source);
                assert!(!r.repairs.is_empty(), "{} {}: applied without a repair reported", c.kind, c.source);
            }
            (None, Err(e)) => {
                assert!(!drifted, "{} {}: drift refused: {}", c.kind, c.source, e.message);
                assert!(
                    matches!(e.kind, ErrorKind::ContextNotFound | ErrorKind::ContextAmbiguous),
                    "{} {}: {:?}",
                    c.kind,
                    c.source,
                    e.kind
                );
            }
            (Some(_), Err(e)) => panic!("{} {}: expected to apply: {}", c.kind, c.source, e.message),
            (None, Ok(_)) => panic!("{} {}: expected a refusal", c.kind, c.source),
        }
        if drifted {
            drift += 1;
            // Plain Strict refuses every drifted diff.
            assert!(applypatch::apply(&c.input, &c.diff).is_err(), "{} {}", c.kind, c.source);
        } else {
            content += 1;
        }
    }
    assert!(drift >= 20 && content >= 15, "{drift} drift, {content} content");
}
