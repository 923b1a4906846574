//! A line diff whose result is the one git's xdiff computes with its default
//! (Myers) algorithm, which `git merge-file` merges with: the same changes,
//! not merely a diff of the same size. Git's behaviour is reproduced from
//! what it does (written here from its documented algorithm, not its code):
//!
//! 1. the common first and last lines are set aside;
//! 2. lines of one file that the other file does not have at all are changed
//!    without searching; lines the other file has very often (at least the
//!    "square root" of its length, at most 1,024 times) are changed too when
//!    they sit in a run of such lines ("cleanup");
//! 3. the rest is diffed by Myers' middle-snake bisection, with the same
//!    give-up rules as git: past a cost of 256 a diagonal that has reached far
//!    along a 20-line snake is taken, and past the "square root" of the
//!    length the furthest-reaching diagonal is taken;
//! 4. each group of changed lines is slid down as far as it goes, then back
//!    up to line up with a change of the other file when it can ("compaction").
//!
//! Lines are compared as whole records, their line break included, so a last
//! line without a newline differs from the same line with one.
//!
//! Cost: every diagonal step and every line of a snake is counted against a
//! [`Work`] budget; a diff that would need more stops with `input_too_large`.
//!
//! Over 600 lines on purpose: the diff must equal git's change for change, so every rule it
//! reproduces (trimming, discarding, bisection, compaction) stays in one file, to be read against
//! the others.

use crate::error::{Error, ErrorKind, Result};

/// Most steps of line diff work one merge may do (2^25: diagonal steps and
/// snake lines of the two diffs against the base and of the diffs that
/// narrow conflicts; a few tenths of a second).
pub const MAX_MERGE_WORK: u64 = 1 << 25;

/// Lines `i1..i1 + chg1` of the first file became lines `i2..i2 + chg2` of the
/// second (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Change {
    pub i1: usize,
    pub i2: usize,
    pub chg1: usize,
    pub chg2: usize,
}

/// The diff work one merge may still do (diagonal steps plus snake lines).
#[derive(Debug)]
pub(crate) struct Work {
    left: u64,
}

impl Work {
    pub(crate) fn new(limit: u64) -> Self {
        Work { left: limit }
    }

    /// The work left (tests count a merge's work with it).
    #[cfg(test)]
    pub(crate) fn left(&self) -> u64 {
        self.left
    }

    fn spend(&mut self, n: u64) -> Result<()> {
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(Error::new(
                ErrorKind::InputTooLarge,
                format!(
                    "The three-way merge needs more than {} steps of line diff work (the sides differ from the base in too many places among lines that repeat): applypatch stops there rather than work for seconds. Merge smaller files, or texts that share more lines.",
                    MAX_MERGE_WORK
                ),
            )),
        }
    }
}

/// Longest snake that makes a diagonal "interesting" (git's value).
const SNAKE_CNT: isize = 20;
/// Cost past which interesting diagonals are taken.
const HEUR_MIN_COST: isize = 256;
/// Smallest cost limit.
const MAX_COST_MIN: isize = 256;
/// Weight of the edit cost in the "interesting" test.
const K_HEUR: isize = 4;
/// Most occurrences before a line counts as "very common".
const MAX_EQLIMIT: usize = 1024;
/// How far the run of discarded lines around a common line is looked at.
const SIMSCAN_WINDOW: isize = 100;
/// Ratio of the cleanup test.
const KPDIS_RUN: isize = 4;

/// git's rough square root: the power of two with about half the bits of `n`.
fn bogosqrt(mut n: usize) -> usize {
    let mut i = 1usize;
    while n > 0 {
        i <<= 1;
        n >>= 2;
    }
    i
}

fn at(v: &[usize], i: isize) -> Option<usize> {
    usize::try_from(i).ok().and_then(|i| v.get(i).copied())
}

fn same(a: &[usize], i: isize, b: &[usize], j: isize) -> bool {
    match (at(a, i), at(b, j)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn part(v: &[usize], start: isize, end: isize) -> &[usize] {
    match (usize::try_from(start), usize::try_from(end)) {
        (Ok(s), Ok(e)) => v.get(s..e).unwrap_or(&[]),
        _ => &[],
    }
}

/// How many lines from `i1` and `i2` on are equal (below `lim1`, `lim2`).
fn forward_run(ha1: &[usize], i1: isize, lim1: isize, ha2: &[usize], i2: isize, lim2: isize) -> isize {
    part(ha1, i1, lim1).iter().zip(part(ha2, i2, lim2)).take_while(|(x, y)| x == y).count() as isize
}

/// How many lines before `i1` and `i2` are equal (from `off1`, `off2`).
fn backward_run(ha1: &[usize], off1: isize, i1: isize, ha2: &[usize], off2: isize, i2: isize) -> isize {
    part(ha1, off1, i1).iter().rev().zip(part(ha2, off2, i2).iter().rev()).take_while(|(x, y)| x == y).count() as isize
}

/// A flag per line with a `false` before the first and after the last.
struct Marks(Vec<bool>);

impl Marks {
    fn new(n: usize) -> Self {
        Marks(vec![false; n + 2])
    }
    fn get(&self, i: isize) -> bool {
        usize::try_from(i + 1).ok().and_then(|i| self.0.get(i).copied()).unwrap_or(false)
    }
    fn set(&mut self, i: isize, v: bool) {
        if let Some(slot) = usize::try_from(i + 1).ok().and_then(|i| self.0.get_mut(i)) {
            *slot = v;
        }
    }
}

/// The diff of two files given as line ids (equal ids, equal lines), in file
/// order.
pub(crate) fn diff(a: &[u32], b: &[u32], counts: &mut Counts, work: &mut Work) -> Result<Vec<Change>> {
    work.spend((a.len() + b.len()) as u64)?;
    counts.add(a, b, 1);
    let result = diff_counted(a, b, counts, work);
    counts.add(a, b, -1);
    result
}

/// How often each line id occurs in each of the two files being diffed
/// (zero between diffs: each diff adds its files and takes them out again).
pub(crate) struct Counts {
    first: Vec<u32>,
    second: Vec<u32>,
}

impl Counts {
    /// Counts for line ids below `ids`.
    pub(crate) fn new(ids: usize) -> Self {
        Counts { first: vec![0; ids], second: vec![0; ids] }
    }

    fn add(&mut self, a: &[u32], b: &[u32], by: i32) {
        for (file, counts) in [(a, &mut self.first), (b, &mut self.second)] {
            for &h in file {
                if let Some(c) = counts.get_mut(h as usize) {
                    *c = c.wrapping_add_signed(by);
                }
            }
        }
    }
}

fn diff_counted(a: &[u32], b: &[u32], counts: &Counts, work: &mut Work) -> Result<Vec<Change>> {
    let ha1: Vec<usize> = a.iter().map(|&x| x as usize).collect();
    let ha2: Vec<usize> = b.iter().map(|&x| x as usize).collect();
    let (count1, count2) = (&counts.first, &counts.second);
    let n1 = ha1.len();
    let n2 = ha2.len();
    let mut rchg1 = Marks::new(n1);
    let mut rchg2 = Marks::new(n2);

    // 1. Common first and last lines.
    let lim = n1.min(n2);
    let mut start = 0;
    while start < lim && ha1.get(start) == ha2.get(start) {
        start += 1;
    }
    let mut tail = 0;
    while tail < lim - start && ha1.get(n1 - 1 - tail) == ha2.get(n2 - 1 - tail) {
        tail += 1;
    }
    let (dstart, dend1, dend2) = (start as isize, n1 as isize - tail as isize - 1, n2 as isize - tail as isize - 1);

    // 2. Cleanup.
    let dis1 = discards(&ha1, count2, n1, dstart, dend1);
    let dis2 = discards(&ha2, count1, n2, dstart, dend2);
    let (rindex1, rha1) = kept(&ha1, &dis1, dstart, dend1, &mut rchg1);
    let (rindex2, rha2) = kept(&ha2, &dis2, dstart, dend2, &mut rchg2);

    // 3. Myers.
    let mut myers = Myers::new(&rha1, &rha2);
    let mut boxes = vec![(0isize, rha1.len() as isize, 0isize, rha2.len() as isize, false)];
    while let Some((mut off1, mut lim1, mut off2, mut lim2, need_min)) = boxes.pop() {
        while off1 < lim1 && off2 < lim2 && same(&rha1, off1, &rha2, off2) {
            off1 += 1;
            off2 += 1;
        }
        while off1 < lim1 && off2 < lim2 && same(&rha1, lim1 - 1, &rha2, lim2 - 1) {
            lim1 -= 1;
            lim2 -= 1;
        }
        if off1 == lim1 {
            for i in off2..lim2 {
                rchg2.set(at(&rindex2, i).map_or(-2, |x| x as isize), true);
            }
        } else if off2 == lim2 {
            for i in off1..lim1 {
                rchg1.set(at(&rindex1, i).map_or(-2, |x| x as isize), true);
            }
        } else {
            let spl = myers.split(off1, lim1, off2, lim2, need_min, work)?;
            // Either order gives the same marks; the first half is done first.
            boxes.push((spl.i1, lim1, spl.i2, lim2, spl.min_hi));
            boxes.push((off1, spl.i1, off2, spl.i2, spl.min_lo));
        }
    }

    // 4. Compaction, each file against the other.
    compact(&ha1, &mut rchg1, &mut rchg2, work)?;
    compact(&ha2, &mut rchg2, &mut rchg1, work)?;

    Ok(script(&rchg1, n1, &rchg2, n2))
}

/// 0: the other file lacks the line; 1: it has it; 2: it has it very often.
fn discards(ha: &[usize], other_count: &[u32], n: usize, dstart: isize, dend: isize) -> Vec<u8> {
    let mlim = bogosqrt(n).min(MAX_EQLIMIT);
    let mut dis = vec![0u8; n];
    for i in dstart..=dend {
        let nm = at(ha, i).and_then(|h| other_count.get(h).copied()).unwrap_or(0) as usize;
        if let Some(d) = usize::try_from(i).ok().and_then(|i| dis.get_mut(i)) {
            *d = if nm == 0 {
                0
            } else if nm >= mlim {
                2
            } else {
                1
            };
        }
    }
    dis
}

fn dis_at(dis: &[u8], i: isize) -> u8 {
    usize::try_from(i).ok().and_then(|i| dis.get(i).copied()).unwrap_or(1)
}

/// For the lines `dstart..=dend` of one file: where the last line before
/// each that the other file has a few times (`dis == 1`) is, where the next
/// after it is, and how many lines up to each the other file lacks. With
/// them, [`Runs::surrounded`] takes constant time.
struct Runs {
    prev_one: Vec<isize>,
    next_one: Vec<isize>,
    /// `zeros[k]`: lines with `dis == 0` among `dstart..dstart + k`.
    zeros: Vec<isize>,
    dstart: isize,
    dend: isize,
}

impl Runs {
    fn new(dis: &[u8], dstart: isize, dend: isize) -> Self {
        let len = usize::try_from(dend - dstart + 1).unwrap_or(0);
        let mut prev_one = Vec::with_capacity(len);
        let mut zeros = Vec::with_capacity(len + 1);
        zeros.push(0);
        let (mut last, mut z) = (dstart - 1, 0);
        for i in dstart..=dend {
            prev_one.push(last);
            let d = dis_at(dis, i);
            if d == 1 {
                last = i;
            }
            if d == 0 {
                z += 1;
            }
            zeros.push(z);
        }
        let mut next_one = vec![dend + 1; len];
        let mut next = dend + 1;
        for i in (dstart..=dend).rev() {
            if let Some(slot) = usize::try_from(i - dstart).ok().and_then(|k| next_one.get_mut(k)) {
                *slot = next;
            }
            if dis_at(dis, i) == 1 {
                next = i;
            }
        }
        Runs { prev_one, next_one, zeros, dstart, dend }
    }

    fn zeros_in(&self, from: isize, to: isize) -> isize {
        let z = |i: isize| usize::try_from(i - self.dstart).ok().and_then(|k| self.zeros.get(k).copied()).unwrap_or(0);
        if to < from {
            0
        } else {
            z(to + 1) - z(from)
        }
    }

    /// Whether a very common line (`dis[i] == 2`) sits in a run of lines
    /// that are missing from the other file or very common (looking at most
    /// 100 lines each way), mostly missing: then it is changed without
    /// searching.
    fn surrounded(&self, i: isize) -> bool {
        let k = usize::try_from(i - self.dstart).unwrap_or(0);
        let s = self.dstart.max(i - SIMSCAN_WINDOW);
        let e = self.dend.min(i + SIMSCAN_WINDOW);
        let back_from = s.max(self.prev_one.get(k).copied().unwrap_or(i) + 1);
        let rdis0 = self.zeros_in(back_from, i - 1);
        if rdis0 == 0 {
            return false;
        }
        let rpdis0 = 1 + (i - back_from) - rdis0;
        let fwd_to = e.min(self.next_one.get(k).copied().unwrap_or(i) - 1);
        let rdis1 = self.zeros_in(i + 1, fwd_to);
        if rdis1 == 0 {
            return false;
        }
        let rpdis1 = 1 + (fwd_to - i) - rdis1;
        let (dis, pdis) = (rdis0 + rdis1, rpdis0 + rpdis1);
        pdis * KPDIS_RUN < pdis + dis
    }
}

/// The lines the search looks at (their index in the file and id); the
/// others are marked changed.
fn kept(ha: &[usize], dis: &[u8], dstart: isize, dend: isize, rchg: &mut Marks) -> (Vec<usize>, Vec<usize>) {
    let runs = Runs::new(dis, dstart, dend);
    let mut rindex = Vec::new();
    let mut rha = Vec::new();
    for i in dstart..=dend {
        let d = dis_at(dis, i);
        if d == 1 || (d == 2 && !runs.surrounded(i)) {
            rindex.push(i as usize);
            rha.push(at(ha, i).unwrap_or(usize::MAX));
        } else {
            rchg.set(i, true);
        }
    }
    (rindex, rha)
}

struct Split {
    i1: isize,
    i2: isize,
    min_lo: bool,
    min_hi: bool,
}

struct Myers<'a> {
    ha1: &'a [usize],
    ha2: &'a [usize],
    kvdf: Vec<isize>,
    kvdb: Vec<isize>,
    /// Index of diagonal 0 in `kvdf` and `kvdb`.
    zero: isize,
    mxcost: isize,
}

impl<'a> Myers<'a> {
    fn new(ha1: &'a [usize], ha2: &'a [usize]) -> Self {
        let ndiags = ha1.len() + ha2.len() + 3;
        let mxcost = (bogosqrt(ndiags) as isize).max(MAX_COST_MIN);
        Myers { ha1, ha2, kvdf: vec![0; 2 * ndiags + 2], kvdb: vec![0; 2 * ndiags + 2], zero: ha2.len() as isize + 1, mxcost }
    }

    fn f(&self, d: isize) -> isize {
        usize::try_from(d + self.zero).ok().and_then(|i| self.kvdf.get(i).copied()).unwrap_or(-1)
    }
    fn b(&self, d: isize) -> isize {
        usize::try_from(d + self.zero).ok().and_then(|i| self.kvdb.get(i).copied()).unwrap_or(isize::MAX)
    }
    fn set_f(&mut self, d: isize, v: isize) {
        if let Some(s) = usize::try_from(d + self.zero).ok().and_then(|i| self.kvdf.get_mut(i)) {
            *s = v;
        }
    }
    fn set_b(&mut self, d: isize, v: isize) {
        if let Some(s) = usize::try_from(d + self.zero).ok().and_then(|i| self.kvdb.get_mut(i)) {
            *s = v;
        }
    }

    /// The middle of a shortest (or, past the limits, a good enough) edit
    /// path through the box, as git's bisection finds it.
    fn split(&mut self, off1: isize, lim1: isize, off2: isize, lim2: isize, need_min: bool, work: &mut Work) -> Result<Split> {
        let (ha1, ha2) = (self.ha1, self.ha2);
        let dmin = off1 - lim2;
        let dmax = lim1 - off2;
        let fmid = off1 - off2;
        let bmid = lim1 - lim2;
        let odd = (fmid - bmid) & 1 != 0;
        let (mut fmin, mut fmax) = (fmid, fmid);
        let (mut bmin, mut bmax) = (bmid, bmid);
        self.set_f(fmid, off1);
        self.set_b(bmid, lim1);
        let mut ec: isize = 1;
        loop {
            let mut steps: u64 = 0;
            let mut got_snake = false;
            if fmin > dmin {
                fmin -= 1;
                self.set_f(fmin - 1, -1);
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.set_f(fmax + 1, -1);
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let mut i1 = if self.f(d - 1) >= self.f(d + 1) { self.f(d - 1) + 1 } else { self.f(d + 1) };
                let prev1 = i1;
                let mut i2 = i1 - d;
                let run = forward_run(ha1, i1, lim1, ha2, i2, lim2);
                i1 += run;
                i2 += run;
                steps += 1 + (i1 - prev1) as u64;
                if i1 - prev1 > SNAKE_CNT {
                    got_snake = true;
                }
                self.set_f(d, i1);
                if odd && bmin <= d && d <= bmax && self.b(d) <= i1 {
                    work.spend(steps)?;
                    return Ok(Split { i1, i2, min_lo: true, min_hi: true });
                }
                d -= 2;
            }

            if bmin > dmin {
                bmin -= 1;
                self.set_b(bmin - 1, isize::MAX);
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.set_b(bmax + 1, isize::MAX);
            } else {
                bmax -= 1;
            }
            d = bmax;
            while d >= bmin {
                let mut i1 = if self.b(d - 1) < self.b(d + 1) { self.b(d - 1) } else { self.b(d + 1) - 1 };
                let prev1 = i1;
                let mut i2 = i1 - d;
                let run = backward_run(ha1, off1, i1, ha2, off2, i2);
                i1 -= run;
                i2 -= run;
                steps += 1 + (prev1 - i1) as u64;
                if prev1 - i1 > SNAKE_CNT {
                    got_snake = true;
                }
                self.set_b(d, i1);
                if !odd && fmin <= d && d <= fmax && i1 <= self.f(d) {
                    work.spend(steps)?;
                    return Ok(Split { i1, i2, min_lo: true, min_hi: true });
                }
                d -= 2;
            }
            work.spend(steps)?;

            if need_min {
                ec += 1;
                continue;
            }

            if got_snake && ec > HEUR_MIN_COST {
                let mut best = 0;
                let mut found = (0, 0);
                d = fmax;
                while d >= fmin {
                    let dd = if d > fmid { d - fmid } else { fmid - d };
                    let i1 = self.f(d);
                    let i2 = i1 - d;
                    let v = (i1 - off1) + (i2 - off2) - dd;
                    if v > K_HEUR * ec && v > best && off1 + SNAKE_CNT <= i1 && i1 < lim1 && off2 + SNAKE_CNT <= i2 && i2 < lim2 {
                        let mut k = 1;
                        while same(ha1, i1 - k, ha2, i2 - k) {
                            if k == SNAKE_CNT {
                                best = v;
                                found = (i1, i2);
                                break;
                            }
                            k += 1;
                        }
                    }
                    d -= 2;
                }
                if best > 0 {
                    return Ok(Split { i1: found.0, i2: found.1, min_lo: true, min_hi: false });
                }
                d = bmax;
                while d >= bmin {
                    let dd = if d > bmid { d - bmid } else { bmid - d };
                    let i1 = self.b(d);
                    let i2 = i1 - d;
                    let v = (lim1 - i1) + (lim2 - i2) - dd;
                    if v > K_HEUR * ec && v > best && off1 < i1 && i1 <= lim1 - SNAKE_CNT && off2 < i2 && i2 <= lim2 - SNAKE_CNT {
                        let mut k = 0;
                        while same(ha1, i1 + k, ha2, i2 + k) {
                            if k == SNAKE_CNT - 1 {
                                best = v;
                                found = (i1, i2);
                                break;
                            }
                            k += 1;
                        }
                    }
                    d -= 2;
                }
                if best > 0 {
                    return Ok(Split { i1: found.0, i2: found.1, min_lo: false, min_hi: true });
                }
            }

            if ec >= self.mxcost {
                let (mut fbest, mut fbest1) = (-1isize, -1isize);
                d = fmax;
                while d >= fmin {
                    let mut i1 = self.f(d).min(lim1);
                    let mut i2 = i1 - d;
                    if lim2 < i2 {
                        i1 = lim2 + d;
                        i2 = lim2;
                    }
                    if fbest < i1 + i2 {
                        fbest = i1 + i2;
                        fbest1 = i1;
                    }
                    d -= 2;
                }
                let (mut bbest, mut bbest1) = (isize::MAX, isize::MAX);
                d = bmax;
                while d >= bmin {
                    let mut i1 = off1.max(self.b(d));
                    let mut i2 = i1 - d;
                    if i2 < off2 {
                        i1 = off2 + d;
                        i2 = off2;
                    }
                    if i1 + i2 < bbest {
                        bbest = i1 + i2;
                        bbest1 = i1;
                    }
                    d -= 2;
                }
                return Ok(if (lim1 + lim2) - bbest < fbest - (off1 + off2) {
                    Split { i1: fbest1, i2: fbest - fbest1, min_lo: true, min_hi: false }
                } else {
                    Split { i1: bbest1, i2: bbest - bbest1, min_lo: false, min_hi: true }
                });
            }
            ec += 1;
        }
    }
}

/// A group of changed lines `start..end` (empty between two unchanged lines).
#[derive(Clone, Copy)]
struct Group {
    start: isize,
    end: isize,
}

fn group_init(rchg: &Marks) -> Group {
    let mut g = Group { start: 0, end: 0 };
    while rchg.get(g.end) {
        g.end += 1;
    }
    g
}

fn group_next(rchg: &Marks, n: isize, g: &mut Group) -> bool {
    if g.end == n {
        return false;
    }
    g.start = g.end + 1;
    g.end = g.start;
    while rchg.get(g.end) {
        g.end += 1;
    }
    true
}

fn group_previous(rchg: &Marks, g: &mut Group) -> bool {
    if g.start == 0 {
        return false;
    }
    g.end = g.start - 1;
    g.start = g.end;
    while rchg.get(g.start - 1) {
        g.start -= 1;
    }
    true
}

fn group_slide_down(ha: &[usize], rchg: &mut Marks, n: isize, g: &mut Group) -> bool {
    if g.end < n && same(ha, g.start, ha, g.end) {
        rchg.set(g.start, false);
        g.start += 1;
        rchg.set(g.end, true);
        g.end += 1;
        while rchg.get(g.end) {
            g.end += 1;
        }
        true
    } else {
        false
    }
}

fn group_slide_up(ha: &[usize], rchg: &mut Marks, g: &mut Group) -> bool {
    if g.start > 0 && same(ha, g.start - 1, ha, g.end - 1) {
        g.start -= 1;
        rchg.set(g.start, true);
        g.end -= 1;
        rchg.set(g.end, false);
        while rchg.get(g.start - 1) {
            g.start -= 1;
        }
        true
    } else {
        false
    }
}

/// Slides each group of changes of one file down as far as it goes, merging
/// the groups it meets, then back up to end where a change of the other file
/// ends, when one can.
fn compact(ha: &[usize], rchg: &mut Marks, other: &mut Marks, work: &mut Work) -> Result<()> {
    let n = ha.len() as isize;
    let no = other.0.len() as isize - 2;
    let mut g = group_init(rchg);
    let mut go = group_init(other);
    loop {
        if g.end != g.start {
            let mut earliest_end;
            let mut end_matching_other;
            loop {
                let size = g.end - g.start;
                end_matching_other = -1;
                while group_slide_up(ha, rchg, &mut g) {
                    work.spend(1)?;
                    if !group_previous(other, &mut go) {
                        return Ok(());
                    }
                }
                earliest_end = g.end;
                if go.end > go.start {
                    end_matching_other = g.end;
                }
                while group_slide_down(ha, rchg, n, &mut g) {
                    work.spend(1)?;
                    if !group_next(other, no, &mut go) {
                        return Ok(());
                    }
                    if go.end > go.start {
                        end_matching_other = g.end;
                    }
                }
                if size == g.end - g.start {
                    break;
                }
            }
            if g.end != earliest_end && end_matching_other != -1 {
                while go.end == go.start {
                    work.spend(1)?;
                    if !group_slide_up(ha, rchg, &mut g) || !group_previous(other, &mut go) {
                        return Ok(());
                    }
                }
            }
        }
        if !group_next(rchg, n, &mut g) || !group_next(other, no, &mut go) {
            return Ok(());
        }
    }
}

/// The changes, in file order, from the marks.
fn script(rchg1: &Marks, n1: usize, rchg2: &Marks, n2: usize) -> Vec<Change> {
    let mut out = Vec::new();
    let (mut i1, mut i2) = (n1 as isize, n2 as isize);
    while i1 >= 0 || i2 >= 0 {
        if rchg1.get(i1 - 1) || rchg2.get(i2 - 1) {
            let (l1, l2) = (i1, i2);
            while rchg1.get(i1 - 1) {
                i1 -= 1;
            }
            while rchg2.get(i2 - 1) {
                i2 -= 1;
            }
            out.push(Change { i1: i1.max(0) as usize, i2: i2.max(0) as usize, chg1: (l1 - i1) as usize, chg2: (l2 - i2) as usize });
        }
        i1 -= 1;
        i2 -= 1;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The common first and last lines are set aside before any search: one
    /// changed line between a thousand equal ones on each side costs the
    /// diff's reading of both files and nothing more (without the common
    /// ending, the search would walk a thousand lines of snake).
    #[test]
    fn common_ends_cost_no_search() {
        let a: Vec<u32> = (0..2001).collect();
        let mut b = a.clone();
        if let Some(l) = b.get_mut(1000) {
            *l = 5000;
        }
        let mut counts = Counts::new(5001);
        let mut work = Work::new(MAX_MERGE_WORK);
        let changes = diff(&a, &b, &mut counts, &mut work).unwrap();
        assert_eq!(changes, [Change { i1: 1000, i2: 1000, chg1: 1, chg2: 1 }]);
        assert_eq!(MAX_MERGE_WORK - work.left, 4002);
    }
}
