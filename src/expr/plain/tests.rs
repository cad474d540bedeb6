use super::{accepts, is_plain};
use crate::expr::parse::parse;

/// A small deterministic generator (xorshift), so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Whether the grammar accepts `text` (on a stack that fits its recursion).
fn grammar_accepts(text: &str) -> bool {
    crate::platform::deep(|| parse(text).is_ok()).unwrap_or(false)
}

const NAMES: &[&str] = &[
    "request",
    "auth",
    "method",
    "x_1",
    "_y",
    "A",
    "size",
    "startsWith",
];
const LITERALS: &[&str] = &[
    "0", "7", "42", "'GET'", "\"free\"", "''", "'a b/c'", "true", "false", "null",
];
const RELATIONS: &[&str] = &["==", "!=", "<", "<=", ">", ">=", "in"];
const ARITHMETIC: &[&str] = &["+", "*", "%"];

/// A random expression of the plain subset's shapes, `budget` levels deep at most.
fn expression(rng: &mut Rng, budget: u32, out: &mut String) {
    let terms = 1 + rng.below(2);
    for i in 0..terms {
        if i > 0 {
            out.push_str(rng.pick(&[" || ", " && ", "||", "&&"]));
        }
        relation(rng, budget, out);
    }
}

fn relation(rng: &mut Rng, budget: u32, out: &mut String) {
    sum(rng, budget, out);
    if rng.below(2) == 0 {
        let op = rng.pick(RELATIONS);
        out.push_str(&format!(" {op} "));
        sum(rng, budget, out);
    }
}

fn sum(rng: &mut Rng, budget: u32, out: &mut String) {
    member(rng, budget, out);
    if rng.below(4) == 0 {
        out.push_str(rng.pick(ARITHMETIC));
        member(rng, budget, out);
    }
}

fn member(rng: &mut Rng, budget: u32, out: &mut String) {
    for _ in 0..rng.below(3).saturating_sub(1) {
        out.push('!');
    }
    // Members of names and calls only: `7.a` and `true.a` are not plain.
    if !primary(rng, budget, out) {
        return;
    }
    for _ in 0..rng.below(3) {
        match rng.below(3) {
            0 => out.push_str(&format!(".{}", rng.pick(NAMES))),
            1 if budget > 0 => {
                out.push_str(&format!(".{}(", rng.pick(NAMES)));
                arguments(rng, budget - 1, out);
                out.push(')');
            }
            _ if budget > 0 => {
                out.push('[');
                expression(rng, budget - 1, out);
                out.push(']');
            }
            _ => {}
        }
    }
}

/// Writes a primary expression; says whether members may follow it.
fn primary(rng: &mut Rng, budget: u32, out: &mut String) -> bool {
    match rng.below(5) {
        2 => {
            let literal = rng.pick(LITERALS);
            out.push_str(literal);
            return literal.starts_with(['\'', '"']);
        }
        3 if budget > 0 => {
            out.push('(');
            expression(rng, budget - 1, out);
            out.push(')');
        }
        4 if budget > 0 => {
            out.push('[');
            arguments(rng, budget - 1, out);
            out.push(']');
        }
        _ => out.push_str(rng.pick(NAMES)),
    }
    true
}

fn arguments(rng: &mut Rng, budget: u32, out: &mut String) {
    for i in 0..rng.below(3) {
        if i > 0 {
            out.push_str(rng.pick(&[",", ", "]));
        }
        expression(rng, budget, out);
    }
}

/// The subset's tokens and the bytes next to it, for token soups.
const SOUP: &[&str] = &[
    "a", "b", "in", "true", "null", "has", "r", "x1", "0", "1", "01", "1u", "1.5", "'x'", "\"y\"",
    "''", "'", "\"", "\\", ".", "..", "(", ")", "[", "]", "{", "}", ",", "==", "=", "!=", "!", "<",
    "<=", ">", ">=", "&&", "&", "||", "|", "+", "-", "*", "/", "%", "?", ":", " ", "\n", "\t",
    "//", "é",
];

#[test]
fn the_grammar_accepts_every_generated_expression_the_fast_path_accepts() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut fast, mut total) = (0, 0);
    for _ in 0..3000 {
        let mut text = String::new();
        expression(&mut rng, 2, &mut text);
        total += 1;
        if accepts(&text) {
            fast += 1;
            assert!(
                grammar_accepts(&text),
                "fast path accepted {text:?}, the grammar did not"
            );
        }
    }
    // The shapes are the subset's: most take the fast path, or the test proves little.
    assert!(
        fast * 2 > total,
        "only {fast} of {total} took the fast path"
    );
}

#[test]
fn the_grammar_accepts_every_token_soup_the_fast_path_accepts() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut fast = 0;
    for _ in 0..40_000 {
        let text: String = (0..1 + rng.below(8)).map(|_| rng.pick(SOUP)).collect();
        if accepts(&text) {
            fast += 1;
            assert!(
                grammar_accepts(&text),
                "fast path accepted {text:?}, the grammar did not"
            );
        }
    }
    assert!(fast > 500, "only {fast} soups took the fast path");
}

#[test]
fn the_subset_leaves_the_unusual_to_the_grammar() {
    for text in [
        "request.method == 'GET'",
        "auth.identity.group == 'admins' && request.path != '/health'",
        "request.headers['x-tier'] in ['gold', 'silver']",
        "!request.path.startsWith('/grpc.reflection.')",
        "request.size() > 10 || size(request.x) % 2 == 0",
    ] {
        assert!(is_plain(text), "{text}");
        assert!(accepts(text), "{text}");
    }
    for text in [
        "request.headers.exists(h, h == 'x')",
        "has(request.x)",
        "a.existsOne(x, x)",
        "a.?b",
        "a ? b : c",
        "-1 < a",
        "1.5 > a",
        "1u == a",
        "0x1F == a",
        "01 == a",
        "'a\\'b' == a",
        "r'raw' == a",
        "b'bytes' == a",
        "'''x''' == a",
        "'é' == a",
        "a / 2 // comment",
        "{'a': 1}.a",
        "a . b",
        "a.true",
        "true(1)",
        "null.x",
        "a.if",
        ".a.b == 1",
        "a = b",
        "a & b",
    ] {
        assert!(!is_plain(text), "{text}");
    }
    let deep = format!("{}a{}", "(".repeat(13), ")".repeat(13));
    assert!(!is_plain(&deep));
    let long = format!("a{}", " + a".repeat(200));
    assert!(!is_plain(&long));
}

#[test]
fn rejections_still_come_from_the_grammar() {
    // Plain, but wrong: the fast path says nothing, the grammar says why.
    for text in [
        "request.method ==",
        "a (b",
        "[1, 2",
        "a == == b",
        "a in in b",
    ] {
        assert!(is_plain(text), "{text}");
        assert!(!accepts(text), "{text}");
        let error = crate::expr::check_syntax(text).unwrap_err();
        assert!(!error.message.is_empty(), "{text}");
    }
}

/// Every predicate-like scalar of the repository's manifests (`predicate:`, `expression:`,
/// `when:` lines), unquoted roughly: what users write, in whatever shape.
fn repository_expressions() -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(
                std::fs::read_dir(&path)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path()),
            );
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for line in text.lines() {
            let line = line.trim_start().trim_start_matches("- ");
            for key in ["predicate:", "expression:", "when:"] {
                if let Some(value) = line.strip_prefix(key) {
                    let value = value.trim();
                    let unquoted = value
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                        .unwrap_or(value);
                    out.push(unquoted.to_string());
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_grammar_accepts_every_repository_expression_the_fast_path_accepts() {
    let texts = repository_expressions();
    let fast = texts.iter().filter(|t| accepts(t)).count();
    for text in texts.iter().filter(|t| accepts(t)) {
        assert!(
            grammar_accepts(text),
            "fast path accepted {text:?}, the grammar did not"
        );
    }
    assert!(
        fast > 20,
        "only {fast} of {} took the fast path",
        texts.len()
    );
}
