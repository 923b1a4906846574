//! `*** Begin Patch` patches: the parser, `summary`, and `apply_files` over a
//! map in both modes. The input is split on U+0001: the patch, then files
//! `a.txt`, `b.txt`, ... Invariants: `summary` fails when `parse`
//! does; a failing `apply_files` returns nothing; Strict and Codex parse the
//! same operations; every touched path is named in the patch.
#![no_main]
use std::collections::BTreeMap;

use applypatch::{apply_files, parse_patch, summary, Mode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let mut parts = s.split('\u{1}');
    let text = parts.next().unwrap_or("");
    let names = ["a.txt", "b.txt", "c/d.txt", "e"];
    let map: BTreeMap<String, String> = names.iter().zip(parts).map(|(n, c)| (n.to_string(), c.to_string())).collect();
    let parsed = parse_patch(text);
    if parsed.is_err() {
        assert!(summary(text).is_err(), "summary of a patch that does not parse");
    }
    for mode in [Mode::Strict, Mode::Codex] {
        match apply_files(&map, text, mode) {
            Ok(out) => {
                let p = parsed.as_ref().expect("applied a patch that does not parse");
                for (path, contents) in &out {
                    if map.get(path) != Some(contents) {
                        assert!(
                            p.operations().iter().any(|o| o.path() == path || o.destination() == path),
                            "{path} changed but the patch does not name it"
                        );
                    }
                }
            }
            Err(e) => assert!(!e.message.is_empty()),
        }
    }
});
