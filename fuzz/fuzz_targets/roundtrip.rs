//! A diff generated from two texts applies back exactly, and a Strict success
//! is unchanged by adding an anchor on a unique line above the section. The
//! input is split on U+0001 into the two texts (LF, no CR); the last byte
//! picks the anchor line.
#![no_main]
use applypatch::Mode;
use libfuzzer_sys::fuzz_target;

/// One section: the common first lines as context, the differing middle as
/// removed and added lines, the common last lines as context. Lines are the
/// texts' lines (each text ends with a newline).
fn diff(a: &[&str], b: &[&str]) -> String {
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let s = a[p..].iter().rev().zip(b[p..].iter().rev()).take_while(|(x, y)| x == y).count();
    let mut out = String::new();
    for l in &a[..p] {
        out.push_str(&format!(" {l}\n"));
    }
    for l in &a[p..a.len() - s] {
        out.push_str(&format!("-{l}\n"));
    }
    for l in &b[p..b.len() - s] {
        out.push_str(&format!("+{l}\n"));
    }
    for l in &a[a.len() - s..] {
        out.push_str(&format!(" {l}\n"));
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data).replace('\r', "");
    let (a, b) = s.split_once('\u{1}').unwrap_or((&s, ""));
    let pick = data.last().copied().unwrap_or(0) as usize;
    let (a, b) = (format!("{a}\n"), format!("{b}\n"));
    if a == b {
        return;
    }
    let la: Vec<&str> = a.strip_suffix('\n').unwrap_or(&a).split('\n').collect();
    let lb: Vec<&str> = b.strip_suffix('\n').unwrap_or(&b).split('\n').collect();
    let d = diff(&la, &lb);
    let got = Mode::Strict.apply(&a, &d).unwrap_or_else(|e| panic!("generated diff failed: {}\n{d}", e.message));
    assert_eq!(got, b, "the generated diff did not give the second text");
    // An anchor on a line above the middle that occurs once in the text.
    let p = la.iter().zip(&lb).take_while(|(x, y)| x == y).count();
    if p > 0 {
        let i = pick % p;
        let line = la[i];
        let unique = la.iter().filter(|l| **l == line).count() == 1;
        if unique && !line.is_empty() && line.trim() == line {
            // The anchor names line i, so the section starts after it.
            let mut anchored = format!("@@ {line}\n");
            let sub_a: Vec<&str> = la[i + 1..].to_vec();
            let sub_b: Vec<&str> = lb[i + 1..].to_vec();
            anchored.push_str(&diff(&sub_a, &sub_b));
            let with_anchor = Mode::Strict.apply(&a, &anchored).unwrap_or_else(|e| panic!("anchored diff failed: {}\n{anchored}", e.message));
            assert_eq!(with_anchor, b, "the anchor changed the result");
        }
    }
    for mode in [Mode::Codex] {
        let _ = mode.apply(&a, &d);
    }
});
