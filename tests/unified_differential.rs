//! `apply` in git mode against `git apply` 2.47, on the cases recorded by
//! tests/differential/record-unified.mjs (generated diffs, drifted files,
//! damaged diffs, real diffs from this repository's history and from
//! consecutive versions of npm packages): the same
//! files and modes byte for byte, or both refuse. Strict, where it applies,
//! writes what git writes.

use std::collections::BTreeMap;

use applypatch::unified::{self, FileKind, UnifiedMode};
use serde_json::Value;

type Files = BTreeMap<String, String>;

/// The files and executable bits after applying, as the directory helpers
/// would leave them.
fn run(files: &Files, exec: &BTreeMap<String, bool>, diff: &str, mode: UnifiedMode) -> Result<(Files, BTreeMap<String, bool>), String> {
    let result = unified::apply(diff, mode, |p| files.get(p).map(String::as_str)).map_err(|e| e.message)?;
    let parsed = unified::parse(diff).unwrap();
    let mut out = files.clone();
    let mut modes = exec.clone();
    for f in &parsed.files {
        if let (FileKind::Rename | FileKind::Copy, Some(from), Some(to)) = (f.kind, &f.old_path, &f.new_path) {
            let x = exec.get(from).copied().unwrap_or(false);
            modes.insert(to.clone(), x);
        }
    }
    for c in &result.changes {
        match &c.contents {
            None => {
                out.remove(&c.path);
                modes.remove(&c.path);
            }
            Some(text) => {
                out.insert(c.path.clone(), text.clone());
                let x = match c.mode {
                    Some(m) => m & 0o111 != 0,
                    None => modes.get(&c.path).copied().unwrap_or(false),
                };
                modes.insert(c.path.clone(), x);
            }
        }
    }
    modes.retain(|p, _| out.contains_key(p));
    Ok((out, modes))
}

fn map(v: &Value) -> Files {
    v.as_object().map(|o| o.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string())).collect()).unwrap_or_default()
}

#[test]
fn git_mode_agrees_with_recorded_git_apply() {
    let path = std::env::var("UNIFIED_FIXTURE")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/unified-git.json").to_string());
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = recorded["cases"].as_array().unwrap();
    let (mut agree, mut applied, mut strict_applied) = (0, 0, 0);
    let mut failures = Vec::new();
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let files = map(&c["files"]);
        let exec: BTreeMap<String, bool> = files.keys().map(|p| (p.clone(), c["modes"].get(p).is_some())).collect();
        let diff = c["diff"].as_str().unwrap();
        let want = &c["git"];
        let got = run(&files, &exec, diff, UnifiedMode::Git);
        let ok = match (&got, want["ok"].as_bool().unwrap()) {
            (Ok((out, modes)), true) => {
                // Recorded: the files git changed or created, the paths it removed.
                let mut want_files = files.clone();
                want_files.extend(map(&want["files"]));
                for p in want["deleted"].as_array().unwrap() {
                    want_files.remove(p.as_str().unwrap());
                }
                let want_modes: BTreeMap<String, bool> = want_files.keys().map(|p| (p.clone(), want["modes"].get(p).is_some())).collect();
                applied += 1;
                *out == want_files && *modes == want_modes
            }
            (Err(_), false) => true,
            _ => false,
        };
        if ok {
            agree += 1;
        } else {
            failures.push(format!(
                "{name}: git {} / engine {:?}",
                want.get("error").and_then(Value::as_str).unwrap_or("ok"),
                got.as_ref().err()
            ));
        }
        // Strict never writes something else than git.
        if let (Ok((strict_out, _)), Ok((git_out, _))) = (run(&files, &exec, diff, UnifiedMode::Strict), &got) {
            strict_applied += 1;
            assert_eq!(&strict_out, git_out, "{name}: Strict and git mode differ");
        }
    }
    eprintln!("{} cases: {agree} agree with git apply ({applied} applied), Strict applied {strict_applied}", cases.len());
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    assert!(cases.len() >= 1000 || std::env::var("UNIFIED_FIXTURE").is_ok());
}
