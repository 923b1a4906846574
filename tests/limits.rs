//! Hostile sizes through the Rust API: each case gets its exact answer or an
//! `input_too_large` error, in bounded time (no timings are asserted).

use applypatch::{ErrorKind, Mode};

/// A maximal-length LFSR sequence of 2^bits - 1 lines 'a' / 'b': every run
/// of `bits` lines (but all 'a') occurs exactly once, while each line occurs
/// all over the text.
fn m_sequence(bits: u32, taps: u32) -> Vec<&'static str> {
    let mut state = 1u32;
    (0..(1u32 << bits) - 1)
        .map(|_| {
            let bit = state & 1;
            let feedback = (state & taps).count_ones() & 1;
            state = (state >> 1) | (feedback << (bits - 1));
            if bit == 1 {
                "b"
            } else {
                "a"
            }
        })
        .collect()
}

/// A diff of one section per `bits + 1` lines of the sequence: `bits` context
/// lines, unique as a run but made of lines common everywhere, then a change.
fn many_sections(seq: &[&str], bits: usize) -> String {
    let mut diff = String::new();
    for chunk in seq.chunks_exact(bits + 1) {
        diff.push_str("@@\n");
        for l in &chunk[..bits] {
            diff.push_str(&format!(" {l}\n"));
        }
        diff.push_str(&format!("-{}\n+{}!\n", chunk[bits], chunk[bits]));
    }
    diff
}

#[test]
#[cfg_attr(debug_assertions, ignore = "about a minute in a debug build; npm test runs it in release")]
fn many_sections_of_common_lines_are_found_or_refused_quickly() {
    // Small: 4,095 lines, 315 sections: found, each change where it belongs.
    let seq = m_sequence(12, (1 << 0) | (1 << 1) | (1 << 4) | (1 << 6));
    let input = format!("{}\n", seq.join("\n"));
    let out = Mode::Strict.apply(&input, &many_sections(&seq, 12)).unwrap();
    let want: Vec<String> =
        seq.iter().enumerate().map(|(i, l)| if i % 13 == 12 && i < 4095 / 13 * 13 { format!("{l}!") } else { l.to_string() }).collect();
    assert_eq!(out, format!("{}\n", want.join("\n")));
    // Large: 262,143 lines, 13,797 sections, each proving itself unique
    // among ~131,000 places: billions of comparisons, refused after the budget.
    let seq = m_sequence(18, (1 << 0) | (1 << 7));
    let input = format!("{}\n", seq.join("\n"));
    let e = Mode::Strict.apply(&input, &many_sections(&seq, 18)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InputTooLarge);
    assert!(e.message.starts_with("Finding the sections of this diff needed more than "), "{}", e.message);
}

/// A section of 2,000 equal lines over a file of runs of 1,999 of them
/// (600,000 lines): almost every line starts a near miss, and the answer is
/// that the section is not there, not a refusal for the work.
#[test]
fn a_near_miss_at_every_line_is_answered_in_linear_time() {
    let input = format!("{}y\n", "x\n".repeat(1999)).repeat(300);
    let diff = format!("{}+w", " x\n".repeat(2000));
    let e = applypatch::apply(&input, &diff).unwrap_err();
    assert_eq!(e.kind, applypatch::ErrorKind::ContextNotFound, "{}", e.message);
}

/// The re-read budget: updates (or edits) reading up to 128 MiB in all pass,
/// one byte more is refused, with the count of updates so far.
#[test]
fn rereads_are_counted_up_to_the_budget() {
    use applypatch::limits::{Rereads, MAX_REREAD_BYTES};
    let mut r = Rereads::default();
    r.read(MAX_REREAD_BYTES - 1).unwrap();
    r.read(1).unwrap();
    let e = r.read(1).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InputTooLarge);
    assert_eq!(
        e.message,
        "The 3 updates up to this one read 134217729 bytes of file text, more than the 134217728 bytes (128 MiB) applypatch reads in one call: each update of a file reads the whole file again. Merge the updates of each file into one update, or split the patch."
    );
    let mut edits = Rereads::edits();
    let e = edits.read(MAX_REREAD_BYTES + 1).unwrap_err();
    assert!(e.message.starts_with("The 1 edits up to this one read 134217729 bytes of text"), "{}", e.message);
}

/// Line breaks are counted only for a text longer than the line limit in
/// bytes (a shorter one cannot have more lines): at the limit, no count.
#[test]
fn line_breaks_are_counted_only_past_the_line_limit() {
    use applypatch::limits::{check_size, MAX_LINES};
    let mut asked = 0;
    check_size("x", MAX_LINES, || {
        asked += 1;
        MAX_LINES + 1
    })
    .unwrap();
    assert_eq!(asked, 0);
    let e = check_size("the input", MAX_LINES + 1, || {
        asked += 1;
        MAX_LINES + 1
    })
    .unwrap_err();
    assert_eq!((asked, e.kind), (1, ErrorKind::InputTooLarge));
    // The size limit: 32 MiB pass, one byte more does not.
    use applypatch::limits::MAX_TEXT_BYTES;
    check_size("the input", MAX_TEXT_BYTES, || 0).unwrap();
    let e = check_size("the input", MAX_TEXT_BYTES + 1, || 0).unwrap_err();
    assert_eq!(
        e.message,
        "the input is 33554433 bytes long; applypatch takes texts of at most 33554432 bytes (32 MiB). Split the work into smaller files or edits."
    );
}
