//! The three-way merge against what `git merge-file -p` wrote on triples
//! built from real repository histories (tests/fixtures/merge-git.json,
//! recorded by tests/differential/record-merge.mjs), without git: for each
//! case and each style (`merge`, `diff3`, `zdiff3`), the same text byte for
//! byte and the same number of conflicts. One test per case and style.

#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(not(target_arch = "wasm32"))]
mod common;

use applypatch::merge::{merge3, merge_into_splices, Merge3Options, Style};
#[cfg(not(target_arch = "wasm32"))]
use common::{fixture, run, slug, trial};
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
struct Recorded {
    bases: Vec<String>,
    cases: Vec<Case>,
}

#[derive(Deserialize, Clone)]
struct Case {
    name: String,
    base: usize,
    ours: Vec<Value>,
    theirs: Vec<Value>,
    git: Git,
}

#[derive(Deserialize, Clone)]
struct Git {
    merge: (usize, Vec<Value>),
    diff3: (usize, Vec<Value>),
    zdiff3: (usize, Vec<Value>),
}

fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Rebuilds a text from `reference` and its steps (lines kept, lines
/// removed, text inserted, …).
fn rebuild(reference: &str, steps: &[Value]) -> String {
    let lines = lines(reference);
    let mut out = String::new();
    let mut at = 0;
    for step in steps.chunks(3) {
        let [keep, removed, inserted] = step else { panic!("steps come in threes") };
        let keep = keep.as_u64().unwrap() as usize;
        for l in &lines[at..at + keep] {
            out.push_str(l);
        }
        at += keep + removed.as_u64().unwrap() as usize;
        out.push_str(inserted.as_str().unwrap());
    }
    for l in &lines[at..] {
        out.push_str(l);
    }
    out
}

/// Where two texts first differ, for the failure message.
fn first_difference(a: &str, b: &str) -> String {
    let (la, lb) = (lines(a), lines(b));
    let i = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    format!("line {}: ours {:?}, git {:?}", i + 1, la.get(i), lb.get(i))
}

/// The `base` option's splices, taken from a clean merge: applied to ours
/// in order they give git's merge, and each is minimal (its old and new
/// texts differ in their first and in their last character).
#[cfg(not(target_arch = "wasm32"))]
fn clean_splices(base: &str, ours: &str, theirs: &str, expected: &str) -> Result<(), String> {
    let (text, splices) = merge_into_splices(base, ours, theirs).map_err(|e| e.message)?;
    if text != expected {
        return Err("merge_into_splices: the text differs from git's".into());
    }
    let Some(splices) = splices else {
        // Only when ours is the base: the caller diffs.
        return if ours == base { Ok(()) } else { Err("no splices from a merge of a changed text".into()) };
    };
    let mut out = String::new();
    let mut at = 0;
    for s in &splices {
        if s.start < at || s.end < s.start {
            return Err(format!("splices out of order at byte {}", s.start));
        }
        let old = &ours[s.start..s.end];
        let minimal = old.chars().next() != s.text.chars().next() || old.is_empty() || s.text.is_empty();
        let minimal = minimal && (old.chars().last() != s.text.chars().last() || old.is_empty() || s.text.is_empty());
        if !minimal || old == s.text {
            return Err(format!("splice {}..{} {:?} -> {:?} is not minimal", s.start, s.end, old, s.text));
        }
        out.push_str(&ours[at..s.start]);
        out.push_str(&s.text);
        at = s.end;
    }
    out.push_str(&ours[at..]);
    if out != expected {
        return Err(format!("the splices give another text: {}", first_difference(&out, expected)));
    }
    Ok(())
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let recorded: Recorded = fixture("merge-git.json");
    let mut trials = Vec::new();
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for case in recorded.cases {
        let base = recorded.bases[case.base].clone();
        let ours = rebuild(&base, &case.ours);
        let theirs = rebuild(&base, &case.theirs);
        let mut name = slug(&case.name);
        let n = seen.entry(name.clone()).or_default();
        *n += 1;
        if *n > 1 {
            name = format!("{name}_{n}");
        }
        for (style, (conflicts, steps)) in
            [(Style::Merge, case.git.merge.clone()), (Style::Diff3, case.git.diff3.clone()), (Style::Zdiff3, case.git.zdiff3.clone())]
        {
            let expected = rebuild(&ours, &steps);
            let (base, ours, theirs) = (base.clone(), ours.clone(), theirs.clone());
            trials.push(trial(format!("{style:?}::{name}").to_lowercase(), move || {
                let labels = ["ours", "base", "theirs"].map(|l| Some(l.to_string()));
                let merged = merge3(&base, &ours, &theirs, &Merge3Options { style, labels }).map_err(|e| e.message)?;
                if merged.text != expected {
                    return Err(format!("text differs from git's: {}", first_difference(&merged.text, &expected)));
                }
                if merged.conflicts.len() != conflicts {
                    return Err(format!("{} conflicts, git {conflicts}", merged.conflicts.len()));
                }
                if style == Style::Merge && conflicts == 0 {
                    clean_splices(&base, &ours, &theirs, &expected)?;
                }
                Ok(())
            }));
        }
    }
    run(trials)
}

#[cfg(target_arch = "wasm32")]
fn main() {}
