//! Search/replace edit blocks: both parsers, and the ladder in both presets
//! over the parsed edits. The input is split on U+0001: the source, then the
//! message. Invariants: a failed edit leaves the text unchanged and names no
//! strategy; a successful one is the splice of its range; the detailed
//! parser's report stays small.
#![no_main]
use applypatch::blocks::{apply_edits, parse_blocks, parse_blocks_detailed, Edit, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let (source, message) = s.split_once('\u{1}').unwrap_or((&s, ""));
    let mut edits = parse_blocks(message);
    let detailed = parse_blocks_detailed(message);
    assert!(detailed.problems.len() <= 101);
    if edits.is_empty() {
        // Use the raw halves as one edit, so the ladder always runs.
        let (search, replace) = message.split_once('\u{2}').unwrap_or((message, ""));
        edits.push(Edit::new(search, replace));
    }
    for options in [Options::default(), Options::SAFE] {
        let Ok(r) = apply_edits(source, &edits, &options) else { continue };
        let mut text = source.to_string();
        for (k, res) in r.results.iter().enumerate() {
            if res.ok {
                assert!(res.strategy.is_some());
                text.clone_from(&res.text);
            } else {
                assert!(res.strategy.is_none(), "a failed edit names a strategy");
                assert_eq!(res.text, text, "a failed edit changed the text");
                assert_eq!(k + 1, r.results.len(), "edits went on after a failure");
            }
        }
        assert_eq!(r.text, text);
        assert_eq!(r.ok, r.applied == edits.len());
    }
});
