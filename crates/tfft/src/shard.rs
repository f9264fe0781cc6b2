//! `--shard K/M`: one of M interleaved parts of a correctness sweep, so a sweep longer than one
//! device call (or one process) runs as M processes, side by side or one after another.

use std::fmt;
use std::str::FromStr;

/// Part `index` of `count`: the cases whose position in the sweep is `index` modulo `count`.
/// Interleaving spreads the sweep's largest cases (its last sizes) over every part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 0.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl Shard {
    /// Whether the case at `position` of the sweep belongs to this part.
    pub fn holds(&self, position: usize) -> bool {
        position % self.count == self.index
    }

    /// The cases of this part, in sweep order.
    pub fn keep<T>(&self, cases: Vec<T>) -> Vec<T> {
        cases
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.holds(*i))
            .map(|(_, c)| c)
            .collect()
    }

    /// Whether this is the first part (the one that also runs a sweep's extra checks).
    pub fn is_first(&self) -> bool {
        self.index == 0
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("expected K/M with 0 <= K < M (e.g. 0/4), got {s:?}");
        let (k, m) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = m.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_sweep_once() {
        let count = 4;
        let mut seen = vec![0; 11];
        for index in 0..count {
            let part = Shard { index, count }.keep((0..11).collect::<Vec<usize>>());
            for i in part {
                seen[i] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
        assert_eq!(
            Shard { index: 0, count: 1 }.keep(vec![1, 2, 3]),
            vec![1, 2, 3]
        );
    }

    #[test]
    fn parses_and_refuses() {
        assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
        assert_eq!(
            "2/5".parse::<Shard>().map(|s| s.to_string()),
            Ok("2/5".into())
        );
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
