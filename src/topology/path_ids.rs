//! Every path's id, in one string.
//!
//! A big input has hundreds of thousands of paths (360,000 on the 49 MB benchmark) and each id
//! is about 80 bytes; one `String` each cost a 24-byte handle and an allocation more per path,
//! kept to the end of the run. Here the ids are written end to end, with where each ends.

use rayon::prelude::*;

/// Path ids, by path index.
#[derive(Clone, Debug, Default)]
pub struct PathIds {
    text: String,
    /// Where each id ends in `text`; id `i` starts where id `i - 1` ends.
    ends: Vec<usize>,
}

/// Paths whose ids one task writes.
const PER_TASK: usize = 4096;

impl PathIds {
    /// The ids of `count` paths, `write(i, out)` appending id `i` to `out` (on every core, a
    /// run of paths per task).
    pub fn build(count: usize, write: impl Fn(usize, &mut String) + Sync) -> PathIds {
        let parts: Vec<(String, Vec<usize>)> = (0..count.div_ceil(PER_TASK))
            .into_par_iter()
            .map(|task| {
                let (mut text, mut ends) = (String::new(), Vec::new());
                for i in task * PER_TASK..((task + 1) * PER_TASK).min(count) {
                    write(i, &mut text);
                    ends.push(text.len());
                }
                (text, ends)
            })
            .collect();
        let mut ids = PathIds {
            text: String::with_capacity(parts.iter().map(|(t, _)| t.len()).sum()),
            ends: Vec::with_capacity(count),
        };
        for (text, ends) in parts {
            let base = ids.text.len();
            ids.text.push_str(&text);
            ids.ends.extend(ends.iter().map(|end| base + end));
        }
        ids
    }

    /// The id of path `index`.
    pub fn get(&self, index: usize) -> &str {
        let start = index.checked_sub(1).map_or(0, |i| self.ends[i]);
        &self.text[start..self.ends[index]]
    }

    /// How many paths.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no paths.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The ids in path order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

impl std::ops::Index<usize> for PathIds {
    type Output = str;

    fn index(&self, index: usize) -> &str {
        self.get(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_as_written_across_task_boundaries() {
        let id = |i: usize| {
            if i % 7 == 0 {
                String::new()
            } else {
                format!("p{i}|x")
            }
        };
        for count in [0, 1, PER_TASK - 1, PER_TASK, PER_TASK + 1, 3 * PER_TASK + 5] {
            let ids = PathIds::build(count, |i, out| out.push_str(&id(i)));
            assert_eq!(ids.len(), count);
            assert_eq!(ids.is_empty(), count == 0);
            let expected: Vec<String> = (0..count).map(id).collect();
            assert_eq!(ids.iter().collect::<Vec<_>>(), expected, "{count}");
            if count > 0 {
                assert_eq!(&ids[count - 1], expected[count - 1]);
            }
        }
    }
}
