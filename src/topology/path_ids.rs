//! Path ids, put together where they are written.
//!
//! A big input has hundreds of thousands of paths (360,000 on the 49 MB benchmark), and each id
//! is about 80 bytes: written out, the ids were 29 MB kept to the end of every run. An id is four
//! pieces, each shared by many paths: its listener's prefix, its delegation chain's (usually
//! none), its route's prefix and its rule's name. So the topology keeps the pieces
//! ([`IdPieces`], 3.4 MB there), and a [`PathId`] joins them where it is printed, compared or
//! looked up. [`PathIds`] writes every id out once, for the readers that index ids by their text
//! (`diff` matches the paths of two revisions that way).

use super::{NO_CHAIN, Path, Topology};
use rayon::prelude::*;
use std::cmp::Ordering;
use std::fmt;

/// The pieces path ids are made of.
#[derive(Clone, Debug, Default)]
pub struct IdPieces {
    /// Per Gateway, per listener: `<class>|<ns>/<gw>|<ns>/<gw>#<listener>|`.
    listeners: Vec<Vec<Box<str>>>,
    /// Per delegation chain: `<ns>/<route>#<rule>>` for each delegating rule, root first.
    chains: Vec<Box<str>>,
    /// Per route, end to end: `<ns>/<route>|<ns>/<route>#`, then the name of each rule.
    route_text: String,
    /// Where each route piece ends in `route_text` (a piece starts where the one before ends).
    route_ends: Vec<u32>,
    /// Per route, the index in `route_ends` of its prefix; its rules' names follow it.
    route_first: Vec<u32>,
}

impl IdPieces {
    /// The pieces of `listeners` (per Gateway), `chains` and `routes` (a route's prefix and its
    /// rules' names).
    pub fn new<'a, R: IntoIterator<Item = &'a str>>(
        listeners: Vec<Vec<Box<str>>>,
        chains: Vec<Box<str>>,
        routes: impl Iterator<Item = (String, R)>,
    ) -> IdPieces {
        let mut pieces = IdPieces {
            listeners,
            chains,
            ..IdPieces::default()
        };
        for (prefix, rules) in routes {
            pieces.route_first.push(pieces.route_ends.len() as u32);
            pieces.push_route_piece(&prefix);
            for rule in rules {
                pieces.push_route_piece(rule);
            }
        }
        pieces.route_text.shrink_to_fit();
        pieces.route_ends.shrink_to_fit();
        pieces
    }

    /// Appends the next route piece.
    fn push_route_piece(&mut self, piece: &str) {
        self.route_text.push_str(piece);
        self.route_ends.push(offset(self.route_text.len()));
    }

    /// Route piece number `piece`.
    fn route_piece(&self, piece: usize) -> &str {
        let start = piece.checked_sub(1).map_or(0, |i| self.route_ends[i]);
        &self.route_text[start as usize..self.route_ends[piece] as usize]
    }

    /// The four pieces of `path`'s id.
    fn of(&self, path: &Path) -> [&str; 4] {
        let first = self.route_first[path.route as usize] as usize;
        debug_assert!(
            first + 1 + (path.rule as usize)
                < self
                    .route_first
                    .get(path.route as usize + 1)
                    .map_or(self.route_ends.len(), |&next| next as usize),
            "a path's rule is one of its route's rules"
        );
        [
            &self.listeners[path.gateway as usize][path.listener as usize],
            if path.chain == NO_CHAIN {
                ""
            } else {
                &self.chains[path.chain as usize]
            },
            self.route_piece(first),
            self.route_piece(first + 1 + path.rule as usize),
        ]
    }
}

/// A text offset in the pieces (the input's own spans are `u32` too).
fn offset(len: usize) -> u32 {
    u32::try_from(len).expect("path id pieces fit in 4 GiB")
}

/// The id of one path: printed (`Display`, `Serialize`), compared and ordered as its text,
/// without writing it out. As small as a `&str`.
#[derive(Clone, Copy)]
pub struct PathId<'a> {
    topology: &'a Topology,
    path: u32,
}

impl<'a> PathId<'a> {
    /// The id of path number `path` of `topology`.
    pub fn new(topology: &'a Topology, path: usize) -> PathId<'a> {
        PathId {
            topology,
            path: path as u32,
        }
    }

    /// The pieces that, joined, are the id.
    pub fn parts(self) -> [&'a str; 4] {
        let topology = self.topology;
        topology.path_pieces.of(&topology.paths[self.path as usize])
    }

    /// The bytes of the id.
    fn bytes(self) -> impl Iterator<Item = u8> + 'a {
        self.parts().into_iter().flat_map(str::bytes)
    }
}

impl fmt::Display for PathId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.parts().iter().try_for_each(|part| f.write_str(part))
    }
}

impl fmt::Debug for PathId<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl PartialEq for PathId<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for PathId<'_> {}

impl PartialOrd for PathId<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for PathId<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        if std::ptr::eq(self.topology, other.topology) && self.path == other.path {
            return Ordering::Equal;
        }
        self.bytes().cmp(other.bytes())
    }
}

impl PartialEq<str> for PathId<'_> {
    fn eq(&self, other: &str) -> bool {
        let mut rest = other;
        self.parts()
            .iter()
            .all(|part| match rest.strip_prefix(part) {
                Some(after) => {
                    rest = after;
                    true
                }
                None => false,
            })
            && rest.is_empty()
    }
}

impl serde::Serialize for PathId<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Every path id written out end to end, by path index.
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
    /// twice the text).
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

    /// Two Gateways' listeners, one chain, two routes of 2 and 1 rules, and a path on each.
    fn topology() -> Topology {
        let listeners = vec![
            vec!["c|a/g|a/g#l1|".into(), "c|a/g|a/g#l2|".into()],
            vec!["d|b/h|b/h#x|".into()],
        ];
        let chains = vec!["p/root#r1>".into()];
        let routes = [
            ("n/r|n/r#".to_string(), vec!["rule-1", "op"]),
            ("m/s|m/s#".to_string(), vec!["é\"q"]),
        ];
        let path = |gateway, listener, route, rule, chain| Path {
            gateway,
            listener,
            route,
            rule,
            chain,
        };
        Topology {
            paths: vec![
                path(0, 0, 0, 0, NO_CHAIN),
                path(0, 1, 0, 1, NO_CHAIN),
                path(1, 0, 1, 0, 0),
                path(0, 0, 0, 1, NO_CHAIN),
            ],
            path_pieces: IdPieces::new(listeners, chains, routes.into_iter()),
            ..Topology::default()
        }
    }

    const IDS: [&str; 4] = [
        "c|a/g|a/g#l1|n/r|n/r#rule-1",
        "c|a/g|a/g#l2|n/r|n/r#op",
        "d|b/h|b/h#x|p/root#r1>m/s|m/s#é\"q",
        "c|a/g|a/g#l1|n/r|n/r#op",
    ];

    #[test]
    fn an_id_joins_its_listener_chain_route_and_rule_pieces() {
        let topology = topology();
        assert_eq!(
            topology.path_id(2).parts(),
            ["d|b/h|b/h#x|", "p/root#r1>", "m/s|m/s#", "é\"q"]
        );
        for (i, id) in IDS.iter().enumerate() {
            let path_id = topology.path_id(i);
            assert_eq!(path_id.to_string(), *id);
            assert_eq!(format!("{path_id:?}"), format!("{id:?}"));
            assert_eq!(
                serde_json::to_string(&path_id).unwrap(),
                serde_json::to_string(id).unwrap()
            );
            assert_eq!(topology.find_path(id), Some(i));
        }
        let written: Vec<&str> = topology.written_path_ids().iter().collect();
        assert_eq!(written, IDS);
        assert_eq!(topology.find_path("c|a/g|a/g#l1|n/r|n/r#rule"), None);
    }

    #[test]
    fn ids_compare_as_their_text() {
        let topology = topology();
        let other = Topology::of_path_ids(&IDS);
        for (i, a) in IDS.iter().enumerate() {
            for (j, b) in IDS.iter().enumerate() {
                let expected = a.cmp(b);
                assert_eq!(topology.path_id(i).cmp(&topology.path_id(j)), expected);
                assert_eq!(topology.path_id(i).cmp(&other.path_id(j)), expected);
                assert_eq!(topology.path_id(i) == other.path_id(j), i == j);
            }
        }
        let id = topology.path_id(0);
        for text in [
            "",
            "c",
            "c|a/g|a/g#l1|n/r|n/r#rule-",
            "c|a/g|a/g#l1|n/r|n/r#rule-12",
        ] {
            assert!(id != *text, "{text}");
        }
        assert!(id == *IDS[0]);
    }

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
