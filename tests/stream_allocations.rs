//! What a stream allocates for each section, counted: a section pushed in
//! steady state (the stream's buffers grown by the sections before it)
//! allocates only what its own search and its event need. The section's
//! view and the caller's event vector are reused from one section to the
//! next; a change that allocates them again for every section, or grows a
//! splice's text a line at a time, fails here (it changes no output, only
//! the cost, which is what this test pins).

// The counting allocator is this test binary's own; it has one test, so no
// other test's allocations are counted.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use applypatch::stream::{DiffStream, Event};
use applypatch::Mode;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed to the system allocator unchanged; the
// counter is a thread-local `Cell` with a constant initializer, which
// never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// An input of `n` distinct lines, and a diff of one section every 20 lines:
/// three lines of context, one removed line, two added, three of context.
fn case(n: usize) -> (String, Vec<String>) {
    let input: String = (0..n).map(|i| format!("let value_{i} = compute({i});\n")).collect();
    let sections = (1..n / 20)
        .map(|s| {
            let at = s * 20;
            let line = |i: usize| format!("let value_{i} = compute({i});");
            format!(
                "@@\n {}\n {}\n {}\n-{}\n+{}\n+// added after {at}\n {}\n {}\n {}\n",
                line(at - 3),
                line(at - 2),
                line(at - 1),
                line(at),
                line(at).replace("compute", "recompute"),
                line(at + 1),
                line(at + 2),
                line(at + 3),
            )
        })
        .collect();
    (input, sections)
}

#[test]
fn a_section_in_steady_state_allocates_only_for_its_search_and_event() {
    let (input, sections) = case(4_000);
    // The allocations of one section, by mode, as counted when this test
    // was written (13 and 11; they were 16 and 14 when the view and the
    // event vector were allocated for every section and a splice's text
    // grew a line at a time): its search, its edits owned (their vector,
    // and each added line's text), and its event's splices. The fraction
    // over the whole number is the amortized growth of the stream's lists.
    for (mode, most) in [(Mode::Strict, 13.1), (Mode::Codex, 11.1)] {
        let mut s = DiffStream::new(input.clone(), mode);
        let mut events = Vec::new();
        let mut placed = 0;
        let mut counted = 0;
        let mut pushed = 0;
        for (i, section) in sections.iter().enumerate() {
            // The first half warms the stream's buffers.
            let before = allocations();
            s.push_into(section, &mut events);
            if i >= sections.len() / 2 {
                counted += allocations() - before;
                pushed += 1;
            }
            placed += events.iter().filter(|e| matches!(e, Event::Section(_))).count();
            events.clear();
        }
        assert_eq!(placed, sections.len() - 1, "{mode:?}: every section but the last is placed as the next one opens");
        let per_section = counted as f64 / pushed as f64;
        assert!(per_section <= most, "{mode:?}: {per_section:.2} allocations a section, at most {most} expected");
        let out = s.end().expect("the diff applies");
        assert_eq!(out.matches("recompute").count(), sections.len(), "{mode:?}");
    }
}
