//! Edit blocks over several files: each block goes to the file named on the
//! line before it (or the default file), blocks apply in message order, each
//! to its file as the blocks before it left it, and all or nothing.

use std::collections::{BTreeMap, HashMap};

use super::names::{map_names, Note};
use super::{apply_edit, parse_blocks_detailed, Edit, EditResult, Failure, Options, Parsed, ParsedEdit, Problem, Reason, Strategy};
use crate::error::Result;
use crate::files::FileChange;
use crate::repair::context::{Repair, RepairKind};

/// What happened to one block of a message applied over files.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct BlockResult {
    /// The file the block applies to.
    pub path: String,
    /// 1-based line of the block's start marker in the message.
    pub line: usize,
    /// 1-based line of its end marker.
    pub end_marker_line: usize,
    /// Whether the block applied.
    pub ok: bool,
    /// The strategy that matched; `None` on failure.
    pub strategy: Option<Strategy>,
    /// apply-edit-block's similarity (see [`super::Outcome::similarity`]).
    pub similarity: f64,
    /// How many places the winning strategy matched.
    pub matches: usize,
    /// Why the block failed: with `explain` or `unique`, and always for a
    /// block whose file is unknown.
    #[cfg_attr(feature = "serde", serde(flatten, skip_serializing_if = "Option::is_none"))]
    pub failure: Option<Failure>,
    /// On success, how the block was placed (see [`super::Outcome::note`]).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub note: Option<String>,
    /// The repairs [`Options::repair`] allowed for this block: its file
    /// name (`file-name`, [`apply_blocks_in`]) and its SEARCH text.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub repairs: Vec<Repair>,
}

/// The result of [`apply_blocks`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "camelCase"))]
pub struct BlocksResult {
    /// Every block applied, there was at least one, and none was malformed.
    pub ok: bool,
    /// The new contents of each file the blocks changed or created, in the
    /// order first named; empty unless `ok` (all or nothing).
    pub changes: Vec<FileChange>,
    /// One per block tried, in message order; the failing one last.
    pub results: Vec<BlockResult>,
    /// Blocks that are not closed (then nothing is applied).
    pub problems: Vec<Problem>,
}

/// Applies the search/replace blocks of `message` to files looked up with
/// `get`. Each block goes to the file written on the line before it (see
/// [`parse_blocks_detailed`]), or to `default_path` when none is written. A
/// block for a file that `get` does not have creates it when its SEARCH text
/// is empty, and fails otherwise (reason [`Reason::UnknownFile`]). Blocks
/// apply in message order, each to its file as the blocks before left it;
/// the first failure stops, and then no file changes.
///
/// ```
/// use applypatch::blocks::{apply_blocks, Options};
/// let message = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n\nb.py\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n";
/// let r = apply_blocks(message, &Options::SAFE, None, |p| (p == "a.py").then_some("x = 1\n")).unwrap();
/// assert!(r.ok);
/// assert_eq!(r.changes.iter().map(|c| (c.path.as_str(), c.contents.as_deref())).collect::<Vec<_>>(),
///            [("a.py", Some("x = 2\n")), ("b.py", Some("new\n"))]);
/// ```
pub fn apply_blocks<'f>(
    message: &str,
    options: &Options,
    default_path: Option<&str>,
    get: impl Fn(&str) -> Option<&'f str>,
) -> Result<BlocksResult> {
    apply_parsed_blocks(&parse_blocks_detailed(message), options, default_path, get)
}

/// [`apply_blocks`] on a message already parsed with [`parse_blocks_detailed`]
/// (a caller that first reads the files the blocks name parses once).
pub fn apply_parsed_blocks<'f>(
    parsed: &Parsed,
    options: &Options,
    default_path: Option<&str>,
    get: impl Fn(&str) -> Option<&'f str>,
) -> Result<BlocksResult> {
    let (paths, slots) = slots(parsed, default_path);
    apply_slots(parsed, &[], options, &paths, &slots, |slot| paths.get(slot).and_then(|&p| get(p)))
}

/// [`apply_blocks`] over a file map, where the map's paths are known: with
/// the `file-name` repair allowed ([`Options::repair`]), a block's file name
/// that is not in the map is taken as the one file it can only mean (the
/// same path with `/` for `\`, the one path that ends with it, or the same
/// name but for `.`, `_`, `/` and `\`), reported in the block's `repairs`;
/// a name that could mean several files is refused, listing them. A block
/// that creates a file (an empty SEARCH text) keeps its name.
///
/// ```
/// use std::collections::BTreeMap;
/// use applypatch::blocks::{apply_blocks_in, Options};
/// use applypatch::repair::Allow;
/// let files = BTreeMap::from([("src/app.py".to_string(), "x = 1\n".to_string())]);
/// let message = "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n";
/// let r = apply_blocks_in(message, &Options { repair: Allow::ALL, ..Options::SAFE }, None, &files).unwrap();
/// assert_eq!((r.changes[0].path.as_str(), r.results[0].repairs[0].kind.code()), ("src/app.py", "file-name"));
/// ```
pub fn apply_blocks_in(
    message: &str,
    options: &Options,
    default_path: Option<&str>,
    files: &BTreeMap<String, String>,
) -> Result<BlocksResult> {
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    let named = name_blocks(&parse_blocks_detailed(message), options, &paths);
    let (paths, slots) = slots(&named.parsed, default_path);
    apply_slots(&named.parsed, &named.notes, options, &paths, &slots, |slot| {
        paths.get(slot).and_then(|&p| files.get(p)).map(String::as_str)
    })
}

/// Parsed blocks whose file names were read against a file map's paths
/// ([`name_blocks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedBlocks {
    parsed: Parsed,
    notes: Vec<Note>,
}

impl NamedBlocks {
    /// The blocks, with the file names the `file-name` repair mapped.
    pub fn parsed(&self) -> &Parsed {
        &self.parsed
    }
}

/// Reads the blocks' file names against `paths`, the file map's (see
/// [`apply_blocks_in`]), for [`apply_named_blocks_to`].
pub fn name_blocks(parsed: &Parsed, options: &Options, paths: &[&str]) -> NamedBlocks {
    let (parsed, notes) = map_names(parsed, paths, options.repair.has(RepairKind::FileName));
    NamedBlocks { parsed, notes }
}

/// [`apply_parsed_blocks_to`] for blocks named with [`name_blocks`]: `files`
/// by position in `named.parsed().paths(default_path)`.
pub fn apply_named_blocks_to(
    named: &NamedBlocks,
    options: &Options,
    default_path: Option<&str>,
    files: &[Option<&str>],
) -> Result<BlocksResult> {
    let (paths, slots) = slots(&named.parsed, default_path);
    apply_slots(&named.parsed, &named.notes, options, &paths, &slots, |slot| files.get(slot).copied().flatten())
}

/// [`apply_parsed_blocks`] with the files given by position rather than
/// looked up by path: `files[i]` is the contents of
/// `parsed.paths(default_path)[i]` (`None`: no such file). For a caller that
/// numbers the files once, such as the npm binding.
pub fn apply_parsed_blocks_to(
    parsed: &Parsed,
    options: &Options,
    default_path: Option<&str>,
    files: &[Option<&str>],
) -> Result<BlocksResult> {
    let (paths, slots) = slots(parsed, default_path);
    apply_slots(parsed, &[], options, &paths, &slots, |slot| files.get(slot).copied().flatten())
}

impl Parsed {
    /// The files the edits go to (an edit's path, or `default_path` for one
    /// that names none), each once, in the order first named: the files
    /// [`apply_parsed_blocks`] may look up, so a
    /// caller can read only those.
    pub fn paths<'a>(&'a self, default_path: Option<&'a str>) -> Vec<&'a str> {
        slots(self, default_path).0
    }
}

/// [`Parsed::paths`], and each edit's position there (`None`: it names no
/// file and there is no default).
pub(super) fn slots<'a>(parsed: &'a Parsed, default_path: Option<&'a str>) -> (Vec<&'a str>, Vec<Option<usize>>) {
    let mut paths = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    let slots = parsed
        .edits
        .iter()
        .map(|e| {
            let path = e.path.as_deref().or(default_path)?;
            Some(*at.entry(path).or_insert_with(|| {
                paths.push(path);
                paths.len() - 1
            }))
        })
        .collect();
    (paths, slots)
}

fn apply_slots<'f>(
    parsed: &Parsed,
    notes: &[Note],
    options: &Options,
    paths: &[&str],
    slots: &[Option<usize>],
    base: impl Fn(usize) -> Option<&'f str>,
) -> Result<BlocksResult> {
    // Per slot, once read: the caller's contents and the text now. Slots, not
    // a map by path: no hashing per block (170,000 blocks in one message).
    let mut current: Vec<Option<(Option<&'f str>, String)>> = vec![None; paths.len()];
    let mut order: Vec<usize> = Vec::new();
    let mut results = Vec::with_capacity(parsed.edits.len());
    let mut rereads = crate::limits::Rereads::edits();
    let mut failed = !parsed.problems.is_empty() || parsed.edits.is_empty();
    for (i, (block, &slot)) in parsed.edits.iter().zip(slots).enumerate() {
        if failed {
            break;
        }
        let Some((slot, &path)) = slot.and_then(|s| Some((s, paths.get(s)?))) else {
            let message = format!(
                "Block {} (line {}) names no file: write the file's path alone on the line before its SEARCH marker.",
                i + 1,
                block.line
            );
            results.push(unknown(String::new(), block, message));
            failed = true;
            break;
        };
        let named = notes.get(i).unwrap_or(&Note::Kept);
        if let Note::Refused(message) = named {
            results.push(unknown(path.to_string(), block, message.clone()));
            failed = true;
            break;
        }
        let Some(state) = current.get_mut(slot) else { break };
        if state.is_none() {
            let original = base(slot);
            if original.is_none() && !block.search.is_empty() {
                let hint = if let Note::Hint(h) = named { h.as_str() } else { "" };
                let message = format!(
                    "Block {} (line {}) names {path}, which is not among the files. Give the file's exact path, or, to create it, an empty SEARCH text.{hint}",
                    i + 1,
                    block.line
                );
                results.push(unknown(path.to_string(), block, message));
                failed = true;
                break;
            }
            order.push(slot);
            *state = Some((original, original.unwrap_or_default().to_string()));
        }
        let Some((_, text)) = state else { break };
        // Each block searches (and copies) its whole file: bounded over the message.
        rereads.read(text.len())?;
        // `:end_line:` is kept in the parsed block but never used for matching.
        let edit = Edit { start_line: block.start_line, ..Edit::new(block.search.as_str(), block.replace.as_str()) };
        let EditResult { ok, text: new, strategy, similarity, matches, failure, note, repairs: found, .. } =
            apply_edit(text, &edit, options)?;
        if ok {
            *text = new;
        }
        let mut repairs = Vec::new();
        if let Note::Mapped(r) = named {
            repairs.push(r.clone());
        }
        repairs.extend(found.into_iter().map(|r| Repair { path: Some(path.to_string()), ..r }));
        let (line, end_marker_line) = (block.line, block.end_marker_line);
        results.push(BlockResult {
            path: path.to_string(),
            line,
            end_marker_line,
            ok,
            strategy,
            similarity,
            matches,
            failure,
            note,
            repairs,
        });
        failed = !ok;
    }
    let changes = if failed {
        Vec::new()
    } else {
        order
            .into_iter()
            .filter_map(|slot| {
                let (original, text) = current.get_mut(slot)?.take()?;
                let path = paths.get(slot)?.to_string();
                (original != Some(text.as_str())).then_some(FileChange { path, contents: Some(text) })
            })
            .collect()
    };
    Ok(BlocksResult { ok: !failed, changes, results, problems: parsed.problems.clone() })
}

/// A block whose file is unknown.
fn unknown(path: String, block: &ParsedEdit, message: String) -> BlockResult {
    let failure = Failure { reason: Reason::UnknownFile, message, candidates: Vec::new(), nearest: None, already_applied: None };
    let (line, end_marker_line) = (block.line, block.end_marker_line);
    BlockResult {
        path,
        line,
        end_marker_line,
        ok: false,
        strategy: None,
        similarity: 0.0,
        matches: 0,
        failure: Some(failure),
        note: None,
        repairs: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: [(&str, &str); 2] = [("a.py", "x = 1\ny = 2\n"), ("b.py", "z = 3\n")];

    fn get(path: &str) -> Option<&'static str> {
        FILES.iter().find(|(p, _)| *p == path).map(|(_, c)| *c)
    }

    fn block(path: &str, search: &str, replace: &str) -> String {
        format!("{path}\n<<<<<<< SEARCH\n{search}\n=======\n{replace}\n>>>>>>> REPLACE\n")
    }

    #[test]
    fn blocks_go_to_their_files_in_order() {
        let message = [block("a.py", "x = 1", "x = 10"), block("b.py", "z = 3", "z = 30"), block("a.py", "x = 10", "x = 100")].concat();
        let r = apply_blocks(&message, &Options::SAFE, None, get).unwrap();
        assert!(r.ok);
        let changes: Vec<_> = r.changes.iter().map(|c| (c.path.as_str(), c.contents.as_deref())).collect();
        assert_eq!(changes, [("a.py", Some("x = 100\ny = 2\n")), ("b.py", Some("z = 30\n"))]);
        let lines: Vec<_> = r.results.iter().map(|b| (b.path.as_str(), b.line, b.end_marker_line)).collect();
        assert_eq!(lines, [("a.py", 2, 6), ("b.py", 8, 12), ("a.py", 14, 18)]);
    }

    #[test]
    fn the_files_blocks_go_to_and_files_by_position() {
        let message = [block("b.py", "z = 3", "z = 4"), block("a.py", "x = 1", "x = 2"), block("b.py", "z = 4", "z = 5")].concat();
        let unnamed = "<<<<<<< SEARCH\ny = 2\n=======\ny = 20\n>>>>>>> REPLACE\n";
        // A block that names no file (here the first) goes to the default file.
        let parsed = parse_blocks_detailed(&(unnamed.to_string() + &message));
        assert_eq!(parsed.paths(None), ["b.py", "a.py"]);
        assert_eq!(parsed.paths(Some("a.py")), ["a.py", "b.py"]);
        assert_eq!(parsed.paths(Some("c.py")), ["c.py", "b.py", "a.py"]);
        let parsed = parse_blocks_detailed(&message);
        let by_path = apply_parsed_blocks(&parsed, &Options::SAFE, None, get).unwrap();
        let by_position = apply_parsed_blocks_to(&parsed, &Options::SAFE, None, &[get("b.py"), get("a.py")]).unwrap();
        assert_eq!(by_position, by_path);
        let changes: Vec<_> = by_path.changes.iter().map(|c| (c.path.as_str(), c.contents.as_deref())).collect();
        assert_eq!(changes, [("b.py", Some("z = 5\n")), ("a.py", Some("x = 2\ny = 2\n"))]);
        // A file not given at its position is unknown to the blocks.
        let missing = apply_parsed_blocks_to(&parsed, &Options::SAFE, None, &[get("b.py")]).unwrap();
        assert_eq!(missing.results.iter().map(|b| (b.path.as_str(), b.ok)).collect::<Vec<_>>(), [("b.py", true), ("a.py", false)]);
        assert_eq!(missing.results[1].failure.as_ref().map(|f| f.reason), Some(Reason::UnknownFile));
        assert!(!missing.ok && missing.changes.is_empty());
    }

    #[test]
    fn file_names_over_a_map() {
        let files: BTreeMap<String, String> =
            [("src/a.py", "x = 1\n"), ("src/b.py", "z = 3\n")].map(|(p, c)| (p.to_string(), c.to_string())).into();
        let repair = Options { repair: crate::repair::Allow::ALL, ..Options::SAFE };
        let message = [block("a.py", "x = 1", "x = 2"), block("src\\b.py", "z = 3", "z = 4")].concat();
        let r = apply_blocks_in(&message, &repair, None, &files).unwrap();
        assert!(r.ok);
        let changes: Vec<_> = r.changes.iter().map(|c| (c.path.as_str(), c.contents.as_deref())).collect();
        assert_eq!(changes, [("src/a.py", Some("x = 2\n")), ("src/b.py", Some("z = 4\n"))]);
        assert_eq!(r.results.iter().map(|b| b.repairs.len()).collect::<Vec<_>>(), [1, 1]);
        // Without the repair: unknown, with the hint.
        let r = apply_blocks_in(&message, &Options::SAFE, None, &files).unwrap();
        let failure = r.results[0].failure.as_ref().unwrap();
        assert_eq!(failure.reason, Reason::UnknownFile);
        assert!(failure
            .message
            .ends_with("Did you mean src/a.py? (The 'file-name' repair takes a name that can mean one file only as that file.)"));
    }

    #[test]
    fn all_or_nothing() {
        let message = [block("a.py", "x = 1", "x = 10"), block("b.py", "nope", "z")].concat();
        let r = apply_blocks(&message, &Options::SAFE, None, get).unwrap();
        assert!(!r.ok);
        assert!(r.changes.is_empty());
        assert_eq!(r.results.iter().map(|b| b.ok).collect::<Vec<_>>(), [true, false]);
        assert_eq!(r.results[1].failure.as_ref().map(|f| f.reason), Some(Reason::NotFound));
    }

    #[test]
    fn unknown_files_and_the_default_file() {
        let r = apply_blocks(&block("c.py", "x", "y"), &Options::SAFE, None, get).unwrap();
        let failure = r.results[0].failure.as_ref().unwrap();
        assert_eq!(failure.reason, Reason::UnknownFile);
        assert_eq!(
            failure.message,
            "Block 1 (line 2) names c.py, which is not among the files. Give the file's exact path, or, to create it, an empty SEARCH text."
        );
        let unnamed = "<<<<<<< SEARCH\ny = 2\n=======\ny = 20\n>>>>>>> REPLACE\n";
        assert_eq!(
            apply_blocks(unnamed, &Options::SAFE, None, get).unwrap().results[0].failure.as_ref().unwrap().reason,
            Reason::UnknownFile
        );
        let r = apply_blocks(unnamed, &Options::SAFE, Some("a.py"), get).unwrap();
        assert_eq!(r.changes[0].contents.as_deref(), Some("x = 1\ny = 20\n"));
        let created = apply_blocks(&block("new.txt", "", "hello"), &Options::SAFE, None, get).unwrap();
        assert_eq!(created.changes[0].contents.as_deref(), Some("hello\n"));
        let malformed = apply_blocks("a.py\n<<<<<<< SEARCH\nx = 1\n", &Options::SAFE, None, get).unwrap();
        assert!(!malformed.ok && malformed.results.is_empty() && malformed.problems.len() == 1);
        // A good block beside an unclosed one: nothing is applied either.
        let message = block("b.py", "z = 3", "z = 4") + "a.py\n<<<<<<< SEARCH\nx = 1\n";
        let r = apply_blocks(&message, &Options::SAFE, None, get).unwrap();
        assert!(!r.ok && r.results.is_empty() && r.changes.is_empty() && r.problems.len() == 1);
    }
}
