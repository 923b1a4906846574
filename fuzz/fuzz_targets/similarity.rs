//! `similarity`: in 0..=1, symmetric, 1 for equal texts, and equal to the
//! textbook LCS ratio on small inputs. The input is split on U+0001.
#![no_main]
use applypatch::blocks::similarity;
use libfuzzer_sys::fuzz_target;

fn naive(a: &str, b: &str) -> f64 {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.split('\n').collect(), b.split('\n').collect());
    let mut prev = vec![0usize; lb.len() + 1];
    for x in &la {
        let mut cur = vec![0usize; lb.len() + 1];
        for (j, y) in lb.iter().enumerate() {
            cur[j + 1] = if x == y { prev[j] + 1 } else { cur[j].max(prev[j + 1]) };
        }
        prev = cur;
    }
    prev[lb.len()] as f64 / la.len().max(lb.len()) as f64
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let (a, b) = s.split_once('\u{1}').unwrap_or((&s, ""));
    let Ok(x) = similarity(a, b) else { return };
    assert!((0.0..=1.0).contains(&x));
    assert_eq!(similarity(b, a).ok(), Some(x), "not symmetric");
    assert_eq!(similarity(a, a).ok(), Some(1.0));
    if a.len() + b.len() < 4096 {
        assert_eq!(x, naive(a, b));
    }
});
