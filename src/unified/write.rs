//! Writing unified diffs: the line diff (Myers' O((N+M)D) algorithm between
//! the common head and tail), hunks with context, file headers. The one diff
//! implementation of the package: the CLI's `--dry-run`, `unifiedDiff` and
//! the playground's line view all use it.

use super::split_lines;

/// One step of the edit script from lines `a` to lines `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// The line is in both.
    Equal,
    /// The line of `a` is removed.
    Delete,
    /// The line of `b` is added.
    Insert,
}

impl Op {
    /// Every step, in a fixed order (the JS `lineDiff` receives a step as
    /// its position here).
    pub const ALL: &'static [Op] = &[Op::Equal, Op::Delete, Op::Insert];

    /// The name the JS `lineDiff` gives it: `eq`, `del`, `add`.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Equal => "eq",
            Op::Delete => "del",
            Op::Insert => "add",
        }
    }
}

/// A step with its 0-based line in `a` and in `b` (for [`Op::Insert`], `a` is
/// where the line goes in `a`; for [`Op::Delete`], `b` is where it was in `b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineOp {
    /// What the step does.
    pub op: Op,
    /// 0-based line in `a`.
    pub a: usize,
    /// 0-based line in `b`.
    pub b: usize,
}

/// Past this many edits, or this much work ((N + M) · edits), the middle is
/// reported as all removed then all added instead of the shortest script: a
/// diff must stay quick on very different large texts.
const MAX_EDITS: usize = 2000;
const MAX_WORK: usize = 40_000_000;

/// The edit script from `a` to `b`: shortest (fewest deletions and
/// insertions) unless the texts differ in more than `MAX_EDITS` lines.
pub fn line_ops<T: PartialEq>(a: &[T], b: &[T]) -> Vec<LineOp> {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (a.get(pre..).unwrap_or(&[]), b.get(pre..).unwrap_or(&[]));
    let suf = ra.iter().rev().zip(rb.iter().rev()).take_while(|(x, y)| x == y).count();
    let ma = ra.get(..ra.len() - suf).unwrap_or(&[]);
    let mb = rb.get(..rb.len() - suf).unwrap_or(&[]);
    let mut ops = Vec::with_capacity(a.len().max(b.len()) + 1);
    ops.extend((0..pre).map(|i| LineOp { op: Op::Equal, a: i, b: i }));
    ops.extend(middle(ma, mb).into_iter().map(|o| LineOp { op: o.op, a: o.a + pre, b: o.b + pre }));
    ops.extend((0..suf).rev().map(|k| LineOp { op: Op::Equal, a: a.len() - 1 - k, b: b.len() - 1 - k }));
    ops
}

fn replace_all(n: usize, m: usize) -> Vec<LineOp> {
    let mut ops: Vec<LineOp> = (0..n).map(|i| LineOp { op: Op::Delete, a: i, b: 0 }).collect();
    ops.extend((0..m).map(|j| LineOp { op: Op::Insert, a: n, b: j }));
    ops
}

/// Whether the best path to diagonal `k` at step `d` comes down from `k + 1`
/// (an insertion) rather than right from `k - 1` (a deletion).
fn goes_down(k: isize, d: isize, n: isize, m: isize, v: impl Fn(isize) -> isize) -> bool {
    if k == -d || k - 1 < -m {
        return true;
    }
    if k == d || k + 1 > n {
        return false;
    }
    v(k - 1) < v(k + 1)
}

fn middle<T: PartialEq>(a: &[T], b: &[T]) -> Vec<LineOp> {
    let (n, m) = (a.len(), b.len());
    if n == 0 || m == 0 {
        return replace_all(n, m);
    }
    let max = (n + m).min(MAX_EDITS);
    let offset = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let (ni, mi) = (n as isize, m as isize);
    let at = |v: &[isize], k: isize| v.get((offset + k) as usize).copied().unwrap_or(0);
    for d in 0..=max as isize {
        if (n + m).saturating_mul(d as usize) > MAX_WORK {
            break;
        }
        let mut k = -d;
        while k <= d {
            if k < -mi || k > ni {
                k += 2;
                continue;
            }
            let mut x = if goes_down(k, d, ni, mi, |i| at(&v, i)) { at(&v, k + 1) } else { at(&v, k - 1) + 1 };
            let mut y = x - k;
            while x < ni && y < mi && a.get(x as usize) == b.get(y as usize) {
                x += 1;
                y += 1;
            }
            if let Some(slot) = v.get_mut((offset + k) as usize) {
                *slot = x;
            }
            if x >= ni && y >= mi {
                trace.push(v.get((offset - d) as usize..=(offset + d) as usize).unwrap_or(&[]).to_vec());
                return backtrack(&trace, n, m);
            }
            k += 2;
        }
        trace.push(v.get((offset - d) as usize..=(offset + d) as usize).unwrap_or(&[]).to_vec());
    }
    replace_all(n, m)
}

fn backtrack(trace: &[Vec<isize>], n: usize, m: usize) -> Vec<LineOp> {
    let mut ops = Vec::new();
    let (mut x, mut y) = (n as isize, m as isize);
    for d in (1..trace.len()).rev() {
        let Some(prev) = trace.get(d - 1) else { break };
        let di = d as isize;
        let at = |k: isize| prev.get((k + di - 1) as usize).copied().unwrap_or(0);
        let k = x - y;
        let down = goes_down(k, di, n as isize, m as isize, at);
        let prev_k = if down { k + 1 } else { k - 1 };
        let prev_x = at(prev_k);
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            x -= 1;
            y -= 1;
            ops.push(LineOp { op: Op::Equal, a: x as usize, b: y as usize });
        }
        if down {
            y -= 1;
            ops.push(LineOp { op: Op::Insert, a: x as usize, b: y as usize });
        } else {
            x -= 1;
            ops.push(LineOp { op: Op::Delete, a: x as usize, b: y as usize });
        }
    }
    // No snake leaves (0, 0): `line_ops` strips the common prefix before
    // `middle` runs, so the first lines differ and the path starts there.
    ops.reverse();
    ops
}

/// How diffs are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Unchanged lines around each change (3, like `diff -u` and git).
    pub context: usize,
    /// Git headers: `diff --git`, `new file mode` / `deleted file mode`,
    /// `rename from` / `rename to` (so that `git apply` also creates empty
    /// files and renames). Without them, plain `---` / `+++` lines.
    pub git: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { context: 3, git: true }
    }
}

fn range(start: usize, len: usize) -> String {
    let s = if len == 0 { start } else { start + 1 };
    if len == 1 {
        s.to_string()
    } else {
        format!("{s},{len}")
    }
}

fn push_line(out: &mut String, sign: char, line: &str) {
    out.push(sign);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

/// The hunks of a unified diff from `before` to `after` (no file header),
/// with `context` lines around each change; `""` when the texts are equal.
/// Lines split on `\n` only: a `\r` stays part of its line.
pub fn hunks(before: &str, after: &str, context: usize) -> String {
    let (a, b) = (split_lines(before), split_lines(after));
    let ops = line_ops(&a, &b);
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, o)| o.op != Op::Equal).map(|(i, _)| i).collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&first) = changed.get(i) {
        let mut j = i;
        while let (Some(&c), Some(&n)) = (changed.get(j), changed.get(j + 1)) {
            if n - c > 2 * context + 1 {
                break;
            }
            j += 1;
        }
        let last = changed.get(j).copied().unwrap_or(first);
        let start = first.saturating_sub(context);
        let end = (last + context + 1).min(ops.len());
        let window = ops.get(start..end).unwrap_or(&[]);
        let (old_line, new_line) = match window.first() {
            Some(o) => (o.a, o.b),
            None => (0, 0),
        };
        let old_len = window.iter().filter(|o| o.op != Op::Insert).count();
        let new_len = window.iter().filter(|o| o.op != Op::Delete).count();
        out.push_str(&format!("@@ -{} +{} @@\n", range(old_line, old_len), range(new_line, new_len)));
        for o in window {
            match o.op {
                Op::Equal => push_line(&mut out, ' ', a.get(o.a).copied().unwrap_or("")),
                Op::Delete => push_line(&mut out, '-', a.get(o.a).copied().unwrap_or("")),
                Op::Insert => push_line(&mut out, '+', b.get(o.b).copied().unwrap_or("")),
            }
        }
        i = j + 1;
    }
    out
}

/// A path as git writes it in headers: C-quoted when it has a control
/// character, a quote or a backslash.
pub fn quote_path(prefix: &str, path: &str) -> String {
    if !path.chars().any(|c| c.is_control() || c == '"' || c == '\\') {
        return format!("{prefix}{path}");
    }
    let mut out = String::from("\"");
    for c in prefix.chars().chain(path.chars()) {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The diff of one file: `old_path` `None` for an added file, `new_path`
/// `None` for a deleted one, different paths for a rename. `""` when nothing
/// changed.
pub fn file_diff(old_path: Option<&str>, new_path: Option<&str>, before: &str, after: &str, options: &Options) -> String {
    let body = hunks(before, after, options.context);
    if body.is_empty() && old_path == new_path {
        return String::new();
    }
    let from = old_path.map_or("/dev/null".to_string(), |p| quote_path("a/", p));
    let to = new_path.map_or("/dev/null".to_string(), |p| quote_path("b/", p));
    let mut out = String::new();
    if options.git {
        let (a, b) = (old_path.or(new_path).unwrap_or(""), new_path.or(old_path).unwrap_or(""));
        out.push_str(&format!("diff --git {} {}\n", quote_path("a/", a), quote_path("b/", b)));
        match (old_path, new_path) {
            (None, Some(_)) => out.push_str("new file mode 100644\n"),
            (Some(_), None) => out.push_str("deleted file mode 100644\n"),
            (Some(o), Some(n)) if o != n => {
                out.push_str(&format!("rename from {}\nrename to {}\n", quote_path("", o), quote_path("", n)));
            }
            _ => {}
        }
        if body.is_empty() {
            return out;
        }
    }
    out.push_str(&format!("--- {from}\n+++ {to}\n"));
    out.push_str(&body);
    out
}

/// The diff between two file maps (each a list of path and contents), file
/// by file in path order: files only in `before` are deleted, files only in
/// `after` added. Renames are not detected.
pub fn diff_files(before: &[(&str, &str)], after: &[(&str, &str)], options: &Options) -> String {
    let find = |list: &[(&str, &str)], p: &str| list.iter().rev().find(|(q, _)| *q == p).map(|(_, c)| c.to_string());
    let mut paths: Vec<&str> = before.iter().chain(after).map(|(p, _)| *p).collect();
    crate::order::sort_strs(&mut paths);
    paths.dedup();
    let mut out = String::new();
    for p in paths {
        let (old, new) = (find(before, p), find(after, p));
        if old == new {
            continue;
        }
        out.push_str(&file_diff(
            old.as_ref().map(|_| p),
            new.as_ref().map(|_| p),
            old.as_deref().unwrap_or(""),
            new.as_deref().unwrap_or(""),
            options,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_like_diff_u() {
        assert_eq!(hunks("a\nb\nc\n", "a\nB\nc\n", 3), "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
        assert_eq!(hunks("", "x\n", 3), "@@ -0,0 +1 @@\n+x\n");
        assert_eq!(hunks("x", "x\n", 3), "@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n");
        assert_eq!(hunks("same\n", "same\n", 3), "");
    }

    #[test]
    fn script_is_shortest() {
        let a = ["a", "b", "c", "a", "b", "b", "a"];
        let b = ["c", "b", "a", "b", "a", "c"];
        let ops = line_ops(&a, &b);
        assert_eq!(ops.iter().filter(|o| o.op != Op::Equal).count(), 5);
    }

    /// Every pair of texts of up to 7 lines over two letters: the script
    /// rebuilds both texts (each step's `a` and `b` name the right lines)
    /// and is as short as the longest common subsequence allows.
    #[test]
    fn script_rebuilds_both_texts_and_is_shortest_for_every_small_pair() {
        let texts: Vec<Vec<u8>> =
            (0..=7u32).flat_map(|n| (0..1u32 << n).map(move |bits| (0..n).map(|i| b'a' + ((bits >> i) & 1) as u8).collect())).collect();
        for a in &texts {
            for b in &texts {
                let ops = line_ops(a, b);
                let (mut na, mut nb) = (Vec::new(), Vec::new());
                let (mut ia, mut ib) = (0, 0);
                for o in &ops {
                    match o.op {
                        Op::Equal => {
                            assert_eq!((o.a, o.b), (ia, ib), "{a:?} {b:?}");
                            na.push(a[o.a]);
                            nb.push(b[o.b]);
                            (ia, ib) = (ia + 1, ib + 1);
                        }
                        Op::Delete => {
                            assert_eq!(o.a, ia, "{a:?} {b:?}");
                            na.push(a[o.a]);
                            ia += 1;
                        }
                        Op::Insert => {
                            assert_eq!(o.b, ib, "{a:?} {b:?}");
                            nb.push(b[o.b]);
                            ib += 1;
                        }
                    }
                }
                assert_eq!((&na, &nb), (a, b));
                let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
                for i in 1..=a.len() {
                    for j in 1..=b.len() {
                        lcs[i][j] = if a[i - 1] == b[j - 1] { lcs[i - 1][j - 1] + 1 } else { lcs[i - 1][j].max(lcs[i][j - 1]) };
                    }
                }
                let changed = ops.iter().filter(|o| o.op != Op::Equal).count();
                assert_eq!(changed, a.len() + b.len() - 2 * lcs[a.len()][b.len()], "{a:?} {b:?}");
            }
        }
    }
}
