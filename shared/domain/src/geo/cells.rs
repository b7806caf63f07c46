//! H3 cells as the geo indexes name them: a point's res-15 cell number (the sort
//! key), its res-2 ancestor (the partition), and the one contiguous number range of
//! any cell's res-15 descendants, so that one Query reads one cell at any resolution
//! from 2 to 15. The stored keys' prefixes (`geopk`, `freegeopk`) are the store's
//! (`shared/store/src/keys.rs`): here a partition is its res-2 cell.

use h3o::{CellIndex, Resolution};

use super::Point;

/// Items are partitioned by their res-2 cell (~86 000 km² each).
pub const PARTITION_RES: Resolution = Resolution::Two;

/// The search's keys of a location: its partition (its res-15 cell's res-2 ancestor,
/// as text) and its res-15 cell as a number.
pub fn keys_of(at: Point) -> (String, u64) {
    let cell = at.h3().to_cell(Resolution::Fifteen);
    (partition_of(cell), u64::from(cell))
}

/// The partition of a cell of resolution 2 or finer: its res-2 ancestor, as text.
fn partition_of(cell: CellIndex) -> String {
    cell.parent(PARTITION_RES)
        .expect("cells searched are at resolution 2 or finer")
        .to_string()
}

/// One Query's worth of an index: the items of `partition` (a res-2 cell) with
/// `lo <= sort key <= hi`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Range {
    pub partition: String,
    pub lo: u64,
    pub hi: u64,
}

const DIGIT_BITS: u32 = 3;
const RES_SHIFT: u32 = 52;

/// The range of res-15 cell numbers inside `cell` (resolution 2..=15): the cell's
/// digits for resolutions 1..=r, then digits r+1..=15 from all 0 to all 6, with the
/// resolution field set to 15. Numbers in between with a digit 7 are not cells.
pub fn cell_range(cell: CellIndex) -> Range {
    let res = u32::from(u8::from(cell.resolution()));
    let raw = u64::from(cell);
    let free_bits = (15 - res) * DIGIT_BITS; // digits res+1..=15, the lowest bits
    let res_mask: u64 = 0xF << RES_SHIFT;
    let base = (raw & !res_mask & !((1u64 << free_bits) - 1)) | (15u64 << RES_SHIFT);
    let sixes = (0..(15 - res)).fold(0u64, |acc, i| acc | (6u64 << (i * DIGIT_BITS)));
    Range {
        partition: partition_of(cell),
        lo: base,
        hi: base | sixes,
    }
}

/// The smallest number `>= x` whose 15 digits are all 0..=6 (a res-15 cell number, or
/// one of a pentagon's deleted ones, which hold no item either). `None` past the
/// base cell, which no range of one partition reaches.
fn leaf_at_or_after(x: u64) -> Option<u64> {
    let digits_mask = (1u64 << (15 * DIGIT_BITS)) - 1;
    let mut digits = x & digits_mask;
    // The most significant digit equal to 7, if any: round up past it.
    for i in (0..15).rev() {
        let shift = i * DIGIT_BITS;
        if (digits >> shift) & 7 == 7 {
            digits &= !((1u64 << (shift + DIGIT_BITS)) - 1); // clear it and below
            // Add one at the next digit up, carrying over sevens.
            let mut pos = shift + DIGIT_BITS;
            loop {
                if pos >= 15 * DIGIT_BITS {
                    return None;
                }
                let d = (digits >> pos) & 7;
                if d < 6 {
                    digits += 1 << pos;
                    break;
                }
                digits &= !(7u64 << pos);
                pos += DIGIT_BITS;
            }
            break;
        }
    }
    Some((x & !digits_mask) | digits)
}

/// `range` minus the parts already read.
pub(super) fn subtract(range: &Range, read: &[(u64, u64)]) -> Vec<Range> {
    let mut pieces = vec![(range.lo, range.hi)];
    for &(rlo, rhi) in read {
        pieces = pieces
            .into_iter()
            .flat_map(|(lo, hi)| {
                if rhi < lo || rlo > hi {
                    return vec![(lo, hi)];
                }
                let mut out = vec![];
                if rlo > lo {
                    out.push((lo, rlo - 1));
                }
                if rhi < hi {
                    out.push((rhi + 1, hi));
                }
                out
            })
            .collect();
    }
    pieces
        .into_iter()
        .map(|(lo, hi)| Range {
            partition: range.partition.clone(),
            lo,
            hi,
        })
        .collect()
}

/// Sorts ranges and joins neighbours of one partition that no cell number separates
/// (e.g. the ranges of sibling cells with consecutive digits): one Query instead of
/// two, the same items.
pub(super) fn merge(mut ranges: Vec<Range>) -> Vec<Range> {
    ranges.sort_by(|a, b| (&a.partition, a.lo).cmp(&(&b.partition, b.lo)));
    let mut out: Vec<Range> = Vec::with_capacity(ranges.len());
    for r in ranges {
        if let Some(last) = out.last_mut()
            && last.partition == r.partition
            && leaf_at_or_after(last.hi + 1).is_none_or(|next| next >= r.lo)
        {
            last.hi = last.hi.max(r.hi);
            continue;
        }
        out.push(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_range_holds_exactly_its_descendants() {
        let p = Point::new(30.67, 74.33).h3();
        let leaf = u64::from(p.to_cell(Resolution::Fifteen));
        for res in 2..=15u8 {
            // H3 is not geometrically nested: the range holds the *descendants*.
            let cell = p
                .to_cell(Resolution::Fifteen)
                .parent(Resolution::try_from(res).unwrap())
                .unwrap();
            let r = cell_range(cell);
            assert!(r.lo <= leaf && leaf <= r.hi, "res {res}");
            let first = cell.children(Resolution::Fifteen).next().unwrap();
            assert_eq!(u64::from(first), r.lo, "res {res}: lo is the first leaf");
            if res >= 9 {
                let all: Vec<u64> = cell.children(Resolution::Fifteen).map(u64::from).collect();
                assert_eq!(*all.last().unwrap(), r.hi, "res {res}: hi is the last leaf");
                assert!(all.iter().all(|l| (r.lo..=r.hi).contains(l)));
            }
            for neighbour in cell.grid_disk::<Vec<_>>(1) {
                if neighbour == cell {
                    continue;
                }
                let n = cell_range(neighbour);
                let nleaf = u64::from(neighbour.center_child(Resolution::Fifteen).unwrap());
                assert!(n.lo <= nleaf && nleaf <= n.hi);
                if n.partition == r.partition {
                    assert!(
                        n.hi < r.lo || n.lo > r.hi,
                        "neighbours overlap at res {res}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_cell_number_lies_between_consecutive_siblings() {
        let cell = Point::new(-33.9, 151.2).h3().to_cell(Resolution::Seven);
        let kids: Vec<CellIndex> = cell.children(Resolution::Eight).collect();
        for pair in kids.windows(2) {
            let (a, b) = (cell_range(pair[0]), cell_range(pair[1]));
            assert_eq!(leaf_at_or_after(a.hi + 1), Some(b.lo));
        }
        assert_eq!(
            merge(kids.iter().map(|c| cell_range(*c)).collect()),
            vec![cell_range(cell)]
        );
        // A leaf is its own ceiling; a gap with a digit 7 rounds up to the next leaf.
        let leaf = u64::from(Point::new(1.0, 2.0).h3().to_cell(Resolution::Fifteen));
        assert_eq!(leaf_at_or_after(leaf), Some(leaf));
        let next = leaf_at_or_after(leaf | 7).unwrap();
        assert!(next > leaf);
        assert!(CellIndex::try_from(next).is_ok() || next & 0o7 == 0);
    }

    #[test]
    fn subtraction_leaves_the_gaps() {
        let r = Range {
            partition: "a".into(),
            lo: 0,
            hi: 100,
        };
        let got: Vec<(u64, u64)> = subtract(&r, &[(10, 20), (90, 100)])
            .iter()
            .map(|r| (r.lo, r.hi))
            .collect();
        assert_eq!(got, vec![(0, 9), (21, 89)]);
    }
}
