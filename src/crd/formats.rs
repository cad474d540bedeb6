//! The string `format`s the API server checks in CRD schemas.
//!
//! Kubernetes validates a fixed list of formats (apiextensions' supported formats: `byte`,
//! `date`, `date-time`/`datetime`, `duration`, `hostname`, `ipv4`, `ipv6`, `cidr`, `mac`,
//! `uuid`…). The bundled CRDs use `byte`, `date-time`, `ipv4` and `ipv6` on strings (and
//! `int32`/`int64` on integers, which are not checked). Formats outside this list pass, as they
//! do on the API server.

use crate::load::Timestamp;
use std::net::{Ipv4Addr, Ipv6Addr};

/// Whether `value` is valid for `format` (`true` for formats the API server does not check).
pub fn valid(format: &str, value: &str) -> bool {
    match format {
        "byte" => is_base64(value),
        "date-time" | "datetime" => Timestamp::parse_rfc3339(value).is_some(),
        "date" => is_date(value),
        "ipv4" => value.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => value.contains(':') && value.parse::<Ipv6Addr>().is_ok(),
        "cidr" => is_cidr(value),
        "uuid" => is_uuid(value),
        "mac" => is_mac(value),
        "hostname" => is_hostname(value),
        _ => true,
    }
}

/// Standard base64 with padding (what Go's `base64.StdEncoding` decodes).
fn is_base64(value: &str) -> bool {
    let bytes = value.as_bytes();
    if bytes.len() % 4 != 0 {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|b| **b == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/')
}

fn is_date(value: &str) -> bool {
    Timestamp::parse_rfc3339(&format!("{value}T00:00:00Z")).is_some() && value.len() == 10
}

fn is_cidr(value: &str) -> bool {
    let Some((ip, bits)) = value.split_once('/') else {
        return false;
    };
    let Ok(bits) = bits.parse::<u8>() else {
        return false;
    };
    (ip.parse::<Ipv4Addr>().is_ok() && bits <= 32)
        || (ip.parse::<Ipv6Addr>().is_ok() && bits <= 128)
}

fn is_uuid(value: &str) -> bool {
    let groups: Vec<&str> = value.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_mac(value: &str) -> bool {
    let parts: Vec<&str> = value.split([':', '-']).collect();
    matches!(parts.len(), 6 | 8 | 20)
        && parts
            .iter()
            .all(|p| p.len() == 2 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_hostname(value: &str) -> bool {
    value.len() <= 255
        && value.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

#[cfg(test)]
mod tests {
    use super::valid;

    #[test]
    fn formats_the_bundled_crds_use() {
        assert!(valid("byte", "aGVsbG8="));
        assert!(!valid("byte", "not base64!"));
        assert!(valid("date-time", "2024-01-02T03:04:05Z"));
        assert!(!valid("date-time", "yesterday"));
        assert!(valid("ipv4", "10.0.0.1"));
        assert!(!valid("ipv4", "10.0.0.256"));
        assert!(valid("ipv6", "::1"));
        assert!(!valid("ipv6", "10.0.0.1"));
        assert!(valid("int32", "anything"));
        assert!(valid("cidr", "10.0.0.0/8"));
        assert!(!valid("cidr", "10.0.0.0/33"));
    }
}
