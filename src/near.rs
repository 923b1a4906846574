//! Paths near a path that names no file: what an error lists when a patch,
//! a unified diff or an edit block names a file the caller's map does not
//! have (a typo, a wrong directory, another case), and what tells a Delete
//! of a file already gone from a Delete of a misspelt path.
//!
//! A path of the map is near `wanted` when it is not `wanted` itself and
//! - it is the same path once `\` is read as `/`, a leading `./` dropped and
//!   ASCII case ignored; or
//! - it has the same file name (the part after the last `/`) in another
//!   directory; or
//! - it is at most a few edits away (insertions, deletions, substitutions of
//!   one character): 1 for a path of up to 5 characters, 2 up to 12, else 3.
//!
//! Cost: linear in the map (each path is compared within a band as wide as
//! the edits allowed, and paths over 1,024 characters (`LONGEST`) only by name).

/// Most paths a message lists.
pub const LISTED: usize = 10;

/// Paths longer than this (in characters) are compared by name only.
const LONGEST: usize = 1024;

/// How near a path is: lower is nearer.
fn rank(wanted: &str, path: &str) -> Option<usize> {
    if path == wanted {
        return None;
    }
    let norm = |p: &str| p.replace('\\', "/").trim_start_matches("./").to_ascii_lowercase();
    if norm(path) == norm(wanted) {
        return Some(0);
    }
    let (w, p): (Vec<char>, Vec<char>) = (wanted.chars().collect(), path.chars().collect());
    let k = match w.len() {
        0..=5 => 1,
        6..=12 => 2,
        _ => 3,
    };
    if w.len() <= LONGEST && p.len() <= LONGEST {
        if let Some(d) = within(&w, &p, k) {
            return Some(d);
        }
    }
    let name = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    (!name(wanted).is_empty() && name(wanted) == name(path)).then_some(k + 1)
}

/// The edit distance of `a` and `b` when it is at most `k`: the dynamic
/// programme within the band of diagonals `-k..=k` (O(k · len)).
fn within(a: &[char], b: &[char], k: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > k {
        return None;
    }
    let far = k + 1;
    // prev[j]: distance of a[..i] and b[..j], for j within the band.
    let mut prev: Vec<usize> = (0..=b.len()).map(|j| if j <= k { j } else { far }).collect();
    let mut cur = vec![far; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        let i = i + 1;
        let lo = i.saturating_sub(k);
        let hi = (i + k).min(b.len());
        cur.iter_mut().for_each(|c| *c = far);
        if lo == 0 {
            if let Some(c) = cur.get_mut(0) {
                *c = i.min(far);
            }
        }
        let mut best = far;
        for j in lo.max(1)..=hi {
            let same = b.get(j - 1) == Some(ca);
            let diag = prev.get(j - 1).copied().unwrap_or(far) + usize::from(!same);
            let up = prev.get(j).copied().unwrap_or(far) + 1;
            let left = cur.get(j - 1).copied().unwrap_or(far) + 1;
            let d = diag.min(up).min(left).min(far);
            if let Some(c) = cur.get_mut(j) {
                *c = d;
            }
            best = best.min(d);
        }
        if lo == 0 {
            best = best.min(cur.first().copied().unwrap_or(far));
        }
        if best > k {
            return None;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev.get(b.len()).copied().filter(|&d| d <= k)
}

/// The paths of `known` near `wanted`, nearest first (then in the map's
/// order), at most [`LISTED`] + 1 of them (enough to say there are more).
pub fn near_paths<'a>(wanted: &str, known: &[&'a str]) -> Vec<&'a str> {
    let mut found: Vec<(usize, usize, &'a str)> =
        known.iter().enumerate().filter_map(|(at, &path)| rank(wanted, path).map(|r| (r, at, path))).collect();
    crate::order::sort_by_key(&mut found, |&(rank, at, _)| (rank, at));
    found.into_iter().take(LISTED + 1).map(|(_, _, path)| path).collect()
}

/// "a, b and c" (at most [`LISTED`], then "and N more" when `near` is longer).
pub fn list(near: &[&str]) -> String {
    let shown: Vec<&str> = near.iter().copied().take(LISTED).collect();
    let more = if near.len() > LISTED { " and more" } else { "" };
    match shown.split_last() {
        None => String::new(),
        Some((last, [])) => format!("{last}{more}"),
        Some((last, rest)) if more.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some(_) => format!("{}{more}", shown.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(a: &str, b: &str) -> usize {
        // The full table, to check the band against.
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d: Vec<Vec<usize>> = (0..=a.len())
            .map(|i| {
                (0..=b.len())
                    .map(|j| {
                        if i == 0 {
                            j
                        } else if j == 0 {
                            i
                        } else {
                            0
                        }
                    })
                    .collect()
            })
            .collect();
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let sub = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
                d[i][j] = sub.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            }
        }
        d[a.len()][b.len()]
    }

    #[test]
    fn the_band_agrees_with_the_full_table() {
        let words =
            ["", "a", "ab", "ba", "abc", "acb", "src/utils.py", "src/util.py", "src/utils.pyx", "lib/utils.py", "xyz", "abcdef", "abdcef"];
        for a in words {
            for b in words {
                let (av, bv): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
                for k in 0..4 {
                    let d = distance(a, b);
                    assert_eq!(within(&av, &bv, k), (d <= k).then_some(d), "{a:?} {b:?} {k}");
                }
            }
        }
    }

    #[test]
    fn near_paths_by_edits_name_and_case() {
        let known = ["src/util.py", "lib/utils.py", "src/utils.py", "README.md", "docs/other.md", "src/Utils.py"];
        assert_eq!(near_paths("src/utils.py", &known), ["src/Utils.py", "src/util.py", "lib/utils.py"]);
        assert_eq!(near_paths("readme.md", &known), ["README.md"]);
        assert_eq!(near_paths("nothing/like/it.rs", &known), Vec::<&str>::new());
        assert_eq!(list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(list(&["a"]), "a");
        let many: Vec<String> = (0..12).map(|i| format!("d{i}/f.txt")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let near = near_paths("f.txt", &many);
        assert_eq!(near.len(), LISTED + 1);
        assert!(list(&near).ends_with("d9/f.txt and more"), "{}", list(&near));
        // Exactly as many as are listed: no "and more".
        assert_eq!(
            list(&near[..LISTED]),
            "d0/f.txt, d1/f.txt, d2/f.txt, d3/f.txt, d4/f.txt, d5/f.txt, d6/f.txt, d7/f.txt, d8/f.txt and d9/f.txt"
        );
    }

    #[test]
    fn a_path_edits_away_comes_before_one_that_only_shares_the_name() {
        // Three edits, the most for a path this long, against a path five edits away with the same file name.
        let known = ["x/y/z/w/main_file.py", "a/b/c/mxyz_file.py"];
        assert_eq!(near_paths("a/b/c/main_file.py", &known), ["a/b/c/mxyz_file.py", "x/y/z/w/main_file.py"]);
    }

    #[test]
    fn a_path_past_the_longest_is_compared_by_name_only() {
        let wanted = "a".repeat(LONGEST);
        let longer = format!("{wanted}b");
        // One edit away, but 1,025 characters long: only its name is compared, and it differs.
        assert_eq!(near_paths(&wanted, &[longer.as_str()]), Vec::<&str>::new());
        assert_eq!(near_paths(&wanted[1..], &[&longer[2..]]), [&longer[2..]]);
    }
}
