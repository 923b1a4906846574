//! Reading a unified diff: plain (`---` / `+++`) and git-style (`diff --git`
//! with extended headers), several files, text before the first file skipped.
//!
//! Hunks are read by the counts of their `@@ -l,s +l,s @@` header, as
//! `git apply` reads them. A hunk that ends before its counts are used up is
//! an error in every mode; one that goes on after them (more hunk lines follow)
//! is recorded in [`Hunk::overrun`]: `git apply` ignores those lines, Strict
//! refuses the hunk.

use super::{FileKind, FilePatch, Hunk, HunkLine, LineKind, Unified};
use crate::diff::show;
use crate::error::{Error, ErrorKind, Result};

/// The lines of `text`, each with its `\n` (the last may have none), and
/// their 1-based numbers. A reader of a window ([`Reader::window`]: the
/// complete lines of a text still arriving) notes when the parser looked
/// past its end ([`Reader::starved`]): what it read is then not final.
pub(crate) struct Reader<'a> {
    lines: Vec<&'a str>,
    pos: usize,
    /// Lines before the first one.
    first: usize,
    /// Whether the text ends after the last line (else more may come).
    complete: bool,
    starved: std::cell::Cell<bool>,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader { lines: text.split_inclusive('\n').collect(), pos: 0, first: 0, complete: true, starved: std::cell::Cell::new(false) }
    }
    /// A reader of `text`, complete lines that start at line `first + 1`,
    /// with more lines to come.
    pub(crate) fn window(text: &'a str, first: usize) -> Self {
        Reader { complete: false, first, ..Reader::new(text) }
    }
    /// Whether the parser looked past the last line of a window.
    pub(crate) fn starved(&self) -> bool {
        self.starved.get()
    }
    /// Lines read (consumed) so far.
    pub(crate) fn consumed(&self) -> usize {
        self.pos
    }
    fn line(&self, i: usize) -> Option<&'a str> {
        let l = self.lines.get(i).copied();
        if l.is_none() && !self.complete {
            self.starved.set(true);
        }
        l
    }
    fn peek(&self) -> Option<&'a str> {
        self.line(self.pos)
    }
    fn peek_at(&self, ahead: usize) -> Option<&'a str> {
        self.line(self.pos + ahead)
    }
    /// 1-based number of the next line.
    fn line_no(&self) -> usize {
        self.first + self.pos + 1
    }
}

/// A line without its `\n` (and without a `\r` before it).
fn bare(line: &str) -> &str {
    let l = line.strip_suffix('\n').unwrap_or(line);
    l.strip_suffix('\r').unwrap_or(l)
}

pub(crate) fn is_file_header_pair(a: Option<&str>, b: Option<&str>) -> bool {
    a.is_some_and(|a| a.starts_with("--- ")) && b.is_some_and(|b| b.starts_with("+++ "))
}

/// Whether `text` has a file diff the parser reads (a `diff --git` line, or
/// a `---` line followed by a `+++` line) before any line that is
/// `*** Begin Patch` (whitespace around it allowed): the text is then a
/// unified diff, not a patch that quotes one.
pub(crate) fn has_file_header(text: &str) -> bool {
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "*** Begin Patch" {
            return false;
        }
        if line.starts_with("diff --git ") || is_file_header_pair(Some(line), lines.peek().copied()) {
            return true;
        }
    }
    false
}

fn is_binary_line(line: &str) -> bool {
    let l = bare(line);
    l == "GIT binary patch" || (l.starts_with("Binary files ") && l.ends_with(" differ"))
}

/// Parses a whole unified diff.
pub fn parse(text: &str) -> Result<Unified<'_>> {
    let mut r = Reader::new(text);
    let mut files = Vec::new();
    while r.peek().is_some() {
        if let Some(mut f) = file_header(&mut r)? {
            while let Some(h) = next_hunk(&mut r, f.display_path(), f.hunks.len() + 1)? {
                f.hunks.push(h);
            }
            files.push(f);
        }
    }
    if files.is_empty() {
        return Err(Error::new(
            ErrorKind::EmptyPatch,
            "The text has no unified diff in it: no 'diff --git' line, and no '--- PATH' line followed by a '+++ PATH' line. A unified diff names each file with those two lines, then its hunks ('@@ -l,s +l,s @@').",
        ));
    }
    let unterminated = files
        .iter()
        .flat_map(|f: &FilePatch| f.hunks.iter())
        .flat_map(|h| h.lines.last())
        .filter(|l| l.line == r.lines.len() && !text.ends_with('\n'))
        .map(|l| l.line)
        .next();
    Ok(Unified { files, unterminated })
}

/// One step of [`parse`] between files, at the reader's line: a file's
/// header read (its hunks not yet: [`next_hunk`]), or `None` for a line
/// skipped (text before the first file or between files: commit messages,
/// mail headers, a signature).
pub(crate) fn file_header<'a>(r: &mut Reader<'a>) -> Result<Option<FilePatch<'a>>> {
    let Some(line) = r.peek() else { return Ok(None) };
    if line.starts_with("diff --git ") {
        git_file(r).map(Some)
    } else if is_file_header_pair(Some(line), r.peek_at(1)) {
        plain_file(r).map(Some)
    } else if line.starts_with("@@ -") && hunk_header(line).is_some() {
        Err(Error::new(
            ErrorKind::InvalidHeader,
            format!(
                "Diff line {}: the hunk header {} comes before any file header. Put '--- a/PATH' and '+++ b/PATH' lines (or a 'diff --git' header) before the first hunk of each file.",
                r.line_no(),
                show(bare(line))
            ),
        )
        .at_diff_line(r.line_no()))
    } else if is_binary_line(line) {
        Err(binary_error(None, r.line_no()))
    } else {
        r.pos += 1;
        Ok(None)
    }
}

fn binary_error(path: Option<&str>, line: usize) -> Error {
    let what = path.map_or(String::new(), |p| format!(" for {p}"));
    let mut e = Error::new(
        ErrorKind::BinaryPatch,
        format!(
            "Diff line {line}: a binary patch{what}. Only text diffs are applied; nothing was changed. Make the diff with text hunks, or copy the binary file separately."
        ),
    )
    .at_diff_line(line);
    e.path = path.map(str::to_string);
    e
}

/// Unquotes a git C-style quoted path (`"a/sp ace\t"`), or returns it as is.
fn unquote(s: &str) -> Option<String> {
    let inner = s.strip_prefix('"')?.strip_suffix('"')?;
    let mut bytes = Vec::with_capacity(inner.len());
    let mut it = inner.bytes().peekable();
    while let Some(b) = it.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        let c = it.next()?;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'"' | b'\\' => c,
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                for _ in 0..2 {
                    let d = it.next()?;
                    if !(b'0'..=b'7').contains(&d) {
                        return None;
                    }
                    v = v * 8 + u32::from(d - b'0');
                }
                u8::try_from(v).ok()?
            }
            _ => return None,
        };
        bytes.push(v);
    }
    String::from_utf8(bytes).ok()
}

/// The name in a `---` / `+++` line or an extended header: unquoted, cut at
/// a tab (a timestamp follows), `None` for `/dev/null`.
fn header_name(raw: &str) -> Option<String> {
    let raw = bare(raw);
    let name = if raw.starts_with('"') {
        let end = closing_quote(raw)?;
        unquote(raw.get(..=end)?)?
    } else {
        raw.split('\t').next().unwrap_or("").trim_end().to_string()
    };
    if name == "/dev/null" || name.is_empty() {
        None
    } else {
        Some(name)
    }
}

/// Whether the timestamp after a `---` / `+++` name is the Unix epoch (how
/// `diff -N` marks a file that does not exist).
fn epoch_timestamp(raw: &str) -> bool {
    let Some((_, stamp)) = bare(raw).split_once('\t') else { return false };
    let stamp = stamp.trim();
    stamp.starts_with("1970-01-01 00:00:00") || stamp.starts_with("Thu Jan  1 00:00:00 1970") || stamp.starts_with("1969-12-31")
}

fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, b) in s.bytes().enumerate().skip(1) {
        match b {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => return Some(i),
            _ => {}
        }
    }
    None
}

/// Removes the first path component (`a/`, `b/`, or any other: `git apply -p1`).
fn strip_one(name: &str) -> Option<String> {
    name.split_once('/').map(|(_, rest)| rest.to_string()).filter(|s| !s.is_empty())
}

/// The two names of a `diff --git a/X b/Y` line, when they can be told apart
/// (quoted, or the same name on both sides).
fn git_line_names(rest: &str) -> Option<(String, String)> {
    let rest = bare(rest);
    if rest.starts_with('"') {
        let end = closing_quote(rest)?;
        let a = unquote(rest.get(..=end)?)?;
        let b_raw = rest.get(end + 1..)?.trim_start();
        let b = if b_raw.starts_with('"') { unquote(b_raw)? } else { b_raw.to_string() };
        return Some((strip_one(&a)?, strip_one(&b)?));
    }
    if let Some(pos) = rest.find(" \"") {
        let a = rest.get(..pos)?.to_string();
        let b = unquote(rest.get(pos + 1..)?)?;
        return Some((strip_one(&a)?, strip_one(&b)?));
    }
    // `a/NAME b/NAME`: the split where both halves name the same file.
    let bytes = rest.as_bytes();
    for (i, &c) in bytes.iter().enumerate() {
        if c != b' ' {
            continue;
        }
        let (a, b) = (rest.get(..i)?, rest.get(i + 1..)?);
        if let (Some(x), Some(y)) = (strip_one(a), strip_one(b)) {
            if x == y {
                return Some((x, y));
            }
        }
    }
    None
}

fn parse_mode(s: &str) -> Option<u32> {
    let s = bare(s).trim();
    if s.is_empty() || s.len() > 7 {
        return None;
    }
    u32::from_str_radix(s, 8).ok()
}

/// A `diff --git` file's header: extended headers, then `---` / `+++`.
fn git_file<'a>(r: &mut Reader<'a>) -> Result<FilePatch<'a>> {
    let start = r.line_no();
    let first = r.peek().unwrap_or("");
    r.pos += 1;
    let names = git_line_names(first.get("diff --git ".len()..).unwrap_or(""));
    let mut f = FilePatch::new(start, true);
    if let Some((a, b)) = &names {
        f.old_path = Some(a.clone());
        f.new_path = Some(b.clone());
    }
    let (mut saw_old, mut saw_new) = (false, false);
    while let Some(line) = r.peek() {
        let header = |p: &str| line.strip_prefix(p);
        if let Some(v) = header("old mode ") {
            f.old_mode = parse_mode(v);
        } else if let Some(v) = header("new mode ") {
            f.new_mode = parse_mode(v);
        } else if let Some(v) = header("deleted file mode ") {
            f.kind = FileKind::Delete;
            f.old_mode = parse_mode(v);
        } else if let Some(v) = header("new file mode ") {
            f.kind = FileKind::Add;
            f.new_mode = parse_mode(v);
        } else if let Some(v) = header("rename from ").or_else(|| header("rename old ")) {
            f.kind = FileKind::Rename;
            f.old_path = header_name(v);
        } else if let Some(v) = header("rename to ").or_else(|| header("rename new ")) {
            f.kind = FileKind::Rename;
            f.new_path = header_name(v);
        } else if let Some(v) = header("copy from ") {
            f.kind = FileKind::Copy;
            f.old_path = header_name(v);
        } else if let Some(v) = header("copy to ") {
            f.kind = FileKind::Copy;
            f.new_path = header_name(v);
        } else if let Some(v) = header("similarity index ").or_else(|| header("dissimilarity index ")) {
            f.similarity = bare(v).trim_end_matches('%').parse().ok();
        } else if let Some(v) = header("index ") {
            f.index = Some(bare(v).to_string());
        } else if is_file_header_pair(Some(line), r.peek_at(1)) {
            let (old, new) = (line.get(4..).unwrap_or(""), r.peek_at(1).and_then(|l| l.get(4..)).unwrap_or(""));
            match header_name(old) {
                None => {
                    f.kind = FileKind::Add;
                    f.old_path = None;
                }
                Some(n) => f.old_path = strip_one(&n).or(f.old_path.take()),
            }
            match header_name(new) {
                None => {
                    f.kind = FileKind::Delete;
                    f.new_path = None;
                }
                Some(n) => f.new_path = strip_one(&n).or(f.new_path.take()),
            }
            saw_old = true;
            saw_new = true;
            r.pos += 2;
            break;
        } else if is_binary_line(line) {
            return Err(binary_error(f.new_path.as_deref().or(f.old_path.as_deref()), r.line_no()));
        } else {
            break;
        }
        r.pos += 1;
    }
    if f.kind == FileKind::Add {
        f.old_path = None;
    }
    if f.kind == FileKind::Delete {
        f.new_path = None;
    }
    if f.old_path.is_none() && f.new_path.is_none() {
        return Err(Error::new(
            ErrorKind::InvalidHeader,
            format!(
                "Diff line {start}: the file names in {} cannot be read. Write 'diff --git a/PATH b/PATH' with the same PATH twice, or add '--- a/PATH' and '+++ b/PATH' lines.",
                show(bare(first))
            ),
        )
        .at_diff_line(start));
    }
    let _ = (saw_old, saw_new);
    Ok(f)
}

/// A plain `--- NAME` / `+++ NAME` file's header (GNU diff, or a model's diff).
fn plain_file<'a>(r: &mut Reader<'a>) -> Result<FilePatch<'a>> {
    let start = r.line_no();
    let old_line = r.peek().unwrap_or("");
    let new_line = r.peek_at(1).unwrap_or("");
    r.pos += 2;
    let mut f = FilePatch::new(start, false);
    let (old_raw, new_raw) = (old_line.get(4..).unwrap_or(""), new_line.get(4..).unwrap_or(""));
    let old = header_name(old_raw).filter(|_| !epoch_timestamp(old_raw));
    let new = header_name(new_raw).filter(|_| !epoch_timestamp(new_raw));
    // `git apply` strips one leading component (`-p1`), except from a name
    // without any slash, which it takes as is.
    let strip = |n: String| if n.contains('/') { strip_one(&n).unwrap_or(n) } else { n };
    match (old, new) {
        (None, None) => {
            return Err(Error::new(
                ErrorKind::InvalidHeader,
                format!("Diff lines {start}-{}: both '---' and '+++' name /dev/null: name the file on at least one of them.", start + 1),
            )
            .at_diff_line(start))
        }
        (None, Some(n)) => {
            f.kind = FileKind::Add;
            f.new_path = Some(strip(n));
        }
        (Some(o), None) => {
            f.kind = FileKind::Delete;
            f.old_path = Some(strip(o));
        }
        (Some(o), Some(n)) => {
            // Like git: the old name when the new one merely extends it
            // (`file.c` and `file.c.orig`), else the new name; never a rename.
            let (o, n) = (strip(o), strip(n));
            let name = if o.len() < n.len() && n.starts_with(&o) { o } else { n };
            f.old_path = Some(name.clone());
            f.new_path = Some(name);
        }
    }
    Ok(f)
}

/// Parses `@@ -l[,s] +l[,s] @@[ text]`: (old start, old count, new start, new count, text).
pub(super) fn hunk_header(line: &str) -> Option<(usize, usize, usize, usize, &str)> {
    let rest = bare(line).strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, rest) = rest.split_once(" @@")?;
    let range = |s: &str| -> Option<(usize, usize)> {
        let (a, b) = match s.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let digits = |t: &str| !t.is_empty() && t.len() <= 12 && t.bytes().all(|c| c.is_ascii_digit());
        if !digits(a) || b.is_some_and(|b| !digits(b)) {
            return None;
        }
        Some((a.parse().ok()?, b.map_or(Some(1), |b| b.parse().ok())?))
    };
    let (os, ol) = range(old)?;
    let (ns, nl) = range(new)?;
    Some((os, ol, ns, nl, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// Whether a line could continue a hunk body (what a miscounted header leaves
/// behind): context, removed, added, or a `\` marker.
fn looks_like_hunk_line(r: &Reader, ahead: usize) -> bool {
    match r.peek_at(ahead) {
        Some(l) if l.starts_with("--- ") && r.peek_at(ahead + 1).is_some_and(|n| n.starts_with("+++ ")) => false,
        Some(l) if l == "-- \n" || l == "--\n" => false, // a mail signature
        Some(l) => l.starts_with([' ', '-', '+', '\\']) || ((l == "\n" || l == "\r\n") && ahead_has_hunk_line(r, ahead + 1)),
        None => false,
    }
}

/// Whether a hunk line follows blank lines at `ahead` (a blank line at the
/// very end of a diff is not a hunk line).
fn ahead_has_hunk_line(r: &Reader, mut ahead: usize) -> bool {
    while let Some(l) = r.peek_at(ahead) {
        if l == "\n" || l == "\r\n" {
            ahead += 1;
            continue;
        }
        return l.starts_with([' ', '-', '+']) && !(l.starts_with("--- ") && r.peek_at(ahead + 1).is_some_and(|n| n.starts_with("+++ ")));
    }
    false
}

/// The next hunk of a file (`path`, its hunk `number`, 1-based), or `None`
/// where its hunks end.
pub(crate) fn next_hunk<'a>(r: &mut Reader<'a>, path: Option<&str>, number: usize) -> Result<Option<Hunk<'a>>> {
    let Some(line) = r.peek() else { return Ok(None) };
    if !line.starts_with("@@ ") {
        if is_binary_line(line) {
            return Err(binary_error(path, r.line_no()));
        }
        return Ok(None);
    }
    let header_line = r.line_no();
    let Some((old_start, old_len, new_start, new_len, section)) = hunk_header(line) else {
        let mut e = Error::new(
                ErrorKind::InvalidHeader,
                format!(
                    "{}: hunk {} (diff line {header_line}): the header {} is not '@@ -START,COUNT +START,COUNT @@'. A unified diff needs the line numbers and counts in every hunk header; write them, or send a '*** Begin Patch' patch or search/replace blocks instead, which need none.",
                    path.unwrap_or("?"),
                    number,
                    show(bare(line))
                ),
            )
            .at_diff_line(header_line);
        e.path = path.map(str::to_string);
        return Err(e);
    };
    r.pos += 1;
    let mut hunk = Hunk {
        old_start,
        old_len,
        new_start,
        new_len,
        section,
        line: header_line,
        lines: Vec::new(),
        overrun: 0,
        counted: (old_len, new_len),
    };
    let (mut old_left, mut new_left) = (old_len, new_len);
    while old_left > 0 || new_left > 0 {
        let Some(l) = r.peek() else { break };
        let kind = match l.as_bytes().first() {
            Some(b' ') | Some(b'\n') => LineKind::Context,
            Some(b'-') => LineKind::Remove,
            Some(b'+') => LineKind::Add,
            Some(b'\\') if !hunk.lines.is_empty() => {
                mark_no_newline(&mut hunk);
                r.pos += 1;
                continue;
            }
            _ => break,
        };
        let ok = match kind {
            LineKind::Context => old_left > 0 && new_left > 0,
            LineKind::Remove => old_left > 0,
            LineKind::Add => new_left > 0,
        };
        if !ok {
            break;
        }
        match kind {
            LineKind::Context => {
                old_left -= 1;
                new_left -= 1;
            }
            LineKind::Remove => old_left -= 1,
            LineKind::Add => new_left -= 1,
        }
        let text = if l.starts_with('\n') { l } else { l.get(1..).unwrap_or("") };
        hunk.lines.push(HunkLine { kind, text, line: r.line_no() });
        r.pos += 1;
    }
    if old_left > 0 || new_left > 0 {
        return Err(short_hunk(r, path, number, &hunk, old_left, new_left));
    }
    if r.peek().is_some_and(|l| l.starts_with('\\')) && !hunk.lines.is_empty() {
        mark_no_newline(&mut hunk);
        r.pos += 1;
    }
    if hunk.lines.is_empty() {
        let mut e = Error::new(
            ErrorKind::EmptyHunk,
            format!(
                "{}: hunk {} (diff line {header_line}) is empty: its header counts no lines. Remove it, or give the lines it changes.",
                path.unwrap_or("?"),
                number
            ),
        )
        .at_diff_line(header_line);
        e.path = path.map(str::to_string);
        return Err(e);
    }
    if hunk.lines.iter().all(|l| l.kind == LineKind::Context) {
        let mut e = Error::new(
                ErrorKind::EmptyHunk,
                format!(
                    "{}: hunk {} (diff line {header_line}) changes nothing: it has only context lines, no '-' or '+' line. Remove it, or mark the lines it changes (git apply calls such a hunk a corrupt patch).",
                    path.unwrap_or("?"),
                    number
                ),
            )
            .at_diff_line(header_line);
        e.path = path.map(str::to_string);
        return Err(e);
    }
    let (mut extra, mut old_all, mut new_all) = (0, hunk.old_len, hunk.new_len);
    while looks_like_hunk_line(r, extra) {
        match r.peek_at(extra).and_then(|l| l.as_bytes().first()) {
            Some(b'-') => old_all += 1,
            Some(b'+') => new_all += 1,
            Some(b'\\') => {}
            _ => {
                old_all += 1;
                new_all += 1;
            }
        }
        extra += 1;
    }
    hunk.overrun = extra;
    hunk.counted = (old_all, new_all);
    Ok(Some(hunk))
}

/// `\ No newline at end of file`: the line before has no line break.
fn mark_no_newline(hunk: &mut Hunk) {
    if let Some(last) = hunk.lines.last_mut() {
        last.text = last.text.strip_suffix('\n').unwrap_or(last.text);
    }
}

/// A hunk that ends before its header's counts are used up.
fn short_hunk(r: &Reader, path: Option<&str>, number: usize, hunk: &Hunk, old_left: usize, new_left: usize) -> Error {
    let (old_seen, new_seen) = (hunk.old_len - old_left, hunk.new_len - new_left);
    // Lines that look like the hunk's own go on; count them all.
    let (mut old_all, mut new_all) = (old_seen, new_seen);
    let mut ahead = 0;
    let mut stop_line = r.line_no();
    while let Some(l) = r.peek_at(ahead) {
        match l.as_bytes().first() {
            Some(b' ') | Some(b'\n') if looks_like_hunk_line(r, ahead) || l.starts_with(' ') => {
                old_all += 1;
                new_all += 1;
            }
            Some(b'-') if looks_like_hunk_line(r, ahead) => old_all += 1,
            Some(b'+') => new_all += 1,
            Some(b'\\') => {}
            _ => break,
        }
        ahead += 1;
        stop_line = r.line_no() + ahead;
    }
    let what = match r.peek() {
        None => "the diff ends".to_string(),
        Some(l) => format!("diff line {} ({}) is not a hunk line", r.line_no(), show(bare(l))),
    };
    let counts = if old_all != old_seen || new_all != new_seen {
        format!(" The hunk's lines count -{},{} +{},{}", hunk.old_start, old_all, hunk.new_start, new_all)
    } else {
        format!(" The hunk's lines count -{},{old_seen} +{},{new_seen}", hunk.old_start, hunk.new_start)
    };
    let _ = stop_line;
    let mut e = Error::new(
        ErrorKind::HunkCountMismatch,
        format!(
            "{}: hunk {} (diff line {}): its header {} counts {} old and {} new lines, but {what} after {old_seen} old and {new_seen} new.{counts}: write that in the header ('@@ -{},{old_all} +{},{new_all} @@'), or add the missing lines. Each ' ' line counts as old and new, '-' as old, '+' as new.",
            path.unwrap_or("?"),
            number,
            hunk.line,
            show(&format!("@@ -{},{} +{},{} @@", hunk.old_start, hunk.old_len, hunk.new_start, hunk.new_len)),
            hunk.old_len,
            hunk.new_len,
            hunk.old_start,
            hunk.new_start,
        ),
    )
    .at_diff_line(r.line_no().min((r.first + r.lines.len()).max(1)));
    e.path = path.map(str::to_string);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_names() {
        assert_eq!(hunk_header("@@ -1,3 +1,4 @@ fn main() {\n"), Some((1, 3, 1, 4, "fn main() {")));
        assert_eq!(hunk_header("@@ -5 +5 @@\n"), Some((5, 1, 5, 1, "")));
        assert_eq!(hunk_header("@@ -0,0 +1 @@"), Some((0, 0, 1, 1, "")));
        assert_eq!(hunk_header("@@ ... @@"), None);
        assert_eq!(unquote("\"a/sp ace\\t\\303\\251\""), Some("a/sp ace\té".to_string()));
        // Every C escape git writes in a quoted path.
        assert_eq!(unquote(r#""\n\t\r\a\b\f\v\"\\""#), Some("\n\t\r\x07\x08\x0c\x0b\"\\".to_string()));
        assert_eq!(git_line_names("a/x y b/x y\n"), Some(("x y".into(), "x y".into())));
        assert_eq!(git_line_names("\"a/q\\\"\" \"b/q\\\"\"\n"), Some(("q\"".into(), "q\"".into())));
        assert_eq!(header_name("a/file.c\t2024-01-01 10:00:00\n"), Some("a/file.c".into()));
        assert_eq!(header_name("/dev/null\n"), None);
    }
}
