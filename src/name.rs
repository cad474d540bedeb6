//! [`Name`]: a shared, immutable string for the names the model repeats on every object.
//!
//! A big input names the same few groups, kinds, namespaces, Gateways and rule names
//! (`gateway.networking.k8s.io`, `Gateway`, `rule-1`, ...) in each of its tens of thousands
//! of routes and policies. Held as `String`s, each copy is 24 bytes plus an allocation; a
//! `Name` is 16 bytes and, built through [`Name::new`], shares one allocation per distinct
//! text on each parsing thread (the mapping keys' interner, [`crate::yaml::intern`]). It
//! compares, orders, hashes and prints as its text, and reads as a `&str`.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A shared string (see the module doc).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<str>);

impl Name {
    /// `text` as a `Name`, sharing the allocation of an equal name read before on this thread.
    pub fn new(text: &str) -> Name {
        Name(crate::yaml::intern(text))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<&Name> for String {
    fn from(name: &Name) -> String {
        name.0.to_string()
    }
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
}
