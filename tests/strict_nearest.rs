//! Where a Strict error says the input came closest (`nearest`, and "k of n
//! lines are equal" in the message) when a section is not found: the place
//! the model should look at to fix its diff.

use applypatch::{apply, Error, ErrorKind};

fn fail(input: &str, diff: &str) -> Error {
    match apply(input, diff) {
        Ok(out) => panic!("expected an error, got {out:?}"),
        Err(e) => e,
    }
}

/// (line, share of equal lines) of the closest place.
fn nearest(e: &Error) -> (usize, f64) {
    assert_eq!(e.kind, ErrorKind::ContextNotFound, "{}", e.message);
    let n = e.nearest.as_ref().unwrap_or_else(|| panic!("no nearest place: {}", e.message));
    (n.line, n.similarity)
}

#[test]
fn a_line_too_common_to_say_where_a_section_is_does_not_choose_the_place() {
    // 201 equal lines "}" (more than 200: too common to vote), then the one
    // place with the section's distinctive line.
    let input = format!("{}a\nb\nrare\n", "}\n".repeat(201));
    let e = fail(&input, "-}\n-}\n-rare\n+x");
    assert_eq!(nearest(&e), (202, 1.0 / 3.0));
    assert!(e.message.contains("The closest place is input line 202, where 1 of 3 lines are equal"), "{}", e.message);
    // With 200 of them the common line still counts.
    let input = format!("{}a\nb\nrare\n", "}\n".repeat(200));
    assert_eq!(nearest(&fail(&input, "-}\n-}\n-rare\n+x")).0, 1);
}

#[test]
fn the_closest_place_by_whitespace_is_after_the_previous_section() {
    // No line of the second section is in the input as is; ignoring
    // indentation they are at lines 5-6, after the first section. Lines 2-3
    // match too but lie before it.
    let input = "a\n  c\n  d\nb\n  c\n  d\n";
    let e = fail(input, "@@\n-b\n+B\n@@\n-c\n+C\n d");
    assert_eq!(nearest(&e), (5, 0.0));
    assert_eq!(e.diff_line, Some(5));
    assert!(e.message.contains("input line 5 is    '  c'  (only whitespace differs)"), "{}", e.message);
}

#[test]
fn a_place_running_past_the_end_counts_only_the_lines_there() {
    // The section's last line is empty; at the closest place (line 2) the
    // input ends before it, so 1 of 2 lines is equal, not 2.
    let e = fail("a\nb\n", "-b\n-\n+c");
    assert_eq!(nearest(&e), (2, 0.5));
    assert!(e.message.contains("where 1 of 2 lines are equal"), "{}", e.message);
}

#[test]
fn a_section_of_only_too_common_lines_points_at_its_longest_start() {
    // "}" is on 201 lines (too common to vote) and "x" is nowhere: the closest
    // place is where the longest start of the section is, line 1, and there
    // only its first line is equal.
    let input = format!("{}end\n", "}\n".repeat(201));
    let e = fail(&input, "-}\n-x\n+y");
    assert_eq!(nearest(&e), (1, 0.5));
    assert!(e.message.contains("The closest place is input line 1, where 1 of 2 lines are equal"), "{}", e.message);
}

#[test]
fn a_section_of_only_too_common_lines_running_past_the_end_counts_only_the_lines_there() {
    // 201 lines "}" (too common to vote), and the section is those 201 lines
    // and an empty one after them: at line 1 the input ends before the empty
    // line, so 201 of 202 lines are equal, not 202.
    let input = "}\n".repeat(201);
    let diff = format!("{}-\n+x", " }\n".repeat(201));
    let e = fail(&input, &diff);
    assert_eq!(nearest(&e), (1, 201.0 / 202.0));
    assert!(e.message.contains("The closest place is input line 1, where 201 of 202 lines are equal"), "{}", e.message);
}

#[test]
fn with_no_line_equal_a_similar_line_of_three_characters_still_places_it() {
    // "abc" is nowhere, even trimmed; "abd" is two thirds alike.
    let e = fail("x\nabd\n", "-abc\n+y");
    assert_eq!(nearest(&e).0, 2);
    assert!(e.message.contains("The closest place is input line 2"), "{}", e.message);
}

#[test]
fn at_a_place_found_by_a_similar_line_the_too_common_lines_there_count() {
    // "}" is on 202 lines (too common to vote) and "abcdefgh" nowhere: the
    // place is where the similar "abcdefgX" is, line 202, and the "}" after
    // it is equal.
    let input = format!("{}abcdefgX\n}}\n", "}\n".repeat(201));
    let e = fail(&input, "-abcdefgh\n-}\n+x");
    assert_eq!(nearest(&e), (202, 0.5));
    assert!(e.message.contains("The closest place is input line 202, where 1 of 2 lines are equal"), "{}", e.message);
}

#[test]
fn with_no_line_there_the_most_similar_line_is_the_closest_place() {
    // No line of the section is in the input, even trimmed: the input line
    // most like its longest line. A line that holds the probe twice over is
    // not more like it than a line with one character changed.
    let e = fail("abcabcabc\nabcabX\nzz\n", "-abcabc\n-zzz\n+q");
    assert_eq!(nearest(&e), (2, 0.0));
    // On a tie, the first.
    let e = fail("k\nabcdeX\nabcdeY\n", "-abcdeZ\n-zzz\n+q");
    assert_eq!(nearest(&e).0, 2);
}

#[test]
fn a_line_found_only_trimmed_counts_up_to_two_hundred_times() {
    // "}" is in the input only indented, 200 times: it still says where the
    // section could be (the first of them). With 201 it is too common.
    let input = format!("a\n{}", "  }\n".repeat(200));
    assert_eq!(nearest(&fail(&input, "-}\n-x\n+y")).0, 2);
    let input = format!("a\n{}", "  }\n".repeat(201));
    assert!(fail(&input, "-}\n-x\n+y").nearest.is_none());
}

#[test]
fn with_every_line_too_common_the_longest_start_of_the_section_is_the_closest_place() {
    // 300 other lines, then "}" 201 times: too common to vote. The place where
    // the most of the section's first lines are is line 301; three of its
    // four lines are equal there.
    let input = format!("{}{}", (0..300).map(|i| format!("line {i}\n")).collect::<String>(), "}\n".repeat(201));
    assert_eq!(nearest(&fail(&input, "-}\n-}\n-}\n-q\n+y")), (301, 0.75));
}
