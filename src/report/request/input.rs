//! The request as given on the command line (docs/semantics.md#91-the-request): `METHOD URL`, `-H`, `--grpc`,
//! `--attr`. Everything here is checked before any manifest is read, and a mistake is a usage
//! error (exit 2) naming what is wrong.

use crate::topology::hostname::matches_wildcard;
use serde::Serialize;
use std::collections::BTreeMap;

/// `http` or `https`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Plain HTTP (listener protocol `HTTP`).
    Http,
    /// TLS (listener protocol `HTTPS`).
    Https,
}

impl Scheme {
    /// `http` / `https`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    /// The listener protocol that receives it.
    pub fn protocol(self) -> &'static str {
        match self {
            Scheme::Http => "HTTP",
            Scheme::Https => "HTTPS",
        }
    }
}

/// `--grpc SERVICE/METHOD`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GrpcCall {
    /// Everything before the last `/`.
    pub service: String,
    /// Everything after it.
    pub method: String,
}

/// One request, as dopol understood it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Request {
    /// HTTP method (`POST` for gRPC).
    pub method: String,
    /// Scheme.
    pub scheme: Scheme,
    /// The host for matching: no port, lower-cased, no trailing dot.
    pub host: String,
    /// The connection port.
    pub port: u16,
    /// The path as written, without the query (`/` if empty).
    pub path: String,
    /// The query without `?`; `None` when the URL had no `?`.
    #[serde(serialize_with = "query_or_empty")]
    pub query: Option<String>,
    /// Headers as given, lower-cased names; repeated names joined with `,`.
    pub headers: BTreeMap<String, String>,
    /// The gRPC call, for `--grpc`.
    pub grpc: Option<GrpcCall>,
    /// The `--attr` values, as one nested map.
    pub attributes: serde_json::Map<String, serde_json::Value>,
    /// `request.host`: the Host header as given, else the URL's host (with its port, when the
    /// URL names one), or `--authority` as given.
    #[serde(skip)]
    pub host_attribute: String,
    /// Warnings about how the request was read.
    #[serde(skip)]
    pub notes: Vec<String>,
}

fn query_or_empty<S: serde::Serializer>(q: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(q.as_deref().unwrap_or(""))
}

/// The nine methods Gateway API names.
const GATEWAY_METHODS: &[&str] = crate::model::matches::HTTP_METHODS;

/// Whether `s` is an RFC 9110 token.
fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// The method: a token, case-sensitive; a Gateway API method in lower case is upper-cased.
fn method(text: &str, notes: &mut Vec<String>) -> Result<String, String> {
    if !is_token(text) {
        return Err(format!(
            "`{text}` is not an HTTP method (an RFC 9110 token)"
        ));
    }
    let upper = text.to_ascii_uppercase();
    if text != upper && text == text.to_ascii_lowercase() && GATEWAY_METHODS.contains(&&*upper) {
        notes.push(format!(
            "method `{text}` read as `{upper}` (methods are case-sensitive)"
        ));
        return Ok(upper);
    }
    Ok(text.to_string())
}

/// `host[:port]` (or `[v6]:port`) → lower-cased host without trailing dot, and the port if any.
fn split_host_port(authority: &str) -> Result<(String, Option<u16>), String> {
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (v6, after) = rest
            .split_once(']')
            .ok_or_else(|| format!("`{authority}`: unclosed `[`"))?;
        (format!("[{v6}]"), after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h.to_string(), Some(p)),
            None => (authority.to_string(), None),
        }
    };
    let port = match port {
        Some(p) => Some(
            p.parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| format!("`{p}` is not a port"))?,
        ),
        None => None,
    };
    if host.is_empty() {
        return Err(format!("`{authority}` has no host"));
    }
    let host = host.to_ascii_lowercase();
    Ok((host.strip_suffix('.').unwrap_or(&host).to_string(), port))
}

/// The parts of an absolute `http`/`https` URL.
struct Url {
    scheme: Scheme,
    authority: String,
    host: String,
    port: u16,
    path: String,
    query: Option<String>,
}

fn parse_url(url: &str) -> Result<Url, String> {
    let (scheme, rest) = url
        .split_once("://")
        .ok_or_else(|| format!("`{url}` is not an absolute URL (http://… or https://…)"))?;
    let scheme = match scheme.to_ascii_lowercase().as_str() {
        "http" => Scheme::Http,
        "https" => Scheme::Https,
        other => return Err(format!("scheme `{other}` is not http or https")),
    };
    let rest = rest.split_once('#').map_or(rest, |(before, _)| before);
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let (host, port) = split_host_port(authority)?;
    let after = &rest[end..];
    let (path, query) = match after.split_once('?') {
        Some((p, q)) => (p, Some(q.to_string())),
        None => (after, None),
    };
    Ok(Url {
        scheme,
        authority: authority.to_string(),
        host,
        port: port.unwrap_or(match scheme {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }),
        path: if path.is_empty() { "/" } else { path }.to_string(),
        query,
    })
}

/// `-H 'Name: value'` arguments → lower-cased names, repeated names joined with `,`.
fn headers(args: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for arg in args {
        let (name, value) = arg
            .split_once(':')
            .ok_or_else(|| format!("-H `{arg}`: expected `Name: value`"))?;
        if !is_token(name) {
            return Err(format!("-H `{arg}`: `{name}` is not a header name"));
        }
        let value = value.trim_matches([' ', '\t']);
        out.entry(name.to_ascii_lowercase())
            .and_modify(|v| {
                v.push(',');
                v.push_str(value);
            })
            .or_insert_with(|| value.to_string());
    }
    Ok(out)
}

/// Roots `--attr` may set (`request.*` only beyond the attributes dopol derives itself).
const ATTR_ROOTS: &[&str] = crate::expr::ATTRIBUTE_ROOTS;

/// `request.*` attributes dopol derives from the request (docs/semantics.md#94-attributes).
pub const DERIVED_REQUEST: &[&str] = &[
    "method",
    "scheme",
    "host",
    "path",
    "url_path",
    "query",
    "headers",
    "protocol",
    "useragent",
    "referer",
    "user_agent",
    "grpc",
];

/// `--attr KEY=VALUE` arguments → one nested map (a later one wins on the same path).
fn attributes(args: &[String]) -> Result<serde_json::Map<String, serde_json::Value>, String> {
    let mut root = serde_json::Map::new();
    for arg in args {
        let (key, value) = arg
            .split_once('=')
            .ok_or_else(|| format!("--attr `{arg}`: expected KEY=VALUE"))?;
        let parts: Vec<&str> = key.split('.').collect();
        if parts.iter().any(|p| p.is_empty()) || !ATTR_ROOTS.contains(&parts[0]) {
            return Err(format!(
                "--attr `{key}`: the key must be a dotted path under one of {}",
                ATTR_ROOTS.join(", ")
            ));
        }
        if parts[0] == "request" && (parts.len() == 1 || DERIVED_REQUEST.contains(&parts[1])) {
            return Err(format!(
                "--attr `{key}`: dopol derives request.{} from the request itself",
                parts.get(1).unwrap_or(&"*")
            ));
        }
        let value = serde_json::from_str(value)
            .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
        insert(&mut root, &parts, value);
    }
    Ok(root)
}

fn insert(
    map: &mut serde_json::Map<String, serde_json::Value>,
    path: &[&str],
    value: serde_json::Value,
) {
    match path {
        [] => {}
        [last] => {
            map.insert(last.to_string(), value);
        }
        [first, rest @ ..] => {
            let entry = map
                .entry(first.to_string())
                .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()));
            if !entry.is_object() {
                *entry = serde_json::Value::Object(serde_json::Map::new());
            }
            if let serde_json::Value::Object(inner) = entry {
                insert(inner, rest, value);
            }
        }
    }
}

/// What the user typed.
#[derive(Clone, Debug, Default)]
pub struct RequestArgs {
    /// `METHOD URL` (HTTP form).
    pub method_url: Option<(String, String)>,
    /// `--grpc SERVICE/METHOD`.
    pub grpc: Option<String>,
    /// `--authority HOST[:PORT]`.
    pub authority: Option<String>,
    /// `--tls`.
    pub tls: bool,
    /// `-H`.
    pub headers: Vec<String>,
    /// `--attr`.
    pub attributes: Vec<String>,
}

/// Reads the request, or says what is wrong with it.
pub fn parse(args: &RequestArgs) -> Result<Request, String> {
    let headers = headers(&args.headers)?;
    let attributes = attributes(&args.attributes)?;
    let mut request = match (&args.method_url, &args.grpc) {
        (Some((method_text, url)), None) => http(method_text, url, headers, attributes)?,
        (None, Some(call)) => grpc(call, args, headers, attributes)?,
        _ => return Err("give METHOD URL, or --grpc SERVICE/METHOD --authority HOST".into()),
    };
    if ["//", "/./", "/../"]
        .iter()
        .any(|s| request.path.contains(s))
        || request.path.ends_with("/.")
        || request.path.ends_with("/..")
    {
        request.notes.push(format!(
            "the path `{}` is matched as written; a data plane may normalise `//`, `/./` and `/../` first",
            request.path
        ));
    }
    Ok(request)
}

fn http(
    method_text: &str,
    url: &str,
    headers: BTreeMap<String, String>,
    attributes: serde_json::Map<String, serde_json::Value>,
) -> Result<Request, String> {
    let mut notes = Vec::new();
    let method = method(method_text, &mut notes)?;
    let url = parse_url(url)?;
    let (host, host_attribute) = match headers.get("host") {
        Some(h) => (split_host_port(h)?.0, h.clone()),
        None => (url.host.clone(), url.authority.clone()),
    };
    Ok(Request {
        method,
        scheme: url.scheme,
        host,
        port: url.port,
        path: url.path,
        query: url.query,
        headers,
        grpc: None,
        attributes,
        host_attribute,
        notes,
    })
}

fn grpc(
    call: &str,
    args: &RequestArgs,
    mut headers: BTreeMap<String, String>,
    attributes: serde_json::Map<String, serde_json::Value>,
) -> Result<Request, String> {
    let (service, method) = call
        .rsplit_once('/')
        .filter(|(s, m)| !s.is_empty() && !m.is_empty())
        .ok_or_else(|| format!("--grpc `{call}`: expected SERVICE/METHOD"))?;
    let authority = args
        .authority
        .as_deref()
        .ok_or("--grpc needs --authority HOST[:PORT]")?;
    let (host, port) = split_host_port(authority)?;
    let scheme = if args.tls {
        Scheme::Https
    } else {
        Scheme::Http
    };
    headers.insert("content-type".into(), "application/grpc".into());
    Ok(Request {
        method: "POST".into(),
        scheme,
        host,
        port: port.unwrap_or(if args.tls { 443 } else { 80 }),
        path: format!("/{service}/{method}"),
        query: None,
        headers,
        grpc: Some(GrpcCall {
            service: service.to_string(),
            method: method.to_string(),
        }),
        attributes,
        host_attribute: authority.to_string(),
        notes: Vec::new(),
    })
}

impl Request {
    /// Whether a listener or route hostname (precise, or `*.suffix` covering one or more
    /// labels) matches the host. An IP address matches no hostname.
    pub fn host_matches(&self, hostname: &str) -> bool {
        let is_ip = self.host.starts_with('[') || self.host.parse::<std::net::Ipv4Addr>().is_ok();
        let hostname = hostname.to_ascii_lowercase();
        !is_ip
            && match hostname.strip_prefix("*.") {
                Some(suffix) => matches_wildcard(&self.host, suffix),
                None => hostname == self.host,
            }
    }

    /// The attribute roots request-time conditions see (docs/semantics.md#94-attributes): `request` derived from
    /// the request plus `--attr request.*` extras, and every other root only from `--attr`.
    pub fn attribute_roots(&self) -> serde_json::Map<String, serde_json::Value> {
        use serde_json::{Value, json};
        let mut roots = self.attributes.clone();
        let mut headers: serde_json::Map<String, Value> = self
            .headers
            .iter()
            .filter(|(name, _)| *name != "host")
            .map(|(n, v)| (n.clone(), Value::String(v.clone())))
            .collect();
        let full_path = match &self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.clone(),
        };
        for (name, value) in [
            (":authority", self.host_attribute.clone()),
            (":method", self.method.clone()),
            (":path", full_path.clone()),
            (":scheme", self.scheme.as_str().to_string()),
        ] {
            headers.insert(name.into(), Value::String(value));
        }
        let header = |name: &str| self.headers.get(name).map_or(Value::Null, |v| json!(v));
        let derived = json!({
            "method": self.method,
            "scheme": self.scheme.as_str(),
            "host": self.host_attribute,
            "path": full_path,
            "url_path": self.path,
            "query": self.query.clone().unwrap_or_default(),
            "headers": headers,
            "protocol": if self.grpc.is_some() { "HTTP/2" } else { "HTTP/1.1" },
            "useragent": header("user-agent"),
            "referer": header("referer"),
            "user_agent": header("user-agent"),
            "grpc": self.grpc.as_ref().map_or(json!({"service": null, "method": null}), |g| json!({"service": g.service, "method": g.method})),
        });
        let request = roots
            .entry("request")
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let (Value::Object(into), Value::Object(from)) = (request, derived) {
            into.extend(from);
        }
        roots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http_args(method: &str, url: &str, headers: &[&str], attrs: &[&str]) -> RequestArgs {
        RequestArgs {
            method_url: Some((method.into(), url.into())),
            headers: headers.iter().map(|s| s.to_string()).collect(),
            attributes: attrs.iter().map(|s| s.to_string()).collect(),
            ..RequestArgs::default()
        }
    }

    #[test]
    fn urls_headers_and_host() {
        let r = parse(&http_args(
            "get",
            "https://Shop.Example.:8443/cart?id=3#top",
            &["X-Team: a", "x-team:\tb ", "Host: api.example.com:9999"],
            &[],
        ))
        .unwrap();
        assert_eq!(r.method, "GET");
        assert_eq!(r.notes.len(), 1);
        assert_eq!((r.scheme, r.port), (Scheme::Https, 8443));
        assert_eq!(r.host, "api.example.com");
        assert_eq!(r.host_attribute, "api.example.com:9999");
        assert_eq!(
            (r.path.as_str(), r.query.as_deref()),
            ("/cart", Some("id=3"))
        );
        assert_eq!(r.headers["x-team"], "a,b");
        let r = parse(&http_args("PURGE", "http://shop.example", &[], &[])).unwrap();
        assert_eq!(
            (r.method.as_str(), r.path.as_str(), r.port),
            ("PURGE", "/", 80)
        );
        assert_eq!(r.host_attribute, "shop.example");
    }

    #[test]
    fn usage_errors() {
        for (method, url, header, attr) in [
            ("GET", "ftp://x/", "", ""),
            ("GET", "/relative", "", ""),
            ("G ET", "http://x/", "", ""),
            ("GET", "http://x:99999/", "", ""),
            ("GET", "http://x/", "no colon", ""),
            ("GET", "http://x/", "bad name: v", ""),
            ("GET", "http://x/", "", "auth"),
            ("GET", "http://x/", "", "nope.x=1"),
            ("GET", "http://x/", "", "request.method=GET"),
        ] {
            let h: Vec<&str> = [header].into_iter().filter(|s| !s.is_empty()).collect();
            let a: Vec<&str> = [attr].into_iter().filter(|s| !s.is_empty()).collect();
            assert!(
                parse(&http_args(method, url, &h, &a)).is_err(),
                "{method} {url} {header} {attr}"
            );
        }
    }

    #[test]
    fn attributes_nest_and_parse_json() {
        let r = parse(&http_args(
            "GET",
            "http://x/",
            &[],
            &[
                "auth.identity.userid=bob",
                "auth.identity.n=42",
                "request.id=\"7\"",
                "source.address=10.0.0.1",
            ],
        ))
        .unwrap();
        let roots = r.attribute_roots();
        assert_eq!(roots["auth"]["identity"]["userid"], "bob");
        assert_eq!(roots["auth"]["identity"]["n"], 42);
        assert_eq!(roots["request"]["id"], "7");
        assert_eq!(roots["request"]["url_path"], "/");
        assert_eq!(roots["request"]["headers"][":authority"], "x");
        assert_eq!(roots["source"]["address"], "10.0.0.1");
    }

    #[test]
    fn grpc_requests() {
        let r = parse(&RequestArgs {
            grpc: Some("shop.v1.Cart/Add".into()),
            authority: Some("grpc.example:50051".into()),
            ..RequestArgs::default()
        })
        .unwrap();
        assert_eq!(r.path, "/shop.v1.Cart/Add");
        assert_eq!(
            (r.method.as_str(), r.port, r.scheme),
            ("POST", 50051, Scheme::Http)
        );
        assert_eq!(r.headers["content-type"], "application/grpc");
        assert!(
            parse(&RequestArgs {
                grpc: Some("/Add".into()),
                authority: Some("h".into()),
                ..RequestArgs::default()
            })
            .is_err()
        );
    }
}
