//! A unified diff applied to a map of files while it is still being written.
//!
//! The stream drives the one-shot call's own steps (`crate::unified`): its
//! parser, a file header or a hunk at a time, over the complete lines pushed
//! so far, and its placement, a hunk at a time. A step whose parser looked
//! past the last complete line (to tell whether a `\ No newline` marker or
//! more hunk lines follow a hunk, whether a `---` line has its `+++`) is not
//! final: it is read again when more lines come. So a hunk is *placed* once
//! the line after it shows that it is over; its place then depends only on
//! the hunks before it (Strict: the original file, after the previous hunk;
//! `git apply`: the file as the previous hunks left it), which no later
//! text changes.
//!
//! The end ([`UnifiedStream::end`]) is the one-shot call on the whole text:
//! what the whole diff does (a file written twice, renames, modes, a parse
//! error further on, which comes before any placement) is only known there.
//! The first failure comes as [`UnifiedEvent::Error`]: the one-shot call's
//! error for the text up to the end of the header or hunk that failed
//! ([`UnifiedStream::failed_through`]).
//!
//! Cost: a step is read again only when its last reading ran out of lines,
//! and then at a line that can end it (one that is no hunk line) for its
//! first 8 readings, after that when its lines have doubled: each line is
//! read a bounded number of times, and each hunk placed once.

use std::collections::HashMap;
use std::sync::Arc;

use super::Placed;
use crate::error::Error;
use crate::text::{self, Splice};
use crate::unified::{
    close_among, file_header, next_hunk, open_among, FileKind, GitHunks, Opened, Reader, StrictHunks, UnifiedMode, Written,
};

/// What a push completed.
#[derive(Clone, Debug, PartialEq)]
pub enum UnifiedEvent {
    /// A file diff's header was read.
    File {
        /// The file it writes (the new path; the old one for a deletion).
        path: String,
        /// What it does to the file.
        kind: FileKind,
        /// The header's first diff line, 1-based.
        line: usize,
    },
    /// A hunk was placed.
    Hunk {
        /// The file its splices are in: the path it writes.
        path: String,
        /// Its index among its file's hunks (0-based), its `@@` line, the
        /// file line where its old lines start (`git apply`: in the file as
        /// the hunks before left it), and its changes: byte offsets into the
        /// file as the file diffs before left it (`input`).
        placed: Placed,
        /// The text the splices' offsets are in.
        input: Arc<str>,
    },
    /// The first failure: the one-shot call's error for the text up to the
    /// end of what failed. No event comes after it.
    Error(Error),
}

/// A file diff being read.
#[derive(Debug)]
struct File {
    opened: Opened,
    /// The path its hunks' messages name while parsing (the parser's).
    display: Option<String>,
    /// The text its hunks apply to.
    old: Arc<str>,
    hunks: usize,
    placer: Placer,
}

#[derive(Debug)]
enum Placer {
    Strict(StrictHunks),
    /// The file's lines as the hunks left them, and the byte offset of each
    /// line of the file diff's text (and its end).
    Git(GitHunks<String>, Vec<usize>),
}

impl File {
    fn text(&self) -> String {
        match &self.placer {
            Placer::Strict(p) => p.text(&self.old),
            Placer::Git(p, _) => p.text(),
        }
    }
}

/// A unified diff applied to a map of files as it arrives.
///
/// ```
/// use applypatch::stream::{UnifiedEvent, UnifiedStream};
/// use applypatch::unified::UnifiedMode;
///
/// let files = [("a.txt".to_string(), "one\ntwo\nthree\n".to_string())];
/// let mut s = UnifiedStream::new(files, UnifiedMode::Strict);
/// let mut events = s.push("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+ONE\n");
/// events.extend(s.push("@@ -3 +3 @@\n-three\n+THREE\n"));
/// assert!(matches!(&events[0], UnifiedEvent::File { path, .. } if path == "a.txt"));
/// assert!(matches!(&events[1], UnifiedEvent::Hunk { placed, .. } if placed.input_line == 1));
/// assert_eq!(events.len(), 2); // the last hunk may still grow
/// assert_eq!(s.preview(), [("a.txt".to_string(), Some("ONE\ntwo\nthree\n".to_string()))]);
/// assert_eq!(s.end().unwrap().changes[0].contents.as_deref(), Some("ONE\ntwo\nTHREE\n"));
/// ```
#[derive(Debug)]
pub struct UnifiedStream {
    mode: UnifiedMode,
    files: HashMap<String, String>,
    /// What the file diffs read so far wrote.
    written: Written,
    /// Everything pushed, and the byte offset after each complete line.
    text: String,
    ends: Vec<usize>,
    /// Complete lines read into files and hunks: the next step starts after them.
    done: usize,
    /// The file diff being read, if any.
    file: Option<Box<File>>,
    /// The lines the next step had when its last reading ran out of them
    /// (0: no reading ran out), and the readings not due to its lines
    /// doubling.
    tried: usize,
    early: usize,
    /// The first failure and the diff lines through which the one-shot call gives it.
    failure: Option<(Error, usize)>,
    /// Nothing more is read (after a failure, or when in doubt).
    stopped: bool,
    /// Lines given to the parser so far (the cost's measure).
    lines_read: usize,
    queue: Vec<UnifiedEvent>,
}

impl UnifiedStream {
    /// A stream applying a unified diff to `files` (path, contents) in `mode`.
    pub fn new(files: impl IntoIterator<Item = (String, String)>, mode: UnifiedMode) -> Self {
        UnifiedStream {
            mode,
            files: files.into_iter().collect(),
            written: Written::default(),
            text: String::new(),
            ends: Vec::new(),
            done: 0,
            file: None,
            tried: 0,
            early: 0,
            failure: None,
            stopped: false,
            lines_read: 0,
            queue: Vec::new(),
        }
    }

    /// Takes the next piece of the diff, cut anywhere, and returns what it
    /// completed. After an [`UnifiedEvent::Error`] pieces are still taken
    /// (for [`UnifiedStream::end`]) but no event comes.
    pub fn push(&mut self, chunk: &str) -> Vec<UnifiedEvent> {
        let mut at = self.text.len();
        self.text.push_str(chunk);
        let before = self.ends.len();
        while let Some(i) = memchr::memchr(b'\n', self.text.as_bytes().get(at..).unwrap_or(&[])) {
            at += i + 1;
            self.ends.push(at);
        }
        if self.ends.len() != before && !self.stopped && self.due(before) {
            let text = std::mem::take(&mut self.text);
            self.read(&text);
            self.text = text;
        }
        std::mem::take(&mut self.queue)
    }

    /// Every file the diff wrote so far, in the order first written, with
    /// every placed hunk applied (`None`: deleted).
    pub fn preview(&self) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> = self.written.changes().iter().map(|c| (c.path.clone(), c.contents.clone())).collect();
        if let Some(f) = &self.file {
            // (An opened file has a name: the parser refuses a file diff with none.)
            let name = f.opened.name();
            if f.hunks > 0 {
                let text = f.text();
                match out.iter_mut().find(|(p, _)| p == name) {
                    Some(entry) => entry.1 = Some(text),
                    None => out.push((name.to_string(), Some(text))),
                }
            }
        }
        out
    }

    /// What [`crate::unified::apply`] gives for the whole diff pushed.
    pub fn end(self) -> crate::error::Result<crate::unified::UnifiedResult> {
        let files = self.files;
        crate::unified::apply(&self.text, self.mode, |p| files.get(p).map(String::as_str))
    }

    /// The number of diff lines through which the one-shot call gives the
    /// error the stream reported.
    pub fn failed_through(&self) -> Option<usize> {
        self.failure.as_ref().map(|(_, n)| *n)
    }

    /// The lines given to the parser so far, counted once per reading: a
    /// small multiple of the lines pushed, whatever the pieces.
    pub fn lines_read(&self) -> usize {
        self.lines_read
    }

    /// Whether the next step is worth reading again with the lines pushed
    /// (those after the first `before` are new): always at first and when
    /// its lines have doubled since it last ran out of them, and when a new
    /// line can end a hunk (no hunk line) 8 times.
    fn due(&mut self, before: usize) -> bool {
        let waiting = self.ends.len().saturating_sub(self.done);
        if waiting >= 2 * self.tried {
            return true;
        }
        if self.early >= 8 {
            return false;
        }
        let from = before.checked_sub(1).and_then(|i| self.ends.get(i)).copied().unwrap_or(0);
        let to = self.ends.last().copied().unwrap_or(0);
        let ends = self
            .text
            .get(from..to)
            .unwrap_or("")
            .split_inclusive('\n')
            .any(|line| !(line.starts_with([' ', '+', '-', '\\']) || line == "\n" || line == "\r\n"));
        self.early += usize::from(ends);
        ends
    }

    /// Reads the steps the complete lines hold, from the next one.
    fn read(&mut self, text: &str) {
        let start = self.done.checked_sub(1).and_then(|i| self.ends.get(i)).copied().unwrap_or(0);
        let end = self.ends.last().copied().unwrap_or(0);
        let mut r = Reader::window(text.get(start..end).unwrap_or(""), self.done);
        let lines = self.ends.len() - self.done;
        self.lines_read += lines;
        loop {
            let before = r.consumed();
            if self.stopped || before == lines {
                break;
            }
            let read = match self.file.take() {
                None => self.top(text, &mut r),
                Some(file) => self.hunk(text, &mut r, file),
            };
            if !read {
                // The step looked past the lines there are: read it again later.
                self.tried = lines - before;
                self.done += before;
                return;
            }
            self.tried = 0;
            self.early = 0;
        }
        self.done += r.consumed();
    }

    /// A step between files. False when it is not final.
    fn top(&mut self, text: &str, r: &mut Reader) -> bool {
        let header = file_header(r);
        if r.starved() {
            return false;
        }
        match header {
            Err(_) => self.fail(text, self.ends.len()),
            Ok(None) => {}
            Ok(Some(f)) => {
                let display = f.display_path().map(str::to_string);
                self.queue.push(UnifiedEvent::File { path: display.clone().unwrap_or_default(), kind: f.kind, line: f.line });
                match open_among(&mut self.written, &self.files, &f) {
                    Err(_) => self.fail(text, self.done + r.consumed()),
                    Ok(mut opened) => {
                        let old: Arc<str> = Arc::from(std::mem::take(&mut opened.old));
                        let placer = match self.mode {
                            UnifiedMode::Strict => Placer::Strict(StrictHunks::new(&old)),
                            UnifiedMode::Git => {
                                let starts = std::iter::once(0)
                                    .chain(old.split_inclusive('\n').scan(0, |end, l| {
                                        *end += l.len();
                                        Some(*end)
                                    }))
                                    .collect();
                                Placer::Git(GitHunks::new(old.split_inclusive('\n').map(str::to_string).collect()), starts)
                            }
                        };
                        self.file = Some(Box::new(File { opened, display, old, hunks: 0, placer }));
                    }
                }
            }
        }
        true
    }

    /// A step in a file diff: its next hunk, or its end. False when it is
    /// not final (the file diff is then put back).
    fn hunk(&mut self, text: &str, r: &mut Reader, mut file: Box<File>) -> bool {
        let k = file.hunks + 1;
        let hunk = next_hunk(r, file.display.as_deref(), k);
        if r.starved() {
            self.file = Some(file);
            return false;
        }
        let h = match hunk {
            Err(_) => {
                self.fail(text, self.ends.len());
                return true;
            }
            Ok(None) => {
                let File { opened, old, placer, .. } = *file;
                let new = match placer {
                    Placer::Strict(p) => p.finish(&old),
                    Placer::Git(p, _) => p.text(),
                };
                if close_among(&mut self.written, &self.files, &opened, new).is_err() {
                    self.fail(text, self.done + r.consumed());
                }
                return true;
            }
            Ok(Some(h)) => h,
        };
        let through = self.done + r.consumed() + if self.mode == UnifiedMode::Strict { h.overrun } else { 0 };
        let name = file.opened.name().to_string();
        let old = Arc::clone(&file.old);
        let placed = match &mut file.placer {
            Placer::Strict(p) => p.place(&old, &name, k, &h).map(|at| {
                let mut runs = Vec::new();
                p.runs(&h, at.line - 1, &mut runs);
                (at, Some(text::minimize(&old, &runs)), Arc::clone(&old))
            }),
            Placer::Git(p, starts) => p.place(&name, k, &h, str::to_string).map(|(at, run)| {
                // The lines it replaced in the file diff's text, when they
                // are one run no hunk wrote (git apply matches only lines no
                // hunk wrote, and puts a hunk with no old lines at the end):
                // else no splices could say where it went, and the stream
                // goes quiet.
                let splices = run.map(|lines| {
                    let offset = |line: usize| starts.get(line).copied().unwrap_or(old.len());
                    let whole = Splice { start: offset(lines.start), end: offset(lines.end), text: h.new_lines().collect() };
                    text::minimize(&old, &[whole])
                });
                (at, splices, Arc::clone(&old))
            }),
        };
        let placed = match placed {
            Ok((at, Some(splices), input)) => Ok((at, splices, input)),
            Ok((_, None, _)) => {
                self.stopped = true;
                self.file = Some(file);
                return true;
            }
            Err(e) => Err(e),
        };
        match placed {
            Err(_) => self.fail(text, through),
            Ok((at, splices, input)) => {
                let placed = Placed { index: file.hunks, diff_line: h.line, input_line: at.line, splices };
                self.queue.push(UnifiedEvent::Hunk { path: name, placed, input });
                file.hunks = k;
                self.file = Some(file);
            }
        }
        true
    }

    /// Something failed at line `through`: the one-shot call on the text
    /// through it decides what the error is (if it has none, the stream
    /// goes quiet and leaves the verdict to the end).
    fn fail(&mut self, text: &str, through: usize) {
        self.stopped = true;
        let end = through.checked_sub(1).and_then(|i| self.ends.get(i)).copied().unwrap_or(0);
        let prefix = text.get(..end).unwrap_or("");
        let files = &self.files;
        if let Err(e) = crate::unified::apply(prefix, self.mode, |p| files.get(p).map(String::as_str)) {
            self.queue.push(UnifiedEvent::Error(e.clone()));
            self.failure = Some((e, through));
        }
    }
}
