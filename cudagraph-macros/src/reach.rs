//! Which nodes edges order: for every node, the nodes after it and the nodes before it, as bit
//! sets. A declaration of 10,000 nodes (a loop makes one in a line) has 10^8 pairs: as bits
//! they take 12 MB a direction and are computed a word at a time, and the pairs no edge orders,
//! the only ones the hazard rule looks at, are found by scanning words.

/// The order edges make between nodes (see `Model::reachability`).
#[derive(Clone)]
pub struct Reach {
    /// Words per row.
    words: usize,
    /// Row `a`: the nodes reachable from `a`.
    after: Vec<u64>,
    /// Row `b`: the nodes that reach `b`.
    before: Vec<u64>,
}

impl Reach {
    /// No node ordered with another.
    pub fn new(n: usize) -> Self {
        let words = n.div_ceil(64);
        Self {
            words,
            after: vec![0; words * n],
            before: vec![0; words * n],
        }
    }

    /// The closure of `out` (successors by node) in topological `order`: each row is its
    /// successors' rows, a word at a time, and the nodes before each the same way forward.
    pub fn closure(n: usize, out: &[Vec<usize>], order: &[usize]) -> Self {
        let mut reach = Self::new(n);
        let w = reach.words;
        for &node in order.iter().rev() {
            for &next in &out[node] {
                reach.after[node * w + next / 64] |= 1 << (next % 64);
                let (row, from) = split_rows(&mut reach.after, node, next, w);
                for (cell, &r) in row.iter_mut().zip(from) {
                    *cell |= r;
                }
            }
        }
        for &node in order {
            for &next in &out[node] {
                reach.before[next * w + node / 64] |= 1 << (node % 64);
                let (row, from) = split_rows(&mut reach.before, next, node, w);
                for (cell, &r) in row.iter_mut().zip(from) {
                    *cell |= r;
                }
            }
        }
        reach
    }

    /// Whether `b` is reachable from `a`.
    pub fn get(&self, a: usize, b: usize) -> bool {
        self.after[a * self.words + b / 64] & (1 << (b % 64)) != 0
    }

    /// Sets whether `b` counts as reachable from `a` (both directions' rows).
    pub fn set(&mut self, a: usize, b: usize, value: bool) {
        let w = self.words;
        let (bit_b, bit_a) = (1u64 << (b % 64), 1u64 << (a % 64));
        if value {
            self.after[a * w + b / 64] |= bit_b;
            self.before[b * w + a / 64] |= bit_a;
        } else {
            self.after[a * w + b / 64] &= !bit_b;
            self.before[b * w + a / 64] &= !bit_a;
        }
    }

    /// The nodes `a < b` in `mask` (a set of nodes, as bits) that `b` is not ordered with,
    /// either way, in increasing order. The nodes out of `mask` are skipped a word at a time, so
    /// that nodes the caller has nothing to compare (no memory) cost nothing per pair.
    pub fn unordered_before_in<'a>(
        &'a self,
        b: usize,
        mask: &'a [u64],
    ) -> impl Iterator<Item = usize> + 'a {
        self.words_before(b, mask).flat_map(bits)
    }

    /// How many nodes `a < b` that `b` is not ordered with are in `mask` (a set of nodes, as
    /// bits): [`Reach::unordered_before_in`], counted a word at a time.
    pub fn count_unordered_before(&self, b: usize, mask: &[u64]) -> usize {
        self.words_before(b, mask)
            .map(|(_, word)| word.count_ones() as usize)
            .sum()
    }

    /// The words of the nodes `a < b` in `mask` that `b` is not ordered with, by position.
    fn words_before<'a>(
        &'a self,
        b: usize,
        mask: &'a [u64],
    ) -> impl Iterator<Item = (usize, u64)> + 'a {
        let w = self.words;
        (0..b.div_ceil(64)).map(move |k| {
            let mut word = !(self.after[b * w + k] | self.before[b * w + k]) & mask[k];
            if k == b / 64 {
                word &= (1u64 << (b % 64)) - 1;
            }
            (k, word)
        })
    }
}

/// The nodes of word `k` of a row (`word`'s set bits), in increasing order.
fn bits((k, mut word): (usize, u64)) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as usize;
            word &= word - 1;
            k * 64 + bit
        })
    })
}

/// Row `to` mutably and row `from` of a matrix of rows of `w` words (two different rows).
fn split_rows(rows: &mut [u64], to: usize, from: usize, w: usize) -> (&mut [u64], &[u64]) {
    if to < from {
        let (low, high) = rows.split_at_mut(from * w);
        (&mut low[to * w..to * w + w], &high[..w])
    } else {
        let (low, high) = rows.split_at_mut(to * w);
        (&mut high[..w], &low[from * w..from * w + w])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closure_holds_every_path_both_ways() {
        // 0 -> 1 -> 2, 3 alone, 70 nodes in all (rows of two words).
        let n = 70;
        let mut out = vec![Vec::new(); n];
        out[0].push(1);
        out[1].push(2);
        out[2].push(69);
        let order: Vec<usize> = (0..n).collect();
        let reach = Reach::closure(n, &out, &order);
        assert!(reach.get(0, 2) && reach.get(0, 69) && !reach.get(2, 0) && !reach.get(3, 1));
        let unordered: Vec<usize> = reach.unordered_before_in(69, &[!0, !0]).collect();
        assert_eq!(reach.count_unordered_before(69, &[!0, !0]), unordered.len());
        assert_eq!(reach.count_unordered_before(69, &[0b1001, 0]), 1);
        assert!(!unordered.contains(&0) && !unordered.contains(&2) && unordered.contains(&3));
        assert_eq!(unordered.len(), 69 - 3);
        assert_eq!(reach.unordered_before_in(2, &[!0, !0]).count(), 0);
        // Out of the mask, skipped.
        assert_eq!(
            reach
                .unordered_before_in(69, &[0b1001, 1 << 4])
                .collect::<Vec<_>>(),
            [3, 68]
        );
    }

    #[test]
    fn set_changes_both_directions() {
        let mut reach = Reach::new(3);
        reach.set(2, 0, true);
        assert!(reach.get(2, 0));
        assert_eq!(reach.unordered_before_in(2, &[!0]).collect::<Vec<_>>(), [1]);
        reach.set(2, 0, false);
        assert_eq!(
            reach.unordered_before_in(2, &[!0]).collect::<Vec<_>>(),
            [0, 1]
        );
        assert_eq!(
            reach.unordered_before_in(2, &[0b10]).collect::<Vec<_>>(),
            [1]
        );
        assert_eq!(reach.count_unordered_before(2, &[0b11]), 2);
        assert_eq!(reach.count_unordered_before(2, &[0b10]), 1);
    }
}
