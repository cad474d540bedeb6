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
    /// The ids of `count` paths, id `i` being the concatenation of `parts(i)`. The lengths are
    /// summed first, so the text is allocated once at its size and written in place, a run of
    /// paths per task on every core (growing it, or joining per-task strings, would hold up to
    /// twice the text at the topology's peak).
    pub fn build<'a>(count: usize, parts: impl Fn(usize) -> [&'a str; 4] + Sync) -> PathIds {
        let mut ends: Vec<usize> = (0..count)
            .into_par_iter()
            .map(|i| parts(i).iter().map(|p| p.len()).sum())
            .collect();
        let mut total = 0;
        for end in &mut ends {
            total += *end;
            *end = total;
        }
        let mut bytes = vec![0u8; total];
        let mut tasks = Vec::with_capacity(count.div_ceil(PER_TASK));
        let mut rest: &mut [u8] = &mut bytes;
        for first in (0..count).step_by(PER_TASK) {
            let last = (first + PER_TASK).min(count) - 1;
            let start = first.checked_sub(1).map_or(0, |i| ends[i]);
            let (task, after) = rest.split_at_mut(ends[last] - start);
            tasks.push((first..last + 1, task));
            rest = after;
        }
        tasks.into_par_iter().for_each(|(paths, out)| {
            let mut at = 0;
            for i in paths {
                for part in parts(i) {
                    out[at..at + part.len()].copy_from_slice(part.as_bytes());
                    at += part.len();
                }
            }
        });
        let text = String::from_utf8(bytes).expect("ids are joined strings");
        PathIds { text, ends }
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
            let ids_of: Vec<String> = (0..count).map(id).collect();
            let ids = PathIds::build(count, |i| {
                let id = ids_of[i].as_str();
                let cut = id.len() / 2;
                ["", &id[..cut], &id[cut..], ""]
            });
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
