//! The families' options as flags: the front end names no family, so the flags a family declares
//! ([`crate::policy::options::FamilyOption`]) are added to the derived commands with clap's
//! builder API, and their values are handed back to the registry as
//! [`OptionValues`]. [`FamilySettings`] is flattened into the input flags (controller settings),
//! [`FamilyFilters`] into the report filters (a family's own hierarchy).

use crate::policy::Registry;
use crate::policy::options::{FamilyOption, OptionScope, OptionValues};
use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

/// The values of the families' controller settings.
#[derive(Clone, Debug, Default)]
pub struct FamilySettings(pub OptionValues);

/// The values of the families' own filters (Kuma's `--mesh`, `--dataplane`).
#[derive(Clone, Debug, Default)]
pub struct FamilyFilters(pub OptionValues);

/// The options of `scope`, in registration order.
fn options(scope: OptionScope) -> impl Iterator<Item = &'static FamilyOption> {
    Registry::options().filter(move |option| option.scope == scope)
}

/// The flag of one option, as the derive would write it for an `Option<String>` field.
fn arg(option: &'static FamilyOption) -> Arg {
    let mut arg = Arg::new(option.flag)
        .long(option.flag)
        .value_name(option.value_name)
        .help(option.help)
        .action(if option.repeatable {
            ArgAction::Append
        } else {
            ArgAction::Set
        });
    if let Some(default) = option.default {
        arg = arg.default_value(default);
    }
    if !option.possible_values.is_empty() {
        arg = arg.value_parser(PossibleValuesParser::new(option.possible_values));
    }
    arg
}

/// The values given on the command line for the options of `scope` (defaults are the family's
/// to apply, so that a suggested command repeats only what was given).
fn given(matches: &ArgMatches, scope: OptionScope) -> OptionValues {
    let mut values = OptionValues::default();
    for option in options(scope) {
        if matches.value_source(option.flag) != Some(ValueSource::CommandLine) {
            continue;
        }
        for value in matches
            .get_many::<String>(option.flag)
            .into_iter()
            .flatten()
        {
            values.push(option.flag, value.clone());
        }
    }
    values
}

macro_rules! option_args {
    ($type:ident, $scope:expr) => {
        impl FromArgMatches for $type {
            fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
                Ok($type(given(matches, $scope)))
            }
            fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
                self.0 = given(matches, $scope);
                Ok(())
            }
        }

        impl Args for $type {
            fn augment_args(cmd: Command) -> Command {
                cmd.args(options($scope).map(arg))
            }
            fn augment_args_for_update(cmd: Command) -> Command {
                Self::augment_args(cmd)
            }
        }
    };
}

option_args!(FamilySettings, OptionScope::Setting);
option_args!(FamilyFilters, OptionScope::Filter);
