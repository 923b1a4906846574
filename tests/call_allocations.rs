//! What one whole call allocates, counted: applying a diff of three
//! sections of a dozen lines each to a 120-line file. A section's lines, a
//! run's new lines and the lines a search compares are sized once instead
//! of grown 4, 8, 16; a splice takes its edit's text instead of copying it.
//! A change that grows them again, or copies a text once more, changes no
//! output, only the cost, which is what this test pins.

// The counting allocator is this test binary's own; it has one test, so no
// other test's allocations are counted.
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

/// A 120-line file and a diff of three sections: four lines of context,
/// two removed, six added, four of context (16 lines each).
fn case() -> (String, String) {
    let line = |i: usize| format!("    total_{i} = compute({i}, options);");
    let input: String = (0..120).map(|i| line(i) + "\n").collect();
    let diff: String = [30, 60, 90]
        .iter()
        .map(|&at| {
            let mut s = String::from("@@\n");
            (at - 4..at).for_each(|i| s += &format!(" {}\n", line(i)));
            (at..at + 2).for_each(|i| s += &format!("-{}\n", line(i)));
            (0..6).for_each(|k| s += &format!("+    added_{at}_{k}();\n"));
            (at + 2..at + 6).for_each(|i| s += &format!(" {}\n", line(i)));
            s
        })
        .collect();
    (input, diff)
}

#[test]
fn a_call_sizes_its_vectors_once_and_copies_each_text_once() {
    let (input, diff) = case();
    // As counted when this test was written (Strict 38, Codex 32); they were
    // 62 and 41 while a section's lines, a run's new lines and the lines a
    // search compares grew from 4, and a splice copied its edit's text.
    for (mode, want) in [(Mode::Strict, 38), (Mode::Codex, 32)] {
        let before = allocations();
        let changes = mode.changes(&input, &diff).expect("the diff applies");
        let counted = allocations() - before;
        assert_eq!(changes.splices().len(), 3, "{mode:?}");
        assert_eq!(counted, want, "{mode:?}: allocations of one call");
    }
}
