//! Times `DiffStream` against the one-shot call on files given as arguments
//! (an input and a V4A diff), for profiling with `perf`:
//! `cargo run --release --example stream_profile -- INPUT DIFF [PIECE] [codex]`.
use std::time::Instant;

use applypatch::stream::DiffStream;
use applypatch::Mode;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(diff)) = (args.get(1), args.get(2)) else {
        return Err("usage: stream_profile INPUT DIFF [PIECE] [codex]".into());
    };
    let input = std::fs::read_to_string(input)?;
    let diff = std::fs::read_to_string(diff)?;
    let piece: usize = args.get(3).map_or(Ok(4), |s| s.parse())?;
    let mode = if args.get(4).is_some_and(|m| m == "codex") { Mode::Codex } else { Mode::Strict };
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(5);
    for _ in 0..rounds {
        let t = Instant::now();
        let one = mode.apply(&input, &diff)?;
        let one_ms = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let mut s = DiffStream::new(input.clone(), mode);
        let mut at = 0;
        while at < diff.len() {
            let mut end = (at + piece).min(diff.len());
            while !diff.is_char_boundary(end) {
                end += 1;
            }
            s.push(diff.get(at..end).unwrap_or(""));
            at = end;
        }
        let out = s.end()?;
        let stream_ms = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(out, one);
        println!("one-shot {one_ms:.1} ms, streamed in {piece}-byte pieces {stream_ms:.1} ms ({:.2}x)", stream_ms / one_ms);
    }
    Ok(())
}
