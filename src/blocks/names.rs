//! The `file-name` repair of edit blocks over a file map: a file name
//! written as the model remembered it, taken as the one file of the map it
//! can only mean.
//!
//! A name that is not in the map is looked up, in this order: as a POSIX
//! path (`src\app.py` is `src/app.py`; a leading `./` goes); as the end of
//! one path (`app.py` or `src/app.py` for `pkg/src/app.py`); and as the same
//! name but for `.`, `_`, `/` and `\` (`app_py` for `app.py`). The first
//! lookup that finds anything decides: one file is the repair, several are
//! refused and listed. A block that creates a file (an empty SEARCH text)
//! keeps its name as written, and so do later blocks naming that new file.

use std::collections::{HashMap, HashSet};

use super::Parsed;
use crate::repair::context::{Repair, RepairKind};

/// Most files a refusal lists.
const LISTED: usize = 10;

/// What became of one block's file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Note {
    /// Kept as written.
    Kept,
    /// Taken as the one file it can mean (the new path is in the edit).
    Mapped(Repair),
    /// Not in the map and could mean several files: the message says which.
    Refused(String),
    /// Not in the map and the repair is not allowed: the one file it can
    /// mean, for the message.
    Hint(String),
}

/// How a written name was found.
enum How {
    Posix,
    Suffix,
    Slips,
}

/// The file map's paths, indexed for the three lookups (each list holds at
/// most `LISTED + 1` paths: enough to list, and to say there are more), so a
/// lookup costs the name's length, whatever the map.
struct Index<'a> {
    known: HashSet<&'a str>,
    /// Every path by each of its ends after a `/` (`b/c.py`, `c.py` for `a/b/c.py`).
    by_end: HashMap<&'a str, Vec<&'a str>>,
    by_key: HashMap<String, Vec<&'a str>>,
}

fn add<'a, K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<&'a str>>, k: K, path: &'a str) {
    let list = map.entry(k).or_default();
    if list.len() <= LISTED {
        list.push(path);
    }
}

/// The name without `.`, `_`, `/` and `\`.
fn key(name: &str) -> String {
    name.chars().filter(|c| !matches!(c, '.' | '_' | '/' | '\\')).collect()
}

impl<'a> Index<'a> {
    fn new(paths: &[&'a str]) -> Self {
        let mut by_end: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut by_key: HashMap<String, Vec<&str>> = HashMap::new();
        for &p in paths {
            for (at, _) in p.match_indices('/') {
                if let Some(end) = p.get(at + 1..).filter(|e| !e.is_empty()) {
                    add(&mut by_end, end, p);
                }
            }
            add(&mut by_key, key(p), p);
        }
        Index { known: paths.iter().copied().collect(), by_end, by_key }
    }

    /// The files a written name can mean, and how they were found.
    fn candidates(&self, written: &str) -> (Vec<&'a str>, How) {
        let posix = written.replace('\\', "/");
        let posix = posix.trim_start_matches("./");
        if let Some(&p) = self.known.get(posix) {
            return (vec![p], How::Posix);
        }
        if let Some(ends) = self.by_end.get(posix) {
            return (ends.clone(), How::Suffix);
        }
        let k = key(written);
        let slips = if k.is_empty() { Vec::new() } else { self.by_key.get(&k).cloned().unwrap_or_default() };
        (slips, How::Slips)
    }
}

/// The blocks' file names mapped onto `paths` (the file map's): the parsed
/// blocks with the names replaced where the repair applies, and one note per
/// edit. `allow`: whether the `file-name` repair is allowed (without it,
/// names stay as written and a name that can mean one file gets a hint).
pub(super) fn map_names(parsed: &Parsed, paths: &[&str], allow: bool) -> (Parsed, Vec<Note>) {
    let index = Index::new(paths);
    let mut out = parsed.clone();
    let mut notes = Vec::with_capacity(parsed.edits.len());
    let mut created: HashSet<String> = HashSet::new();
    // One lookup per distinct name.
    let mut seen: HashMap<String, (Vec<String>, &'static str)> = HashMap::new();
    for (i, edit) in out.edits.iter_mut().enumerate() {
        let Some(written) = edit.path.clone() else {
            notes.push(Note::Kept);
            continue;
        };
        if index.known.contains(written.as_str()) || created.contains(&written) {
            notes.push(Note::Kept);
            continue;
        }
        if edit.search.is_empty() {
            created.insert(written);
            notes.push(Note::Kept);
            continue;
        }
        let (files, why) = seen.entry(written.clone()).or_insert_with(|| {
            let (files, how) = index.candidates(&written);
            let why = match how {
                How::Posix => "the same path written with '/'",
                How::Suffix => "the only file whose path ends so",
                How::Slips => "the same name but for '.', '_', '/' or '\\'",
            };
            (files.iter().take(LISTED + 1).map(|f| f.to_string()).collect(), why)
        });
        let at = format!("Block {} (line {}) names {written}, which is not among the files", i + 1, edit.line);
        let note = match files.as_slice() {
            [] => {
                // No file it can only mean: the paths near it, for the message.
                let near = crate::near::near_paths(&written, paths);
                if near.is_empty() {
                    Note::Kept
                } else {
                    Note::Hint(format!(" The files have similar paths: {}.", crate::near::list(&near)))
                }
            }
            [file] if allow => {
                let message =
                    format!("{at}; it was taken as {file}, the one file that name can mean ({why}). Write the file's path as given.");
                edit.path = Some(file.clone());
                let mut repair = Repair::new(RepairKind::FileName, message, None, None);
                repair.path = Some(file.clone());
                Note::Mapped(repair)
            }
            [file] => {
                Note::Hint(format!(" Did you mean {file}? (The 'file-name' repair takes a name that can mean one file only as that file.)"))
            }
            many if allow => {
                let shown: Vec<&str> = many.iter().take(LISTED).map(String::as_str).collect();
                let more = if many.len() > LISTED { " and more" } else { "" };
                Note::Refused(format!(
                    "{at}, and it could mean any of {}{more}, so it was not applied. Write the file's exact path.",
                    shown.join(", ")
                ))
            }
            many => Note::Hint(format!(
                " The files have similar paths: {}.",
                crate::near::list(&many.iter().map(String::as_str).collect::<Vec<_>>())
            )),
        };
        notes.push(note);
    }
    (out, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::parse_blocks_detailed;

    fn names(message: &str, paths: &[&str], allow: bool) -> (Vec<Option<String>>, Vec<Note>) {
        let (parsed, notes) = map_names(&parse_blocks_detailed(message), paths, allow);
        (parsed.edits.into_iter().map(|e| e.path).collect(), notes)
    }

    fn block(path: &str, search: &str) -> String {
        format!("{path}\n<<<<<<< SEARCH\n{search}\n=======\nnew\n>>>>>>> REPLACE\n")
    }

    const FILES: [&str; 5] = ["file1.py", "file2.py", "dir/file3.py", "\\windows\\__init__.py", "a/b/c.py"];

    #[test]
    fn names_map_onto_the_one_file_they_can_mean() {
        for (written, file) in [
            ("file3.py", "dir/file3.py"),
            ("file1_py", "file1.py"),
            ("\\windows__init__.py", "\\windows\\__init__.py"),
            ("a\\b\\c.py", "a/b/c.py"),
            ("./a/b/c.py", "a/b/c.py"),
            ("b/c.py", "a/b/c.py"),
        ] {
            let (paths, notes) = names(&block(written, "x"), &FILES, true);
            assert_eq!(paths, [Some(file.to_string())], "{written}");
            assert!(matches!(&notes[0], Note::Mapped(r) if r.kind == RepairKind::FileName), "{written}");
        }
        let (_, notes) = names(&block("file3.py", "x"), &FILES, true);
        let Note::Mapped(r) = &notes[0] else { panic!() };
        assert_eq!(r.line(), "repaired[file-name] (dir/file3.py): Block 1 (line 2) names file3.py, which is not among the files; it was taken as dir/file3.py, the one file that name can mean (the only file whose path ends so). Write the file's path as given.");
        // Unknown names, names in the map and new files stay.
        let message = [block("invalid_file.py", "x"), block("file1.py", "x"), block("file9.py", ""), block("file9.py", "x")].concat();
        let (paths, notes) = names(&message, &[&FILES[..], &["x/file9.py"]].concat(), true);
        assert_eq!(paths, ["invalid_file.py", "file1.py", "file9.py", "file9.py"].map(|p| Some(p.to_string())));
        assert!(notes.iter().all(|n| *n == Note::Kept));
    }

    #[test]
    fn two_files_are_refused_and_no_repair_only_hints() {
        let (paths, notes) = names(&block("util.py", "x"), &["a/util.py", "b/util.py"], true);
        assert_eq!(paths, [Some("util.py".to_string())]);
        assert_eq!(notes, [Note::Refused("Block 1 (line 2) names util.py, which is not among the files, and it could mean any of a/util.py, b/util.py, so it was not applied. Write the file's exact path.".into())]);
        let (paths, notes) = names(&block("file3.py", "x"), &FILES, false);
        assert_eq!(paths, [Some("file3.py".to_string())]);
        assert!(matches!(&notes[0], Note::Hint(h) if h.contains("Did you mean dir/file3.py?")));
    }

    #[test]
    fn ten_files_are_listed_and_more_are_said_to_be_more() {
        let dirs: Vec<String> = (0..11).map(|i| format!("d{i:02}/util.py")).collect();
        let ten: Vec<&str> = dirs.iter().take(10).map(String::as_str).collect();
        let all: Vec<&str> = dirs.iter().map(String::as_str).collect();
        let listed = ten.join(", ");
        for (paths, more) in [(&ten, ""), (&all, " and more")] {
            let (_, notes) = names(&block("util.py", "x"), paths, true);
            assert_eq!(notes, [Note::Refused(format!("Block 1 (line 2) names util.py, which is not among the files, and it could mean any of {listed}{more}, so it was not applied. Write the file's exact path."))]);
        }
    }
}
