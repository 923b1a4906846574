//! The engine alone on the real-edits corpus (bench/real-edits.mjs builds it
//! into .cache/real-edits/corpus.json): microseconds per call of
//! `Mode::changes` natively, by file size, to set against what bench/real.mjs
//! measures through the npm package (the difference is the JS/wasm boundary).
//!
//!   cargo run --release --example real_edits [-- CORPUS.json]
//!
//! With `--spin SECONDS [--under LINES]` it only calls Strict mode over and
//! over on the files under LINES lines (all by default), for a profiler
//! (`perf record`); with `--passes N` instead, N passes over them (for
//! `valgrind --tool=callgrind`, whose instruction counts do not depend on
//! the machine's load; `--codex` for Codex mode).
use std::time::Instant;

use applypatch::Mode;

#[derive(serde::Deserialize)]
struct Corpus {
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    lines: usize,
    input: String,
    diff: String,
    expected: String,
}

fn per_call(cases: &[&Case], mode: Mode) -> f64 {
    let pass = || {
        let t = Instant::now();
        for c in cases {
            std::hint::black_box(mode.changes(&c.input, &c.diff).ok());
        }
        t.elapsed().as_secs_f64()
    };
    pass();
    let mut times: Vec<f64> = (0..15).map(|_| pass()).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times.get(7).copied().unwrap_or(0.0) * 1e6 / cases.len().max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<f64>().ok());
    let path = args.first().filter(|a| !a.starts_with("--")).cloned().unwrap_or_else(|| ".cache/real-edits/corpus.json".into());
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("no corpus at {path}: run node bench/real-edits.mjs first");
        std::process::exit(2);
    };
    let corpus: Corpus = match serde_json::from_str(&text) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    if let Some(passes) = flag("--passes") {
        let under = flag("--under").unwrap_or(f64::INFINITY);
        let list: Vec<&Case> = corpus.cases.iter().filter(|c| (c.lines as f64) < under).collect();
        let mode = if args.iter().any(|a| a == "--codex") { Mode::Codex } else { Mode::Strict };
        for _ in 0..passes as usize {
            for c in &list {
                std::hint::black_box(mode.changes(&c.input, &c.diff).ok());
            }
        }
        println!("{} {mode:?} calls on {} files", passes as usize * list.len(), list.len());
        return;
    }
    if let Some(secs) = flag("--spin") {
        let under = flag("--under").unwrap_or(f64::INFINITY);
        let list: Vec<&Case> = corpus.cases.iter().filter(|c| (c.lines as f64) < under).collect();
        let start = Instant::now();
        let mut calls = 0usize;
        while start.elapsed().as_secs_f64() < secs {
            for c in &list {
                std::hint::black_box(Mode::Strict.changes(&c.input, &c.diff).ok());
            }
            calls += list.len();
        }
        println!(
            "{calls} Strict calls on {} files, {:.2} µs per call",
            list.len(),
            start.elapsed().as_secs_f64() * 1e6 / calls.max(1) as f64
        );
        return;
    }
    for c in &corpus.cases {
        if Mode::Strict.apply(&c.input, &c.diff).ok().as_deref() != Some(c.expected.as_str()) {
            eprintln!("a corpus case does not apply to its expected text natively");
            std::process::exit(1);
        }
    }
    println!("engine alone (native), microseconds per call of Mode::changes");
    println!("workload                      calls    Strict     Codex");
    type Pick = fn(usize) -> bool;
    let groups: [(&str, Pick); 4] = [
        ("all real edits", |_| true),
        ("files under 200 lines", |n| n < 200),
        ("files of 200-2,000 lines", |n| (200..2000).contains(&n)),
        ("files of 2,000+ lines", |n| n >= 2000),
    ];
    for (name, pick) in groups {
        let list: Vec<&Case> = corpus.cases.iter().filter(|c| pick(c.lines)).collect();
        if list.is_empty() {
            continue;
        }
        println!("{name:<28} {:>6} {:>9.2} {:>9.2}", list.len(), per_call(&list, Mode::Strict), per_call(&list, Mode::Codex));
    }
}
