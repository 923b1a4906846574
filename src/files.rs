//! A patch's file operations over a map of paths to contents: in order, each
//! seeing the ones before (add then update, update twice, delete then add),
//! and all or nothing (an error returns no files). The caller's files are
//! never changed; the result lists the final state of every path the patch
//! touched.
//!
//! Like the Codex CLI: Add replaces an existing file, Delete and Update of a
//! missing path fail, Move overwrites its destination. Unlike it, Move to the
//! same path keeps the file (Codex writes it, then deletes it).

use std::collections::{BTreeMap, HashMap};

use crate::diff::{self, BodyEnd, Dialect, Diff};
use crate::error::{Error, ErrorKind, Result};
use crate::patch::{self, Operation, OperationKind, Patch};
use crate::Mode;

/// The final state of one path the patch touched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    pub path: String,
    /// The new contents, or `None` when the file was deleted (or moved away).
    pub contents: Option<String>,
}

/// Paths touched so far, in the order first touched, over the caller's files.
struct Overlay<'f, F> {
    base: F,
    changes: Vec<FileChange>,
    at: HashMap<String, usize>,
    _files: std::marker::PhantomData<&'f ()>,
}

impl<'f, F: Fn(&str) -> Option<&'f str>> Overlay<'f, F> {
    fn get(&self, path: &str) -> Option<&str> {
        match self.at.get(path).and_then(|&i| self.changes.get(i)) {
            Some(change) => change.contents.as_deref(),
            None => (self.base)(path),
        }
    }

    fn set(&mut self, path: &str, contents: Option<String>) {
        match self.at.get(path).and_then(|&i| self.changes.get_mut(i)) {
            Some(change) => change.contents = contents,
            None => {
                self.at.insert(path.to_string(), self.changes.len());
                self.changes.push(FileChange { path: path.to_string(), contents });
            }
        }
    }
}

/// Applies a `*** Begin Patch` patch to files looked up with `get`, and
/// returns the final state of every path it touched.
pub fn apply_patch<'f>(text: &str, mode: Mode, get: impl Fn(&str) -> Option<&'f str>) -> Result<Vec<FileChange>> {
    let patch = patch::parse(text)?;
    if patch.operations.is_empty() {
        return Err(Error::new(ErrorKind::EmptyPatch, "No files were modified."));
    }
    // Every body is read before anything is applied, as Codex parses the
    // whole patch first.
    let bodies: Vec<Option<Diff>> = patch
        .operations
        .iter()
        .enumerate()
        .map(|(k, op)| read_body(&patch, op, mode).map_err(|e| locate(e, op, k, mode)))
        .collect::<Result<_>>()?;
    let mut files = Overlay { base: get, changes: Vec::new(), at: HashMap::new(), _files: std::marker::PhantomData };
    for (k, (op, body)) in patch.operations.iter().zip(&bodies).enumerate() {
        apply_operation(&mut files, op, body.as_ref(), mode).map_err(|e| locate(e, op, k, mode))?;
    }
    Ok(files.changes)
}

/// Applies a patch to a map of files and returns the new map.
pub fn apply_files(files: &BTreeMap<String, String>, text: &str, mode: Mode) -> Result<BTreeMap<String, String>> {
    let changes = apply_patch(text, mode, |p| files.get(p).map(String::as_str))?;
    let mut out = files.clone();
    for c in changes {
        match c.contents {
            Some(contents) => out.insert(c.path, contents),
            None => out.remove(&c.path),
        };
    }
    Ok(out)
}

/// What the Codex CLI prints when the patch applies: `A` lines for added
/// files, then `M` for updated ones (a move prints its destination), then `D`
/// for deleted ones, each group in patch order.
pub fn summary(text: &str) -> Result<String> {
    let patch = patch::parse(text)?;
    if patch.operations.is_empty() {
        return Err(Error::new(ErrorKind::EmptyPatch, "No files were modified."));
    }
    let mut out = String::from("Success. Updated the following files:\n");
    for (kind, letter) in [(OperationKind::Add, 'A'), (OperationKind::Update, 'M'), (OperationKind::Delete, 'D')] {
        for op in patch.operations.iter().filter(|o| o.kind == kind) {
            let path = op.move_to.as_deref().unwrap_or(&op.path);
            out.push_str(&format!("{letter} {path}\n"));
        }
    }
    Ok(out)
}

/// Reads an update's body by the mode's rules, numbering lines as the
/// mode's messages do.
fn read_body<'p>(patch: &Patch, op: &'p Operation, mode: Mode) -> Result<Option<Diff<'p>>> {
    let Some(body) = op.diff.as_deref() else { return Ok(None) };
    match mode.dialect() {
        Dialect::Strict => {
            let first = patch.real_line(op.body_codex_line);
            diff::parse(body, Dialect::Strict, first).map(Some)
        }
        Dialect::Codex => {
            let end = BodyEnd {
                first_line: op.body_codex_line,
                header_line: op.codex_line,
                path: &op.path,
                next_line: op.next_codex_line,
                next: op.next.as_deref(),
            };
            diff::parse_codex(body, &end).map(Some).map_err(|mut e| {
                e.diff_line = e.diff_line.map(|l| patch.real_line(l));
                e
            })
        }
    }
}

fn apply_operation<'f, F: Fn(&str) -> Option<&'f str>>(
    files: &mut Overlay<'f, F>,
    op: &Operation,
    body: Option<&Diff>,
    mode: Mode,
) -> Result<()> {
    let path = op.path.as_str();
    match op.kind {
        OperationKind::Add => files.set(path, Some(op.contents.clone().unwrap_or_default())),
        OperationKind::Delete => {
            if files.get(path).is_none() {
                return Err(Error::new(ErrorKind::FileNotFound, format!("Failed to delete file {path}")).at_diff_line(op.line));
            }
            files.set(path, None);
        }
        OperationKind::Update => {
            let Some(current) = files.get(path) else {
                return Err(Error::new(
                    ErrorKind::FileNotFound,
                    format!("Failed to read file to update {path}: No such file or directory (os error 2)"),
                )
                .at_diff_line(op.line));
            };
            let new = match body {
                Some(diff) => mode.apply_parsed(current, diff, Some(path))?,
                None => current.to_string(),
            };
            match op.move_to.as_deref() {
                Some(dest) if dest != path => {
                    files.set(dest, Some(new));
                    files.set(path, None);
                }
                _ => files.set(path, Some(new)),
            }
        }
    }
    Ok(())
}

/// Adds the operation's place to an error. Codex mode keeps Codex's wording
/// (it already names the path where Codex does); Strict messages, written
/// for one diff, get the path in front, and count lines of the patch.
fn locate(mut e: Error, op: &Operation, index: usize, mode: Mode) -> Error {
    if mode == Mode::Strict && e.path.is_none() && !matches!(e.kind, ErrorKind::FileNotFound) {
        e.message = format!("{}: {}", op.path, e.message.replace("Diff line", "Patch line").replace("diff line", "patch line"));
    }
    e.path = Some(op.path.clone());
    e.operation = Some(index);
    if e.diff_line.is_none() {
        e.diff_line = Some(op.line);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect()
    }

    #[test]
    fn operations_see_the_ones_before() {
        let patch = "*** Begin Patch\n*** Add File: n.txt\n+a\n*** Update File: n.txt\n@@\n-a\n+b\n*** Delete File: old\n*** Add File: old\n+new\n*** End Patch";
        for mode in [Mode::Strict, Mode::Codex] {
            let out = apply_files(&files(&[("old", "x\n")]), patch, mode).unwrap();
            assert_eq!(out, files(&[("n.txt", "b\n"), ("old", "new\n")]));
        }
    }

    #[test]
    fn all_or_nothing_with_the_failing_operation_located() {
        let patch = "*** Begin Patch\n*** Add File: a\n+1\n*** Update File: missing\n@@\n-x\n+y\n*** End Patch";
        let e = apply_files(&files(&[]), patch, Mode::Strict).unwrap_err();
        assert_eq!((e.kind, e.operation, e.path.as_deref(), e.diff_line), (ErrorKind::FileNotFound, Some(1), Some("missing"), Some(4)));
    }

    #[test]
    fn moves() {
        let patch = "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-1\n+2\n*** End Patch";
        assert_eq!(apply_files(&files(&[("a", "1\n"), ("b", "old\n")]), patch, Mode::Codex).unwrap(), files(&[("b", "2\n")]));
        let same = "*** Begin Patch\n*** Update File: a\n*** Move to: a\n@@\n-1\n+2\n*** End Patch";
        assert_eq!(apply_files(&files(&[("a", "1\n")]), same, Mode::Codex).unwrap(), files(&[("a", "2\n")]));
    }

    #[test]
    fn summary_groups_by_kind() {
        let patch = "*** Begin Patch\n*** Delete File: d\n*** Update File: u\n*** Move to: v\n@@\n-1\n+2\n*** Add File: a\n+x\n*** End Patch";
        assert_eq!(summary(patch).unwrap(), "Success. Updated the following files:\nA a\nM v\nD d\n");
        assert_eq!(summary("*** Begin Patch\n*** End Patch").unwrap_err().kind, ErrorKind::EmptyPatch);
    }
}
