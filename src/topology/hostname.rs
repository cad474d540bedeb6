//! Hostname intersection between a listener and a route (Gateway API rules).
//!
//! A listener without hostname, or a route without hostnames, intersects everything. A wildcard
//! `*.example.com` matches names with one or more extra labels (`a.example.com`,
//! `a.b.example.com`) but never `example.com` itself.

/// How specific a listener hostname is (higher wins; Gateway API listener precedence): none,
/// a wildcard by the number of labels right of `*`, precise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Specificity {
    /// No hostname: every host.
    CatchAll,
    /// A wildcard, by the number of labels right of `*`.
    Wildcard(usize),
    /// A precise hostname.
    Exact,
}

impl Specificity {
    /// The specificity of a listener's `hostname`.
    pub fn of(hostname: Option<&str>) -> Specificity {
        match hostname.map(|h| h.strip_prefix("*.")) {
            None => Specificity::CatchAll,
            Some(Some(suffix)) => Specificity::Wildcard(suffix.split('.').count()),
            Some(None) => Specificity::Exact,
        }
    }
}

/// Whether a listener hostname and a route hostname can both match some request host.
pub fn hostnames_intersect(listener: &str, route: &str) -> bool {
    let listener = listener.to_ascii_lowercase();
    let route = route.to_ascii_lowercase();
    match (listener.strip_prefix("*."), route.strip_prefix("*.")) {
        (None, None) => listener == route,
        (Some(suffix), None) => matches_wildcard(&route, suffix),
        (None, Some(suffix)) => matches_wildcard(&listener, suffix),
        (Some(a), Some(b)) => {
            a == b || a.ends_with(&format!(".{b}")) || b.ends_with(&format!(".{a}"))
        }
    }
}

/// Whether exact `host` has at least one more label than `suffix` and ends with `.suffix`.
pub fn matches_wildcard(host: &str, suffix: &str) -> bool {
    host.len() > suffix.len() + 1
        && host.ends_with(suffix)
        && host.as_bytes()[host.len() - suffix.len() - 1] == b'.'
}

/// Whether a listener accepts a route with `route_hostnames` (empty = any).
pub fn listener_accepts_hostnames(listener: Option<&str>, route_hostnames: &[String]) -> bool {
    match listener {
        None => true,
        Some(l) => {
            route_hostnames.is_empty() || route_hostnames.iter().any(|h| hostnames_intersect(l, h))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gateway_api_hostname_table() {
        assert!(hostnames_intersect("foo.example.com", "foo.example.com"));
        assert!(!hostnames_intersect("foo.example.com", "bar.example.com"));
        assert!(hostnames_intersect("*.example.com", "foo.example.com"));
        assert!(hostnames_intersect("*.example.com", "a.b.example.com"));
        assert!(!hostnames_intersect("*.example.com", "example.com"));
        assert!(!hostnames_intersect("*.example.com", "fooexample.com"));
        assert!(hostnames_intersect("foo.example.com", "*.example.com"));
        assert!(hostnames_intersect("*.example.com", "*.foo.example.com"));
        assert!(hostnames_intersect("*.foo.example.com", "*.example.com"));
        assert!(!hostnames_intersect("*.example.com", "*.example.org"));
        assert!(hostnames_intersect("Foo.Example.com", "foo.example.com"));
        assert!(listener_accepts_hostnames(None, &["x".into()]));
        assert!(listener_accepts_hostnames(Some("a.b"), &[]));
    }
}
