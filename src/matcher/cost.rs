//! The cost of whole calls, pinned by the work their searches count
//! (`Index::spent`: line comparisons, and lines read by the linear search),
//! never by timers: bounded cost is a promise, so a change that only makes a
//! call slower must fail a test too.

use super::index::Index;
use super::{codex, strict};
use crate::diff::parse;
use crate::mode::Mode;
use crate::repair::Ctx;
use crate::text::Lines;

/// 2,000 sections on 100,000 distinct lines: each section is found by
/// checking a few lines of one fingerprint bucket, so the whole diff costs a
/// few comparisons per diff line, not a pass over the input per section.
#[test]
fn strict_sections_cost_a_few_comparisons_each() {
    let n = 100_000;
    let line = |i: usize| format!("    total += weight({i}) * price[{i}];");
    let input: String = (0..n).map(|i| format!("{}\n", line(i))).collect();
    let mut diff = String::new();
    let mut diff_lines = 0;
    for s in 0..2_000 {
        let i = 50 * s + 25;
        diff.push_str(&format!("@@\n {}\n-{}\n+    total += {i};\n {}\n", line(i - 1), line(i), line(i + 1)));
        diff_lines += 5;
    }
    let d = parse(&diff, Mode::Strict, 1).unwrap();
    let lines = Lines::split(&input);
    let idx = Index::for_searches(&lines, d.searches());
    let edits = strict::plan_with(&idx, &d, &mut Ctx::default()).unwrap();
    assert_eq!(edits.len(), 2_000);
    let work = idx.spent();
    assert!(work <= 8 * diff_lines as u64, "{work} comparisons for {diff_lines} diff lines on {n} input lines");
}

/// A Codex diff of two sections on 32,000 lines, the second made of 999
/// lines that match at every start but for their trailing space and a
/// last line found only at the end: the direct checks of its fuzzy search
/// stop after a few passes over the input and the linear search finishes,
/// so the call costs a few dozen units per input line, not one per line of
/// the block per start (32 million comparisons).
#[test]
fn a_codex_fuzzy_search_costs_a_few_passes() {
    let n = 32_000;
    let input = format!("start\n{}y\n", "x \n".repeat(n));
    let diff = format!("@@\n start\n+new\n@@\n{}\n y\n+z", vec![" x"; 999].join("\n"));
    let d = parse(&diff, Mode::Codex, 1).unwrap();
    let lines = Lines::split(&input);
    let idx = Index::for_searches(&lines, d.searches());
    let edits = codex::plan(&idx, &d, None).unwrap();
    assert_eq!(edits.len(), 2);
    let work = idx.spent();
    assert!(work > n as u64, "{work}: the fuzzy search reads the input");
    assert!(work <= 16 * n as u64, "{work} units on {n} input lines");
}

/// Lines compared byte for byte while `f` runs, on this thread.
fn compared(f: impl FnOnce()) -> u64 {
    let before = super::index::COMPARED.with(std::cell::Cell::get);
    f();
    super::index::COMPARED.with(std::cell::Cell::get) - before
}

/// A scan (the first searches of an index, before its table) compares the
/// bytes only of lines of the searched line's length that end in the same
/// eight bytes: among 10,000 lines of one length that differ in their last
/// eight bytes, finding one compares one line, not every line of that length
/// (lines of exactly eight bytes too: their tail is the whole line).
#[test]
fn a_scan_compares_only_lines_of_the_same_length_and_tail() {
    for width in [8, 20] {
        let input: String = (0..10_000).map(|i| format!("{i:0width$}\n")).collect();
        let lines = Lines::split(&input);
        let idx = Index::new(&lines);
        let wanted = format!("{:0width$}", 7_777);
        let mut found = Vec::new();
        let work = compared(|| found = idx.occurrences(&wanted, 0).collect());
        assert_eq!(found, vec![7_777]);
        assert_eq!(work, 1, "{work} lines of {width} bytes compared to find one");
    }
}

/// Lines read by scans while `f` runs, on this thread.
fn scanned(f: impl FnOnce()) -> u64 {
    let before = super::index::SCANNED.with(std::cell::Cell::get);
    f();
    super::index::SCANNED.with(std::cell::Cell::get) - before
}

/// A Strict section found near the top of a file reads it about once: its
/// old lines are looked for down to the end (they must be there once), but
/// its new lines ("already applied?") only down to where the old ones are.
#[test]
fn a_section_near_the_top_reads_the_file_about_once() {
    let n = 10_000;
    let input: String = (0..n).map(|i| format!("line {i:05}\n")).collect();
    let diff = "@@\n line 00004\n-line 00005\n+line five\n line 00006\n";
    let d = parse(diff, Mode::Strict, 1).unwrap();
    let lines = Lines::split(&input);
    let idx = Index::for_searches(&lines, d.searches());
    let mut edits = Vec::new();
    let work = scanned(|| edits = strict::plan_with(&idx, &d, &mut Ctx::default()).unwrap());
    assert_eq!(edits.len(), 1);
    assert!(work >= n as u64 - 10, "{work}: the old lines are looked for in the whole file");
    assert!(work <= n as u64 + 20, "{work} lines read for one section on {n} lines");
}

/// A scan that found nothing has read its lines: asking it again (a
/// search for a second place, after finding none) reads none of them again.
#[test]
fn an_exhausted_scan_reads_nothing_again() {
    let input: String = (0..1_000).map(|i| format!("line {i:04}\n")).collect();
    let lines = Lines::split(&input);
    let idx = Index::new(&lines);
    let block = ["line 9999", "line 0001"];
    let mut found = idx.find_block(&block, 0);
    assert_eq!(scanned(|| assert_eq!(found.next(), None)), 1_000);
    assert_eq!(scanned(|| assert_eq!(found.next(), None)), 0);
}
