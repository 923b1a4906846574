//! `git merge-file -p` with applypatch's three-way merge: prints the merge of
//! OURS and THEIRS (two versions of BASE), exits with the number of
//! conflicts.
//!
//! ```sh
//! cargo run --example merge_file -- [--diff3|--zdiff3] [-L ours -L base -L theirs] OURS BASE THEIRS
//! ```

use applypatch::merge::{merge3, Merge3Options, Style};
use std::io::Write;

fn main() {
    let mut options = Merge3Options::default();
    let mut labels = Vec::new();
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--diff3" => options.style = Style::Diff3,
            "--zdiff3" => options.style = Style::Zdiff3,
            "-L" => labels.extend(args.next()),
            "-p" => {}
            _ => files.push(arg),
        }
    }
    let [ours, base, theirs] = files.as_slice() else {
        eprintln!("usage: merge_file [--diff3|--zdiff3] [-L NAME]... OURS BASE THEIRS");
        std::process::exit(255);
    };
    for (i, name) in [ours, base, theirs].into_iter().enumerate() {
        options.labels[i] = Some(labels.get(i).cloned().unwrap_or_else(|| name.clone()));
    }
    let read = |path: &str| std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match merge3(&read(base), &read(ours), &read(theirs), &options) {
        Ok(merged) => {
            std::io::stdout().write_all(merged.text.as_bytes()).unwrap();
            std::process::exit(merged.conflicts.len().min(127) as i32);
        }
        Err(e) => {
            eprintln!("{}", e.message);
            std::process::exit(255);
        }
    }
}
