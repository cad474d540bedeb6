//! Verdicts of `x-kubernetes-validations` rules, remembered per thread.
//!
//! A rule is a pure function of `self` (on a create `oldSelf` is always absent), so two equal
//! values under the same schema node get the same verdicts. Manifests repeat small values
//! constantly (`{type: PathPrefix, value: /}`, a backendRef, a header filter), and evaluating
//! them costs far more than recognising them: converting `self` for the `cel` interpreter is a
//! deep copy, and rules such as "names must be unique" are quadratic in the list. Only values
//! whose key stays short are remembered (big subtrees rarely repeat), and the table is emptied
//! when it grows past [`MAX_ENTRIES`], so memory stays bounded.

use super::cel::Verdict;
use super::schema::Schema;
use crate::yaml::{Node, Value};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::fmt::Write as _;

/// The longest key remembered, in bytes.
const MAX_KEY_BYTES: usize = 512;
/// How many verdict lists a thread keeps before starting over.
const MAX_ENTRIES: usize = 1 << 14;

/// The schema node, whether `self` is the whole object, which of its rules (a bit per
/// position), the value.
type Key = (u64, bool, u64, Box<str>);

thread_local! {
    static VERDICTS: RefCell<FxHashMap<Key, Vec<Verdict>>> = RefCell::default();
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
) -> Vec<Verdict> {
    let mut text = String::new();
    let mask = positions.iter().try_fold(0u64, |mask, &p| {
        Some(mask | 1u64.checked_shl(u32::try_from(p).ok()?)?)
    });
    let Some(mask) = mask else {
        return evaluate();
    };
    if schema.memo_id() == 0 || !write_key(node, &mut text) {
        return evaluate();
    }
    let key = (schema.memo_id(), root, mask, text.into_boxed_str());
    if let Some(found) = VERDICTS.with(|v| v.borrow().get(&key).cloned()) {
        return found;
    }
    let verdicts = evaluate();
    VERDICTS.with(|v| {
        let mut table = v.borrow_mut();
        if table.len() >= MAX_ENTRIES {
            table.clear();
        }
        table.insert(key, verdicts.clone());
    });
    verdicts
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
            let _ = write!(out, "i{i};");
        }
        Value::Float(f) => {
            let _ = write!(out, "d{:?};", f.to_bits());
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
    let _ = write!(out, "s{}:{s}", s.len());
}
