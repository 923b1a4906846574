//! The whole failure of an edit block, as a model reads it, pinned as
//! snapshots (tests/snapshots/blocks_messages__<reason>.snap): the message,
//! the candidates, the nearest place with its line-by-line differences, and
//! where the REPLACE text already is. Each case aims at one branch of the
//! report (which lines align, how far the nearest place reaches). After an
//! intended change: `INSTA_UPDATE=always cargo test --test blocks_messages`,
//! then review.

// insta runs on the host only; `wasm-pack test` builds every test target for wasm32.
#![cfg(not(target_arch = "wasm32"))]

use applypatch::blocks::{apply_edit, Edit, Options};
use std::fmt::Write;

#[derive(Default)]
struct Cases(String);

impl Cases {
    fn add(&mut self, title: &str, source: &str, search: &str, replace: &str) -> &mut Self {
        let r = apply_edit(source, &Edit::new(search, replace), &Options::SAFE).expect("an edit block never fails to run");
        assert!(!r.ok, "{title}: expected a failure, it applied: {:?}", r.text);
        assert_eq!(r.text, source, "{title}: a failed edit leaves the text as it was");
        let _ = write!(
            self.0,
            "## {title}\n--- source\n{source}\n--- search\n{search}\n--- replace\n{replace}\n--- failure\n{:#?}\n\n",
            r.failure
        );
        self
    }
}

#[test]
fn not_found() {
    let mut c = Cases::default();
    c.add("one SEARCH line is in the file, the other is not", "c\nd\n", "a\nc", "X");
    c.add(
        "the last two SEARCH lines are missing: the nearest place still spans the SEARCH text's length",
        "c\nd\ne\nf\n",
        "c\nd\nX\nY",
        "W",
    );
    insta::assert_snapshot!("not_found", c.0);
}
