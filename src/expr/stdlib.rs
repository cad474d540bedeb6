//! The CEL standard library as `cel` 0.15 implements it: the one table both of dopol's CEL
//! checkers read, the constraints' and request expressions' ([`super::check`]) and the CRD
//! validation rules' (`crd::cel`), so that the two can never disagree on what is standard.

/// Every non-macro function and operator that [`Env::stdlib`](cel::Env::stdlib) of `cel` 0.15
/// declares or that its interpreter handles itself. The test
/// `allowed_functions_are_declared_by_the_stdlib` (in `check`) checks this list against
/// the crate.
pub const STANDARD_FUNCTIONS: &[&str] = &[
    // Operators, spelled as the parser names them.
    "_?_:_",
    "_&&_",
    "_||_",
    "!_",
    "-_",
    "_+_",
    "_-_",
    "_*_",
    "_/_",
    "_%_",
    "_==_",
    "_!=_",
    "_<_",
    "_<=_",
    "_>_",
    "_>=_",
    "@in",
    "_[_]",
    "_[?_]",
    "_?._",
    "@not_strictly_false",
    // Conversions and types.
    "bool",
    "bytes",
    "double",
    "dyn",
    "int",
    "uint",
    "string",
    "type",
    "duration",
    "timestamp",
    // Strings, lists and maps.
    "size",
    "contains",
    "startsWith",
    "endsWith",
    "matches",
    // Durations and timestamps.
    "getFullYear",
    "getMonth",
    "getDayOfYear",
    "getDayOfMonth",
    "getDate",
    "getDayOfWeek",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    // Optional values.
    "optional.none",
    "optional.of",
    "optional.ofNonZeroValue",
    "value",
    "hasValue",
    "or",
    "orValue",
];

/// The standard macros. A call left with one of these names was not
/// expanded, because it had the wrong number or kind of arguments.
pub const MACROS: &[&str] = &["has", "all", "exists", "exists_one", "map", "filter"];
