//! Where the time of one edit-block call goes, natively (no wasm, no JS):
//! `cargo run --release --example blocks_profile`.
use applypatch::blocks::{apply_edit, Edit, Options};
use std::time::Instant;

fn main() {
    for n in [10_000usize, 100_000] {
        let lines: Vec<String> = (0..n)
            .map(|i| match i % 6 {
                0 => format!("function task{}(input) {{", i / 6),
                1 => format!("  const value = compute(input, {}, 'alpha');", i / 6),
                2 => format!("  if (value > {}) log('task{}', value);", i % 1000, i / 6),
                3 => format!("  return value * {};", (i / 6) % 97),
                4 => "}".to_string(),
                _ => String::new(),
            })
            .collect();
        let source = lines.join("\n") + "\n";
        let at = n / 2 - (n / 2) % 6;
        let mut fail: Vec<String> = lines[at..at + 20].to_vec();
        for k in [0, 4, 8, 12, 16] {
            fail[k].push_str(" /* stale */");
        }
        let edit = Edit::new(fail.join("\n"), "x");
        for (name, o) in [("compatible", Options::COMPATIBLE), ("safe", Options::SAFE)] {
            // The fastest of 15 batches: the machine is shared, the minimum is steadiest.
            let reps = 20;
            let best = (0..15)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..reps {
                        let _ = std::hint::black_box(apply_edit(&source, &edit, &o));
                    }
                    t.elapsed().as_secs_f64() * 1000.0 / reps as f64
                })
                .fold(f64::INFINITY, f64::min);
            println!("{n} lines, failing 20-line edit, {name}: {best:.3} ms");
        }
    }
}
