//! The library through its facade alone: a V4A diff, a `*** Begin Patch`
//! patch over a file map, and search/replace edit blocks.
//!
//!   cargo run --example use_the_library
use std::collections::BTreeMap;

use applypatch::blocks::{apply_edits, parse_blocks, Options};
use applypatch::{apply, apply_files, summary, ErrorKind, Mode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. A V4A update diff (the `diff` of the Responses API apply_patch tool).
    let file = "def greet():\n    print(\"Hi\")\n";
    let diff = "@@ def greet():\n-    print(\"Hi\")\n+    print(\"Hello\")";
    let greeted = apply(file, diff)?;
    print!("1. V4A diff, Strict mode:\n{greeted}");

    // A diff that does not match fails with a message for the model.
    let wrong = "@@ def greet():\n-    print(\"Bye\")\n+    print(\"Hello\")";
    let e = apply(file, wrong).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ContextNotFound);
    println!("   a wrong diff: error[{}] at diff line {:?}", e.code(), e.diff_line);

    // 2. A Codex patch over a map of files: all or nothing.
    let files = BTreeMap::from([("src/app.py".to_string(), greeted.clone()), ("old.txt".to_string(), "bye\n".to_string())]);
    let patch = "*** Begin Patch
*** Update File: src/app.py
@@ def greet():
-    print(\"Hello\")
+    print(\"Hello, world\")
*** Add File: notes.txt
+first line
*** Delete File: old.txt
*** End Patch";
    let out = apply_files(&files, patch, Mode::Codex)?;
    print!("2. patch, Codex mode:\n{}", summary(patch)?);
    for (path, contents) in &out {
        println!("   {path}: {contents:?}");
    }

    // 3. Search/replace edit blocks, with the safe preset.
    let message = "src/app.py
<<<<<<< SEARCH
  print(\"Hello, world\")
=======
  print(\"Hello, edit blocks\")
>>>>>>> REPLACE";
    let source = out.get("src/app.py").map(String::as_str).unwrap_or_default();
    let result = apply_edits(source, &parse_blocks(message), &Options::SAFE);
    let strategy = result.results.first().and_then(|r| r.strategy).map(|s| s.as_str());
    print!("3. edit blocks (strategy {strategy:?}):\n{}", result.text);
    assert!(result.ok);
    Ok(())
}
