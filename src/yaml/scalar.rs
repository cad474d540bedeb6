//! Plain-scalar resolution the way Kubernetes reads YAML.
//!
//! `kubectl` and the API server convert YAML to JSON with a YAML 1.1 loader (go-yaml v2 behind
//! `sigs.k8s.io/yaml`), so `yes`, `on`, `y` are booleans, `0777` is octal and timestamps stay
//! strings. dopol resolves plain (unquoted) scalars with the same table, so a value shown by
//! dopol is the value the controller would see. Quoted and block scalars are always strings.

use super::node::Value;

/// Resolves an untagged plain scalar.
pub fn resolve_plain(text: &str) -> Value {
    plain_non_string(text).unwrap_or_else(|| Value::String(text.into()))
}

/// What an untagged plain scalar resolves to when that is not a string (null, a boolean, a
/// number); `None` for strings, so that a caller wanting only the text allocates nothing.
pub fn plain_non_string(text: &str) -> Option<Value> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Some(Value::Bool(true));
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Some(Value::Bool(false));
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Some(Value::Float(f64::INFINITY));
        }
        "-.inf" | "-.Inf" | "-.INF" => return Some(Value::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Some(Value::Float(f64::NAN)),
        _ => {}
    }
    let first = text.as_bytes()[0];
    if !(first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.')) {
        return None;
    }
    if let Some(i) = parse_int(text) {
        return Some(Value::Int(i));
    }
    parse_float(text).map(Value::Float)
}

/// Resolves a scalar carrying an explicit core-schema tag (`!!str`, `!!int`, ...).
/// Returns `None` when the text does not fit the tag.
pub fn resolve_tagged(suffix: &str, text: &str) -> Option<Value> {
    match suffix {
        "str" => Some(Value::String(text.into())),
        "null" => Some(Value::Null),
        "bool" => match resolve_plain(text) {
            v @ Value::Bool(_) => Some(v),
            _ => None,
        },
        "int" => parse_int(text).map(Value::Int),
        "float" => match resolve_plain(text) {
            Value::Int(i) => Some(Value::Float(i as f64)),
            v @ Value::Float(_) => Some(v),
            _ => None,
        },
        // Unknown or non-scalar tags (`!!binary`, `!!timestamp`, local tags) keep the plain meaning.
        _ => Some(resolve_plain(text)),
    }
}

/// Integers as go-yaml v2 reads them: optional sign, `_` separators, `0x`, `0o`, `0b`, and a
/// leading `0` meaning octal.
fn parse_int(text: &str) -> Option<i64> {
    let cleaned: String;
    let text = if text.contains('_') {
        cleaned = text.replace('_', "");
        &cleaned
    } else {
        text
    };
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    let (radix, body) = if let Some(rest) = digits.strip_prefix("0x") {
        (16, rest)
    } else if let Some(rest) = digits.strip_prefix("0o") {
        (8, rest)
    } else if let Some(rest) = digits.strip_prefix("0b") {
        (2, rest)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    if negative {
        if magnitude <= i64::MAX as u64 + 1 {
            Some((magnitude as i64).wrapping_neg())
        } else {
            None
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// Floats matching `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` (go-yaml v2's rule).
fn parse_float(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut i = 0;
    if matches!(bytes.first(), Some(b'-' | b'+')) {
        i += 1;
    }
    let int_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        frac_digits = i - frac_start;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if i < bytes.len() && matches!(bytes[i], b'e' | b'E') {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return None;
        }
    }
    if i != bytes.len() {
        return None;
    }
    text.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(v: Value) -> String {
        match v {
            Value::Null => "null".into(),
            Value::Bool(b) => format!("bool:{b}"),
            Value::Int(i) => format!("int:{i}"),
            Value::Float(f) => format!("float:{f}"),
            Value::String(s) => format!("str:{s}"),
            _ => unreachable!(),
        }
    }

    #[test]
    fn kubernetes_yaml_1_1_table() {
        let cases = [
            ("~", "null"),
            ("", "null"),
            ("yes", "bool:true"),
            ("On", "bool:true"),
            ("n", "bool:false"),
            ("off", "bool:false"),
            ("42", "int:42"),
            ("-7", "int:-7"),
            ("1_000", "int:1000"),
            ("0x1F", "int:31"),
            ("0777", "int:511"),
            ("0o17", "int:15"),
            ("0b101", "int:5"),
            ("08", "float:8"), // invalid octal falls back to a float, as in go-yaml v2
            ("1.5", "float:1.5"),
            (".5", "float:0.5"),
            ("1e3", "float:1000"),
            ("1.", "float:1"),
            ("9223372036854775808", "float:9223372036854776000"),
            ("2024-01-01T00:00:00Z", "str:2024-01-01T00:00:00Z"),
            ("1m", "str:1m"),
            ("*.example.com", "str:*.example.com"),
            ("-", "str:-"),
            (".", "str:."),
        ];
        for (input, want) in cases {
            assert_eq!(show(resolve_plain(input)), want, "input {input:?}");
        }
    }

    #[test]
    fn tags_force_types() {
        assert_eq!(show(resolve_tagged("str", "42").unwrap()), "str:42");
        assert_eq!(show(resolve_tagged("float", "3").unwrap()), "float:3");
        assert!(resolve_tagged("int", "abc").is_none());
    }
}
