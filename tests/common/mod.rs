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
