//! Finding a block of lines in linear time, whatever the input: each line is
//! mapped to the id of the block line it equals (under a key such as "trimmed
//! text"), and Knuth–Morris–Pratt walks the ids. O(input + block) lines, so
//! repeated lines, near misses and ambiguous blocks cost no more than a
//! unique match.
//!
//! The index's search (rarest line first, then a check of the block at each
//! of its occurrences) is faster on ordinary files and is tried first; when
//! its checks would cost more than a few passes over the input, it hands the
//! rest of the search to [`Matches`] (see `Index::find_block`).

use std::borrow::Cow;
use std::collections::HashMap;

/// The id of a line that equals no line of the block.
const OTHER: u32 = u32::MAX;

/// Knuth–Morris–Pratt failure function.
fn prefix_function(needle: &[u32]) -> Vec<usize> {
    let mut pi = vec![0usize; needle.len()];
    let mut k = 0usize;
    for i in 1..needle.len() {
        while k > 0 && needle.get(i) != needle.get(k) {
            k = pi.get(k - 1).copied().unwrap_or(0);
        }
        if needle.get(i) == needle.get(k) {
            k += 1;
        }
        if let Some(p) = pi.get_mut(i) {
            *p = k;
        }
    }
    pi
}

/// The starts `s >= from` where lines `s..s + block.len()` have the block's
/// keys, ascending, found lazily. `key(i)` is the key of input line `i`.
pub struct Matches<'k, F> {
    ids: HashMap<Cow<'k, str>, u32>,
    needle: Vec<u32>,
    pi: Vec<usize>,
    key: F,
    /// Next input line to read, and how many lines end there (`until`).
    pos: usize,
    until: usize,
    /// Block lines matched so far, ending at `pos`.
    k: usize,
}

impl<'k, F: Fn(usize) -> Cow<'k, str>> Matches<'k, F> {
    /// Searches lines `from..lines` for `block` (keys; must not be empty).
    pub fn new(block: Vec<Cow<'k, str>>, lines: usize, from: usize, key: F) -> Self {
        let mut ids: HashMap<Cow<'k, str>, u32> = HashMap::with_capacity(block.len());
        let mut needle = Vec::with_capacity(block.len());
        for b in block {
            let next = u32::try_from(ids.len()).unwrap_or(OTHER - 1);
            needle.push(*ids.entry(b).or_insert(next));
        }
        let pi = prefix_function(&needle);
        Matches { ids, needle, pi, key, pos: from, until: lines, k: 0 }
    }
}

impl<'k, F: Fn(usize) -> Cow<'k, str>> Iterator for Matches<'k, F> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let m = self.needle.len();
        if m == 0 {
            return None;
        }
        while self.pos < self.until {
            let id = self.ids.get(&(self.key)(self.pos)).copied().unwrap_or(OTHER);
            self.pos += 1;
            while self.k > 0 && self.needle.get(self.k) != Some(&id) {
                self.k = self.pi.get(self.k - 1).copied().unwrap_or(0);
            }
            if self.needle.get(self.k) == Some(&id) {
                self.k += 1;
            }
            if self.k == m {
                self.k = self.pi.get(m - 1).copied().unwrap_or(0);
                return Some(self.pos - m);
            }
        }
        None
    }
}

/// Where the longest prefix of `block` (at least one line) stands in lines
/// `from..lines`: `(start, length)`, the earliest of the longest. Linear:
/// the Knuth–Morris–Pratt state after each line is the longest prefix of the
/// block that ends there.
pub fn longest_prefix<'k>(block: &[&'k str], lines: usize, from: usize, line: impl Fn(usize) -> &'k str) -> Option<(usize, usize)> {
    let keys: Vec<Cow<'k, str>> = block.iter().map(|b| Cow::Borrowed(*b)).collect();
    let mut m = Matches::new(keys, lines, from, |i| Cow::Borrowed(line(i)));
    let mut best: Option<(usize, usize)> = None;
    while m.pos < m.until {
        let id = m.ids.get(&Cow::Borrowed(line(m.pos))).copied().unwrap_or(OTHER);
        m.pos += 1;
        while m.k > 0 && m.needle.get(m.k) != Some(&id) {
            m.k = m.pi.get(m.k - 1).copied().unwrap_or(0);
        }
        if m.needle.get(m.k) == Some(&id) {
            m.k += 1;
        }
        if m.k > best.map_or(0, |b| b.1) {
            best = Some((m.pos - m.k, m.k));
        }
        if m.k == m.needle.len() {
            m.k = m.pi.get(m.k - 1).copied().unwrap_or(0);
        }
    }
    best
}

/// How many line comparisons [`first`] makes directly, a few passes over
/// the input, before it hands the rest of the search to [`Matches`].
fn direct_budget(lines: usize, from: usize, k: usize) -> usize {
    4 * (lines.saturating_sub(from) + k) + 64
}

/// Work units of one line read by [`Matches`] (it hashes the line's key);
/// a direct comparison is one.
pub const LINEAR_STEP: u64 = 8;

/// The first start `s` in `from..=lines - pattern.len()` where every line
/// `s + j` has the key of `pattern[j]`. Checks each start directly while that
/// stays within a few passes over the input, then finishes with [`Matches`].
/// `spend` is told the work done: 1 per direct comparison,
/// [`LINEAR_STEP`] per line [`Matches`] reads.
pub fn first<'k>(
    pattern: &[&'k str],
    lines: usize,
    from: usize,
    line: impl Fn(usize) -> &'k str,
    key: fn(&'k str) -> Cow<'k, str>,
    spend: impl Fn(u64),
) -> Option<usize> {
    let k = pattern.len();
    let last = lines.checked_sub(k)?;
    let keys: Vec<Cow<'k, str>> = pattern.iter().map(|p| key(p)).collect();
    let mut checks = direct_budget(lines, from, k);
    for s in from..=last {
        let mut all = true;
        for (j, want) in keys.iter().enumerate() {
            if checks == 0 {
                return Matches::new(keys, lines, s, |i| {
                    spend(LINEAR_STEP);
                    key(line(i))
                })
                .next();
            }
            checks -= 1;
            spend(1);
            if key(line(s + j)) != *want {
                all = false;
                break;
            }
        }
        if all {
            return Some(s);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &[&str], block: &[&str], from: usize) -> Vec<usize> {
        let block = block.iter().map(|b| Cow::Borrowed(*b)).collect();
        Matches::new(block, text.len(), from, |i| Cow::Borrowed(text.get(i).copied().unwrap_or(""))).collect()
    }

    /// Every text of up to eight lines and block of up to four over two
    /// lines, from every start: Knuth–Morris–Pratt finds what checking each
    /// start finds, and the longest prefix is the earliest of the longest.
    #[test]
    fn the_same_as_checking_every_start() {
        let seqs = |max: usize| -> Vec<Vec<&'static str>> {
            let mut all = vec![vec![]];
            for len in 1..=max {
                for bits in 0..(1u32 << len) {
                    all.push((0..len).map(|i| if bits >> i & 1 == 1 { "a" } else { "b" }).collect());
                }
            }
            all
        };
        let (texts, blocks) = (seqs(8), seqs(4));
        for text in &texts {
            let line = |i: usize| text.get(i).copied().unwrap_or("");
            for block in blocks.iter().filter(|b| !b.is_empty()) {
                for from in 0..=text.len() {
                    let starts: Vec<usize> = (from..=text.len().saturating_sub(block.len()))
                        .filter(|&s| s + block.len() <= text.len() && text.get(s..s + block.len()) == Some(block.as_slice()))
                        .collect();
                    assert_eq!(find(text, block, from), starts, "{text:?} {block:?} {from}");
                    let prefix = (1..=block.len())
                        .rev()
                        .find_map(|n| (from..text.len()).find(|&s| text.get(s..s + n) == block.get(..n)).map(|s| (s, n)));
                    assert_eq!(longest_prefix(block, text.len(), from, line), prefix, "{text:?} {block:?} {from}");
                }
            }
        }
    }

    #[test]
    fn first_match_under_a_key() {
        let text: Vec<String> = (0..5_000).map(|i| if i % 100 == 99 { "y ".into() } else { format!(" x{}", " ".repeat(i % 3)) }).collect();
        let line = |i: usize| text.get(i).map_or("", String::as_str);
        fn trim(s: &str) -> Cow<'_, str> {
            Cow::Borrowed(s.trim())
        }
        let block = vec!["x"; 99];
        let spent = std::cell::Cell::new(0u64);
        let spend = |u: u64| spent.set(spent.get() + u);
        assert_eq!(first(&block, text.len(), 0, line, trim, spend), Some(0));
        assert_eq!(first(&block, text.len(), 1, line, trim, spend), Some(100));
        let block = vec!["x"; 100];
        assert_eq!(first(&block, text.len(), 0, line, trim, spend), None);
        let mut tail = vec!["x"; 98];
        tail.push("y");
        assert_eq!(first(&tail, text.len(), 2, line, trim, spend), Some(101));
    }

    #[test]
    fn longest_prefix_is_the_earliest_of_the_longest() {
        let text = ["x", "a", "b", "x", "a", "b", "c", "a", "b", "c"];
        let line = |i: usize| text.get(i).copied().unwrap_or("");
        assert_eq!(longest_prefix(&["a", "b", "c", "d"], text.len(), 0, line), Some((4, 3)));
        assert_eq!(longest_prefix(&["a", "b", "z"], text.len(), 0, line), Some((1, 2)));
        assert_eq!(longest_prefix(&["a", "b", "z"], text.len(), 2, line), Some((4, 2)));
        assert_eq!(longest_prefix(&["q"], text.len(), 0, line), None);
    }

    #[test]
    fn finds_every_overlapping_match_in_order() {
        let text = ["a", "a", "a", "b", "a", "a"];
        assert_eq!(find(&text, &["a", "a"], 0), [0, 1, 4]);
        assert_eq!(find(&text, &["a", "a"], 1), [1, 4]);
        assert_eq!(find(&text, &["a", "b"], 0), [2]);
        assert_eq!(find(&text, &["x"], 0), Vec::<usize>::new());
        assert_eq!(find(&text, &["a", "a", "b", "a", "a", "a"], 0), Vec::<usize>::new());
        assert_eq!(find(&["x", "y", "x", "y", "x"], &["x", "y", "x"], 0), [0, 2]);
    }

    /// The work of `first` on `text` for `block` from `from`, and its answer.
    fn first_work(text: &[String], block: &[&str], from: usize) -> (Option<usize>, u64) {
        let line = |i: usize| text.get(i).map_or("", String::as_str);
        fn trim(s: &str) -> Cow<'_, str> {
            Cow::Borrowed(s.trim())
        }
        let spent = std::cell::Cell::new(0u64);
        let found = first(block, text.len(), from, line, trim, |u| spent.set(spent.get() + u));
        (found, spent.get())
    }

    #[test]
    fn first_compares_directly_near_the_start() {
        // A block found 10,000 lines on: each start is ruled out by one
        // direct comparison, where the Knuth–Morris–Pratt search would hash
        // every line (8 units each).
        let text: Vec<String> = (0..20_000).map(|i| format!("line {i} ")).collect();
        let block = ["line 10000", "line 10001"];
        let (found, work) = first_work(&text, &block, 0);
        assert_eq!(found, Some(10_000));
        assert_eq!(work, 10_000 + 2, "one comparison per start ruled out, two for the match");
    }

    #[test]
    fn first_hands_over_to_the_linear_search_within_its_budget() {
        // Every start matches 999 lines and fails on the last: checking each
        // start directly would cost 999 comparisons per start (32 million in
        // all); first stops after its budget of a few passes and finishes in
        // linear time.
        let n = 32_000;
        let mut text: Vec<String> = vec!["x ".to_string(); n];
        text.push("y".to_string());
        let mut block = vec!["x"; 999];
        block.push("y");
        let (found, work) = first_work(&text, &block, 0);
        assert_eq!(found, Some(n - 999));
        let budget = direct_budget(text.len(), 0, block.len()) as u64;
        assert_eq!(budget, 4 * (32_001 + 1_000) + 64);
        // The budget, then at most one read of each line by the linear search.
        assert!(work <= budget + LINEAR_STEP * text.len() as u64, "{work}");
        assert!(work > budget, "{work}");
    }
}
