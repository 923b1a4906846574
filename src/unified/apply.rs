//! Applying a unified diff over a map of files, all or nothing: each file
//! diff in order, each seeing the ones before; an error returns nothing.
//!
//! Over 600 lines on purpose: both modes' placement of hunks (Strict, and
//! `git apply`'s search), the messages that name the nearest lines, and the
//! splices of where hunks were placed work on the same overlay and hunks.

use std::borrow::Cow;
use std::collections::HashMap;

use super::{parse, split_lines, FileKind, FilePatch, Hunk, LineKind, Unified, UnifiedMode};
use crate::diff::show;
use crate::error::{Error, ErrorKind, Nearest, Result};
use crate::text::{self, Splice};

/// The final state of one path the diff touched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnifiedChange {
    /// The path after the diff.
    pub path: String,
    /// The new contents, `None` when the file was deleted (or renamed away).
    pub contents: Option<String>,
    /// The git mode the diff gives the file (`0o100755`), when it gives one.
    pub mode: Option<u32>,
    /// With [`apply_parsed_placed`], for a file changed in place by the hunks
    /// of one file diff (Strict): the minimal splices of the file as given
    /// that make `contents`, from where its hunks were placed (byte offsets,
    /// sorted, disjoint, each run of changed lines trimmed of what its old
    /// and new text share). `None` otherwise (added, renamed, written twice,
    /// `git apply` mode): compare the texts ([`crate::splices_between`]).
    pub splices: Option<Vec<Splice>>,
}

/// Where a hunk was applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The file (its path after the diff).
    pub path: String,
    /// 1-based hunk number within its file.
    pub hunk: usize,
    /// 1-based line of the file (as the hunk found it) where its old lines
    /// start, as the header states it.
    pub stated_line: usize,
    /// Where they were found.
    pub line: usize,
}

impl Placement {
    /// Lines between the stated place and the actual one (positive: further down).
    pub fn offset(&self) -> isize {
        self.line as isize - self.stated_line as isize
    }
}

/// Serialized as `{ path, hunk, statedLine, line, offset }`.
#[cfg(feature = "serde")]
impl serde::Serialize for Placement {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("Placement", 5)?;
        out.serialize_field("path", &self.path)?;
        out.serialize_field("hunk", &self.hunk)?;
        out.serialize_field("statedLine", &self.stated_line)?;
        out.serialize_field("line", &self.line)?;
        out.serialize_field("offset", &self.offset())?;
        out.end()
    }
}

/// A git mode the diff gives a file that exists after it (a new file, a
/// mode change). Serialized as `{ path, mode }`, the mode as octal digits
/// (`"100755"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FileMode<'a> {
    /// The file.
    pub path: &'a str,
    /// Its git mode, e.g. `0o100755`.
    #[cfg_attr(feature = "serde", serde(serialize_with = "octal"))]
    pub mode: u32,
}

#[cfg(feature = "serde")]
fn octal<S: serde::Serializer>(mode: &u32, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.collect_str(&format_args!("{mode:o}"))
}

/// What [`apply`] returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnifiedResult {
    /// Every path the diff touched, in the order first touched.
    pub changes: Vec<UnifiedChange>,
    /// Every hunk, where it applied.
    pub placements: Vec<Placement>,
}

impl UnifiedResult {
    /// The git modes the diff gives to files that exist after it, in the
    /// order of [`changes`](Self::changes).
    pub fn modes(&self) -> Vec<FileMode<'_>> {
        self.changes.iter().filter(|c| c.contents.is_some()).filter_map(|c| c.mode.map(|mode| FileMode { path: &c.path, mode })).collect()
    }
}

/// What the file diffs applied so far wrote: each path's final state, in
/// the order first written.
#[derive(Debug, Default)]
pub(crate) struct Written {
    changes: Vec<UnifiedChange>,
    at: HashMap<String, usize>,
}

impl Written {
    /// The paths written, in the order first written, and their contents.
    pub(crate) fn changes(&self) -> &[UnifiedChange] {
        &self.changes
    }
}

struct Overlay<'f, F> {
    base: F,
    written: Written,
    /// Whether the splices of hunks are kept ([`apply_parsed_placed`]).
    place: bool,
    _files: std::marker::PhantomData<&'f ()>,
}

impl<'f, F: Fn(&str) -> Option<&'f str>> Overlay<'f, F> {
    fn get(&self, path: &str) -> Option<&str> {
        match self.written.at.get(path).and_then(|&i| self.written.changes.get(i)) {
            Some(c) => c.contents.as_deref(),
            None => (self.base)(path),
        }
    }

    fn set(&mut self, path: &str, contents: Option<String>, mode: Option<u32>) {
        self.set_placed(path, contents, mode, None);
    }

    /// [`Overlay::set`], with the splices that made `contents` from the
    /// file as given (kept only when the path was not written before).
    fn set_placed(&mut self, path: &str, contents: Option<String>, mode: Option<u32>, splices: Option<Vec<Splice>>) {
        let w = &mut self.written;
        match w.at.get(path).and_then(|&i| w.changes.get_mut(i)) {
            Some(c) => {
                c.contents = contents;
                c.mode = mode.or(c.mode);
                c.splices = None;
            }
            None => {
                w.at.insert(path.to_string(), w.changes.len());
                w.changes.push(UnifiedChange { path: path.to_string(), contents, mode, splices });
            }
        }
    }
}

/// Applies a unified diff to the files looked up with `get` and returns the
/// final state of every path it touched, and where each hunk went.
pub fn apply<'f>(text: &str, mode: UnifiedMode, get: impl Fn(&str) -> Option<&'f str>) -> Result<UnifiedResult> {
    let text = text_for(text, mode);
    apply_parsed(&parse(&text)?, mode, get)
}

/// The text to parse for `mode`. Strict: a final line break of the diff ends
/// its last line, whether or not it is there (git calls a hunk line without
/// one a corrupt patch).
pub fn text_for(text: &str, mode: UnifiedMode) -> Cow<'_, str> {
    if mode == UnifiedMode::Strict && !text.is_empty() && !text.ends_with('\n') {
        Cow::Owned(format!("{text}\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// [`apply`] on a diff already parsed from [`text_for`]`(text, mode)`.
pub fn apply_parsed<'f>(diff: &Unified, mode: UnifiedMode, get: impl Fn(&str) -> Option<&'f str>) -> Result<UnifiedResult> {
    apply_parsed_with(diff, mode, false, &get, None)
}

/// [`apply_parsed`] knowing every path of the caller's files (`known`): a
/// file the diff changes that is not there gets the paths near it listed.
pub fn apply_parsed_among<'f>(
    diff: &Unified,
    mode: UnifiedMode,
    get: impl Fn(&str) -> Option<&'f str>,
    known: Option<&[&str]>,
) -> Result<UnifiedResult> {
    apply_parsed_with(diff, mode, false, &get, known)
}

/// [`apply_parsed_among`] with, for each file its hunks changed in place,
/// the splices that made its new contents, from where the hunks were placed
/// ([`UnifiedChange::splices`]): for an editor, without comparing the texts
/// afterwards.
pub fn apply_parsed_placed<'f>(
    diff: &Unified,
    mode: UnifiedMode,
    get: impl Fn(&str) -> Option<&'f str>,
    known: Option<&[&str]>,
) -> Result<UnifiedResult> {
    apply_parsed_with(diff, mode, true, &get, known)
}

/// The one body of every way to apply a parsed diff: `get` is a trait
/// object, not a type parameter, so that the file machinery (`Overlay`,
/// `apply_file`) is compiled once, not once per caller's lookup.
fn apply_parsed_with<'f>(
    diff: &Unified,
    mode: UnifiedMode,
    place: bool,
    get: &dyn Fn(&str) -> Option<&'f str>,
    known: Option<&[&str]>,
) -> Result<UnifiedResult> {
    if let (UnifiedMode::Git, Some(line)) = (mode, diff.unterminated) {
        return Err(Error::new(
            ErrorKind::InvalidLine,
            format!("Diff line {line}, the last, is a hunk line without a line break: git apply calls this a corrupt patch. End the diff with a newline."),
        )
        .at_diff_line(line));
    }
    let mut files = Overlay { base: get, written: Written::default(), place, _files: std::marker::PhantomData };
    let mut placements = Vec::new();
    for f in &diff.files {
        apply_file(&mut files, f, mode, &mut placements, known).map_err(|mut e| {
            if e.path.is_none() {
                e.path = f.display_path().map(str::to_string);
            }
            e
        })?;
    }
    Ok(UnifiedResult { changes: files.written.changes, placements })
}

fn file_error(kind: ErrorKind, line: usize, path: &str, message: String) -> Error {
    let mut e = Error::new(kind, message).at_diff_line(line);
    e.path = Some(path.to_string());
    e
}

/// A file diff whose files passed the checks that come before its hunks.
#[derive(Debug)]
pub(crate) struct Opened {
    kind: FileKind,
    /// The diff line of its header.
    line: usize,
    new_mode: Option<u32>,
    source: Option<String>,
    target: Option<String>,
    /// The text its hunks apply to.
    pub(crate) old: String,
    /// Whether it changes a file in place that no file diff before wrote
    /// (`old` is then the file as given).
    in_place: bool,
}

impl Opened {
    /// The path its hunks' messages name: the target, else the source.
    pub(crate) fn name(&self) -> &str {
        self.target.as_deref().or(self.source.as_deref()).unwrap_or("")
    }
}

fn apply_file<'f, F: Fn(&str) -> Option<&'f str>>(
    files: &mut Overlay<'f, F>,
    f: &FilePatch,
    mode: UnifiedMode,
    placements: &mut Vec<Placement>,
    known: Option<&[&str]>,
) -> Result<()> {
    let opened = open_file(files, f, known)?;
    let name = opened.name();
    let mut runs = (files.place && opened.in_place).then(Vec::new);
    let new = match mode {
        UnifiedMode::Strict => strict_hunks(name, &opened.old, &f.hunks, placements, runs.as_mut())?,
        UnifiedMode::Git => {
            runs = None;
            git_hunks(name, &opened.old, &f.hunks, placements)?
        }
    };
    close_file(files, &opened, new, runs)
}

/// The checks of a file diff before its hunks: the file it reads is there,
/// the one it creates is not.
fn open_file<'f, F: Fn(&str) -> Option<&'f str>>(files: &Overlay<'f, F>, f: &FilePatch, known: Option<&[&str]>) -> Result<Opened> {
    let line = f.line;
    let source = match (f.kind, &f.old_path) {
        (FileKind::Add, _) => None,
        (_, Some(p)) => Some(p.as_str()),
        (_, None) => None,
    };
    let target = f.new_path.as_deref();
    let old = match source {
        None => {
            let Some(t) = target else {
                return Ok(Opened {
                    kind: f.kind,
                    line,
                    new_mode: f.new_mode,
                    source: None,
                    target: None,
                    old: String::new(),
                    in_place: false,
                });
            };
            if files.get(t).is_some() {
                return Err(file_error(
                    ErrorKind::FileExists,
                    line,
                    t,
                    format!(
                        "{t}: the diff (line {line}) creates this file, but it already exists. Nothing was changed. To change the existing file, diff against its contents ('--- a/{t}'); to replace it, delete it first."
                    ),
                ));
            }
            String::new()
        }
        Some(s) => match files.get(s) {
            Some(c) => c.to_string(),
            None => {
                let near = known.map(|k| crate::near::near_paths(s, k)).unwrap_or_default();
                let near =
                    if near.is_empty() { String::new() } else { format!(" The files have similar paths: {}.", crate::near::list(&near)) };
                return Err(file_error(
                    ErrorKind::FileNotFound,
                    line,
                    s,
                    format!("{s}: the diff (line {line}) changes this file, but there is no such file. Nothing was changed.{near} Check the path (the 'a/' and 'b/' prefixes are removed)."),
                ));
            }
        },
    };
    if let (Some(s), Some(t), FileKind::Rename | FileKind::Copy) = (source, target, f.kind) {
        if s != t && files.get(t).is_some() {
            let verb = if f.kind == FileKind::Rename { "renames" } else { "copies" };
            return Err(file_error(
                ErrorKind::FileExists,
                line,
                t,
                format!("{t}: the diff (line {line}) {verb} {s} to this path, but a file is already there. Nothing was changed. Delete it first or choose another name."),
            ));
        }
    }
    // Splices from the placement: a file changed in place, not written
    // before by this diff (then `old` is the file as given).
    let in_place =
        f.kind == FileKind::Modify && source.is_some() && source == target && source.is_some_and(|s| !files.written.at.contains_key(s));
    Ok(Opened {
        kind: f.kind,
        line,
        new_mode: f.new_mode,
        source: source.map(str::to_string),
        target: target.map(str::to_string),
        old,
        in_place,
    })
}

/// A file diff's end: its hunks made `new` (and `runs`, the splices of
/// their placement, when kept); the files take it.
fn close_file<'f, F: Fn(&str) -> Option<&'f str>>(
    files: &mut Overlay<'f, F>,
    o: &Opened,
    new: String,
    runs: Option<Vec<Splice>>,
) -> Result<()> {
    let line = o.line;
    match (o.kind, o.source.as_deref(), o.target.as_deref()) {
        (FileKind::Delete, Some(s), _) => {
            if !new.is_empty() {
                let left = split_lines(&new).len();
                return Err(file_error(
                    ErrorKind::ContextNotFound,
                    line,
                    s,
                    format!(
                        "{s}: the diff (line {line}) deletes this file, but its hunks leave {left} line{} of it: a deletion removes every line ('-'). Nothing was changed. Make the diff against the whole current file.",
                        if left == 1 { "" } else { "s" }
                    ),
                ));
            }
            files.set(s, None, None);
        }
        (FileKind::Rename, Some(s), Some(t)) => {
            if s != t {
                files.set(s, None, None);
            }
            files.set(t, Some(new), o.new_mode);
        }
        (_, _, Some(t)) => {
            let splices = runs.map(|r| text::minimize(&o.old, &r));
            files.set_placed(t, Some(new), o.new_mode, splices)
        }
        _ => {}
    }
    Ok(())
}

/// [`open_file`] for a stream: the files are `base` as the file diffs
/// before (`written`) left them.
pub(crate) fn open_among<'b>(written: &mut Written, base: &'b HashMap<String, String>, f: &FilePatch) -> Result<Opened> {
    let get = |p: &str| base.get(p).map(String::as_str);
    let files = Overlay {
        base: &get as &dyn Fn(&str) -> Option<&'b str>,
        written: std::mem::take(written),
        place: false,
        _files: std::marker::PhantomData,
    };
    let opened = open_file(&files, f, None);
    *written = files.written;
    opened
}

/// [`close_file`] for a stream ([`open_among`]).
pub(crate) fn close_among<'b>(written: &mut Written, base: &'b HashMap<String, String>, o: &Opened, new: String) -> Result<()> {
    let get = |p: &str| base.get(p).map(String::as_str);
    let mut files = Overlay {
        base: &get as &dyn Fn(&str) -> Option<&'b str>,
        written: std::mem::take(written),
        place: false,
        _files: std::marker::PhantomData,
    };
    let closed = close_file(&mut files, o, new, None);
    *written = files.written;
    closed
}

/// The splices of `old` that a hunk placed at line `at` makes: one per run
/// of removed and added lines between context lines, whole lines. `starts`
/// holds the byte offset of each line of `old` (and its length at the end).
fn hunk_runs(h: &Hunk, at: usize, starts: &[usize], out: &mut Vec<Splice>) {
    let offset = |line: usize| starts.get(line).copied().unwrap_or(0);
    let mut line = at;
    let mut run: Option<(usize, String)> = None;
    for l in &h.lines {
        match l.kind {
            LineKind::Context => {
                if let Some((from, text)) = run.take() {
                    out.push(Splice { start: offset(from), end: offset(line), text });
                }
                line += 1;
            }
            LineKind::Remove => {
                run.get_or_insert_with(|| (line, String::new()));
                line += 1;
            }
            LineKind::Add => run.get_or_insert_with(|| (line, String::new())).1.push_str(l.text),
        }
    }
    if let Some((from, text)) = run {
        out.push(Splice { start: offset(from), end: offset(line), text });
    }
}

/// A hunk whose lines go on past its header's counts (Strict refuses it).
fn overrun_error(path: &str, k: usize, h: &Hunk) -> Error {
    let (old_all, new_all) = h.counted;
    let from = h.last_line() + 1;
    let to = from + h.overrun - 1;
    let lines = if h.overrun == 1 { format!("diff line {from} looks") } else { format!("diff lines {from}-{to} look") };
    let mut e = Error::new(
        ErrorKind::HunkCountMismatch,
        format!(
            "{path}: hunk {k} (diff line {}): its header '@@ -{},{} +{},{} @@' counts {} old and {} new lines, but the hunk goes on: {lines} like more of its lines. With them the hunk counts -{},{old_all} +{},{new_all}: write '@@ -{},{old_all} +{},{new_all} @@' if they belong to it, or remove them. Each ' ' line counts as old and new, '-' as old, '+' as new. (git apply ignores the lines past the count; Strict mode does not guess.)",
            h.line, h.old_start, h.old_len, h.new_start, h.new_len, h.old_len, h.new_len, h.old_start, h.new_start, h.old_start, h.new_start
        ),
    )
    .at_diff_line(from);
    e.path = Some(path.to_string());
    e
}

fn hunk_label(path: &str, k: usize, h: &Hunk) -> String {
    format!(
        "{path}: hunk {k} (diff lines {}-{}, '@@ -{},{} +{},{} @@')",
        h.line,
        h.last_line(),
        h.old_start,
        h.old_len,
        h.new_start,
        h.new_len
    )
}

/// Strict: every hunk against the original file, in order, at its stated
/// line or at exactly one other place after the previous hunk.
fn strict_hunks(
    path: &str,
    old: &str,
    hunks: &[Hunk],
    placements: &mut Vec<Placement>,
    mut runs: Option<&mut Vec<Splice>>,
) -> Result<String> {
    let mut placer = StrictHunks::new(old);
    for (i, h) in hunks.iter().enumerate() {
        let p = placer.place(old, path, i + 1, h)?;
        if let Some(out) = runs.as_deref_mut() {
            placer.runs(h, p.line - 1, out);
        }
        placements.push(p);
    }
    Ok(placer.finish(old))
}

/// Strict placement of one file diff's hunks, one at a time, in order,
/// against its text (`old`, given to each call).
#[derive(Debug)]
pub(crate) struct StrictHunks {
    /// The byte offset of each line of `old`, and its length at the end.
    starts: Vec<usize>,
    /// The new text up to the end of the last hunk placed.
    out: String,
    /// Lines of `old` the hunks placed used up.
    cursor: usize,
}

impl StrictHunks {
    pub(crate) fn new(old: &str) -> Self {
        let mut starts = Vec::with_capacity(old.len() / 32 + 2);
        starts.push(0);
        let mut end = 0;
        for l in old.split_inclusive('\n') {
            end += l.len();
            starts.push(end);
        }
        StrictHunks { starts, out: String::with_capacity(old.len()), cursor: 0 }
    }

    fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    fn offset(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(0)
    }

    fn matches_at(&self, old: &str, at: usize, pre: &[&str]) -> bool {
        at + pre.len() <= self.len()
            && pre.iter().enumerate().all(|(i, l)| old.get(self.offset(at + i)..self.offset(at + i + 1)) == Some(*l))
    }

    /// Places hunk `k` (1-based) of the file `path`, after the hunks placed
    /// before: where it went.
    pub(crate) fn place(&mut self, old: &str, path: &str, k: usize, h: &Hunk) -> Result<Placement> {
        if h.overrun > 0 {
            return Err(overrun_error(path, k, h));
        }
        let pre: Vec<&str> = h.old_lines().collect();
        let (n, cursor) = (self.len(), self.cursor);
        let stated = if h.old_len == 0 { h.old_start } else { h.old_start.saturating_sub(1) };
        let at = if pre.is_empty() {
            if stated > n {
                return Err(not_found(path, k, h, &split_lines(old), &pre, stated, cursor));
            }
            if stated < cursor {
                return Err(out_of_order(path, k, h, stated, cursor));
            }
            stated
        } else if stated >= cursor && self.matches_at(old, stated, &pre) {
            stated
        } else {
            let all: Vec<usize> = (0..=n.saturating_sub(pre.len())).filter(|&p| self.matches_at(old, p, &pre)).collect();
            let after: Vec<usize> = all.iter().copied().filter(|&p| p >= cursor).collect();
            match after.as_slice() {
                [only] => *only,
                [] => {
                    return Err(match all.first() {
                        Some(&p) => out_of_order(path, k, h, p, cursor),
                        None => not_found(path, k, h, &split_lines(old), &pre, stated, cursor),
                    })
                }
                many => return Err(ambiguous(path, k, h, stated, many)),
            }
        };
        self.out.push_str(old.get(self.offset(cursor)..self.offset(at)).unwrap_or(""));
        for l in h.new_lines() {
            self.out.push_str(l);
        }
        self.cursor = at + pre.len();
        Ok(Placement { path: path.to_string(), hunk: k, stated_line: stated + 1, line: at + 1 })
    }

    /// The splices of `old` that hunk `h`, placed at line `at` (0-based),
    /// makes: whole lines.
    pub(crate) fn runs(&self, h: &Hunk, at: usize, out: &mut Vec<Splice>) {
        hunk_runs(h, at, &self.starts, out);
    }

    /// The new text so far: the hunks placed, then the rest of `old`.
    pub(crate) fn text(&self, old: &str) -> String {
        let mut text = self.out.clone();
        text.push_str(old.get(self.offset(self.cursor)..).unwrap_or(""));
        text
    }

    /// The new text, every hunk placed.
    pub(crate) fn finish(mut self, old: &str) -> String {
        self.out.push_str(old.get(self.offset(self.cursor)..).unwrap_or(""));
        self.out
    }
}

/// `git apply`: each hunk on the file as the previous hunks left it, at the
/// nearest exact match to its stated new-side line, never over lines already
/// changed.
fn git_hunks(path: &str, old: &str, hunks: &[Hunk], placements: &mut Vec<Placement>) -> Result<String> {
    let mut placer = GitHunks::new(split_lines(old));
    for (i, h) in hunks.iter().enumerate() {
        placements.push(placer.place(path, i + 1, h, |l| l)?.0);
    }
    Ok(placer.text())
}

/// `git apply`'s placement of one file diff's hunks, one at a time: the
/// file's lines as the hunks placed left them (`S`: borrowed, or owned by a
/// stream), and where each was in the file at first (`None`: a hunk wrote it).
#[derive(Debug)]
pub(crate) struct GitHunks<S> {
    img: Vec<S>,
    origin: Vec<Option<usize>>,
    /// The file's lines at first.
    lines: usize,
}

impl<S: AsRef<str>> GitHunks<S> {
    pub(crate) fn new(lines: Vec<S>) -> Self {
        let origin = (0..lines.len()).map(Some).collect();
        GitHunks { origin, lines: lines.len(), img: lines }
    }

    /// The file's text now.
    pub(crate) fn text(&self) -> String {
        self.img.iter().map(AsRef::as_ref).collect()
    }

    /// Places hunk `k` (1-based) of the file `path` (its new lines made `S`
    /// by `own`): where it went, on the file as the hunks before left it,
    /// and the lines of the file as it was at first that it replaced (where
    /// it inserts, for a hunk with no old lines), when they are one run of
    /// lines no hunk wrote (no earlier hunk's lines among or around them).
    pub(crate) fn place<'h>(
        &mut self,
        path: &str,
        k: usize,
        h: &Hunk<'h>,
        own: impl Fn(&'h str) -> S,
    ) -> Result<(Placement, Option<std::ops::Range<usize>>)> {
        let pre: Vec<&str> = h.old_lines().collect();
        let trailing = h.lines.iter().rev().take_while(|l| l.kind == LineKind::Context).count();
        let begin = h.old_start <= 1;
        let end = trailing == 0;
        let pos = h.new_start.saturating_sub(1);
        let Some(at) = find_pos(&self.img, &self.origin, &pre, pos, begin, end) else {
            let img: Vec<&str> = self.img.iter().map(AsRef::as_ref).collect();
            let stated = pos.min(img.len());
            return Err(not_found(path, k, h, &img, &pre, stated, 0));
        };
        let post: Vec<&'h str> = h.lines.iter().filter(|l| l.kind != LineKind::Remove).map(|l| l.text).collect();
        let first = match self.origin.get(at) {
            Some(&o) => o,
            // At the end: after every line of the file.
            None => Some(self.lines).filter(|_| pre.is_empty()),
        };
        let run =
            first.filter(|&o| (0..pre.len()).all(|i| self.origin.get(at + i).copied().flatten() == Some(o + i))).map(|o| o..o + pre.len());
        self.origin.splice(at..at + pre.len(), post.iter().map(|_| None));
        self.img.splice(at..at + pre.len(), post.into_iter().map(own));
        Ok((Placement { path: path.to_string(), hunk: k, stated_line: pos + 1, line: at + 1 }, run))
    }
}

/// git's `find_pos`: tries `line`, then one further down, one further up,
/// and so on, until a place matches.
fn find_pos<S: AsRef<str>>(img: &[S], origin: &[Option<usize>], pre: &[&str], pos: usize, begin: bool, end: bool) -> Option<usize> {
    let n = img.len();
    if pre.len() > n {
        return None;
    }
    let line = if begin {
        0
    } else if end {
        n - pre.len()
    } else {
        pos
    }
    .min(n);
    let fits = |at: usize| {
        at + pre.len() <= n
            && (!end || at + pre.len() == n)
            && (!begin || at == 0)
            && pre.iter().enumerate().all(|(i, l)| {
                let Some(have) = img.get(at + i).map(AsRef::as_ref) else { return false };
                if origin.get(at + i).is_none_or(Option::is_none) {
                    return false;
                }
                if l.ends_with('\n') || i + 1 < pre.len() {
                    return have == *l;
                }
                // git compares the hunk's bytes with the file's: a last line
                // without its line break matches a file line that starts with
                // it and goes on with whitespace only (the line's hash
                // ignores whitespace); at the end of the file, only itself.
                have.strip_prefix(*l).is_some_and(|rest| {
                    if end {
                        rest.is_empty()
                    } else {
                        rest.bytes().all(|b| b.is_ascii_whitespace() || b == 0x0b)
                    }
                })
            })
    };
    let (mut back, mut fwd, mut at) = (line, line, line);
    let mut i: usize = 0;
    loop {
        if fits(at) {
            return Some(at);
        }
        loop {
            if back == 0 && fwd == n {
                return None;
            }
            if i & 1 == 1 {
                if back == 0 {
                    i += 1;
                    continue;
                }
                back -= 1;
                at = back;
            } else {
                if fwd == n {
                    i += 1;
                    continue;
                }
                fwd += 1;
                at = fwd;
            }
            break;
        }
        i += 1;
    }
}

/// The window of `lines` with the most lines equal to `pre`, then the most
/// equal but for trailing whitespace and line breaks (ties: nearest to
/// `stated`), and how many are equal; only near `stated` in very large files.
fn nearest(lines: &[&str], pre: &[&str], stated: usize) -> Option<(usize, usize)> {
    let m = pre.len();
    if m == 0 || lines.is_empty() {
        return None;
    }
    let last = lines.len().saturating_sub(m);
    let (lo, hi) = if lines.len().saturating_mul(m) > 20_000_000 {
        let reach = 20_000_000 / m / 2;
        (stated.saturating_sub(reach), (stated + reach).min(last))
    } else {
        (0, last)
    };
    let mut best: Option<(usize, usize, usize)> = None;
    for p in lo..=hi {
        let (mut eq, mut loose) = (0, 0);
        for (i, l) in pre.iter().enumerate() {
            match lines.get(p + i) {
                Some(have) if have == l => eq += 1,
                Some(have) if have.trim_end() == l.trim_end() => loose += 1,
                _ => {}
            }
        }
        let better = match best {
            None => eq + loose > 0,
            Some((bp, be, bl)) => (eq, loose) > (be, bl) || ((eq, loose) == (be, bl) && p.abs_diff(stated) < bp.abs_diff(stated)),
        };
        if better {
            best = Some((p, eq, loose));
        }
    }
    best.map(|(p, eq, _)| (p, eq))
}

fn not_found(path: &str, k: usize, h: &Hunk, lines: &[&str], pre: &[&str], stated: usize, cursor: usize) -> Error {
    let label = hunk_label(path, k, h);
    if pre.is_empty() {
        let mut e = Error::new(
            ErrorKind::ContextNotFound,
            format!(
                "{label}: it inserts after line {stated}, but the file has only {} lines. Nothing was changed. Correct the line number in the header, or add context lines around the insertion.",
                lines.len()
            ),
        )
        .at_diff_line(h.line);
        e.path = Some(path.to_string());
        return e;
    }
    let old_kind: Vec<_> = h.lines.iter().filter(|l| l.kind != LineKind::Add).collect();
    let mut msg = format!(
        "{label}: its {} context and removed line{} are not in the file{}. Nothing was changed.",
        pre.len(),
        if pre.len() == 1 { "" } else { "s" },
        if cursor > 0 { format!(" after hunk {}", k - 1) } else { String::new() }
    );
    let mut diff_line = old_kind.first().map_or(h.line, |l| l.line);
    let mut near = None;
    let mut input_lines = Vec::new();
    if let Some((p, eq)) = nearest(lines, pre, stated) {
        msg.push_str(&format!(" The closest place is line {}, where {eq} of {} lines are equal.", p + 1, pre.len()));
        if let Some((i, want)) = pre.iter().enumerate().find(|(i, l)| lines.get(p + i) != Some(l)) {
            let dl = old_kind.get(i).map_or(h.line, |l| l.line);
            diff_line = dl;
            match lines.get(p + i) {
                Some(have) => {
                    msg.push_str(&format!(" Diff line {dl} has {}, but line {} of the file is {}", show(want), p + i + 1, show(have)));
                    let hint = if want.trim_end() == have.trim_end() {
                        if have.ends_with("\r\n") && !want.ends_with("\r\n") {
                            " (the file has CRLF line breaks, the diff LF: make the diff's lines end with \\r\\n)"
                        } else if !have.ends_with('\n') && want.ends_with('\n') {
                            " (the file's last line has no line break: add '\\ No newline at end of file' after that diff line)"
                        } else if !want.ends_with('\n') && have.ends_with('\n') {
                            " (the diff says this line has no line break, but it has one: remove the '\\ No newline at end of file' line)"
                        } else {
                            " (only whitespace differs)"
                        }
                    } else {
                        ""
                    };
                    msg.push_str(hint);
                    msg.push('.');
                }
                None => msg.push_str(&format!(" Diff line {dl} expects {} past the end of the file.", show(want))),
            }
        }
        let text: Vec<&str> =
            lines.get(p..(p + pre.len()).min(lines.len())).unwrap_or(&[]).iter().map(|l| l.strip_suffix('\n').unwrap_or(l)).collect();
        near = Some(Nearest { line: p + 1, text: text.join("\n"), similarity: eq as f64 / pre.len() as f64 });
        input_lines.push(p + 1);
    }
    msg.push_str(" Copy the context and removed lines exactly from the current file and send the diff again.");
    let mut e = Error::new(ErrorKind::ContextNotFound, msg).at_diff_line(diff_line).at_input_lines(input_lines).with_nearest(near);
    e.path = Some(path.to_string());
    e
}

fn ambiguous(path: &str, k: usize, h: &Hunk, stated: usize, places: &[usize]) -> Error {
    let closest = places.iter().copied().min_by_key(|p| p.abs_diff(stated)).unwrap_or(0);
    let list: Vec<String> = places.iter().take(20).map(|p| (p + 1).to_string()).collect();
    let mut e = Error::new(
        ErrorKind::ContextAmbiguous,
        format!(
            "{}: its context and removed lines are not at line {} as the header says, and they match {} other places: lines {}. Strict mode moves a hunk away from its stated line only when it matches exactly one place. Nothing was changed. Correct the line numbers in the header (the nearest place is line {}), or add context lines that tell the places apart.",
            hunk_label(path, k, h),
            stated + 1,
            places.len(),
            list.join(", "),
            closest + 1
        ),
    )
    .at_diff_line(h.line)
    .at_input_lines(places.iter().map(|p| p + 1));
    e.path = Some(path.to_string());
    e
}

fn out_of_order(path: &str, k: usize, h: &Hunk, at: usize, cursor: usize) -> Error {
    let mut e = Error::new(
        ErrorKind::OutOfOrder,
        format!(
            "{}: its lines are found only at line {}, before the end of hunk {} (line {}). Hunks must follow the file in order and must not overlap. Nothing was changed. Put the hunks in file order, or merge overlapping hunks into one.",
            hunk_label(path, k, h),
            at + 1,
            k.saturating_sub(1),
            cursor
        ),
    )
    .at_diff_line(h.line)
    .at_input_lines([at + 1]);
    e.path = Some(path.to_string());
    e
}
