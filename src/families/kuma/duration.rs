//! Durations as Kuma prints them (§K7): every conf round-trips through Kuma's Go types, so a
//! duration is printed as Go's `time.Duration.String` prints it (`100s` → `1m40s`).

use serde_json::Value as Json;

/// Nanoseconds of a Go duration text (`1h30m`, `1.5s`, `500ms`), or `None` when it is not one.
pub fn parse(text: &str) -> Option<i128> {
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(digits);
        let units = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, next) = after.split_at(units);
        total += scaled(number, unit_nanos(unit)?)?;
        rest = next;
    }
    Some(if negative { -total } else { total })
}

/// `number` (with an optional fraction) times `unit` nanoseconds.
fn scaled(number: &str, unit: i128) -> Option<i128> {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let whole: i128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut value = whole.checked_mul(unit)?;
    let mut scale = unit;
    for digit in fraction.chars() {
        scale /= 10;
        value += i128::from(digit.to_digit(10)?) * scale;
    }
    Some(value)
}

fn unit_nanos(unit: &str) -> Option<i128> {
    Some(match unit {
        "ns" => 1,
        "us" | "µs" | "μs" => 1_000,
        "ms" => 1_000_000,
        "s" => 1_000_000_000,
        "m" => 60_000_000_000,
        "h" => 3_600_000_000_000,
        _ => return None,
    })
}

/// Go's `time.Duration.String`.
pub fn format(nanos: i128) -> String {
    if nanos == 0 {
        return "0s".to_string();
    }
    let sign = if nanos < 0 { "-" } else { "" };
    let u = nanos.unsigned_abs();
    let text = if u < 1_000 {
        format!("{u}ns")
    } else if u < 1_000_000 {
        format!("{}µs", fraction(u, 3).0)
    } else if u < 1_000_000_000 {
        format!("{}ms", fraction(u, 6).0)
    } else {
        let (seconds_text, seconds) = fraction(u, 9);
        let whole_seconds = seconds % 60;
        let frac = seconds_text.find('.').map_or("", |i| &seconds_text[i..]);
        let minutes = seconds / 60;
        let mut text = format!("{whole_seconds}{frac}s");
        if minutes > 0 {
            text = format!("{}m{text}", minutes % 60);
            if minutes >= 60 {
                text = format!("{}h{text}", minutes / 60);
            }
        }
        text
    };
    format!("{sign}{text}")
}

/// `value / 10^precision` with its fraction (trailing zeros dropped), and the quotient.
fn fraction(value: u128, precision: u32) -> (String, u128) {
    let scale = 10u128.pow(precision);
    let whole = value / scale;
    let rest = value % scale;
    if rest == 0 {
        return (whole.to_string(), whole);
    }
    let digits = format!("{rest:0width$}", width = precision as usize);
    (format!("{whole}.{}", digits.trim_end_matches('0')), whole)
}

/// Rewrites the duration fields `names` of `value` (`key` is its field name, `parent` its
/// parent's) as Go prints them; a name `parent.name` matches only under that parent.
pub fn normalize(value: &mut Json, key: Option<&str>, parent: Option<&str>, names: &[&str]) {
    match value {
        Json::String(text) => {
            let named = key.is_some_and(|k| {
                names.iter().any(|n| match n.split_once('.') {
                    Some((p, n)) => n == k && parent == Some(p),
                    None => *n == k,
                })
            });
            if let Some(nanos) = parse(text).filter(|_| named) {
                *text = format(nanos);
            }
        }
        Json::Object(map) => {
            for (k, v) in map.iter_mut() {
                normalize(v, Some(k), key, names);
            }
        }
        Json::Array(items) => {
            for item in items {
                normalize(item, key, parent, names);
            }
        }
        _ => {}
    }
}
