//! The `*** Begin Patch` envelope, read by the Codex CLI's rules in every
//! mode: the whole text trimmed, whitespace around markers allowed, a heredoc
//! wrapper unwrapped, CRLF patches, an optional `*** Environment ID:`. It
//! yields the operations; an update's body is kept as text, to be read by the
//! mode's own update rules (`diff::parse`).
//!
//! Line numbers: messages count lines as Codex does (from the
//! `*** Begin Patch` line, after trimming and unwrapping), so that they read
//! as models know them; `Error::diff_line` and `Operation::line` count lines
//! of the text as given.

use crate::diff::is_envelope_line;
use crate::error::{Error, ErrorKind, Result};

/// What an operation does, without its data: for grouping and for the
/// names the JS API uses (`"add"`, `"delete"`, `"update"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum OperationKind {
    /// `*** Add File:` (a create).
    Add,
    /// `*** Delete File:`.
    Delete,
    /// `*** Update File:`, with or without `*** Move to:`.
    Update,
}

impl OperationKind {
    /// Every kind, in a fixed order.
    pub const ALL: &'static [OperationKind] = &[OperationKind::Add, OperationKind::Delete, OperationKind::Update];

    /// The kind's name: `"add"`, `"delete"` or `"update"`.
    pub fn as_str(self) -> &'static str {
        match self {
            OperationKind::Add => "add",
            OperationKind::Delete => "delete",
            OperationKind::Update => "update",
        }
    }
}

/// One file operation of a patch. Paths are exactly as written (no
/// normalisation); `line` is the 1-based line of the operation's header in
/// the patch as given.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(tag = "kind", rename_all = "lowercase", rename_all_fields = "camelCase"))]
#[non_exhaustive]
pub enum Operation {
    /// `*** Add File:`: creates the file, or replaces it.
    Add {
        /// The new file.
        path: String,
        /// Its contents: each `+` line's text followed by `\n`.
        contents: String,
        /// The header's line.
        line: usize,
    },
    /// `*** Delete File:`.
    Delete {
        /// The file to delete.
        path: String,
        /// The header's line.
        line: usize,
    },
    /// `*** Update File:`: applies `diff` to the file, then moves it to
    /// `move_to` if there is one.
    Update {
        /// The file to update.
        path: String,
        /// The `*** Move to:` destination.
        #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
        move_to: Option<String>,
        /// The body, from the line after the header (and after
        /// `*** Move to:`) to the next file header or `*** End Patch`, each
        /// line ending with `\n`; it is read by the mode's update rules.
        diff: String,
        /// The header's line.
        line: usize,
    },
}

impl Operation {
    /// What the operation does.
    pub fn kind(&self) -> OperationKind {
        match self {
            Operation::Add { .. } => OperationKind::Add,
            Operation::Delete { .. } => OperationKind::Delete,
            Operation::Update { .. } => OperationKind::Update,
        }
    }

    /// The path the operation names in its header.
    pub fn path(&self) -> &str {
        match self {
            Operation::Add { path, .. } | Operation::Delete { path, .. } | Operation::Update { path, .. } => path,
        }
    }

    /// The 1-based line of the operation's header in the patch as given.
    pub fn line(&self) -> usize {
        match self {
            Operation::Add { line, .. } | Operation::Delete { line, .. } | Operation::Update { line, .. } => *line,
        }
    }

    /// The path the operation leaves behind: the `*** Move to:` destination
    /// of a move, else its path.
    pub fn destination(&self) -> &str {
        match self {
            Operation::Update { move_to: Some(dest), .. } => dest,
            _ => self.path(),
        }
    }
}

/// Where an operation is, as Codex counts lines (for Codex's messages).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place {
    /// 1-based line of the header as Codex counts.
    pub(crate) codex_line: usize,
    /// Where an update's body starts (Codex's count), and what follows it.
    pub(crate) body_codex_line: usize,
    pub(crate) next_codex_line: usize,
    pub(crate) next: Option<String>,
}

/// A parsed `*** Begin Patch` patch: its operations in order, read by the
/// Codex CLI's envelope rules in every mode.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Patch {
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    environment_id: Option<String>,
    operations: Vec<Operation>,
    /// One per operation.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) places: Vec<Place>,
    /// Real line = Codex line + `offset` (lines trimmed away or unwrapped;
    /// -1 when a repair supplied a missing `*** Begin Patch`).
    #[cfg_attr(feature = "serde", serde(skip))]
    offset: isize,
    /// What [`Patch::touches`] computes, kept: a caller asks for the touches,
    /// then applies (src/files.rs).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) slots: Computed<Slots>,
}

/// [`Patch::touches`], and for each operation the position there of its path
/// and of its move's destination (a move to another path).
pub(crate) type Slots = (Vec<Touch>, Vec<(usize, Option<usize>)>);

/// A path a patch touches, and what the patch needs to know about it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct Touch {
    /// The path, as written in the patch.
    pub path: String,
    /// An update or delete names it: [`Patch::apply`] looks it up (unless an
    /// earlier operation wrote it).
    pub read: bool,
    /// Its text before the patch is needed: the first operation on the path
    /// updates it (a file that is not text cannot be updated). An update
    /// after another operation on the path sees what that one left.
    pub needs_text: bool,
    /// When an update moves a file here: the file it moves.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub moved_from: Option<String>,
}

/// A value computed from the rest of a struct, once, on first use. Not part
/// of the struct's value: equal patches compare equal whether or not it was
/// computed yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct Computed<T>(std::sync::OnceLock<T>);

impl<T> Computed<T> {
    pub(crate) fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(f)
    }
}

impl<T> PartialEq for Computed<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Computed<T> {}

impl Patch {
    /// The `*** Environment ID:` value, trimmed.
    pub fn environment_id(&self) -> Option<&str> {
        self.environment_id.as_deref()
    }

    /// The file operations, in patch order.
    pub fn operations(&self) -> &[Operation] {
        &self.operations
    }

    /// The real line of a line Codex numbers `codex_line`.
    pub(crate) fn real_line(&self, codex_line: usize) -> usize {
        codex_line.saturating_add_signed(self.offset).max(1)
    }

    /// Moves every line number by `delta`: an envelope repair unwrapped the
    /// patch from what was around it, or supplied a missing first line.
    pub(crate) fn shift_lines(&mut self, delta: isize) {
        self.offset += delta;
        for op in &mut self.operations {
            let (Operation::Add { line, .. } | Operation::Delete { line, .. } | Operation::Update { line, .. }) = op;
            *line = line.saturating_add_signed(delta).max(1);
        }
    }

    /// Each operation with where Codex counts it.
    pub(crate) fn located(&self) -> impl Iterator<Item = (&Operation, &Place)> {
        self.operations.iter().zip(&self.places)
    }
}

const FIRST: &str = "The first line of the patch must be '*** Begin Patch'";
const LAST: &str = "The last line of the patch must be '*** End Patch'";
const VALID_HEADERS: &str = "Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'";

fn invalid_patch(what: &str) -> Error {
    Error::new(ErrorKind::InvalidPatch, format!("Invalid patch: {what}"))
}

/// Codex's boundary check on the selected lines.
fn check_boundaries(lines: &[&str]) -> std::result::Result<(), &'static str> {
    match lines.first() {
        Some(first) if first.trim() == "*** Begin Patch" => {}
        Some(_) => return Err(FIRST),
        None => return Err(LAST),
    }
    match lines.last() {
        Some(last) if lines.len() > 1 && last.trim() == "*** End Patch" => Ok(()),
        _ => Err(LAST),
    }
}

/// Parses a patch. Errors carry the real line (`diff_line`) and Codex's
/// wording.
pub fn parse(patch: &str) -> Result<Patch> {
    crate::limits::check_text("the patch", patch)?;
    let trimmed = patch.trim();
    // Lines trimmed away at the start: each `\n` before the text.
    let lead = patch.len() - patch.trim_start().len();
    let mut offset = patch.get(..lead).unwrap_or("").matches('\n').count();
    // `str::lines` but one scan for every break (`diff_lines`; the text is
    // trimmed, so no last line ends in a lone `\r` that the two would treat
    // apart).
    let all: Vec<&str> = crate::diff::diff_lines(trimmed).collect();
    let lines: &[&str] = match check_boundaries(&all) {
        Ok(()) => &all,
        Err(original) => {
            // Lenient mode: a heredoc around the patch (`<<EOF` … `EOF`).
            let heredoc = matches!(all.first(), Some(&"<<EOF") | Some(&"<<'EOF'") | Some(&"<<\"EOF\""))
                && all.last().is_some_and(|l| l.ends_with("EOF"))
                && all.len() >= 4;
            let inner = all.get(1..all.len().saturating_sub(1)).unwrap_or(&[]);
            if heredoc && check_boundaries(inner).is_ok() {
                offset += 1;
                inner
            } else {
                let line = if original == FIRST { Some(offset + 1) } else { None };
                let mut e = invalid_patch(original);
                if let Some(first) = all.first().filter(|_| original == FIRST) {
                    e.message.push_str(&format!(" (it is {}).", crate::diff::show(first)));
                    e.message.push_str(first_line_hint(first));
                }
                e.diff_line = line.or(Some(offset + all.len().max(1)));
                return Err(e);
            }
        }
    };
    let mut parser = Parser { patch: Patch { offset: offset as isize, ..Patch::default() }, lines, i: 1 };
    parser.run()?;
    Ok(parser.patch)
}

/// What the first line suggests went wrong, for the model.
fn first_line_hint(first: &str) -> &'static str {
    let t = first.trim();
    if t.starts_with('{') || t.starts_with('[') {
        " The patch looks wrapped in JSON: send the patch text itself, starting with '*** Begin Patch'."
    } else if t.starts_with("```") {
        " The patch looks wrapped in a Markdown fence: send it without the ``` lines."
    } else if t.to_ascii_lowercase().contains("begin patch") {
        " Write the marker exactly as '*** Begin Patch', alone on its line."
    } else {
        ""
    }
}

struct Parser<'a> {
    patch: Patch,
    lines: &'a [&'a str],
    /// Index of the next line to read (line 0 is `*** Begin Patch`).
    i: usize,
}

/// A file header read from a line.
fn header(t: &str) -> Option<(OperationKind, &str)> {
    if let Some(p) = t.strip_prefix("*** Add File: ") {
        Some((OperationKind::Add, p))
    } else if let Some(p) = t.strip_prefix("*** Delete File: ") {
        Some((OperationKind::Delete, p))
    } else {
        t.strip_prefix("*** Update File: ").map(|p| (OperationKind::Update, p))
    }
}

/// The rule for the lines of a new file, shared by `*** Add File:` bodies and
/// the Responses API's create diffs (`files::create_file`): a line `+text`
/// (its line break already removed) adds `text` and a `\n`, as Codex writes
/// it. Returns false, adding nothing, for a line that does not start with `+`.
pub(crate) fn push_added_line(contents: &mut String, line: &str) -> bool {
    match line.strip_prefix('+') {
        Some(text) => {
            contents.push_str(text);
            contents.push('\n');
            true
        }
        None => false,
    }
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

impl<'a> Parser<'a> {
    fn line(&self, i: usize) -> &'a str {
        strip_cr(self.lines.get(i).copied().unwrap_or(""))
    }

    fn codex_line(&self, i: usize) -> usize {
        i + 1
    }

    fn hunk_error(&self, kind: ErrorKind, i: usize, what: String) -> Error {
        let n = self.codex_line(i);
        Error::new(kind, format!("Invalid patch hunk on line {n}: {what}")).at_diff_line(self.patch.real_line(n))
    }

    fn not_a_header(&self, i: usize) -> Error {
        let t = self.line(i).trim();
        self.hunk_error(ErrorKind::InvalidHeader, i, format!("'{t}' is not a valid hunk header. {VALID_HEADERS}"))
    }

    fn run(&mut self) -> Result<()> {
        let last = self.lines.len().saturating_sub(1); // the `*** End Patch` line
        while self.i < last {
            let i = self.i;
            let t = self.line(i).trim();
            if t == "*** End Patch" {
                // Only blank lines may follow an early End Patch, and the last
                // line is another End Patch: Codex reports it as the last line.
                return Err(invalid_patch(LAST).at_diff_line(self.patch.real_line(self.codex_line(i))));
            }
            if let Some(rest) = t.strip_prefix("*** Environment ID:") {
                self.environment_id(i, rest)?;
                self.i += 1;
                continue;
            }
            let Some((kind, path)) = header(t) else {
                return Err(self.not_a_header(i));
            };
            let line = self.patch.real_line(self.codex_line(i));
            let mut place = Place { codex_line: self.codex_line(i), ..Place::default() };
            let path = path.to_string();
            self.i += 1;
            let op = match kind {
                OperationKind::Add => {
                    let mut contents = String::new();
                    while self.i < last && push_added_line(&mut contents, self.line(self.i)) {
                        self.i += 1;
                    }
                    Operation::Add { path, contents, line }
                }
                OperationKind::Delete => Operation::Delete { path, line },
                OperationKind::Update => {
                    let (move_to, diff) = self.update_body(&path, &mut place, last)?;
                    Operation::Update { path, move_to, diff, line }
                }
            };
            self.patch.operations.push(op);
            self.patch.places.push(place);
        }
        Ok(())
    }

    fn environment_id(&mut self, i: usize, rest: &str) -> Result<()> {
        let n = self.patch.real_line(self.codex_line(i));
        if self.patch.environment_id.is_some() {
            return Err(invalid_patch("apply_patch environment_id cannot be specified more than once").at_diff_line(n));
        }
        if !self.patch.operations.is_empty() {
            return Err(self.not_a_header(i));
        }
        let id = rest.trim();
        if id.is_empty() {
            return Err(invalid_patch("apply_patch environment_id cannot be empty").at_diff_line(n));
        }
        self.patch.environment_id = Some(id.to_string());
        Ok(())
    }

    /// Reads `*** Move to:` and the body of an update, up to the next line of
    /// the envelope (matched on the right-trimmed line, as Codex does).
    fn update_body(&mut self, path: &str, place: &mut Place, last: usize) -> Result<(Option<String>, String)> {
        let mut move_to = None;
        if self.i < last {
            if let Some(dest) = self.line(self.i).trim_end().strip_prefix("*** Move to: ") {
                move_to = Some(dest.to_string());
                self.i += 1;
            }
        }
        let start = self.i;
        let mut body = String::new();
        while self.i < last && !is_envelope_line(self.line(self.i).trim_end()) {
            body.push_str(self.line(self.i));
            body.push('\n');
            self.i += 1;
        }
        place.body_codex_line = self.codex_line(start);
        place.next_codex_line = self.codex_line(self.i);
        place.next = (self.i < last).then(|| self.line(self.i).to_string());
        if start == self.i {
            return Err(self.hunk_error(
                ErrorKind::EmptyUpdate,
                place.codex_line - 1,
                format!("Update file hunk for path '{path}' is empty"),
            ));
        }
        Ok((move_to, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(p: &Patch) -> Vec<(OperationKind, &str)> {
        p.operations().iter().map(|o| (o.kind(), o.path())).collect()
    }

    #[test]
    fn operations_and_bodies() {
        let p = parse("\n\n*** Begin Patch\r\n*** Add File: a.txt\r\n+one\r\n+\r\n*** Delete File: b\n  *** Update File: c  \n*** Move to: d \n@@ x\n-y\n+z\n\n*** End Patch\n\n").unwrap();
        assert_eq!(kinds(&p), [(OperationKind::Add, "a.txt"), (OperationKind::Delete, "b"), (OperationKind::Update, "c")]);
        assert!(matches!(&p.operations()[0], Operation::Add { contents, .. } if contents == "one\n\n"));
        assert!(matches!(&p.operations()[2], Operation::Update { move_to: Some(d), diff, .. } if d == "d" && diff == "@@ x\n-y\n+z\n\n"));
        assert_eq!(p.operations().iter().map(|o| o.line()).collect::<Vec<_>>(), [4, 7, 8]);
        assert_eq!(p.places[2].codex_line, 6);
    }

    #[test]
    fn envelope_errors() {
        let msg = |t: &str| parse(t).unwrap_err().message;
        assert_eq!(msg(""), "Invalid patch: The last line of the patch must be '*** End Patch'");
        assert_eq!(msg("*** Begin Patch"), "Invalid patch: The last line of the patch must be '*** End Patch'");
        assert!(msg("{\"patch\": 1}\n*** End Patch").starts_with("Invalid patch: The first line of the patch must be '*** Begin Patch'"));
        assert!(msg("{\"x\":1}").contains("JSON"));
        assert_eq!(
            msg("*** Begin Patch\nhello\n*** End Patch"),
            "Invalid patch hunk on line 2: 'hello' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'"
        );
        assert_eq!(
            msg("*** Begin Patch\n*** Update File: a\n*** End Patch"),
            "Invalid patch hunk on line 2: Update file hunk for path 'a' is empty"
        );
        assert_eq!(
            msg("*** Begin Patch\n*** Environment ID:  \n*** End Patch"),
            "Invalid patch: apply_patch environment_id cannot be empty"
        );
    }

    #[test]
    fn heredoc_and_environment_id() {
        let p = parse("<<'EOF'\n*** Begin Patch\n*** Environment ID: env-1 \n*** Add File: a\n+x\n*** End Patch\nEOF\n").unwrap();
        assert_eq!(p.environment_id(), Some("env-1"));
        assert_eq!(p.operations()[0].line(), 4);
        assert_eq!(p.places[0].codex_line, 3);
        assert!(parse("<<'PATCH'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nPATCH").is_err());
    }
}
