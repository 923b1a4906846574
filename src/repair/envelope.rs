//! Envelope repairs: what agents wrap around a `*** Begin Patch` patch, or
//! leave out of it. Tried only when the patch as given has a bad envelope
//! (`invalid_patch`), and only with the `envelope` repair allowed; they
//! never change where anything lands.
//!
//! - a Markdown code fence around the patch (```` ```diff ```` … ```` ``` ````);
//! - a shell wrapper: a heredoc (`apply_patch <<'EOF'` … `EOF`, any
//!   delimiter, also inside `bash -lc "…"` or after `cd dir &&`), a Jupyter
//!   `%%bash` line, or the patch as a quoted argument (`apply_patch '*** Begin Patch` … `*** End Patch'`);
//! - a missing `*** Begin Patch` (the patch starts with a file header) or a
//!   missing `*** End Patch`, the latter only when a wrapper closes after
//!   the last operation (a closing fence, a heredoc terminator, a closing
//!   quote): without one, a patch cut off by the model's output limit looks
//!   the same, and its last file would be written in part, so it is refused.
//!
//! Line numbers keep counting lines of the patch as given.

use crate::diff::show;
use crate::error::{Error, ErrorKind, Result};
use crate::patch::{self, Patch};

use super::context::{Ctx, Repair, RepairKind};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";

fn is_header(t: &str) -> bool {
    ["*** Add File: ", "*** Delete File: ", "*** Update File: "].iter().any(|h| t.starts_with(h))
}

/// The heredoc delimiter a shell line opens (`<<'EOF'`, `<<EOF`, `<<-"PATCH-1"`).
fn heredoc(line: &str) -> Option<&str> {
    let at = line.find("<<")?;
    let rest = line.get(at + 2..)?.trim_start_matches('-').trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let len = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-').len();
    rest.get(..len).filter(|d| !d.is_empty())
}

/// Whether a line runs the patch tool (or a shell around it).
fn runs_tool(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    l.contains("apply_patch") || l.contains("applypatch") || l.contains("apply-patch")
}

/// A layer taken off the outside of a patch: what it was, and whether it
/// closes after the patch (a fence, a heredoc terminator, a closing quote),
/// which shows that the text inside is complete.
struct Layer {
    what: String,
    closes: bool,
}

/// One layer taken off the outside of `lines[lo..hi]`.
fn peel<'a>(lines: &mut [std::borrow::Cow<'a, str>], lo: &mut usize, hi: &mut usize) -> Option<Layer> {
    let first = lines.get(*lo)?.trim().to_string();
    let last = lines.get(hi.checked_sub(1)?)?.trim().to_string();
    if *hi - *lo >= 2 && (first.starts_with("```") || first.starts_with("~~~")) {
        let fence = first.get(..3).unwrap_or("```");
        let close = (*lo + 1..*hi).rev().find(|&i| lines.get(i).is_some_and(|l| l.trim() == fence))?;
        *hi = close;
        *lo += 1;
        return Some(Layer { what: format!("a Markdown code fence ({}) around the patch was removed", show(&first)), closes: true });
    }
    if first.starts_with("%%") {
        *lo += 1;
        return Some(Layer { what: format!("the notebook cell magic {} before the patch was removed", show(&first)), closes: false });
    }
    if let Some(delim) = heredoc(&first).filter(|_| runs_tool(&first) || first.starts_with("<<") || first.starts_with("cat ")) {
        let close = (*lo + 1..*hi).rev().find(|&i| {
            lines.get(i).is_some_and(|l| {
                let t = l.trim().trim_end_matches([';', ')']).trim_end_matches(['"', '\'']);
                t == delim
            })
        })?;
        *hi = close;
        *lo += 1;
        return Some(Layer {
            what: format!("the shell heredoc around the patch ({} … {}) was removed", show(&first), show(delim)),
            closes: true,
        });
    }
    if runs_tool(&first) {
        // The patch as a quoted argument: `apply_patch "*** Begin Patch` … `*** End Patch"`.
        let at = first.find(BEGIN)?;
        let quote = first.get(..at)?.trim_end().chars().last().filter(|c| *c == '"' || *c == '\'')?;
        if !last.ends_with(quote) {
            return None;
        }
        let prefix_len = lines.get(*lo)?.find(BEGIN)?;
        let lo_text = lines.get(*lo)?.get(prefix_len..)?.to_string();
        if let Some(l) = lines.get_mut(*lo) {
            *l = std::borrow::Cow::Owned(lo_text);
        }
        let end = hi.checked_sub(1)?;
        let last_text = lines.get(end)?.trim_end().trim_end_matches(quote).to_string();
        if let Some(l) = lines.get_mut(end) {
            *l = std::borrow::Cow::Owned(last_text);
        }
        return Some(Layer {
            what: format!(
                "the command around the patch ({}) was removed: the patch was its quoted argument",
                show(first.get(..at).unwrap_or("").trim_end().trim_end_matches(quote).trim_end())
            ),
            closes: true,
        });
    }
    None
}

/// The refusal of a patch without `*** End Patch` and without a wrapper
/// closing after it: it may have been cut off. `hi`: the line after its
/// last non-blank line (0-based), so its 1-based number.
fn cut_off(last: &str, hi: usize) -> Error {
    Error::new(
        ErrorKind::InvalidPatch,
        format!(
            "Invalid patch: the patch does not end with '{END}' (its last line, patch line {hi}, is {}), and nothing after its last operation shows that it is complete (no closing Markdown fence or heredoc terminator), so it may have been cut off, for example by the model's output token limit, and its last file would be written only in part. Nothing was applied. Send the whole patch again, ending with '{END}'; if it is long, split it into several smaller patches.",
            show(last)
        ),
    )
    .at_diff_line(hi.max(1))
}

/// Parses a patch, repairing its envelope when `ctx` allows and the patch as
/// given has a bad one.
pub fn parse(text: &str, ctx: &mut Ctx) -> Result<Patch> {
    let err = match patch::parse(text) {
        Ok(p) => return Ok(p),
        Err(e) if e.kind == ErrorKind::InvalidPatch && ctx.allows(RepairKind::Envelope) => e,
        Err(e) => return Err(e),
    };
    let mut lines: Vec<std::borrow::Cow<str>> =
        text.split('\n').map(|l| std::borrow::Cow::Borrowed(l.strip_suffix('\r').unwrap_or(l))).collect();
    let mut lo = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
    let mut hi = lines.iter().rposition(|l| !l.trim().is_empty()).map_or(0, |i| i + 1);
    let mut found: Vec<(String, usize)> = Vec::new();
    let mut closed = false;
    for _ in 0..4 {
        let at = lo + 1;
        match peel(&mut lines, &mut lo, &mut hi) {
            Some(layer) => {
                closed |= layer.closes;
                found.push((layer.what, at));
            }
            None => break,
        }
        // Blank lines inside a wrapper.
        while lo < hi && lines.get(lo).is_some_and(|l| l.trim().is_empty()) {
            lo += 1;
        }
        while hi > lo && lines.get(hi - 1).is_some_and(|l| l.trim().is_empty()) {
            hi -= 1;
        }
    }
    let first = lines.get(lo).map(|l| l.trim().to_string()).unwrap_or_default();
    let last = hi.checked_sub(1).and_then(|i| lines.get(i)).map(|l| l.trim().to_string()).unwrap_or_default();
    let begin = first != BEGIN && is_header(&first);
    if first != BEGIN && !begin {
        return Err(err);
    }
    let end = last != END;
    if end && !closed {
        return Err(cut_off(hi.checked_sub(1).and_then(|i| lines.get(i)).map_or("", |l| l.as_ref()), hi));
    }
    let mut inner: Vec<&str> = Vec::new();
    if begin {
        inner.push(BEGIN);
        found.push((format!("the patch did not start with '{BEGIN}' (it started with {}); the marker was added", show(&first)), lo + 1));
    }
    inner.extend(lines.get(lo..hi).unwrap_or(&[]).iter().map(|l| l.as_ref()));
    if end {
        inner.push(END);
        found.push((format!("the patch did not end with '{END}'; the marker was added"), hi + 1));
    }
    if found.is_empty() {
        return Err(err);
    }
    let delta = lo as isize - isize::from(begin);
    let shift = |l: usize| l.saturating_add_signed(delta).max(1);
    let mut p = patch::parse(&inner.join("\n")).map_err(|mut e| {
        e.diff_line = e.diff_line.map(shift);
        e
    })?;
    p.shift_lines(delta);
    for (what, line) in found {
        ctx.push(Repair::new(
            RepairKind::Envelope,
            format!("{what}. Send the patch itself: '{BEGIN}', the file operations, '{END}', and nothing around it."),
            Some(line),
            None,
        ));
    }
    Ok(p)
}
