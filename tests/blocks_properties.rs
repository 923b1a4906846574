//! Property tests of the edit-block engine:
//! - random sources, edits and options (odd ones included) never panic (a
//!   panic in wasm is a trap), and a success changes only the reported range:
//!   `text == source[..start] + replacement + source[end..]`;
//! - with the default options every result equals a naive, line-by-line
//!   transcription of apply-edit-block's algorithm (every window scored with a
//!   full LCS table, the anchor loops run to the end of the file), including
//!   the similarity reported on failure and how many places matched.
#![cfg(not(target_arch = "wasm32"))]

use applypatch::blocks::{apply_edit, find, parse_blocks, parse_blocks_detailed, similarity, Edit, Options, Strategy as Rung};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(vec![
            "", "a", "b", "{", "}", "fn f() {", "  x = 1;", "    return 0;", "\treturn 0;", "é😀", "a ", "b\t", "  ", "\u{a0}a", "x\r", "\u{feff}a",
        ])
        .prop_map(String::from),
        1 => "[ab \t{}]{0,5}".prop_map(String::from),
    ]
}

/// A SEARCH text: usually a slice of the source, mutated the way models do.
fn search_from(source: &[String]) -> impl Strategy<Value = String> {
    let source = source.to_vec();
    let n = source.len().max(1);
    (
        0..n,
        0..6usize,
        prop::collection::vec((0..8usize, line()), 0..3),
        any::<bool>(),
        prop::sample::select(vec!["", " ", "  ", "\t", "    "]),
    )
        .prop_map(move |(at, len, muts, final_nl, indent)| {
            let mut lines: Vec<String> = source.iter().skip(at).take(len).cloned().collect();
            for (k, new) in muts {
                let len = lines.len().max(1);
                let Some(l) = lines.get_mut(k % len) else { continue };
                match k % 4 {
                    0 => *l = new,
                    1 => l.push(' '),
                    2 => *l = format!("{indent}{}", l.trim_start()),
                    _ => *l = l.trim_start().to_string(),
                }
            }
            let mut s = lines.join("\n");
            if final_nl {
                s.push('\n');
            }
            s
        })
}

fn options() -> impl Strategy<Value = Options> {
    (
        prop::sample::select(vec![-1i64, 0, 1, 2, 3, 5, i64::MAX]),
        prop::sample::select(vec![0.0, 0.5, 0.6, 0.85, 1.0, f64::NAN, -1.0, 2.0]),
        any::<bool>(),
        prop::sample::select(vec![0.0, 0.5, 1.0, f64::NAN]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::array::uniform6(any::<bool>()),
    )
        .prop_map(|(anchor_slack, threshold, unique, anchor_threshold, newlines, relative_indent, explain, more)| {
            let [whole_lines, empty_search, no_change, line_hints, replace_all, repair] = more;
            Options {
                anchor_slack,
                threshold,
                unique,
                anchor_threshold,
                newlines,
                relative_indent,
                explain,
                whole_lines,
                empty_search,
                no_change,
                line_hints,
                replace_all,
                repair: if repair { applypatch::repair::Allow::ALL } else { applypatch::repair::Allow::NONE },
            }
        })
}

fn source_and_search() -> impl Strategy<Value = (Vec<String>, String, String)> {
    (prop::collection::vec(line(), 0..14), prop::sample::select(vec!["\n", "\r\n"]), any::<bool>())
        .prop_flat_map(|(lines, sep, final_nl)| {
            let mut source = lines.join(sep);
            if final_nl {
                source.push_str(sep);
            }
            let search = prop_oneof![3 => search_from(&lines), 1 => prop::collection::vec(line(), 0..4).prop_map(|l| l.join("\n"))];
            (Just(lines), Just(source), search)
        })
        .prop_map(|(lines, source, search)| (lines, source, search))
}

// ---- a naive transcription of apply-edit-block 0.1.0 -----------------------

fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

fn lcs(a: &[&str], b: &[&str]) -> usize {
    let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            t[i][j] = if a[i - 1] == b[j - 1] { t[i - 1][j - 1] + 1 } else { t[i - 1][j].max(t[i][j - 1]) };
        }
    }
    t[a.len()][b.len()]
}

fn naive_similarity(a: &str, b: &str) -> f64 {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.split('\n').collect(), b.split('\n').collect());
    lcs(&la, &lb) as f64 / la.len().max(lb.len()) as f64
}

#[derive(Debug, PartialEq)]
struct Naive {
    ok: bool,
    text: String,
    strategy: Option<&'static str>,
    similarity: f64,
    range: Option<(usize, usize)>,
    matches: usize,
}

// A line-by-line transcription of the reference loops, indexes and all.
#[allow(clippy::needless_range_loop)]
fn naive(source: &str, search: &str, replace: &str, slack: i64, threshold: f64) -> Naive {
    let done = |strategy, start: usize, end: usize, repl: &str, sim: f64, matches| Naive {
        ok: true,
        text: format!("{}{}{}", &source[..start], repl, &source[end..]),
        strategy: Some(strategy),
        similarity: sim,
        range: Some((start, end)),
        matches,
    };
    if search.is_empty() {
        return done("empty-search", 0, 0, replace, 1.0, 1);
    }
    if let Some(i) = source.find(search) {
        let count = (0..source.len()).filter(|&k| source.is_char_boundary(k) && source[k..].starts_with(search)).count();
        return done("exact", i, i + search.len(), replace, 1.0, count);
    }
    let mut lines: Vec<(&str, usize, usize)> = Vec::new();
    let mut off = 0;
    for t in source.split('\n') {
        lines.push((t, off, off + t.len()));
        off += t.len() + 1;
    }
    let sl: Vec<&str> = search.split('\n').collect();
    let (n, big_n) = (sl.len(), lines.len());
    let slide = |norm: fn(&str) -> &str| -> Vec<usize> {
        if big_n < n {
            return vec![];
        }
        (0..=big_n - n).filter(|&i| (0..n).all(|j| norm(lines[i + j].0) == norm(sl[j]))).collect()
    };
    fn trailing(s: &str) -> &str {
        s.trim_end_matches([' ', '\t'])
    }
    fn leading(s: &str) -> &str {
        s.trim_start_matches([' ', '\t'])
    }
    let ws = |s: &str| s.len() - leading(s).len();
    let sim_of = |a: usize, b: usize| naive_similarity(search, &source[a..b]);
    let tw = slide(trailing);
    if let Some(&i) = tw.first() {
        let (a, b) = (lines[i].1, lines[i + n - 1].2);
        return done("trailing-ws", a, b, replace, sim_of(a, b), tw.len());
    }
    let ind = slide(leading);
    if let Some(&i) = ind.first() {
        let (a, b) = (lines[i].1, lines[i + n - 1].2);
        let delta = ws(lines[i].0) as i64 - ws(sl[0]) as i64;
        let shifted: Vec<String> = replace
            .split('\n')
            .map(|l| {
                if py_strip(l).is_empty() || delta == 0 {
                    l.to_string()
                } else if delta > 0 {
                    format!("{}{l}", " ".repeat(delta as usize))
                } else {
                    l[(-delta as usize).min(ws(l))..].to_string()
                }
            })
            .collect();
        return done("indent", a, b, &shifted.join("\n"), sim_of(a, b), ind.len());
    }
    let non_empty: Vec<usize> = (0..n).filter(|&k| !py_strip(sl[k]).is_empty()).collect();
    if let (Some(&f), Some(&l)) = (non_empty.first(), non_empty.last()) {
        let (first, last, gap) = (py_strip(sl[f]), py_strip(sl[l]), (l - f) as i128);
        let mut hits = Vec::new();
        for i in 0..big_n {
            if py_strip(lines[i].0) != first {
                continue;
            }
            for j in i..big_n {
                if py_strip(lines[j].0) == last && (j as i128 - i as i128 - gap).abs() <= slack as i128 {
                    hits.push((i, j));
                    break;
                }
            }
        }
        if let Some(&(i, j)) = hits.first() {
            let (a, b) = (lines[i].1, lines[j].2);
            return done("anchor", a, b, replace, sim_of(a, b), hits.len());
        }
    }
    let texts: Vec<&str> = lines.iter().map(|l| l.0).collect();
    if big_n < n {
        return Naive {
            ok: false,
            text: source.into(),
            strategy: None,
            similarity: lcs(&sl, &texts) as f64 / n as f64,
            range: None,
            matches: 0,
        };
    }
    let scores: Vec<usize> = (0..=big_n - n).map(|i| lcs(&sl, &texts[i..i + n])).collect();
    let (mut best, mut best_i) = (-1.0f64, 0);
    for (i, &s) in scores.iter().enumerate() {
        let score = s as f64 / n as f64;
        if score > best {
            best = score;
            best_i = i;
        }
    }
    if best >= threshold {
        // Places: windows at or above the threshold that overlap no better one.
        let mut order: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] as f64 / n as f64 >= threshold).collect();
        order.sort_by(|&a, &b| scores[b].cmp(&scores[a]).then(a.cmp(&b)));
        let mut kept: Vec<usize> = Vec::new();
        for i in order {
            if kept.iter().all(|&k| k.abs_diff(i) >= n) {
                kept.push(i);
            }
        }
        let (a, b) = (lines[best_i].1, lines[best_i + n - 1].2);
        return done("fuzzy", a, b, replace, sim_of(a, b), kept.len());
    }
    Naive { ok: false, text: source.into(), strategy: None, similarity: best.max(0.0), range: None, matches: 0 }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_changes_only_the_range(
        (_lines, source, search) in source_and_search(),
        replace in prop::collection::vec(line(), 0..4).prop_map(|l| l.join("\n")),
        options in options(),
    ) {
        let edit = Edit::new(search.clone(), replace.clone());
        let r = apply_edit(&source, &edit, &options).unwrap();
        prop_assert_eq!(r.ok, r.range.is_some());
        prop_assert_eq!(r.ok, r.strategy.is_some());
        match &r.range {
            Some(range) => {
                let want = format!("{}{}{}", &source[..range.start], r.replacement, &source[range.end..]);
                prop_assert_eq!(&r.text, &want);
                prop_assert!(r.matches >= 1);
                // Only `indent` (and, with relative_indent, `anchor`) rewrites
                // the replacement; `newlines` only changes its line breaks.
                let reindented = r.strategy == Some(Rung::Indent) || (options.relative_indent && r.strategy == Some(Rung::Anchor));
                // `replace_all` writes every copy at once (the text between
                // them included): plain `str::replace` when nothing else applies.
                let all = options.replace_all && !search.is_empty();
                if all && !options.newlines && !options.whole_lines {
                    prop_assert_eq!(&r.text, &source.replace(&search, &replace));
                }
                if !reindented && !all {
                    let written = if options.newlines { r.replacement.replace("\r\n", "\n") } else { r.replacement.clone() };
                    let mut given = replace.clone();
                    // An empty SEARCH creates a file that ends with a newline.
                    if options.empty_search && search.is_empty() && !given.is_empty() && !given.ends_with('\n') {
                        given.push('\n');
                    }
                    if options.newlines {
                        given = given.replace("\r\n", "\n");
                    }
                    prop_assert_eq!(written, given);
                }
                if options.unique && !all {
                    prop_assert_eq!(r.matches, 1);
                }
            }
            None => {
                prop_assert_eq!(&r.text, &source);
                prop_assert!(r.similarity >= 0.0 && r.similarity <= 1.0);
                if options.explain || r.matches > 1 {
                    let f = r.failure.as_ref().unwrap();
                    prop_assert!(!f.message.is_empty());
                }
            }
        }
        // `find` is what the binding uses: the same decision.
        let o = find(&source, &edit, &options).unwrap();
        prop_assert_eq!(o.splice.map(|s| s.start..s.end), r.range);
    }

    #[test]
    fn compatible_equals_a_naive_apply_edit_block(
        (_lines, source, search) in source_and_search(),
        replace in prop::collection::vec(line(), 0..3).prop_map(|l| l.join("\n")),
        slack in prop::sample::select(vec![-1i64, 0, 1, 2, 4]),
        threshold in prop::sample::select(vec![0.0, 0.3, 0.5, 0.6, 0.85, 1.0]),
    ) {
        let options = Options { anchor_slack: slack, threshold, ..Options::COMPATIBLE };
        let r = apply_edit(&source, &Edit::new(search.clone(), replace.clone()), &options).unwrap();
        let got = Naive {
            ok: r.ok,
            text: r.text.clone(),
            strategy: r.strategy.map(|s| s.as_str()),
            similarity: r.similarity,
            range: r.range.map(|x| (x.start, x.end)),
            matches: r.matches,
        };
        prop_assert_eq!(got, naive(&source, &search, &replace, slack, threshold));
    }

    #[test]
    fn similarity_is_naive_similarity(a in prop::collection::vec(line(), 0..20), b in prop::collection::vec(line(), 0..20)) {
        let (a, b) = (a.join("\n"), b.join("\n"));
        prop_assert_eq!(similarity(&a, &b).unwrap(), naive_similarity(&a, &b));
    }

    #[test]
    fn parsers_never_panic(lines in prop::collection::vec(prop_oneof![
        line(),
        prop::sample::select(vec!["<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "<<<", ">>>", "===", "```", "```py", "x.py", "------- SEARCH", "+++++++ REPLACE", "<<<<<<< SEARCH>", "=== x"]).prop_map(String::from),
    ], 0..30), crlf: bool) {
        let text = lines.join(if crlf { "\r\n" } else { "\n" });
        let plain = parse_blocks(&text);
        let detailed = parse_blocks_detailed(&text);
        // Each edit needs an end marker line of its own.
        let ends = lines.iter().filter(|l| l.starts_with(">>>") || l.starts_with("+++")).count();
        prop_assert!(detailed.edits.len() <= ends);
        prop_assert!(plain.len() <= ends);
        for e in &detailed.edits {
            prop_assert!(!e.search.contains('\r') && !e.replace.contains('\r') || lines.iter().any(|l| l.contains('\r')));
        }
        for p in &detailed.problems {
            prop_assert!(p.line >= 1 && p.line <= lines.len().max(1));
        }
    }
}
