//! The Codex `apply_patch` tool texts compiled into the engine are the ones
//! the Codex CLI 0.171.0 sends (tests/fixtures/codex-apply-patch-tool.json,
//! the whole tool as recorded), byte for byte.

use serde_json::Value;

fn recorded() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/codex-apply-patch-tool.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_tool_is_the_one_codex_sends() {
    let tool = recorded();
    assert_eq!(tool["type"], "custom");
    assert_eq!(tool["name"], applypatch::tool::NAME);
    assert_eq!(tool["description"], applypatch::tool::DESCRIPTION);
    assert_eq!(tool["format"]["syntax"], "lark");
    assert_eq!(tool["format"]["definition"], applypatch::tool::GRAMMAR);
    assert_eq!(applypatch::tool::grammar(false), applypatch::tool::GRAMMAR);
}

#[test]
fn the_environment_id_grammar_allows_the_environment_line() {
    let with = applypatch::tool::grammar(true);
    assert_eq!(with, applypatch::tool::GRAMMAR_WITH_ENVIRONMENT_ID);
    assert!(with.contains("*** Environment ID: "), "{with}");
    assert!(!applypatch::tool::GRAMMAR.contains("Environment ID"));
}
