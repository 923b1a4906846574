//! The three-way merge on large triples whose diffs against the base are
//! costly (hundreds of changes among lines that repeat, blocks moved, new
//! functions with blank lines and braces inside), against what `git
//! merge-file -p` wrote for them (tests/fixtures/merge-large.json). These
//! reach what small and real triples rarely do: the bisection's give-up
//! rules past a cost of 256, the discarding of very common lines in runs of
//! new ones, and compaction over long groups.
//!
//! The texts are generated here from a seed (the fixture keeps, per style,
//! the number of conflicts, the length and an FNV-1a hash of git's output,
//! not megabytes of text). Recorded with
//! `cargo test --release --test merge_large -- --ignored record`, which runs
//! git on every case and rewrites the fixture.

use applypatch::merge::{merge3, Merge3Options, Style};
use serde_json::{json, Value};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/merge-large.json");
const CASES: u64 = 52;
/// The last cases have over 33,000 lines a side: only there does the
/// bisection's cost limit (the "square root" of the lines searched) pass 256,
/// so that a diagonal reaching far along a 20-line snake can be taken first.
const HUGE: u64 = 48;

/// splitmix64: the same numbers for a seed on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Lines that code repeats very often (more than the "square root" of a
/// file's length once it has a few thousand lines).
const COMMON: [&str; 5] = ["\n", "}\n", "    }\n", "        return;\n", "    ]\n"];

struct Gen {
    rng: Rng,
    /// How many distinct ordinary lines there are (fewer: more repeats).
    vocabulary: usize,
    /// Lines no other line equals (new code).
    fresh: usize,
}

impl Gen {
    fn ordinary(&mut self) -> String {
        if self.rng.below(100) < 15 {
            COMMON[self.rng.below(COMMON.len())].to_string()
        } else {
            format!("    call_{}();\n", self.rng.below(self.vocabulary))
        }
    }

    fn new_code(&mut self) -> String {
        if self.rng.below(100) < 35 {
            COMMON[self.rng.below(COMMON.len())].to_string()
        } else {
            self.fresh += 1;
            format!("    fresh_{}();\n", self.fresh)
        }
    }

    fn edit(&mut self, base: &[String], ops: usize) -> Vec<String> {
        let mut out = base.to_vec();
        for _ in 0..ops {
            let at = self.rng.below(out.len() + 1);
            match self.rng.below(6) {
                // A block moved elsewhere: long snakes, far apart.
                0 if out.len() > 80 => {
                    let len = 5 + self.rng.below(50);
                    let from = self.rng.below(out.len() - len);
                    let block: Vec<String> = out.drain(from..from + len).collect();
                    let to = self.rng.below(out.len() + 1);
                    out.splice(to..to, block);
                }
                // Lines replaced by other ordinary lines (they exist in the base).
                1 | 2 => {
                    let len = (1 + self.rng.below(6)).min(out.len() - at.min(out.len()));
                    let lines: Vec<String> = (0..1 + self.rng.below(6)).map(|_| self.ordinary()).collect();
                    out.splice(at..at + len, lines);
                }
                // A new function: fresh lines with blank lines and braces among them.
                3 => {
                    let lines: Vec<String> = (0..3 + self.rng.below(40)).map(|_| self.new_code()).collect();
                    out.splice(at..at, lines);
                }
                // Lines deleted.
                4 => {
                    let len = (1 + self.rng.below(12)).min(out.len() - at.min(out.len()));
                    out.drain(at..at + len);
                }
                // Ordinary lines inserted.
                _ => {
                    let lines: Vec<String> = (0..1 + self.rng.below(4)).map(|_| self.ordinary()).collect();
                    out.splice(at..at, lines);
                }
            }
        }
        out
    }
}

/// The base, ours and theirs of case `seed`.
fn triple(seed: u64) -> [String; 3] {
    let mut g = Gen { rng: Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 22), vocabulary: 0, fresh: 0 };
    g.vocabulary = [12, 60, 300, 2000][g.rng.below(4)];
    let n = if seed >= HUGE { 34_000 + g.rng.below(6_000) } else { 1500 + g.rng.below(4500) };
    let base: Vec<String> = (0..n).map(|_| g.ordinary()).collect();
    let (ours, theirs) = if g.rng.below(4) == 0 {
        // Each side edits its own half: the merge can be clean.
        let (head, tail) = base.split_at(n / 2);
        let ops = 20 + g.rng.below(200);
        let ours = [g.edit(head, ops), tail.to_vec()].concat();
        let ops = 20 + g.rng.below(200);
        ([head.to_vec(), g.edit(tail, ops)].concat(), ours)
    } else {
        let scale = if seed >= HUGE { 2 } else { 1 };
        let ops = scale * (40 + g.rng.below(400));
        let ours = g.edit(&base, ops);
        let ops = scale * (40 + g.rng.below(400));
        (g.edit(&base, ops), ours)
    };
    let mut last = [base.concat(), ours.concat(), theirs.concat()];
    // Some texts end without a newline.
    if g.rng.below(4) == 0 {
        for text in &mut last {
            text.pop();
        }
    }
    last
}

fn fnv1a(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

const STYLES: [(&str, Style); 3] = [("merge", Style::Merge), ("diff3", Style::Diff3), ("zdiff3", Style::Zdiff3)];

fn options(style: Style) -> Merge3Options {
    Merge3Options { style, labels: ["ours", "base", "theirs"].map(|l| Some(l.to_string())) }
}

#[test]
fn large_costly_triples_merge_as_git_does() {
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(FIXTURE).unwrap()).unwrap();
    let cases = recorded["cases"].as_array().unwrap();
    assert_eq!(cases.len() as u64, CASES);
    let mut conflicted = 0;
    for (seed, case) in (0..CASES).zip(cases) {
        assert_eq!(case["seed"], seed);
        let [base, ours, theirs] = triple(seed);
        for (name, style) in STYLES {
            let m = merge3(&base, &ours, &theirs, &options(style)).unwrap();
            let want = &case[name];
            // git's exit code, the number of conflicts, stops at 127.
            let got = json!([m.conflicts.len().min(127), m.text.len(), fnv1a(&m.text)]);
            assert_eq!(&got, want, "case {seed} ({name}): [conflicts, length, FNV-1a] of the merge against git's");
            conflicted += usize::from(name == "merge" && !m.conflicts.is_empty());
        }
    }
    // The corpus reaches both outcomes.
    assert!(conflicted > 0 && conflicted < CASES as usize, "{conflicted} conflicted");
}

/// Rewrites tests/fixtures/merge-large.json from `git merge-file -p` (git on
/// the PATH).
#[test]
#[ignore = "records tests/fixtures/merge-large.json with git"]
fn record() {
    use std::process::Command;
    let dir = std::env::temp_dir().join(format!("merge-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cases = Vec::new();
    for seed in 0..CASES {
        let [base, ours, theirs] = triple(seed);
        for (name, text) in [("base", &base), ("ours", &ours), ("theirs", &theirs)] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let mut case = json!({ "seed": seed, "lines": [base.lines().count(), ours.lines().count(), theirs.lines().count()] });
        for (name, _) in STYLES {
            let mut cmd = Command::new("git");
            cmd.current_dir(&dir).args(["merge-file", "-p"]);
            if name != "merge" {
                cmd.arg(format!("--{name}"));
            }
            let out = cmd.args(["-L", "ours", "-L", "base", "-L", "theirs", "ours", "base", "theirs"]).output().unwrap();
            let code = out.status.code().unwrap();
            assert!((0..=127).contains(&code), "git merge-file failed: {}", String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8(out.stdout).unwrap();
            case[name] = json!([code, text.len(), fnv1a(&text)]);
        }
        cases.push(case);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let version = String::from_utf8(Command::new("git").arg("--version").output().unwrap().stdout).unwrap();
    let about = format!(
        "Recorded by `cargo test --test merge_large -- --ignored record` with {}: per style, [conflicts, length, FNV-1a of the text] of git merge-file -p on the triple tests/merge_large.rs generates from the seed.",
        version.trim()
    );
    std::fs::write(FIXTURE, format!("{}\n", serde_json::to_string_pretty(&json!({ "about": about, "cases": cases })).unwrap())).unwrap();
}
