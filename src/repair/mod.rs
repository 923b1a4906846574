//! Repairs: the small slips models make in a Strict diff or patch, forgiven
//! only when the place is still certain, and each one reported.
//!
//! Opt-in ([`Allow`]): without it Strict is unchanged, except that a section
//! that is already applied is never applied again (`applied`). With it:
//!
//! - `section`: a section whose context and removed lines differ from the
//!   input only in trailing whitespace, Unicode punctuation (Codex's table),
//!   tabs against spaces, or indentation, or carry line-number prefixes
//!   copied from a read tool, matches when the repaired match is unique;
//! - a unified hunk header (`@@ -12,7 +12,8 @@`) reads as a bare `@@`;
//! - `envelope`: a patch missing `*** Begin Patch` or `*** End Patch`, or
//!   wrapped in a Markdown fence or a shell heredoc, is unwrapped;
//! - a diff or patch that is already applied is a reported no-op.
//!
//! Edit blocks take the same option ([`crate::blocks::Options::repair`]):
//! `line-numbers` there removes read-tool prefixes from a SEARCH text that
//! are the lines' own numbers, and `file-name` maps a block's file name onto
//! the one file of the map it can only mean.
//!
//! Every repair is a [`Repair`]: its kind, where, and what was forgiven.

pub(crate) mod applied;
pub(crate) mod context;
pub(crate) mod envelope;
pub(crate) mod section;

pub use context::{Allow, Ctx, Repair, RepairKind, Repaired};
// The repair-enabled entry points live with the calls they wrap.
pub use crate::batch::{repaired_apply as apply, repaired_apply_batch as apply_batch};
pub use crate::files::repaired_apply_files as apply_files;
