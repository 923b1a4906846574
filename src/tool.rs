//! The Codex CLI's `apply_patch` tool, exactly as Codex 0.171.0 offers it to
//! GPT-5 models: a freeform (custom) tool whose input is constrained by a Lark
//! grammar. The texts are OpenAI Codex's (Apache-2.0, see NOTICE), kept
//! byte for byte in `src/codex-tool/` and included at compile time.

/// The tool's name.
pub const NAME: &str = "apply_patch";

/// The tool's description.
pub const DESCRIPTION: &str = include_str!("codex-tool/description.txt");

/// The Lark grammar of the patch.
pub const GRAMMAR: &str = include_str!("codex-tool/apply_patch.lark");

/// The grammar Codex uses when several environments are enabled: it allows
/// an `*** Environment ID:` line after `*** Begin Patch`.
pub const GRAMMAR_WITH_ENVIRONMENT_ID: &str = include_str!("codex-tool/apply_patch_with_environment_id.lark");

/// The grammar for a tool with or without the Environment ID line.
pub fn grammar(environment_id: bool) -> &'static str {
    if environment_id {
        GRAMMAR_WITH_ENVIRONMENT_ID
    } else {
        GRAMMAR
    }
}
