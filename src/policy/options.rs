//! A family's options: the settings of its controller (kgateway's `KGW_POLICY_MERGE`) and the
//! filters of its own hierarchy, declared as data by the family and turned into command-line flags
//! by the front end.
//!
//! The front end knows no family: it asks the registry for every built-in family's
//! [`FamilyOption`]s, adds one flag per option to the commands (clap's builder API, beside the
//! derived flags), and hands the values it parsed back as [`OptionValues`] when it builds the
//! registry ([`super::Registry::configured`]). A family reads its values by flag there and turns
//! a malformed one into an [`OptionError`] (a usage error naming the flag) or a warning.
//! See docs/development.md, "A family's options".

use std::fmt;

/// Where a family's option goes on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionScope {
    /// A controller setting: it changes what the family computes, so every command reading input
    /// takes it (beside `--families`, `--crds`).
    Setting,
    /// A filter of the family's own hierarchy (which dataplane, which mesh): it narrows what a
    /// report shows, so it goes with the report filters (`--kind`, `--policy`).
    Filter,
}

/// One option a family declares: everything the command line, its help, the man pages and the
/// completions need, as data.
#[derive(Clone, Copy, Debug)]
pub struct FamilyOption {
    /// The long flag without its dashes (`kgateway-policy-merge`): also the key of its value.
    pub flag: &'static str,
    /// The value's name in the help (`JSON`, `NS`).
    pub value_name: &'static str,
    /// The help text, one paragraph.
    pub help: &'static str,
    /// The value when the flag is not given, if any.
    pub default: Option<&'static str>,
    /// The values it accepts, when they are a closed set (empty: any text).
    pub possible_values: &'static [&'static str],
    /// Where it goes.
    pub scope: OptionScope,
    /// Whether it may be given several times (every value is kept, in order).
    pub repeatable: bool,
}

/// The values given for the families' options, by flag, in the order the options are declared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OptionValues {
    values: Vec<(&'static str, String)>,
}

impl OptionValues {
    /// Records the value of `flag` (a flag given twice keeps its last value).
    pub fn set(&mut self, flag: &'static str, value: String) {
        self.values.retain(|(f, _)| *f != flag);
        self.values.push((flag, value));
    }

    /// Records one more value of a repeatable `flag`.
    pub fn push(&mut self, flag: &'static str, value: String) {
        self.values.push((flag, value));
    }

    /// The value given for `flag`, or its default.
    pub fn get(&self, option: &FamilyOption) -> Option<&str> {
        let given = self.values.iter().rfind(|(f, _)| *f == option.flag);
        given.map(|(_, v)| v.as_str()).or(option.default)
    }

    /// Every value given for a repeatable `option`, in order.
    pub fn get_all<'a>(&'a self, option: &'a FamilyOption) -> impl Iterator<Item = &'a str> + 'a {
        (self.values.iter())
            .filter(move |(f, _)| *f == option.flag)
            .map(|(_, v)| v.as_str())
    }

    /// Every value given, as `(flag, value)`, in the order of the options.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(f, v)| (*f, v.as_str()))
    }
}

/// A malformed option value: a usage error, reported as `--<flag>: <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The option's flag.
    pub flag: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{}: {}", self.flag, self.message)
    }
}

/// A family built from option values, with the warnings its values raised (`--<flag>: <text>`).
pub struct Configured<T> {
    /// The family.
    pub family: T,
    /// Warnings about values it accepted (an unknown strategy read as the default).
    pub warnings: Vec<OptionError>,
}
