//! Parsing SEARCH/REPLACE blocks out of a model's message.
//!
//! ```text
//! src/app.py
//! <<<<<<< SEARCH
//! old lines
//! =======
//! new lines
//! >>>>>>> REPLACE
//! ```
//!
//! Two parsers:
//! - [`parse_blocks`] is apply-edit-block's, quirks included: markers are
//!   recognised by prefix (`<<<`, `===`, `>>>`, three or more, any text after),
//!   a start marker restarts a block in any state, unclosed blocks vanish and a
//!   `\r` stays on every line of a CRLF message.
//! - [`parse_blocks_detailed`] is for programs that want to tell the model what
//!   went wrong: markers must look like markers (see its doc), each edit gets
//!   the file name written before it, and blocks that never close are reported
//!   as [`Problem`]s with their line.
//!
//! Over 600 lines with its unit tests (the code is about 530).

use super::Edit;

/// An edit from [`parse_blocks_detailed`]: the SEARCH and REPLACE text and the
/// file it is for, when the message names one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ParsedEdit {
    /// The SEARCH text.
    pub search: String,
    /// The REPLACE text.
    pub replace: String,
    /// The file name written on the line before the block (a fence line in
    /// between is skipped); otherwise the previous block's.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub path: Option<String>,
    /// 1-based line of the block's start marker in the message.
    pub line: usize,
    /// Roo Code's `:start_line:N` header line, when the block has one.
    #[cfg_attr(feature = "serde", serde(rename = "startLine", skip_serializing_if = "Option::is_none"))]
    pub start_line: Option<usize>,
    /// Roo Code's `:end_line:N` header line, when the block has one.
    #[cfg_attr(feature = "serde", serde(rename = "endLine", skip_serializing_if = "Option::is_none"))]
    pub end_line: Option<usize>,
    /// 1-based line of its end marker (the JS `parseBlocks` keeps its
    /// published shape without it; `applyBlocks` results carry it).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub end_marker_line: usize,
}

/// Something in the message that looked like an edit block but is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Problem {
    /// 1-based line in the message.
    pub line: usize,
    /// What is wrong and how to write it, for the model.
    pub message: String,
}

/// The result of [`parse_blocks_detailed`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Parsed {
    /// The edits, in message order.
    pub edits: Vec<ParsedEdit>,
    /// Blocks that were not closed, in message order.
    pub problems: Vec<Problem>,
    /// The 1-based line of the start marker of a block still open at the
    /// end of the text (reported in `problems` too): a caller reading a
    /// message as it streams waits for more text there.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub open: Option<usize>,
}

/// Length of the run of `c` that starts `line`.
fn run(line: &str, c: u8) -> usize {
    line.bytes().take_while(|&b| b == c).count()
}

/// apply-edit-block's parser: lines split on `\n`; a line starting with
/// `<<<` starts a block (in any state, dropping a pending one); in the SEARCH
/// part a line starting with `===` ends it; in the REPLACE part a line starting
/// with `>>>` ends the block. Unclosed blocks are dropped; the bodies are
/// joined with `\n` and have no final newline.
pub fn parse_blocks(text: &str) -> Vec<Edit> {
    enum State {
        None,
        Search,
        Replace,
    }
    let mut blocks = Vec::new();
    let mut state = State::None;
    let (mut search, mut replace): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    for line in text.split('\n') {
        if run(line, b'<') >= 3 {
            state = State::Search;
            search.clear();
            replace.clear();
            continue;
        }
        match state {
            State::None => {}
            State::Search => {
                if run(line, b'=') >= 3 {
                    state = State::Replace;
                } else {
                    search.push(line);
                }
            }
            State::Replace => {
                if run(line, b'>') >= 3 {
                    blocks.push(Edit::new(search.join("\n"), replace.join("\n")));
                    state = State::None;
                } else {
                    replace.push(line);
                }
            }
        }
    }
    blocks
}

/// The marker a line is, for the detailed parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    /// `<<<<<<< SEARCH` (or a bare run of `<`), or Cline's `------- SEARCH`;
    /// with the run's length.
    Start(usize),
    Divider,
    End,
}

/// Whether `rest` (what follows a marker's run) is empty, or whitespace and
/// then `word` (anything may follow the word: `SEARCH>`, `REPLACE extra`).
fn rest_is(rest: &str, word: &str, bare_ok: bool) -> bool {
    let trimmed = rest.trim();
    if trimmed.is_empty() {
        return bare_ok;
    }
    rest.starts_with(|c: char| c.is_whitespace()) && trimmed.starts_with(word)
}

/// What marker `line` is, given the run length of the open block's start
/// marker (`open`), if any.
fn marker(line: &str, open: Option<usize>) -> Option<Marker> {
    let lt = run(line, b'<');
    if lt >= 3 && rest_is(line.get(lt..).unwrap_or(""), "SEARCH", true) {
        return Some(Marker::Start(lt));
    }
    let dash = run(line, b'-');
    if dash >= 3 && rest_is(line.get(dash..).unwrap_or(""), "SEARCH", false) {
        return Some(Marker::Start(dash));
    }
    let eq = run(line, b'=');
    if eq >= 3 && Some(eq) == open {
        let rest = line.get(eq..).unwrap_or("");
        if rest.trim().is_empty() || rest.starts_with(|c: char| c.is_whitespace()) {
            return Some(Marker::Divider);
        }
    }
    for c in [b'>', b'+'] {
        let r = run(line, c);
        if r < 3 {
            continue;
        }
        let rest = line.get(r..).unwrap_or("");
        // The start's length with nothing after it, or any length with REPLACE.
        if rest_is(rest, "REPLACE", c == b'>' && Some(r) == open) {
            return Some(Marker::End);
        }
    }
    None
}

/// Whether a line (without its line break) is a marker read outside a
/// block (a start marker, or an end marker): a message with one is edit
/// blocks for [`parse_blocks_detailed`], which reads it as an edit or a
/// problem (`FormatLines` decides by it line by line).
pub(crate) fn is_marker_outside_block(line: &str) -> bool {
    marker(line.strip_suffix('\r').unwrap_or(line), None).is_some()
}

/// A Markdown fence line (three or more backticks or tildes, then an optional
/// info string such as a language).
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    run(t, b'`') >= 3 || run(t, b'~') >= 3
}

/// The file name a line names, if it is one: `src/app.py`, `**src/app.py**:`,
/// `` `src/app.py` ``, `# src/app.py`. A single token with a `.`, `/` or `\`
/// in it, or a name like `Makefile`, `Dockerfile`, `LICENSE`.
fn file_name(line: &str) -> Option<String> {
    let t = line.trim().trim_start_matches('#').trim();
    let t = t.trim_end_matches(':').trim_matches(|c| c == '*' || c == '`' || c == '"' || c == '\'').trim_end_matches(':');
    if t.is_empty() || t.len() > 1024 || t.chars().any(char::is_whitespace) {
        return None;
    }
    // Marker-like runs, and aider's `...` (text elided between blocks).
    if t.chars().all(|c| "<=>+-`~*#.".contains(c)) {
        return None;
    }
    let pathlike = t.contains(['.', '/', '\\']);
    let letters = t.chars().all(|c| c.is_ascii_alphabetic());
    let named = letters && (t.to_ascii_lowercase().ends_with("file") || t.chars().all(|c| c.is_ascii_uppercase()) && t.len() >= 4);
    (pathlike || named || slipped_extension(t)).then(|| t.to_string())
}

/// A name whose extension's dot was written as `_` (`file1_py`, as aider
/// sees models write it): the `file-name` repair maps it onto the file.
fn slipped_extension(t: &str) -> bool {
    const EXTENSIONS: [&str; 24] = [
        "py", "js", "ts", "tsx", "jsx", "rs", "go", "java", "c", "h", "cpp", "cs", "rb", "php", "swift", "kt", "md", "txt", "json", "yaml",
        "yml", "toml", "html", "css",
    ];
    t.rsplit_once('_').is_some_and(|(stem, ext)| {
        !stem.is_empty() && stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') && EXTENSIONS.contains(&ext)
    })
}

/// The file named just before the start marker at `lines[at]`: the nearest
/// non-blank line above it, looking past fence lines, at most three lines up.
fn path_before(lines: &[&str], at: usize) -> Option<String> {
    let mut seen = 0;
    for line in lines.get(..at).unwrap_or(&[]).iter().rev() {
        if line.trim().is_empty() {
            continue;
        }
        if is_fence(line) {
            seen += 1;
            if seen > 3 {
                return None;
            }
            continue;
        }
        return file_name(line);
    }
    None
}

/// The length of a line made only of `=` (three or more; trailing
/// whitespace allowed): a divider of some length.
fn equals_line(line: &str) -> Option<usize> {
    let n = run(line, b'=');
    (n >= 3 && line.get(n..).is_some_and(|r| r.trim().is_empty())).then_some(n)
}

/// Roo Code's header after a start marker: `:start_line:N` (or `[N]`) and
/// `:end_line:N` lines, then a line of dashes. Returns how many lines it
/// takes and the two numbers. Without a number line, the dash line is taken
/// only when it is as long as the start marker (`<<<<<<<` then `-------`),
/// so a SEARCH text that starts with `---` (YAML front matter) stays whole.
fn roo_header(lines: &[&str], from: usize, marker_len: usize) -> (usize, Option<usize>, Option<usize>) {
    let (mut start, mut end) = (None, None);
    let mut k = 0;
    while let Some(line) = lines.get(from + k) {
        let t = line.trim();
        // `:start_line:10`, and as models also write it, `:start_line: [10]`.
        let number = |r: &str| r.trim().trim_start_matches('[').trim_end_matches(']').trim().parse().ok();
        if let Some(n) = t.strip_prefix(":start_line:").and_then(number) {
            start = Some(n);
        } else if let Some(n) = t.strip_prefix(":end_line:").and_then(number) {
            end = Some(n);
        } else {
            break;
        }
        k += 1;
    }
    let dashes = lines.get(from + k).map_or(0, |l| if l.trim_end().bytes().all(|b| b == b'-') { run(l, b'-') } else { 0 });
    if dashes >= 3 && (k > 0 || dashes == marker_len) {
        k += 1;
    }
    (k, start, end)
}

/// A content line that escapes a marker with a backslash (Roo Code's
/// `\=======`), without it.
fn unescape(line: &str) -> &str {
    match line.strip_prefix('\\') {
        Some(rest)
            if equals_line(rest).is_some()
                || marker(rest, None).is_some()
                || run(rest, b'>') >= 3
                || run(rest, b'<') >= 3
                || line_marker(rest).is_some() =>
        {
            rest
        }
        _ => line,
    }
}

/// Roo Code's line marker a line holds (`:start_line:` or `:end_line:`,
/// spaces around allowed), if it is one.
fn line_marker(line: &str) -> Option<&'static str> {
    let t = line.trim_start();
    [":start_line:", ":end_line:"].into_iter().find(|m| t.starts_with(m))
}

/// A marker of `n` characters `c`, as a message shows it: written out up to
/// [`SHOWN_RUN`] characters, else counted.
fn rep(c: char, n: usize) -> String {
    if n > SHOWN_RUN {
        return format!("{} ({n} '{c}')", std::iter::repeat_n(c, SHOWN_RUN).collect::<String>());
    }
    std::iter::repeat_n(c, n).collect()
}

/// A line as a message quotes it: its first 80 characters, then `…`.
fn shown(line: &str) -> String {
    match line.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", line.get(..at).unwrap_or("")),
        None => line.to_string(),
    }
}

/// The problem of a block whose REPLACE part holds a line marker: where
/// markers may stand, and how to write such a line as text.
fn stray_marker(start: usize, at: usize, name: &str, len: usize) -> String {
    format!(
        "The edit block starting at line {} has the line marker '{name}' at line {}, in its REPLACE text, so it was not applied (the marker would have been written into the file). Line markers (:start_line: and :end_line:) may stand only in the SEARCH part, right after '{} SEARCH' and before the '-------' line; a line of text that starts with '{name}' is written '\\{name}'.",
        start + 1,
        at + 1,
        rep('<', len)
    )
}

/// Longest marker run a message writes out.
const SHOWN_RUN: usize = 16;

/// Problems reported one by one; the rest are counted in one last problem,
/// so the report stays small whatever the message.
pub const MAX_PROBLEMS: usize = 100;

/// Parses SEARCH/REPLACE blocks strictly enough to report what is wrong.
///
/// - Lines are split on `\n`; a `\r` before it is dropped (CRLF messages).
/// - A block starts with a line of three or more `<` alone or followed by
///   ` SEARCH` (`<<<<<<< SEARCH`, `<<<<<<< SEARCH>`), or Cline's
///   `------- SEARCH`. Its divider is a line of exactly as many `=` (text may
///   follow after a space); it ends with a line of as many `>` alone, or of
///   three or more `>` or `+` followed by ` REPLACE`. So `>>> x = 1` (a Python
///   prompt), `=====` (a Markdown underline) and `<<<EOF` (a heredoc) are
///   content, not markers.
/// - Dividers of another length, as Cline accepts them: in a Cline block
///   (`------- SEARCH`) any line of three or more `=` alone divides; in a
///   `<<<<<<<` block, one such line is the divider when the block has no
///   divider of the start marker's length.
/// - Roo Code's header right after the start marker, `:start_line:N` and
///   `:end_line:N` lines then a line of dashes, gives the edit's
///   `start_line` and `end_line` and is not part of the SEARCH text; a content
///   line with a backslash before a marker (`\=======`) is the marker's text.
/// - An edit's `path` is the file name on the nearest non-blank line above its
///   start marker (fence lines such as ```` ```python ```` are skipped; a
///   line `...`, aider's elision, names nothing); a block with none there
///   takes the previous block's.
/// - A block that is not closed (at the end of the message or before the next
///   start marker), an end marker with no divider, a second divider (Roo Code
///   refuses it too: where SEARCH ends would be a guess), and an end marker
///   outside a block are reported as problems; such blocks give no edit.
/// - So is a Roo Code line marker (`:start_line:`, `:end_line:`) in the
///   REPLACE part, which Roo refuses too: it would be written into the file.
///   `\\:start_line:` is the text `:start_line:`.
pub fn parse_blocks_detailed(text: &str) -> Parsed {
    struct Open {
        start: usize,
        len: usize,
        cline: bool,
        /// First line of the SEARCH text (after a Roo header).
        body: usize,
        start_line: Option<usize>,
        end_line: Option<usize>,
        /// The divider line and its length.
        div: Option<(usize, usize)>,
        /// Lines of `=` of another length seen in the SEARCH part.
        loose: Vec<(usize, usize)>,
        /// A second divider in the REPLACE part.
        second: Option<usize>,
        /// The first line marker (`:start_line:`) in the REPLACE part.
        stray: Option<(usize, &'static str)>,
    }
    let lines: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
    let mut out = Parsed::default();
    let mut open: Option<Open> = None;
    let mut skip_to = 0;
    let mut last_path: Option<String> = None;
    // Problems past MAX_PROBLEMS are only counted (their messages are not
    // even written): (how many, first line, last line).
    let mut unlisted: (usize, usize, usize) = (0, 0, 0);
    let mut report = |problems: &mut Vec<Problem>, line: usize, message: &dyn Fn() -> String| {
        if problems.len() < MAX_PROBLEMS {
            problems.push(Problem { line, message: message() });
        } else {
            if unlisted.0 == 0 {
                unlisted.1 = line;
            }
            unlisted = (unlisted.0 + 1, unlisted.1, line);
        }
    };
    let unclosed = |o: &Open, why: &str| {
        let len = o.len;
        Problem {
            line: o.start + 1,
            message: format!(
                "The edit block starting at line {} is not closed {}: {} So it was not applied. Write each block as '{} SEARCH', the exact lines to find, '{}', the new lines, '{} REPLACE'.",
                o.start + 1,
                why,
                if o.div.is_some() {
                    format!("it has its '{}' line but no '{} REPLACE' line.", rep('=', len), rep('>', len))
                } else {
                    format!("it has no '{}' line and no '{} REPLACE' line.", rep('=', len), rep('>', len))
                },
                rep('<', len),
                rep('=', len),
                rep('>', len)
            ),
        }
    };
    for (i, line) in lines.iter().enumerate() {
        if i < skip_to {
            continue;
        }
        let m = marker(line, open.as_ref().map(|o| o.len));
        match (m, open.as_mut()) {
            (Some(Marker::Start(len)), prev) => {
                if let Some(o) = prev {
                    report(&mut out.problems, o.start + 1, &|| {
                        unclosed(o, &format!("before the next block starts at line {}", i + 1)).message
                    });
                }
                let (header, start_line, end_line) = roo_header(&lines, i + 1, len);
                skip_to = i + 1 + header;
                let cline = line.starts_with('-');
                open = Some(Open {
                    start: i,
                    len,
                    cline,
                    body: skip_to,
                    start_line,
                    end_line,
                    div: None,
                    loose: Vec::new(),
                    second: None,
                    stray: None,
                });
            }
            (Some(Marker::End), Some(o)) => {
                if o.div.is_none() && o.loose.len() == 1 {
                    o.div = o.loose.first().copied();
                }
                let len = o.len;
                match (o.div, o.second) {
                    (Some(_), None) if o.stray.is_some() => {
                        if let Some((at, name)) = o.stray {
                            report(&mut out.problems, o.start + 1, &|| stray_marker(o.start, at, name, len));
                        }
                    }
                    (Some((div, dlen)), Some(second)) => report(&mut out.problems, o.start + 1, &|| {
                        format!(
                            "The edit block starting at line {} has two '{}' lines (lines {} and {}), so where its SEARCH text ends is unclear; it was not applied. Use one divider line between the SEARCH and the REPLACE text; a line '{}' inside the text is written '\\{}'.",
                            o.start + 1,
                            rep('=', dlen),
                            div + 1,
                            second + 1,
                            rep('=', dlen),
                            rep('=', dlen)
                        )
                    }),
                    (Some((div, _)), None) => {
                        let body =
                            |a: usize, b: usize| lines.get(a..b).unwrap_or(&[]).iter().map(|l| unescape(l)).collect::<Vec<_>>().join("\n");
                        let path = path_before(&lines, o.start).or_else(|| last_path.clone());
                        last_path.clone_from(&path);
                        out.edits.push(ParsedEdit {
                            search: body(o.body, div),
                            replace: body(div + 1, i),
                            path,
                            line: o.start + 1,
                            start_line: o.start_line,
                            end_line: o.end_line,
                            end_marker_line: i + 1,
                        });
                    }
                    (None, _) if o.loose.len() > 1 => {
                        let at: Vec<String> = o.loose.iter().map(|(l, _)| (l + 1).to_string()).collect();
                        report(&mut out.problems, o.start + 1, &|| {
                            format!(
                                "The edit block starting at line {} has no '{}' line but several lines of '=' of other lengths (lines {}), so where its SEARCH text ends is unclear; it was not applied. Put one line '{}' after the lines to find.",
                                o.start + 1,
                                rep('=', len),
                                at.join(", "),
                                rep('=', len)
                            )
                        });
                    }
                    (None, _) => report(&mut out.problems, o.start + 1, &|| {
                        format!(
                            "The edit block starting at line {} reaches its end marker at line {} without a '{}' line between the SEARCH and the REPLACE text, so it was not applied. Put a line '{}' after the lines to find.",
                            o.start + 1,
                            i + 1,
                            rep('=', len),
                            rep('=', len)
                        )
                    }),
                }
                open = None;
            }
            (Some(Marker::End), None) => report(&mut out.problems, i + 1, &|| {
                format!(
                    "Line {} ({:?}) ends an edit block, but no block is open (a block starts with '<<<<<<< SEARCH').",
                    i + 1,
                    shown(line)
                )
            }),
            (m, Some(o)) => {
                let eq = if m == Some(Marker::Divider) { Some(o.len) } else { equals_line(line) };
                match (eq, o.div) {
                    (Some(n), None) if n == o.len || o.cline => o.div = Some((i, n)),
                    (Some(n), None) => o.loose.push((i, n)),
                    (Some(n), Some((_, dlen))) if n == dlen && o.second.is_none() => o.second = Some(i),
                    (None, Some(_)) if o.stray.is_none() => o.stray = line_marker(line).map(|name| (i, name)),
                    _ => {}
                }
            }
            (_, None) => {}
        }
    }
    if let Some(o) = &open {
        report(&mut out.problems, o.start + 1, &|| unclosed(o, "before the end of the message").message);
        out.open = Some(o.start + 1);
    }
    let (more, first, last) = unlisted;
    if more > 0 {
        out.problems.push(Problem {
            line: first,
            message: format!(
                "{more} more problems like the ones above, from line {first} to line {last}, are not listed one by one. Fix the blocks above and send the message again."
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(search: &str, replace: &str) -> Edit {
        Edit::new(search, replace)
    }

    /// Pinned where the mutation sample found them unpinned: a plain word
    /// before a block is no file name (capitals of four or more letters and
    /// `...file` are), a backslash is kept before what is not a marker, and
    /// a stray end marker is quoted in its problem.
    #[test]
    fn names_escapes_and_stray_ends() {
        assert_eq!(file_name("Changes"), None);
        assert_eq!(file_name("README"), Some("README".to_string()));
        assert_eq!(file_name("Makefile"), Some("Makefile".to_string()));
        let escaped = parse_blocks_detailed("<<<<<<< SEARCH\n\\x\n=======\n\\>>>>>>> REPLACE\n>>>>>>> REPLACE\n");
        let got: Vec<(&str, &str)> = escaped.edits.iter().map(|b| (b.search.as_str(), b.replace.as_str())).collect();
        assert_eq!(got, [("\\x", ">>>>>>> REPLACE")]);
        let parsed = parse_blocks_detailed("text\n>>>>>>> REPLACE\n");
        assert_eq!(parsed.problems.len(), 1);
        assert_eq!(
            parsed.problems[0].message,
            "Line 2 (\">>>>>>> REPLACE\") ends an edit block, but no block is open (a block starts with '<<<<<<< SEARCH')."
        );
    }

    #[test]
    fn compatible_quirks() {
        assert_eq!(parse_blocks("<<<<<<< SEARCH\n>>> x = 1\n=======\n>>> x = 2\n>>>>>>> REPLACE\n"), [e(">>> x = 1", "")]);
        assert_eq!(parse_blocks("<<<<<<< SEARCH\nfoo\n=======\n<<<EOF\nbar\n>>>>>>> REPLACE\n"), []);
        assert_eq!(parse_blocks("<<<<<<< SEARCH\ntitle\n=====\n=======\nT\n>>>>>>> REPLACE\n"), [e("title", "=======\nT")]);
        assert_eq!(parse_blocks("<<<<<<< SEARCH\r\nfoo\r\n=======\r\nbar\r\n>>>>>>> REPLACE\r\n"), [e("foo\r", "bar\r")]);
        assert_eq!(parse_blocks("<<<<<<< SEARCH\nfoo\n=======\nbar"), []);
        assert_eq!(parse_blocks("just text"), []);
    }

    #[test]
    fn detailed_markers_are_markers() {
        let p = parse_blocks_detailed("<<<<<<< SEARCH\n>>> x = 1\n=======\n>>> x = 2\n>>>>>>> REPLACE\n");
        assert_eq!((p.edits[0].search.as_str(), p.edits[0].replace.as_str()), (">>> x = 1", ">>> x = 2"));
        let p = parse_blocks_detailed("<<<<<<< SEARCH\nfoo\n=======\n<<<EOF\nbar\n>>>>>>> REPLACE\n");
        assert_eq!(p.edits[0].replace, "<<<EOF\nbar");
        let p = parse_blocks_detailed("<<<<<<< SEARCH\ntitle\n=====\n=======\nT\n>>>>>>> REPLACE\n");
        assert_eq!((p.edits[0].search.as_str(), p.edits[0].replace.as_str()), ("title\n=====", "T"));
        let p = parse_blocks_detailed("<<<<<<< SEARCH\r\nfoo\r\n=======\r\nbar\r\n>>>>>>> REPLACE\r\n");
        assert_eq!((p.edits[0].search.as_str(), p.edits[0].replace.as_str()), ("foo", "bar"));
        // Cline's markers and aider's Claude variant.
        let p = parse_blocks_detailed("------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n<<<<<<< SEARCH>\nc\n=======\nd\n>>>>>>> REPLACE");
        assert_eq!(p.edits.len(), 2);
        assert!(p.problems.is_empty());
    }

    #[test]
    fn detailed_paths_and_fences() {
        let text = "Change the greeting:\n\nsrc/app.py\n```python\n<<<<<<< SEARCH\nhi\n=======\nhello\n>>>>>>> REPLACE\n```\n\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n**lib/x.rs**:\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\nMakefile\n<<<<<<< SEARCH\n\tx\n=======\n\ty\n>>>>>>> REPLACE\n";
        let p = parse_blocks_detailed(text);
        let paths: Vec<Option<&str>> = p.edits.iter().map(|e| e.path.as_deref()).collect();
        assert_eq!(paths, [Some("src/app.py"), Some("src/app.py"), Some("lib/x.rs"), Some("Makefile")]);
        assert_eq!(p.edits[0].line, 5);
        assert!(p.problems.is_empty());
        assert_eq!(parse_blocks_detailed("Here is the fix:\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE").edits[0].path, None);
        // Quotes around a name are not part of it.
        let p = parse_blocks_detailed(
            "\"src/a.py\"\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n'src/b.py':\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE",
        );
        let paths: Vec<Option<&str>> = p.edits.iter().map(|e| e.path.as_deref()).collect();
        assert_eq!(paths, [Some("src/a.py"), Some("src/b.py")]);
        // A name is looked for past at most three fence lines.
        let fenced = |fences: usize| {
            let text = format!("a.py\n{}<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE", "```\n".repeat(fences));
            parse_blocks_detailed(&text).edits[0].path.clone()
        };
        assert_eq!((fenced(3).as_deref(), fenced(4)), (Some("a.py"), None));
    }

    #[test]
    fn detailed_problems_stay_small() {
        // 400,000 unclosed start markers: 100 problems and a count of the rest.
        let text = "<<<<<<< SEARCH\n".repeat(400_000);
        let p = parse_blocks_detailed(&text);
        assert_eq!(p.problems.len(), MAX_PROBLEMS + 1);
        assert_eq!(p.problems[99].line, 100);
        let last = p.problems.last().unwrap();
        assert_eq!(last.line, 101);
        assert_eq!(
            last.message,
            "399900 more problems like the ones above, from line 101 to line 400000, are not listed one by one. Fix the blocks above and send the message again."
        );
        let size: usize = p.problems.iter().map(|p| p.message.len()).sum();
        assert!(size < 40_000, "{size}");
        // A marker a million characters long is counted, not repeated.
        let p = parse_blocks_detailed(&"<".repeat(1_000_000));
        assert_eq!(p.problems.len(), 1);
        assert!(p.problems[0].message.contains("'<<<<<<<<<<<<<<<< (1000000 '<') SEARCH'"), "{}", p.problems[0].message);
        assert!(p.problems[0].message.len() < 600);
    }

    #[test]
    fn detailed_reports_unclosed_blocks() {
        let p = parse_blocks_detailed("x.py\n<<<<<<< SEARCH\nfoo\n=======\nbar");
        assert!(p.edits.is_empty());
        assert_eq!(p.problems[0].line, 2);
        assert!(p.problems[0].message.contains("not closed before the end of the message"), "{}", p.problems[0].message);
        assert_eq!(p.open, Some(2));
        assert_eq!(parse_blocks_detailed("x.py\n<<<<<<< SEARCH\nfoo\n=======\nbar\n>>>>>>> REPLACE\n").open, None);
        let p = parse_blocks_detailed("<<<<<<< SEARCH\nfoo\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n>>>>>>> REPLACE");
        assert_eq!(p.edits.len(), 1);
        let lines: Vec<usize> = p.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [1, 8]);
        let p = parse_blocks_detailed("<<<<<<< SEARCH\nfoo\n>>>>>>> REPLACE");
        assert_eq!(p.problems.len(), 1);
        assert!(p.problems[0].message.contains("without a '=======' line"));
    }

    #[test]
    fn aiders_elision_names_no_file() {
        let p = parse_blocks_detailed(
            "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n...\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE\n",
        );
        let paths: Vec<Option<&str>> = p.edits.iter().map(|e| e.path.as_deref()).collect();
        assert_eq!(paths, [Some("a.py"), Some("a.py")]);
    }

    #[test]
    fn a_second_divider_is_a_problem() {
        let p = parse_blocks_detailed("<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n");
        assert!(p.edits.is_empty());
        assert_eq!(p.problems.len(), 1);
        assert_eq!(
            p.problems[0].message,
            "The edit block starting at line 1 has two '=======' lines (lines 3 and 5), so where its SEARCH text ends is unclear; it was not applied. Use one divider line between the SEARCH and the REPLACE text; a line '=======' inside the text is written '\\======='."
        );
        // Escaped, it is text.
        let p = parse_blocks_detailed("<<<<<<< SEARCH\na\n=======\nb\n\\=======\nc\n>>>>>>> REPLACE\n");
        assert_eq!(p.edits[0].replace, "b\n=======\nc");
    }

    #[test]
    fn cline_markers_of_differing_lengths() {
        let p = parse_blocks_detailed("--- SEARCH\na\n=====\nb\n+++++++++ REPLACE\n------- SEARCH\nc\n===\nd\n+++ REPLACE");
        let got: Vec<(&str, &str)> = p.edits.iter().map(|e| (e.search.as_str(), e.replace.as_str())).collect();
        assert_eq!(got, [("a", "b"), ("c", "d")]);
        assert!(p.problems.is_empty());
        // A `<<<<<<<` block takes a divider of another length when it has no other.
        let p = parse_blocks_detailed("<<<<<<< SEARCH\na\n=====\nb\n>>>>>>> REPLACE");
        assert_eq!((p.edits[0].search.as_str(), p.edits[0].replace.as_str()), ("a", "b"));
        let p = parse_blocks_detailed("<<<<<<< SEARCH\na\n=====\nb\n=========\nc\n>>>>>>> REPLACE");
        assert!(p.edits.is_empty());
        assert!(p.problems[0].message.contains("several lines of '=' of other lengths (lines 3, 5)"), "{}", p.problems[0].message);
    }

    #[test]
    fn roo_header_gives_start_and_end_lines() {
        let p = parse_blocks_detailed("<<<<<<< SEARCH\n:start_line:10\n:end_line:11\n-------\nold\n=======\nnew\n>>>>>>> REPLACE");
        let e = &p.edits[0];
        assert_eq!((e.search.as_str(), e.replace.as_str(), e.start_line, e.end_line), ("old", "new", Some(10), Some(11)));
        let p = parse_blocks_detailed("<<<<<<< SEARCH\n:start_line: [3]\n-------\nold\n=======\nnew\n>>>>>>> REPLACE");
        assert_eq!((p.edits[0].search.as_str(), p.edits[0].start_line), ("old", Some(3)));
        let p = parse_blocks_detailed("<<<<<<< SEARCH\n-------\nold\n=======\nnew\n>>>>>>> REPLACE");
        assert_eq!((p.edits[0].search.as_str(), p.edits[0].start_line), ("old", None));
        // YAML front matter is text.
        let p = parse_blocks_detailed("<<<<<<< SEARCH\n---\ntitle: a\n---\n=======\n---\ntitle: b\n---\n>>>>>>> REPLACE");
        assert_eq!(p.edits[0].search, "---\ntitle: a\n---");
    }

    #[test]
    fn a_slipped_extension_is_a_file_name() {
        assert_eq!(file_name("file1_py").as_deref(), Some("file1_py"));
        assert_eq!(file_name("my_var"), None);
        assert_eq!(file_name("_py"), None);
    }

    #[test]
    fn line_markers_in_replace_are_problems() {
        let p = parse_blocks_detailed("a.py\n<<<<<<< SEARCH\nold\n=======\n  :start_line:5  \nnew\n:end_line:6\n>>>>>>> REPLACE\n");
        assert!(p.edits.is_empty());
        assert_eq!(
            p.problems,
            [Problem {
                line: 2,
                message: "The edit block starting at line 2 has the line marker ':start_line:' at line 5, in its REPLACE text, so it was not applied (the marker would have been written into the file). Line markers (:start_line: and :end_line:) may stand only in the SEARCH part, right after '<<<<<<< SEARCH' and before the '-------' line; a line of text that starts with ':start_line:' is written '\\:start_line:'.".into()
            }]
        );
        // Escaped, it is text; in the SEARCH header, a marker.
        let p = parse_blocks_detailed("<<<<<<< SEARCH\n:start_line:1\n-------\nold\n=======\nnew\n\\:end_line:10\n>>>>>>> REPLACE\n");
        assert!(p.problems.is_empty());
        assert_eq!((p.edits[0].replace.as_str(), p.edits[0].start_line), ("new\n:end_line:10", Some(1)));
    }
}
