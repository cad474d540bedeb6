//! Verdicts of `x-kubernetes-validations` rules, remembered per thread.
//!
//! A rule is a pure function of `self` (on a create `oldSelf` is always absent), so two equal
//! values under the same schema node get the same verdicts. Manifests repeat small values
//! constantly (`{type: PathPrefix, value: /}`, a backendRef, a header filter), and evaluating
//! them costs far more than recognising them: converting `self` for the `cel` interpreter is a
//! deep copy, and rules such as "names must be unique" are quadratic in the list. A value is
//! keyed by what its rules observe of it, so values that differ elsewhere (a route rule's path
//! values and backend names) share verdicts. Only values whose key stays short are remembered
//! (big subtrees rarely repeat); a schema node whose values seldom repeat stops being
//! remembered after a trial; the table is emptied when it grows past [`MAX_ENTRIES`], so
//! memory stays bounded.

use super::cel::Verdict;
use super::schema::Schema;
use crate::yaml::{Node, Value};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The longest key remembered, in bytes (its schema node and rule mask included).
const MAX_KEY_BYTES: usize = 512;
/// How many verdict lists a thread keeps before starting over.
const MAX_ENTRIES: usize = 1 << 14;

/// Lookups of a schema node after which remembering stops when too few of them hit.
const TRIAL_LOOKUPS: u32 = 64;

thread_local! {
    /// Keyed by the schema node, whether `self` is the whole object, which of its rules (a bit
    /// per position) and the value, written as one text (see [`verdicts`]).
    static VERDICTS: RefCell<FxHashMap<Box<str>, Rc<[Verdict]>>> = RefCell::default();
    /// The key being written: a lookup allocates nothing, only an insertion does.
    static SCRATCH: RefCell<String> = RefCell::default();
    /// Per schema node: (hits, misses). Values under some nodes never repeat (a route rule
    /// names its backends): writing their keys would cost as much as evaluating the rules.
    static TALLY: RefCell<FxHashMap<u64, (u32, u32)>> = RefCell::default();
}

/// Whether values under schema node `id` still repeat often enough to be worth a key: after
/// [`TRIAL_LOOKUPS`], at least one lookup in four must have hit.
fn worth_remembering(id: u64) -> bool {
    TALLY.with(|t| {
        let (hits, misses) = t.borrow().get(&id).copied().unwrap_or_default();
        hits + misses < TRIAL_LOOKUPS || hits * 3 >= misses
    })
}

fn count(id: u64, hit: bool) {
    TALLY.with(|t| {
        let mut tally = t.borrow_mut();
        let entry = tally.entry(id).or_default();
        if hit {
            entry.0 = entry.0.saturating_add(1);
        } else {
            entry.1 = entry.1.saturating_add(1);
        }
    });
}

/// The verdicts of the rules of `schema` at `positions` on `node` (`root`: bound as the whole
/// object), computed by `evaluate` unless the same rules ran on an equal value under the same
/// schema node on this thread.
pub fn verdicts(
    schema: &Schema,
    node: &Node,
    root: bool,
    positions: &[usize],
    evaluate: impl FnOnce() -> Vec<Verdict>,
) -> Rc<[Verdict]> {
    let mask = positions.iter().try_fold(0u64, |mask, &p| {
        Some(mask | 1u64.checked_shl(u32::try_from(p).ok()?)?)
    });
    let Some(mask) = mask else {
        return evaluate().into();
    };
    let id = schema.memo_id();
    if id == 0 || !worth_remembering(id) {
        return evaluate().into();
    }
    // `evaluate` never comes back here, but the buffer is taken out rather than borrowed, so
    // that nothing could ever find it borrowed.
    let mut key = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    key.clear();
    push_decimal(&mut key, id);
    key.push(if root { 'r' } else { ':' });
    push_decimal(&mut key, mask);
    key.push(':');
    let verdicts = if write_read_key(node, schema, root, &mut key) {
        let found = VERDICTS.with(|v| v.borrow().get(key.as_str()).cloned());
        count(id, found.is_some());
        found.unwrap_or_else(|| {
            let verdicts: Rc<[Verdict]> = evaluate().into();
            VERDICTS.with(|v| {
                let mut table = v.borrow_mut();
                if table.len() >= MAX_ENTRIES {
                    table.clear();
                }
                table.insert(key.as_str().into(), verdicts.clone());
            });
            verdicts
        })
    } else {
        evaluate().into()
    };
    SCRATCH.with(|s| *s.borrow_mut() = key);
    verdicts
}

/// The key of `node` for its schema's rules: what they observe of it (see
/// [`super::cel::Seen`]); the whole value for the object root, whose metadata is typed apart.
fn write_read_key(node: &Node, schema: &Schema, root: bool, out: &mut String) -> bool {
    if root {
        return write_key(node, out);
    }
    schema
        .seen()
        .write_key(node, out, MAX_KEY_BYTES, &write_key)
}

/// Writes an unambiguous text of `node`'s value (strings are length-prefixed); `false` once it
/// passes [`MAX_KEY_BYTES`].
fn write_key(node: &Node, out: &mut String) -> bool {
    if out.len() > MAX_KEY_BYTES {
        return false;
    }
    match &node.value {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        Value::Int(i) => {
            out.push('i');
            if *i < 0 {
                out.push('-');
            }
            push_decimal(out, i.unsigned_abs());
            out.push(';');
        }
        Value::Float(f) => {
            out.push('d');
            push_decimal(out, f.to_bits());
            out.push(';');
        }
        Value::String(s) => write_str(s, out),
        Value::Seq(items) => {
            out.push('[');
            for item in items.iter() {
                if !write_key(item, out) {
                    return false;
                }
            }
            out.push(']');
        }
        Value::Map(entries) => {
            out.push('{');
            for entry in entries.iter() {
                write_str(&entry.key.text, out);
                if !write_key(&entry.value, out) {
                    return false;
                }
            }
            out.push('}');
        }
    }
    out.len() <= MAX_KEY_BYTES
}

fn write_str(s: &str, out: &mut String) {
    out.push('s');
    push_length_prefixed(out, s);
}

/// Appends `<len>:<s>`, a string no text after it can be mistaken for.
pub(super) fn push_length_prefixed(out: &mut String, s: &str) {
    push_decimal(out, s.len() as u64);
    out.push(':');
    out.push_str(s);
}

/// Appends `n` in decimal, as `write!(out, "{n}")` does, without the formatting machinery (a key
/// is written for every value the memo sees; `fmt` was about a tenth of a CRD check).
pub(super) fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| d as char));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_written_as_display_writes_them() {
        for n in [0, 7, 10, 99, 1234567890, u64::MAX] {
            let mut out = String::new();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string());
        }
    }
}
