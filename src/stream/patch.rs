//! Streaming a `*** Begin Patch` patch over a map of files.
//!
//! A [`PatchStream`] reads the patch line by line by the envelope's rules
//! (`crate::patch`): each operation header is an [`PatchEvent::Operation`],
//! and the body of an `*** Update File:` goes, line by line, to a
//! [`DiffStream`] over the file as the operations before it left it, whose
//! placed sections come out as [`PatchEvent::Section`]s. A body is complete
//! at the next line of the envelope, so its last section is placed there.
//!
//! Verdicts are the one-shot call's own: when a line makes the stream
//! suspect a failure (an envelope line out of place, a section that cannot
//! apply, a file that is not there), the one-shot call
//! ([`crate::files::apply_patch`]) runs once on the text up to that line,
//! closed with `*** End Patch`, and its error is the [`PatchEvent::Error`].
//! When that text applies (a Strict patch whose operations so far are
//! already applied, whose verdict waits for the whole patch), the stream
//! goes quiet: no more events, and [`PatchStream::end`] answers as always.
//! [`PatchStream::end`] is the one-shot call on the whole text. Each line is
//! read once, each section found once, and the one-shot call runs at most
//! twice: the total cost is linear in the text.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::{ErrorKind, Result};
use crate::files::{apply_patch, FileChange};
use crate::mode::Mode;
use crate::patch::OperationKind;

use super::{DiffStream, Event, Placed};

/// What a push of a patch completed.
#[derive(Clone, Debug, PartialEq)]
pub enum PatchEvent {
    /// An operation's header was read.
    Operation {
        /// The path its header names.
        path: String,
        /// What it does.
        kind: OperationKind,
        /// The header's line in the patch (1-based).
        line: usize,
    },
    /// A section of an update was placed in the file as the operations
    /// before it left it (`splices` are byte offsets into that text;
    /// `diff_line` counts lines of the update's body).
    Section {
        /// The file the update names.
        path: String,
        /// The section.
        placed: Placed,
        /// The file's text its splices index into (as the operations
        /// before this one left it).
        input: Arc<str>,
    },
    /// The first failure: what the one-shot call answers for the text up to
    /// the line where it was found. No event comes after it.
    Error(crate::error::Error),
}

/// Where the reader is in the envelope.
#[derive(Debug)]
enum At {
    /// Before `*** Begin Patch` (blank lines only so far).
    Start,
    /// A heredoc line opened the text: `*** Begin Patch` must follow.
    Heredoc,
    /// Between operations.
    Top,
    /// Inside an `*** Add File:`'s `+` lines.
    Add { path: String, contents: String },
    /// Right after an `*** Update File:` header (a `*** Move to:` may come).
    UpdateHeader { path: String },
    /// Inside an update's body.
    Update(Box<Body>),
    /// After `*** End Patch`, or quiet: nothing more is reported.
    Done,
}

#[derive(Debug)]
struct Body {
    path: String,
    move_to: Option<String>,
    /// None: the file is not there (or no longer).
    stream: Option<DiffStream>,
    /// The file's text before the update.
    input: Arc<str>,
    /// The patch line before the body's first line.
    before: usize,
    lines: usize,
}

/// A `*** Begin Patch` patch applied to a map of files as it arrives.
///
/// ```
/// use applypatch::stream::{PatchEvent, PatchStream};
/// use applypatch::Mode;
///
/// let mut s = PatchStream::new([("a.txt".to_string(), "one\ntwo\n".to_string())], Mode::Strict);
/// let mut events = s.push("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n");
/// events.extend(s.push("*** End Patch\n"));
/// assert!(matches!(&events[0], PatchEvent::Operation { path, .. } if path == "a.txt"));
/// assert!(matches!(&events[1], PatchEvent::Section { placed, .. } if placed.input_line == 1));
/// assert_eq!(s.end().unwrap()[0].contents.as_deref(), Some("ONE\ntwo\n"));
/// ```
#[derive(Debug)]
pub struct PatchStream {
    mode: Mode,
    files: HashMap<String, String>,
    /// What the operations read so far wrote (`None`: deleted).
    written: HashMap<String, Option<String>>,
    /// The paths written, in the order first written.
    order: Vec<String>,
    at: At,
    heredoc: bool,
    seen_operation: bool,
    environment: bool,
    /// Everything pushed, and the byte offset after each complete line.
    text: String,
    ends: Vec<usize>,
    /// Bytes of `text` read into lines.
    read: usize,
    /// Nothing more is read (after an error, or quiet).
    stopped: bool,
    queue: Vec<PatchEvent>,
}

impl PatchStream {
    /// A stream applying a patch to `files` (path, contents) in `mode`.
    pub fn new(files: impl IntoIterator<Item = (String, String)>, mode: Mode) -> Self {
        PatchStream {
            mode,
            files: files.into_iter().collect(),
            written: HashMap::new(),
            order: Vec::new(),
            at: At::Start,
            heredoc: false,
            seen_operation: false,
            environment: false,
            text: String::new(),
            ends: Vec::new(),
            read: 0,
            stopped: false,
            queue: Vec::new(),
        }
    }

    /// Takes the next piece of the patch, cut anywhere, and returns what it
    /// completed.
    pub fn push(&mut self, chunk: &str) -> Vec<PatchEvent> {
        self.text.push_str(chunk);
        while let Some(i) = memchr::memchr(b'\n', self.text.as_bytes().get(self.read..).unwrap_or(&[])) {
            let (start, end) = (self.read, self.read + i + 1);
            self.read = end;
            self.ends.push(end);
            if !self.stopped && !matches!(self.at, At::Done) {
                let line = self.text.get(start..end - 1).unwrap_or("").to_string();
                self.line(&line);
            }
        }
        std::mem::take(&mut self.queue)
    }

    /// Every file the patch touched so far, in the order first written, with
    /// the placed sections of the update being read applied (`None`: deleted).
    pub fn preview(&self) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> =
            self.order.iter().map(|p| (p.clone(), self.written.get(p).cloned().flatten())).collect();
        if let At::Update(body) = &self.at {
            if let Some(s) = &body.stream {
                let text = s.preview();
                match out.iter_mut().find(|(p, _)| *p == body.path) {
                    Some(entry) => entry.1 = Some(text),
                    None => out.push((body.path.clone(), Some(text))),
                }
            }
        }
        out
    }

    /// What [`crate::apply_patch`] gives for the whole patch pushed.
    pub fn end(self) -> Result<Vec<FileChange>> {
        let files = self.files;
        apply_patch(&self.text, self.mode, |p| files.get(p).map(String::as_str))
    }

    /// The contents of `path` now.
    fn current(&self, path: &str) -> Option<String> {
        match self.written.get(path) {
            Some(w) => w.clone(),
            None => self.files.get(path).cloned(),
        }
    }

    fn write(&mut self, path: &str, contents: Option<String>) {
        if self.written.insert(path.to_string(), contents).is_none() {
            self.order.push(path.to_string());
        }
    }

    /// Reads one complete line (without its `\n`); `self.ends` already
    /// counts it.
    fn line(&mut self, raw: &str) {
        // The envelope's reading drops a carriage return twice: the patch's
        // line split, then each line's (`crate::patch`).
        let once = raw.strip_suffix('\r').unwrap_or(raw);
        let line = once.strip_suffix('\r').unwrap_or(once);
        let n = self.ends.len();
        match std::mem::replace(&mut self.at, At::Done) {
            At::Start => {
                let t = line.trim();
                self.at = if t.is_empty() {
                    At::Start
                } else if t == "*** Begin Patch" {
                    At::Top
                } else if matches!(line.trim_start(), "<<EOF" | "<<'EOF'" | "<<\"EOF\"") {
                    self.heredoc = true;
                    At::Heredoc
                } else {
                    return self.check(n);
                };
            }
            At::Heredoc => {
                if line.trim() != "*** Begin Patch" {
                    return self.check(n);
                }
                self.at = At::Top;
            }
            At::Top => self.top(line, n),
            At::Add { path, mut contents } => {
                if crate::patch::push_added_line(&mut contents, line) {
                    self.at = At::Add { path, contents };
                } else {
                    self.write(&path, Some(contents));
                    self.top(line, n);
                }
            }
            At::UpdateHeader { path } => {
                let trimmed = line.trim_end();
                let (move_to, body_line) = match trimmed.strip_prefix("*** Move to: ") {
                    Some(dest) => (Some(dest.to_string()), None),
                    None => (None, Some(line)),
                };
                if body_line.is_some_and(|l| crate::diff::is_envelope_line(l.trim_end())) {
                    return self.no_body(n);
                }
                let contents = self.current(&path);
                let input: Arc<str> = Arc::from(contents.as_deref().unwrap_or(""));
                let stream = contents.map(|contents| DiffStream::new(contents, self.mode));
                let mut body = Body { path, move_to, stream, input, before: n - usize::from(body_line.is_some()), lines: 0 };
                if let Some(l) = body_line {
                    self.body_line(&mut body, l);
                }
                self.at = At::Update(Box::new(body));
            }
            At::Update(mut body) => {
                if crate::diff::is_envelope_line(line.trim_end()) {
                    if body.lines == 0 {
                        return self.no_body(n);
                    }
                    if self.close(*body, line, n) {
                        self.top(line, n);
                    }
                } else {
                    self.body_line(&mut body, line);
                    self.at = At::Update(body);
                }
            }
            At::Done => {}
        }
    }

    /// A line between operations.
    fn top(&mut self, line: &str, n: usize) {
        let t = line.trim();
        if t == "*** End Patch" {
            self.at = At::Done;
            return;
        }
        if let Some(rest) = t.strip_prefix("*** Environment ID:") {
            if self.seen_operation || self.environment || rest.trim().is_empty() {
                return self.check(n);
            }
            self.environment = true;
            self.at = At::Top;
            return;
        }
        let (kind, path) = if let Some(p) = t.strip_prefix("*** Add File: ") {
            (OperationKind::Add, p)
        } else if let Some(p) = t.strip_prefix("*** Delete File: ") {
            (OperationKind::Delete, p)
        } else if let Some(p) = t.strip_prefix("*** Update File: ") {
            (OperationKind::Update, p)
        } else {
            return self.check(n);
        };
        let path = path.to_string();
        self.seen_operation = true;
        self.queue.push(PatchEvent::Operation { path: path.clone(), kind, line: n });
        self.at = match kind {
            OperationKind::Add => At::Add { path, contents: String::new() },
            OperationKind::Delete => {
                if self.current(&path).is_none() {
                    // Codex fails it; Strict judges it with the whole patch
                    // (the stream stays quiet: `self.at` is `Done`).
                    if self.mode == Mode::Codex {
                        self.check(n);
                    }
                    return;
                }
                self.write(&path, None);
                At::Top
            }
            OperationKind::Update => At::UpdateHeader { path },
        };
    }

    /// One line of an update's body.
    fn body_line(&mut self, body: &mut Body, line: &str) {
        body.lines += 1;
        let Some(stream) = body.stream.as_mut() else { return };
        let mut piece = String::with_capacity(line.len() + 1);
        piece.push_str(line);
        piece.push('\n');
        let events = stream.push(&piece);
        let through = stream.failed_through();
        self.relay(&body.path, &body.input, events);
        if self.stopped {
            return;
        }
        // An input error (line 0) waits for the body's end: the one-shot
        // call reads the whole body before it looks at the file.
        if let Some(k) = through.filter(|&k| k > 0) {
            self.check(body.before + k);
        }
    }

    /// Ends an update's body (the line after it is an envelope line): its
    /// last section is placed, and the file takes its new contents. Returns
    /// false when that failed, or when the verdict waits for the whole patch
    /// (the stream then stays quiet: `self.at` is `Done`).
    fn close(&mut self, body: Body, next: &str, n: usize) -> bool {
        let last = body.before + body.lines;
        let Some(mut stream) = body.stream else {
            // The file is not there: Codex fails; Strict may find a move sent again.
            if self.mode == Mode::Codex {
                self.check(last);
            }
            return false;
        };
        let events = stream.close_body();
        let through = stream.failed_through();
        self.relay(&body.path, &body.input, events);
        if through.is_some() {
            self.check(last);
            return false;
        }
        match stream.end() {
            Ok(text) => {
                match body.move_to {
                    Some(dest) if dest != body.path => {
                        self.write(&dest, Some(text));
                        self.write(&body.path, None);
                    }
                    _ => self.write(&body.path, Some(text)),
                }
                true
            }
            // Strict's "already applied" waits for the whole patch.
            Err(e) if e.kind == ErrorKind::AlreadyApplied => false,
            // An error at the body's end may name the line after it: the
            // one-shot call reads that line too.
            Err(_) => {
                self.check_next(last, next, n);
                false
            }
        }
    }

    fn relay(&mut self, path: &str, input: &Arc<str>, events: Vec<Event>) {
        for e in events {
            // A section's own error is replaced by the patch's (`check`).
            if let Event::Section(placed) = e {
                self.queue.push(PatchEvent::Section { path: path.to_string(), placed, input: Arc::clone(input) });
            }
        }
    }

    /// An update with no body, found at the envelope line `n` after its
    /// header (or its `*** Move to:` line): the one-shot call's error for
    /// the text through the line before.
    fn no_body(&mut self, n: usize) {
        self.check(n - 1);
    }

    /// Something may have failed at line `n`: the one-shot call on the text
    /// through it, closed, decides.
    fn check(&mut self, n: usize) {
        self.check_text(n, "*** End Patch\n");
    }

    /// [`PatchStream::check`] for an update's body that ends at line `last`,
    /// with the envelope line `next` (line `n`) after it: the text through
    /// `next` where the one-shot call reads no more than that line's header
    /// (an `*** Update File:` gets a body line, which is never read: the
    /// body before it fails first).
    fn check_next(&mut self, last: usize, next: &str, n: usize) {
        let t = next.trim();
        if t == "*** End Patch" {
            self.check_text(n, "");
        } else if t.starts_with("*** Add File: ") || t.starts_with("*** Delete File: ") {
            self.check_text(n, "*** End Patch\n");
        } else if t.starts_with("*** Update File: ") {
            self.check_text(n, " \n*** End Patch\n");
        } else {
            self.check(last);
        }
    }

    /// The one-shot call on the text through line `n`, then `close`.
    fn check_text(&mut self, n: usize, close: &str) {
        let end = n.checked_sub(1).and_then(|i| self.ends.get(i).copied()).unwrap_or(0);
        // Complete lines: the prefix ends with a line break (or is empty).
        let mut prefix = self.text.get(..end).unwrap_or("").to_string();
        prefix.push_str(close);
        if self.heredoc {
            prefix.push_str("EOF\n");
        }
        let files = &self.files;
        match apply_patch(&prefix, self.mode, |p| files.get(p).map(String::as_str)) {
            Err(e) if e.kind != ErrorKind::AlreadyApplied => self.queue.push(PatchEvent::Error(e)),
            // The text so far applies (or is already applied): the verdict
            // waits for the whole patch.
            _ => {}
        }
        // Nothing more is reported; the end still answers for everything.
        self.stopped = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `check` leaves the verdict to the one-shot call on the text so far:
    /// its error is the event; when that text applies, or is already
    /// applied, nothing is reported and the stream goes quiet. (A stream
    /// asks only after a failure it saw, so the quiet answers are reached
    /// here, by asking directly.)
    #[test]
    fn check_reports_only_the_one_shot_error_and_stops_either_way() {
        let text = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n";
        for (contents, error) in [("a\n", None), ("b\n", None), ("c\n", Some(ErrorKind::ContextNotFound))] {
            let mut s = PatchStream::new([("a.txt".to_string(), contents.to_string())], Mode::Strict);
            assert_eq!(s.push(text).len(), 1, "{contents:?}: the operation only");
            s.check(5);
            let kinds: Vec<_> = s.queue.iter().filter_map(|e| if let PatchEvent::Error(e) = e { Some(e.kind) } else { None }).collect();
            assert_eq!(kinds, Vec::from_iter(error), "{contents:?}");
            assert!(s.stopped, "{contents:?}");
            // Quiet: later lines complete nothing.
            s.queue.clear();
            assert_eq!(s.push("*** Add File: b.txt\n+x\n*** End Patch\n"), [], "{contents:?}");
        }
    }
}
