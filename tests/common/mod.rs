//! Shared by the per-case test files (`harness = false`, libtest-mimic): each
//! case of a vector file is its own test, named after the case, so
//! `cargo test --test strict_vectors -- ambiguous` runs one and a failure
//! does not hide the others.
#![allow(dead_code)]

use serde::de::DeserializeOwned;

/// A fixture of tests/fixtures/, parsed.
pub fn fixture<T: DeserializeOwned>(name: &str) -> T {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A case name as a test name: lowercase, runs of other characters as `_`
/// ("EOF no fallback" → "eof_no_fallback").
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// A test from a closure that returns `Err(reason)` on failure.
pub fn trial(name: String, f: impl FnOnce() -> Result<(), String> + Send + 'static) -> libtest_mimic::Trial {
    libtest_mimic::Trial::test(name, move || f().map_err(Into::into))
}

/// Runs the trials with the arguments `cargo test` passed (filters, --exact,
/// --list …) and exits with libtest's status.
pub fn run(trials: Vec<libtest_mimic::Trial>) -> ! {
    let mut names = std::collections::HashSet::new();
    for t in &trials {
        assert!(names.insert(t.name().to_string()), "two tests are named {}", t.name());
    }
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit()
}

/// A text as numbered lines for a snapshot (`  3| text`, with `\r`, tabs and
/// other invisibles escaped), then whether it ends with a newline.
pub fn numbered(text: &str) -> String {
    if text.is_empty() {
        return "    (empty)\n".into();
    }
    let mut out = String::new();
    let body = text.strip_suffix('\n').unwrap_or(text);
    for (i, line) in body.split('\n').enumerate() {
        out.push_str(&format!("{:>5}| {}\n", i + 1, line.escape_debug()));
    }
    if !text.ends_with('\n') {
        out.push_str("    (no final newline)\n");
    }
    out
}

/// An error whole, as a reviewable snapshot: its code, every location it
/// gives, and the full message.
pub fn describe(e: &applypatch::Error) -> String {
    let mut out = format!("code: {}\n", e.code());
    if let Some(l) = e.diff_line {
        out.push_str(&format!("diff_line: {l}\n"));
    }
    if !e.input_lines.is_empty() {
        out.push_str(&format!("input_lines: {:?}\n", e.input_lines));
    }
    if let Some(p) = &e.path {
        out.push_str(&format!("path: {p}\n"));
    }
    if let Some(o) = e.operation {
        out.push_str(&format!("operation: {o}\n"));
    }
    if let Some(d) = e.diff {
        out.push_str(&format!("diff: {d}\n"));
    }
    if let Some(n) = &e.nearest {
        out.push_str(&format!("nearest: line {}, similarity {:.4}, text {:?}\n", n.line, n.similarity, n.text));
    }
    if let Some(c) = &e.conflict {
        out.push_str(&format!("conflict: diff {}, diff_line {:?}\n", c.diff, c.diff_line));
    }
    out.push_str("message:\n");
    for line in e.message.split('\n') {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// Cases of one error kind, each shown with its inputs and the whole error,
/// for one snapshot file per kind.
#[derive(Default)]
pub struct Cases(String);

impl Cases {
    /// Adds a case: its title, the named texts given, and the result, which
    /// must be an error.
    pub fn add<T: std::fmt::Debug>(&mut self, title: &str, texts: &[(&str, &str)], result: applypatch::Result<T>) -> &mut Self {
        self.0.push_str(&format!("=== {title}\n"));
        for (name, text) in texts {
            self.0.push_str(&format!("{name}:\n{}", numbered(text)));
        }
        match result {
            Ok(v) => panic!("{title}: expected an error, got {v:?}"),
            Err(e) => self.0.push_str(&describe(&e)),
        }
        self.0.push('\n');
        self
    }

    pub fn text(&self) -> &str {
        &self.0
    }

    /// Every case must be of `kind`.
    pub fn all_of(&self, kind: &str) -> &str {
        for line in self.0.lines().filter(|l| l.starts_with("code: ")) {
            assert_eq!(line, format!("code: {kind}"), "{}", self.0);
        }
        &self.0
    }
}
