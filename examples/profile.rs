//! Times the engine natively on a file read from disk, split into its steps.
//!
//!   cargo run --release --example profile -- INPUT DIFF [REPS]
//!
//! bench/strict.mjs writes such files with --dump; this shows how much of
//! the time measured through the npm package is the engine itself.
use std::time::Instant;

use applypatch::__profile::{index_lines, split_lines};
use applypatch::utf16;
use applypatch::Mode;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(diff)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: profile INPUT DIFF [REPS]");
        std::process::exit(2);
    };
    let input = std::fs::read_to_string(input).unwrap_or_default();
    let diff = std::fs::read_to_string(diff).unwrap_or_default();
    let reps: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(21);
    let median = |f: &mut dyn FnMut()| {
        let mut t: Vec<f64> = (0..reps)
            .map(|_| {
                let s = Instant::now();
                f();
                s.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        t.sort_by(|a, b| a.total_cmp(b));
        t.get(reps / 2).copied().unwrap_or(0.0)
    };
    let split = median(&mut || {
        std::hint::black_box(split_lines(&input));
    });
    // The index is built on split lines: its own time is the difference.
    let index = median(&mut || {
        std::hint::black_box(index_lines(&input));
    }) - split;
    let lines = split_lines(&input);
    let changes = median(&mut || {
        std::hint::black_box(Mode::Strict.changes(&input, &diff).ok());
    });
    let c = Mode::Strict.changes(&input, &diff).unwrap_or_default();
    let rebuild = median(&mut || {
        std::hint::black_box(c.apply(&input));
    });
    let mut offs: Vec<usize> = c.splices().iter().flat_map(|s| [s.start, s.end]).collect();
    let utf16 = median(&mut || utf16::offsets(&input, &mut offs));
    println!("{} lines, {} bytes, {} changes", lines, input.len(), c.splices().len());
    println!("split into lines {split:8.3} ms\nindex            {index:8.3} ms\nchanges (all)    {changes:8.3} ms\nrebuild string   {rebuild:8.3} ms\nutf16 offsets    {utf16:8.3} ms");
}
