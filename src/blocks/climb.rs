//! The ladder's rungs in order, after `empty-search`: the first that matches.

use super::explain;
use super::ladder::{self, Found, Src};
use super::types::{Options, Outcome, Strategy};
use crate::error::Result;

/// Where the ladder stopped.
pub(crate) enum Climb {
    Matched(Strategy, Found),
    /// No rung matched (the similarity is apply-edit-block's: the best fuzzy score).
    Failed(Outcome),
}

/// The ladder after `empty-search`: the first rung that matches, or the failure.
pub(crate) fn climb(src: &Src, search: &str, replace: &str, options: &Options) -> Result<Climb> {
    if let Some(found) = ladder::exact(src, search) {
        return Ok(Climb::Matched(Strategy::Exact, found));
    }
    let consume = options.newlines && search.ends_with('\n');
    let mut lines: Vec<&str> = search.split('\n').collect();
    if consume {
        lines.pop();
    }
    let ctx = ladder::Ctx::new(src, &lines, consume, options, replace);
    if let Some(found) = ladder::trailing_ws(&ctx) {
        return Ok(Climb::Matched(Strategy::TrailingWs, found));
    }
    if let Some(found) = ladder::indent(&ctx) {
        return Ok(Climb::Matched(Strategy::Indent, found));
    }
    if let Some(found) = ladder::anchor(&ctx)? {
        return Ok(Climb::Matched(Strategy::Anchor, found));
    }
    let fuzzy = ladder::fuzzy(&ctx)?;
    if let Some(found) = fuzzy.found {
        return Ok(Climb::Matched(Strategy::Fuzzy, found));
    }
    let failure = if options.explain { Some(explain::not_found(src, &lines, replace, options, fuzzy.best, &ctx.budget)?) } else { None };
    Ok(Climb::Failed(Outcome {
        strategy: None,
        similarity: fuzzy.best.max(0.0),
        matches: 0,
        splice: None,
        failure,
        note: None,
        repairs: Vec::new(),
    }))
}
