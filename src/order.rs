//! Sorting with one instantiation of the standard library's sort for the
//! whole engine (docs/size.md: the stable sort instantiated per element type
//! was 9% of the wasm's code). Every sort of the engine's lists goes through
//! [`sort_by_key`]: the keys, with each element's index as the last one, are
//! sorted by one `sort_unstable` on one type, and since no two keys are equal
//! the result is the stable sort's: equal elements keep their order.
//! Strings, which such keys cannot order, have [`sort_strs`], the one other
//! instantiation. `scripts/layers.mjs` fails on a sort anywhere else.

/// A sort key: two numbers, then the element's index.
type Key = (usize, usize, usize);

/// The one sort: kept out of line so that every caller shares its code.
#[inline(never)]
fn sort_keys(keys: &mut [Key]) {
    keys.sort_unstable();
}

/// Sorts `items` by `key`, stably: elements with equal keys keep their order.
pub(crate) fn sort_by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> (usize, usize)) {
    if items.len() < 2 {
        return;
    }
    let mut keys: Vec<Key> = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let (a, b) = key(item);
            (a, b, i)
        })
        .collect();
    sort_keys(&mut keys);
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(keys.iter().filter_map(|&(_, _, i)| slots.get_mut(i).and_then(Option::take)));
}

/// Sorts strings (byte order): the engine's one string sort, out of line.
#[inline(never)]
pub(crate) fn sort_strs(items: &mut [&str]) {
    items.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::{sort_by_key, sort_strs};

    #[test]
    fn strings_sort_in_byte_order() {
        let mut items = vec!["b/x", "a", "B", "a/b", "é", ""];
        sort_strs(&mut items);
        assert_eq!(items, ["", "B", "a", "a/b", "b/x", "é"]);
    }

    #[test]
    fn sorts_by_the_key_and_keeps_the_order_of_equal_keys() {
        let mut items = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e'), (3, 'f')];
        let mut stable = items.clone();
        stable.sort_by_key(|&(k, _)| k);
        sort_by_key(&mut items, |&(k, _)| (k, 0));
        assert_eq!(items, stable);
        assert_eq!(items.iter().map(|&(_, c)| c).collect::<String>(), "dbeacf");
    }

    #[test]
    fn the_second_key_breaks_ties_of_the_first() {
        let mut items = vec![(2, 9), (1, 5), (2, 1), (1, 5), (0, 7)];
        let mut stable = items.clone();
        stable.sort();
        sort_by_key(&mut items, |&(a, b)| (a, b));
        assert_eq!(items, stable);
    }

    #[test]
    fn empty_and_single_lists_stay() {
        let mut empty: Vec<u8> = Vec::new();
        sort_by_key(&mut empty, |&x| (usize::from(x), 0));
        assert!(empty.is_empty());
        let mut one = vec![4u8];
        sort_by_key(&mut one, |&x| (usize::from(x), 0));
        assert_eq!(one, [4]);
    }
}
