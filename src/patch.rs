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

/// What an operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperationKind {
    Add,
    Delete,
    Update,
}

impl OperationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            OperationKind::Add => "add",
            OperationKind::Delete => "delete",
            OperationKind::Update => "update",
        }
    }
}

/// One file operation of a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub kind: OperationKind,
    /// The path exactly as written (no normalisation).
    pub path: String,
    /// Update only: the `*** Move to:` destination.
    pub move_to: Option<String>,
    /// Add only: the file's contents (each `+` line plus `\n`).
    pub contents: Option<String>,
    /// Update only: the body, from the line after the header (and after
    /// `*** Move to:`) to the next file header or `*** End Patch`, each line
    /// ending with `\n`.
    pub diff: Option<String>,
    /// 1-based line of the operation's header in the patch as given.
    pub line: usize,
    /// 1-based line of the header as Codex counts (for messages).
    pub(crate) codex_line: usize,
    /// Where the body starts (Codex's count), and what follows it.
    pub(crate) body_codex_line: usize,
    pub(crate) next_codex_line: usize,
    pub(crate) next: Option<String>,
}

/// A parsed `*** Begin Patch` patch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patch {
    /// The `*** Environment ID:` value, trimmed.
    pub environment_id: Option<String>,
    pub operations: Vec<Operation>,
    /// Real line = Codex line + `offset` (lines trimmed away or unwrapped;
    /// -1 when a repair supplied a missing `*** Begin Patch`).
    pub(crate) offset: isize,
}

impl Patch {
    /// The real line of a line Codex numbers `codex_line`.
    pub(crate) fn real_line(&self, codex_line: usize) -> usize {
        codex_line.saturating_add_signed(self.offset).max(1)
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
    let trimmed = patch.trim();
    // Lines trimmed away at the start: each `\n` before the text.
    let lead = patch.len() - patch.trim_start().len();
    let mut offset = patch.get(..lead).unwrap_or("").matches('\n').count();
    let all: Vec<&str> = trimmed.lines().collect();
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
            let mut op = Operation {
                kind,
                path: path.to_string(),
                move_to: None,
                contents: None,
                diff: None,
                line: self.patch.real_line(self.codex_line(i)),
                codex_line: self.codex_line(i),
                body_codex_line: 0,
                next_codex_line: 0,
                next: None,
            };
            self.i += 1;
            match kind {
                OperationKind::Add => {
                    let mut contents = String::new();
                    while self.i < last && push_added_line(&mut contents, self.line(self.i)) {
                        self.i += 1;
                    }
                    op.contents = Some(contents);
                }
                OperationKind::Delete => {}
                OperationKind::Update => self.update_body(&mut op, last)?,
            }
            self.patch.operations.push(op);
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
    fn update_body(&mut self, op: &mut Operation, last: usize) -> Result<()> {
        if self.i < last {
            if let Some(dest) = self.line(self.i).trim_end().strip_prefix("*** Move to: ") {
                op.move_to = Some(dest.to_string());
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
        op.body_codex_line = self.codex_line(start);
        op.next_codex_line = self.codex_line(self.i);
        op.next = (self.i < last).then(|| self.line(self.i).to_string());
        if start == self.i {
            return Err(self.hunk_error(
                ErrorKind::EmptyUpdate,
                op.codex_line - 1,
                format!("Update file hunk for path '{}' is empty", op.path),
            ));
        }
        op.diff = Some(body);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(p: &Patch) -> Vec<(OperationKind, &str)> {
        p.operations.iter().map(|o| (o.kind, o.path.as_str())).collect()
    }

    #[test]
    fn operations_and_bodies() {
        let p = parse("\n\n*** Begin Patch\r\n*** Add File: a.txt\r\n+one\r\n+\r\n*** Delete File: b\n  *** Update File: c  \n*** Move to: d \n@@ x\n-y\n+z\n\n*** End Patch\n\n").unwrap();
        assert_eq!(kinds(&p), [(OperationKind::Add, "a.txt"), (OperationKind::Delete, "b"), (OperationKind::Update, "c")]);
        assert_eq!(p.operations[0].contents.as_deref(), Some("one\n\n"));
        assert_eq!(p.operations[2].move_to.as_deref(), Some("d"));
        assert_eq!(p.operations[2].diff.as_deref(), Some("@@ x\n-y\n+z\n\n"));
        assert_eq!(p.operations.iter().map(|o| o.line).collect::<Vec<_>>(), [4, 7, 8]);
        assert_eq!(p.operations[2].codex_line, 6);
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
        assert_eq!(p.environment_id.as_deref(), Some("env-1"));
        assert_eq!(p.operations[0].line, 4);
        assert_eq!(p.operations[0].codex_line, 3);
        assert!(parse("<<'PATCH'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nPATCH").is_err());
    }
}
