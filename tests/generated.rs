//! The constant tables the JS wrapper needs, generated from the engine into
//! `js/generated.ts`, so that no constant is written by hand on both sides.
//! This test fails when the committed file is stale;
//! `UPDATE_GENERATED=1 cargo test --test generated` rewrites it.
use applypatch::blocks::{DifferenceKind, Options, Reason, Strategy};
use applypatch::repair::{Allow, RepairKind};
use applypatch::unified::write::Op;
use applypatch::unified::{FileKind, LineKind, UnifiedMode};
use applypatch::{ErrorKind, FileOperation, Format, Mode, OperationKind};

fn list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let quoted: Vec<String> = items.into_iter().map(|s| format!("'{s}'")).collect();
    format!("[{}]", quoted.join(", "))
}

fn numbers(values: &[f64]) -> String {
    let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", shown.join(", "))
}

fn generated() -> String {
    let fields: Vec<String> =
        Options::FIELDS.iter().map(|(name, flag)| format!("  ['{name}', '{}'],", if *flag { "boolean" } else { "number" })).collect();
    let codes: Vec<String> = ErrorKind::ALL.iter().map(|k| format!("  '{}',", k.code())).collect();
    let repairs: Vec<String> = RepairKind::ALL.iter().map(|k| format!("  '{}',", k.code())).collect();
    format!(
        "// Generated from the Rust engine by tests/generated.rs: do not edit.
// `UPDATE_GENERATED=1 cargo test --test generated` rewrites it; npm test fails when it is stale.

/** The modes; the binding takes a mode as its index here. */
export const modes = {modes} as const;

/** The formats `detectFormat` tells apart. */
export const formats = {formats} as const;

/** The kinds of a patch's operations (`parse(patch).operations[].kind`). */
export const operationKinds = {kinds} as const;

/** The Responses API operation types the binding takes. */
export const operationTypes = {types} as const;

/** The edit-block strategies in ladder order; the binding answers a strategy as its index here plus 1 (0: none). */
export const strategies = {strategies} as const;

/** The edit-block options as the binding takes them, in one array of numbers (flags as 1 or 0): name and type. */
export const editOptionFields = [
{fields}
] as const;

/** The presets' option values, in the order of {{@link editOptionFields}}. */
export const presets = {{
  compatible: {compatible},
  safe: {safe},
}} as const;

/** Every error code of the engine, in order. */
export const engineErrorCodes = [
{codes}
] as const;

/** Every repair kind, in order; the binding takes the allowed kinds as a bit set (bit k for the k-th kind). */
export const repairKinds = [
{repairs}
] as const;

/** The engine's limit on one text, in UTF-8 bytes (`limits::MAX_TEXT_BYTES`). */
export const maxTextBytes = {max_text};

/** The binding's mode code is `mode | allowedRepairs << repairShift`. */
export const repairShift = {shift};

/** Why an edit block was not applied (`reason` of a failed result). */
export const editFailureReasons = {reasons} as const;

/** How a SEARCH line and the file differ at the closest place (`nearest.differences[].kind`). */
export const lineDifferenceKinds = {differences} as const;

/** The modes of `applyUnified`; the binding takes a mode as its index here. */
export const unifiedModes = {unified_modes} as const;

/** What a file diff of a unified diff does (`parseUnified(diff)[].status`). */
export const unifiedStatuses = {statuses} as const;

/** What a hunk line does (`parseUnified(diff)[].hunks[].lines[].kind`). */
export const unifiedLineKinds = {line_kinds} as const;

/** The steps of `lineDiff`; the binding answers a step as its index here. */
export const lineOps = {line_ops} as const;
",
        modes = list(Mode::ALL.iter().map(|m| m.as_str())),
        formats = list(Format::ALL.iter().map(|f| f.as_str())),
        kinds = list(OperationKind::ALL.iter().map(|k| k.as_str())),
        types = list(FileOperation::TYPES),
        strategies = list(Strategy::ALL.iter().map(|s| s.as_str())),
        fields = fields.join("\n"),
        compatible = numbers(&Options::COMPATIBLE.to_numbers()),
        safe = numbers(&Options::SAFE.to_numbers()),
        codes = codes.join("\n"),
        repairs = repairs.join("\n"),
        shift = Allow::CODE_SHIFT,
        max_text = applypatch::limits::MAX_TEXT_BYTES,
        reasons = list(Reason::ALL.iter().map(|r| r.as_str())),
        differences = list(DifferenceKind::ALL.iter().map(|k| k.as_str())),
        unified_modes = list(UnifiedMode::ALL.iter().map(|m| m.as_str())),
        statuses = list(FileKind::ALL.iter().map(|k| k.as_str())),
        line_kinds = list(LineKind::ALL.iter().map(|k| k.as_str())),
        line_ops = list(Op::ALL.iter().map(|o| o.as_str())),
    )
}

#[test]
fn js_constants_are_generated_from_the_engine() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/js/generated.ts");
    let want = generated();
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(have == want, "js/generated.ts is stale: run `UPDATE_GENERATED=1 cargo test --test generated` and commit it");
}

#[test]
fn options_cross_as_numbers_and_back() {
    for options in [
        Options::COMPATIBLE,
        Options::SAFE,
        Options { anchor_slack: -1, unique: true, ..Options::COMPATIBLE },
        Options { repair: Allow::only(&[RepairKind::FileName]), ..Options::SAFE },
    ] {
        assert_eq!(Options::from_numbers(&options.to_numbers()), options);
    }
    // apply-edit-block's reading of a slack that is not a whole number.
    let slack = |v: f64| Options::from_numbers(&[v]).anchor_slack;
    assert_eq!((slack(2.7), slack(-0.5), slack(f64::NAN), slack(f64::INFINITY)), (2, -1, -1, i64::MAX));
    assert_eq!(Options::from_numbers(&[]), Options::COMPATIBLE);
}
