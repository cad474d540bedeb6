//! Path ids, put together where they are written.
//!
//! A big input has hundreds of thousands of paths (360,000 on the 49 MB benchmark), and each id
//! is about 80 bytes: written out, the ids were 29 MB kept to the end of every run. An id is four
//! pieces, each shared by many paths: its listener's prefix, its delegation chain's (usually
//! none), its route's prefix and its rule's name. So the topology keeps the pieces
//! ([`IdPieces`], 3.4 MB there), and a [`PathId`] joins them where it is printed, compared or
//! looked up: `diff` matches the paths of two revisions in a map of [`PathId`]s, hashed and
//! compared as their text. [`PathIds`] writes every id out, for the rare reader that needs all
//! the texts at once.

use super::{NO_CHAIN, Path, Topology};
use rayon::prelude::*;
use std::borrow::Cow;
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
        crate::platform::fit_string(&mut pieces.route_text);
        crate::platform::fit(&mut pieces.route_ends);
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

    /// The topology of its path.
    pub fn topology(self) -> &'a Topology {
        self.topology
    }

    /// The number of its path in the topology.
    pub fn index(self) -> usize {
        self.path as usize
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

    /// The five `|`-separated fields of the id, as [`super::path_id_parts`] finds them in its
    /// text (`None` when there are not five), each as the stretches of the pieces it lies in:
    /// no id is written out to be cut.
    pub fn fields(self) -> Option<[Field<'a>; 5]> {
        let mut fields = [Field::default(); 5];
        let mut count = 0;
        for piece in self.parts() {
            let mut rest = piece;
            loop {
                let (head, tail) = match rest.split_once('|') {
                    Some((head, tail)) => (head, Some(tail)),
                    None => (rest, None),
                };
                if let Some(field) = fields.get_mut(count) {
                    field.push(head);
                }
                let Some(tail) = tail else { break };
                count += 1;
                rest = tail;
            }
        }
        (count == 4).then_some(fields)
    }
}

/// A field of a path id: its text as the stretches of the pieces it lies in (at most one per
/// piece; most fields lie in one).
#[derive(Clone, Copy, Debug, Default)]
pub struct Field<'a> {
    stretches: [&'a str; 4],
}

impl<'a> Field<'a> {
    /// Appends a stretch (an empty one is left out).
    fn push(&mut self, stretch: &'a str) {
        if stretch.is_empty() {
            return;
        }
        if let Some(slot) = self.stretches.iter_mut().find(|s| s.is_empty()) {
            *slot = stretch;
        }
    }

    /// What follows the last `c` of the field (all of it when it has none).
    pub fn after_last(self, c: char) -> Field<'a> {
        let found = self
            .stretches
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, s)| s.rsplit_once(c).map(|(_, after)| (i, after)));
        let Some((i, after)) = found else {
            return self;
        };
        let mut rest = Field::default();
        rest.push(after);
        for &stretch in &self.stretches[i + 1..] {
            rest.push(stretch);
        }
        rest
    }

    /// What follows the first `c` of the field, when it has one.
    pub fn after_first(self, c: char) -> Option<Field<'a>> {
        let (i, after) = (self.stretches.iter().enumerate())
            .find_map(|(i, s)| s.split_once(c).map(|(_, after)| (i, after)))?;
        let mut rest = Field::default();
        rest.push(after);
        for &stretch in &self.stretches[i + 1..] {
            rest.push(stretch);
        }
        Some(rest)
    }

    /// The field's text: borrowed when it lies in one piece, written out when it spans two
    /// (the route of a path through delegation).
    pub fn text(self) -> Cow<'a, str> {
        match self.stretches {
            [one, "", "", ""] => Cow::Borrowed(one),
            stretches => Cow::Owned(stretches.concat()),
        }
    }
}

/// Hashed as its text is (eight bytes at a time, counted from its start, so however the id is
/// cut into pieces), to agree with `Eq`: the two sides of a diff are matched by id in a map of
/// [`PathId`]s.
impl std::hash::Hash for PathId<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let (mut word, mut filled) = (0u64, 0u8);
        for byte in self.bytes() {
            word = word << 8 | u64::from(byte);
            filled += 1;
            if filled == 8 {
                state.write_u64(word);
                (word, filled) = (0, 0);
            }
        }
        state.write_u64(word);
        state.write_u8(filled);
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
    /// The texts compared a stretch at a time (where neither id's piece ends), not byte by byte.
    fn eq(&self, other: &Self) -> bool {
        if std::ptr::eq(self.topology, other.topology) && self.path == other.path {
            return true;
        }
        let (a, b) = (self.parts(), other.parts());
        if a.iter().map(|p| p.len()).sum::<usize>() != b.iter().map(|p| p.len()).sum::<usize>() {
            return false;
        }
        let (mut a, mut b) = (
            a.iter().map(|p| p.as_bytes()),
            b.iter().map(|p| p.as_bytes()),
        );
        let (mut x, mut y): (&[u8], &[u8]) = (&[], &[]);
        loop {
            while x.is_empty() {
                match a.next() {
                    Some(next) => x = next,
                    None => return true,
                }
            }
            while y.is_empty() {
                match b.next() {
                    Some(next) => y = next,
                    None => return false,
                }
            }
            let n = x.len().min(y.len());
            if x[..n] != y[..n] {
                return false;
            }
            (x, y) = (&x[n..], &y[n..]);
        }
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
        let written = topology.written_path_ids();
        let written: Vec<&str> = written.iter().collect();
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
    fn fields_are_the_ids_fields_borrowed_unless_cut_by_a_piece() {
        let text = |fields: Option<[Field<'_>; 5]>| {
            fields.map(|f| f.map(|field| field.text().into_owned()))
        };
        let topology = topology();
        let whole = Topology::of_path_ids(&IDS);
        for (i, id) in IDS.iter().enumerate() {
            let expected = crate::topology::path_id_parts(id).map(|f| f.map(str::to_string));
            for path_id in [topology.path_id(i), whole.path_id(i)] {
                assert_eq!(text(path_id.fields()), expected, "{id}");
            }
        }
        let borrowed = |field: Field<'_>| matches!(field.text(), Cow::Borrowed(_));
        // The route after a chain spans two pieces; a rule name after its `#` lies in one.
        let chained = topology.path_id(2).fields().expect("five fields");
        assert_eq!(chained.map(borrowed), [true, true, true, false, false]);
        assert_eq!(chained[4].after_last('#').text(), "é\"q");
        assert!(borrowed(chained[4].after_last('#')));
        assert_eq!(chained[2].after_last('#').text(), "x");
        for i in [0, 1, 3] {
            let fields = topology.path_id(i).fields().expect("five fields");
            assert_eq!(fields.map(borrowed), [true, true, true, true, false]);
            assert!(borrowed(fields[4].after_last('#')));
        }
        // Not five fields: as `path_id_parts` says.
        let odd = ["a|b|c|d", "a|b|c|d|e|f", "", "a|b||d|e", "||||"];
        let written = Topology::of_path_ids(&odd);
        for (i, id) in odd.iter().enumerate() {
            let expected = crate::topology::path_id_parts(id).map(|f| f.map(str::to_string));
            assert_eq!(text(written.path_id(i).fields()), expected, "{id}");
        }
    }

    #[test]
    fn ids_hash_as_their_text_however_they_are_cut() {
        use std::hash::BuildHasher;
        let hasher = rustc_hash::FxBuildHasher;
        let topology = topology();
        let whole = Topology::of_path_ids(&IDS);
        for i in 0..IDS.len() {
            assert_eq!(
                hasher.hash_one(topology.path_id(i)),
                hasher.hash_one(whole.path_id(i))
            );
        }
        assert_ne!(
            hasher.hash_one(topology.path_id(0)),
            hasher.hash_one(topology.path_id(1))
        );
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
