//! The engine against apply-edit-block 0.1.0 on the generated cases recorded
//! by tests/differential/record-blocks.mjs: with the default options every
//! `ok`, text, `applied`, strategy, similarity and offset agrees (recorded
//! offsets are code points, the engine's bytes).

use applypatch::blocks::{apply_edits, parse_blocks, Edit, Options};
use serde_json::Value;

#[test]
fn engine_agrees_with_recorded_apply_edit_block() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/apply-edit-block.differential.json");
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = recorded["cases"].as_array().unwrap();
    assert!(cases.len() >= 500);
    for c in cases {
        let at = format!("case {}", c["id"]);
        let source = c["source"].as_str().unwrap();
        let edits: Vec<Edit> = match c.get("patch") {
            Some(p) => parse_blocks(p.as_str().unwrap()),
            None => c["edits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| Edit::new(e["search"].as_str().unwrap(), e["replace"].as_str().unwrap()))
                .collect(),
        };
        let mut options = Options::COMPATIBLE;
        if let Some(t) = c.get("threshold").and_then(Value::as_f64) {
            options.threshold = t;
        }
        if let Some(s) = c.get("anchor_slack").and_then(Value::as_i64) {
            options.anchor_slack = s;
        }
        let got = apply_edits(source, &edits, &options);
        let want = &c["expected"];
        assert_eq!(got.ok, want["ok"].as_bool().unwrap(), "{at}");
        assert_eq!(got.text, want["text"].as_str().unwrap(), "{at}");
        assert_eq!(got.applied as u64, want["applied"].as_u64().unwrap(), "{at}");
        let results = want["results"].as_array().unwrap();
        assert_eq!(got.results.len(), results.len(), "{at}");
        let mut step = source.to_string();
        for (g, w) in got.results.iter().zip(results) {
            assert_eq!(g.ok, w["ok"].as_bool().unwrap(), "{at}");
            assert_eq!(g.strategy.map(|s| s.as_str()), w["strategy"].as_str(), "{at}");
            assert_eq!(g.similarity, w["similarity"].as_f64().unwrap(), "{at}");
            let cp = |b: usize| step[..b].chars().count() as i64;
            let (start, end) = g.range.as_ref().map_or((-1, -1), |r| (cp(r.start), cp(r.end)));
            assert_eq!((start, end), (w["start"].as_i64().unwrap(), w["end"].as_i64().unwrap()), "{at}");
            step.clone_from(&g.text);
        }
    }
}
