//! [`Name`]: a shared, immutable string for the names the model repeats on every object.
//!
//! A big input names the same few groups, kinds, namespaces, Gateways and rule names
//! (`gateway.networking.k8s.io`, `Gateway`, `rule-1`, ...) in each of its tens of thousands
//! of routes and policies. Held as `String`s, each copy is 24 bytes plus an allocation; a
//! `Name` is one pointer (8 bytes) and, built through [`Name::new`], shares one allocation per
//! distinct text on each parsing thread. It compares, orders, hashes and prints as its text,
//! and reads as a `&str`.
//!
//! One pointer, not the two of an `Arc<str>`: a model holds close to a million names (on the
//! 49 MB benchmark: four per object, five per parentRef, four per targetRef and one per route
//! rule), and the second word, with the padding it brought into the structs holding names,
//! took `effective`'s peak from 176 to 194 MiB. The text sits behind one more pointer, in an
//! allocation of its own that equal names share like the first.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A shared string (see the module doc).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<Box<str>>);

impl Name {
    /// `text` as a `Name`, sharing the allocation of an equal name read before on this thread
    /// (the mapping keys' interner, [`intern`]).
    pub fn new(text: &str) -> Name {
        intern(text)
    }

    /// `text` as a `Name` of its own (what the interner shares).
    pub(crate) fn unshared(text: &str) -> Name {
        Name(Arc::new(text.into()))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == other.as_str()
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<&Name> for String {
    fn from(name: &Name) -> String {
        name.as_str().to_string()
    }
}

/// Longest mapping key shared through [`intern`]; longer ones are rare and rarely repeat.
const MAX_INTERNED_KEY: usize = 48;
/// Distinct keys a parsing thread shares before it stops adding more (inputs with many
/// distinct keys, such as label maps, then allocate the rest one by one).
const MAX_INTERNED_KEYS: usize = 4096;

thread_local! {
    /// A parsing thread's shared names ([`intern`]).
    static KEYS: std::cell::RefCell<rustc_hash::FxHashSet<Name>> =
        std::cell::RefCell::default();
}

/// `key` as a shared string: the same few dozen keys (`apiVersion`, `name`, `matches`, ...)
/// make up most of every manifest, and sharing them saves an allocation per mapping entry.
/// The names of the model ([`Name::new`]) are shared through the same table.
pub fn intern(key: &str) -> Name {
    if key.len() > MAX_INTERNED_KEY {
        return Name::unshared(key);
    }
    KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some(shared) = keys.get(key) {
            return shared.clone();
        }
        let shared = Name::unshared(key);
        if keys.len() < MAX_INTERNED_KEYS {
            keys.insert(shared.clone());
        }
        shared
    })
}

#[cfg(test)]
mod tests {
    use super::Name;

    #[test]
    fn equal_names_share_one_allocation_and_compare_as_text() {
        let a = Name::new("rule-1");
        let b = Name::new("rule-1");
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        assert_eq!(a, "rule-1");
        assert_eq!(a, "rule-1".to_string());
        assert_eq!("rule-1".to_string(), a);
        assert!(Name::new("a") < Name::new("b"));
        assert_eq!(format!("{a} {a:?}"), "rule-1 \"rule-1\"");
    }

    #[test]
    fn a_name_is_one_pointer_and_hashes_as_its_text() {
        assert_eq!(std::mem::size_of::<Name>(), std::mem::size_of::<usize>());
        assert_eq!(
            std::mem::size_of::<Option<Name>>(),
            std::mem::size_of::<usize>()
        );
        // Looked up by `&str` in sets and maps keyed by names (`Borrow<str>`).
        let set: std::collections::HashSet<Name> = ["a", "b"].into_iter().map(Name::new).collect();
        assert!(set.contains("a") && !set.contains("c"));
        let long = "x".repeat(100);
        assert_eq!(Name::new(&long), long.as_str());
    }
}
