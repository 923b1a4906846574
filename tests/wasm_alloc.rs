//! The npm engines' allocator (src/wasm/mod.rs `growth`), inside wasm32
//! with the `wasm` feature, which installs it for this whole test binary:
//! small blocks freed go on a list per size class and are handed out again.
//! Run by scripts/test.sh (`wasm-pack test --node --release --features wasm`).
#![cfg(all(target_arch = "wasm32", feature = "wasm"))]

// The crate is linked for its allocator, which this binary then uses.
extern crate applypatch;

use wasm_bindgen_test::wasm_bindgen_test;

/// A vector grown one byte at a time moves through every size class and
/// out of them, and keeps its bytes; shrunk, it comes back into them.
#[wasm_bindgen_test]
fn growing_and_shrinking_keeps_the_bytes() {
    for round in 0..3u8 {
        let mut v: Vec<u8> = Vec::new();
        for i in 0..700usize {
            v.push((i as u8).wrapping_mul(7).wrapping_add(round));
            v.shrink_to_fit();
        }
        assert!(v.iter().enumerate().all(|(i, &b)| b == (i as u8).wrapping_mul(7).wrapping_add(round)));
        while v.len() > 1 {
            v.truncate(v.len() * 2 / 3);
            v.shrink_to_fit();
            assert!(v.iter().enumerate().all(|(i, &b)| b == (i as u8).wrapping_mul(7).wrapping_add(round)));
        }
    }
}

/// Vectors grown side by side, a byte at a time, through every size class
/// and out of them: a block too small for what it holds would write over
/// its neighbours.
#[wasm_bindgen_test]
fn vectors_grown_side_by_side_keep_their_bytes() {
    let mut vs: Vec<Vec<u8>> = (0..64).map(|_| Vec::new()).collect();
    for step in 0..400usize {
        for (k, v) in vs.iter_mut().enumerate() {
            v.push(k as u8);
            if step % 5 == k % 5 {
                v.shrink_to_fit();
            }
        }
    }
    let vs = std::hint::black_box(vs);
    for (k, v) in vs.iter().enumerate() {
        assert_eq!(v.len(), 400);
        assert!(v.iter().all(|&b| b == k as u8), "vector {k} was overwritten");
    }
}

/// A zeroed block is zero even when it was freed dirty.
#[wasm_bindgen_test]
fn a_zeroed_block_is_zero_after_a_dirty_one() {
    for size in 1..=300usize {
        let dirty = vec![0xA5u8; size];
        drop(std::hint::black_box(dirty));
        // (black_box: the optimizer may take a zeroed allocation's bytes for
        // zeros without reading them.)
        let clean = std::hint::black_box(vec![0u8; size]);
        assert!(clean.iter().all(|&b| b == 0), "size {size}");
    }
}

/// Blocks in use are never handed out twice, and each is aligned as asked.
#[wasm_bindgen_test]
fn live_blocks_are_distinct_and_aligned() {
    #[repr(align(16))]
    struct Sixteen([u8; 48]);
    #[repr(align(32))]
    struct ThirtyTwo([u8; 32]);
    let mut live: Vec<Vec<u8>> = Vec::new();
    for i in 0..2_000usize {
        let size = 1 + (i * 37) % 300;
        live.push(vec![(i % 251) as u8; size]);
        if i % 3 == 0 {
            live.swap_remove(i % live.len());
        }
    }
    for (k, v) in live.iter().enumerate() {
        let first = v.first().copied();
        assert!(v.iter().all(|&b| Some(b) == first), "block {k} was overwritten");
    }
    let sixteen: Vec<Box<Sixteen>> = (0..50).map(|i| Box::new(Sixteen([i; 48]))).collect();
    assert!(sixteen.iter().all(|b| (&**b as *const Sixteen as usize) % 16 == 0));
    let thirty_two: Vec<Box<ThirtyTwo>> = (0..50).map(|i| Box::new(ThirtyTwo([i; 32]))).collect();
    assert!(thirty_two.iter().all(|b| (&**b as *const ThirtyTwo as usize) % 32 == 0));
    assert!(sixteen.iter().enumerate().all(|(i, b)| b.0.iter().all(|&x| x == i as u8)));
    assert!(thirty_two.iter().enumerate().all(|(i, b)| b.0.iter().all(|&x| x == i as u8)));
}

/// Freed small blocks are handed out again, the last freed first, before
/// the system allocator is asked for more.
#[wasm_bindgen_test]
fn freed_blocks_are_handed_out_again() {
    let first: Vec<Box<[u8; 40]>> = (0..32).map(|i| Box::new([i as u8; 40])).collect();
    let places: Vec<usize> = first.iter().map(|b| &**b as *const [u8; 40] as usize).collect();
    drop(first);
    let again: Vec<Box<[u8; 40]>> = (0..32).map(|i| Box::new([i as u8 + 100; 40])).collect();
    let now: Vec<usize> = again.iter().map(|b| &**b as *const [u8; 40] as usize).collect();
    let mut want = places.clone();
    want.reverse();
    assert_eq!(now, want);
}
