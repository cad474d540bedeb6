//! Kubernetes resource quantities (`k8s.io/apimachinery/pkg/api/resource`), as the CEL
//! `quantity` library of the API server (`k8s.io/apiserver/pkg/cel/library/quantity.go`) sees
//! them.
//!
//! Parsing follows `resource.ParseQuantity` / `parseQuantityString` step by step: an optional
//! sign, digits with an optional `.` and fraction (`1.` and even `.` are accepted, as there),
//! then a suffix: a decimal SI one (`n u m "" k M G T P E`), a binary SI one
//! (`Ki Mi Gi Ti Pi Ei`) or a decimal exponent (`e3`, `E-2`, parsed as an int64 then truncated
//! to int32 as Go does). Like the API server, the value is then rounded *up* (away from zero)
//! to a multiple of 10⁻⁹, and a binary SI value is capped at 2⁶³−1.
//!
//! Values are exact: a sign, decimal digits and a power of ten, so comparisons never lose
//! precision (`inf.Dec` in Go). Arithmetic refuses operands whose exponents are further apart
//! than [`MAX_DIGITS`] instead of allocating without bound.

use ::cel::objects::Opaque;
use std::cmp::Ordering;

/// `resource.ErrFormatWrong`.
pub const ERR_FORMAT: &str = "quantities must match the regular expression \
                              '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// `resource.ErrSuffix`.
pub const ERR_SUFFIX: &str = "unable to parse quantity's suffix";

/// The most decimal digits an arithmetic result may have.
pub const MAX_DIGITS: usize = 4096;

/// An exact quantity: `(-1)^negative × digits × 10^exp`, normalized (no leading or trailing
/// zero digit; zero is `digits` empty, `exp` 0, not negative), so `==` is numeric equality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantity {
    negative: bool,
    digits: Vec<u8>,
    exp: i64,
}

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

enum Suffix {
    Decimal(i64),
    Binary(u32),
}

fn interpret(suffix: &str) -> Option<Suffix> {
    Some(match suffix {
        "n" => Suffix::Decimal(-9),
        "u" => Suffix::Decimal(-6),
        "m" => Suffix::Decimal(-3),
        "" => Suffix::Decimal(0),
        "k" => Suffix::Decimal(3),
        "M" => Suffix::Decimal(6),
        "G" => Suffix::Decimal(9),
        "T" => Suffix::Decimal(12),
        "P" => Suffix::Decimal(15),
        "E" => Suffix::Decimal(18),
        "Ki" => Suffix::Binary(10),
        "Mi" => Suffix::Binary(20),
        "Gi" => Suffix::Binary(30),
        "Ti" => Suffix::Binary(40),
        "Pi" => Suffix::Binary(50),
        "Ei" => Suffix::Binary(60),
        _ => {
            let rest = suffix
                .strip_prefix('e')
                .or_else(|| suffix.strip_prefix('E'))?;
            if rest.is_empty() {
                return None;
            }
            // strconv.ParseInt(s, 10, 64), then int32(parsed).
            let parsed: i64 = rest.parse().ok()?;
            Suffix::Decimal(i64::from(parsed as i32))
        }
    })
}

impl Quantity {
    /// Zero.
    pub fn zero() -> Quantity {
        Quantity {
            negative: false,
            digits: Vec::new(),
            exp: 0,
        }
    }

    /// `resource.ParseQuantity`.
    pub fn parse(text: &str) -> Result<Quantity, &'static str> {
        let bytes = text.as_bytes();
        if bytes.is_empty() {
            return Err(ERR_FORMAT);
        }
        let end = bytes.len();
        let mut pos = 0;
        let mut negative = false;
        match bytes[0] {
            b'-' => {
                negative = true;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
        let digits_from = |from: usize| {
            bytes[from..]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(end, |n| from + n)
        };
        let num_end = digits_from(pos);
        let num = &text[pos..num_end];
        pos = num_end;
        let mut denom = "";
        if pos < end && bytes[pos] == b'.' {
            let denom_end = digits_from(pos + 1);
            denom = &text[pos + 1..denom_end];
            pos = denom_end;
        }
        let suffix_start = pos;
        while pos < end && b"eEinumkKMGTP".contains(&bytes[pos]) {
            pos += 1;
        }
        if pos < end && matches!(bytes[pos], b'-' | b'+') {
            pos += 1;
        }
        if digits_from(pos) != end {
            return Err(ERR_FORMAT);
        }
        let suffix = interpret(&text[suffix_start..]).ok_or(ERR_SUFFIX)?;
        let mut digits: Vec<u8> = num.bytes().chain(denom.bytes()).map(|b| b - b'0').collect();
        let mut exp = -(denom.len() as i64);
        let binary = match suffix {
            Suffix::Decimal(e) => {
                exp += e;
                false
            }
            Suffix::Binary(shift) => {
                multiply(&mut digits, 1u64 << shift);
                true
            }
        };
        let mut q = Quantity {
            negative,
            digits,
            exp,
        };
        q.normalize();
        q.round_up_to_nano();
        if binary {
            let max = Quantity::from_i64(i64::MAX);
            if q.magnitude_cmp(&max) == Ordering::Greater {
                q = Quantity { negative, ..max };
            }
        }
        Ok(q)
    }

    /// An integer.
    pub fn from_i64(value: i64) -> Quantity {
        let mut q = Quantity {
            negative: value < 0,
            digits: value
                .unsigned_abs()
                .to_string()
                .bytes()
                .map(|b| b - b'0')
                .collect(),
            exp: 0,
        };
        q.normalize();
        q
    }

    fn normalize(&mut self) {
        let lead = self.digits.iter().take_while(|&&d| d == 0).count();
        self.digits.drain(..lead);
        while self.digits.last() == Some(&0) {
            self.digits.pop();
            self.exp = self.exp.saturating_add(1);
        }
        if self.digits.is_empty() {
            *self = Quantity::zero();
        }
    }

    /// `amount.Round(amount, Nano, inf.RoundUp)` on the magnitude.
    fn round_up_to_nano(&mut self) {
        if self.exp >= -9 {
            return;
        }
        // Digits at positions below 10^-9 are dropped; any of them nonzero rounds up.
        let drop = usize::try_from(-9 - self.exp).unwrap_or(usize::MAX);
        let keep = self.digits.len().saturating_sub(drop);
        self.digits.truncate(keep);
        self.exp = -9;
        add_one(&mut self.digits); // something nonzero was dropped (digits are normalized)
        self.normalize();
    }

    /// The sign: -1, 0 or 1.
    pub fn sign(&self) -> i64 {
        match (self.digits.is_empty(), self.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }

    /// Whether the value is a whole number.
    pub fn is_integer(&self) -> bool {
        self.exp >= 0
    }

    /// The value as an int64, if it is a whole number in range.
    pub fn as_i64(&self) -> Option<i64> {
        if !self.is_integer() {
            return None;
        }
        let mut value: i128 = 0;
        for &d in &self.digits {
            value = value.checked_mul(10)?.checked_add(i128::from(d))?;
        }
        for _ in 0..self.exp {
            value = value.checked_mul(10)?;
        }
        let value = if self.negative { -value } else { value };
        i64::try_from(value).ok()
    }

    /// The nearest double.
    pub fn as_f64(&self) -> f64 {
        if self.digits.is_empty() {
            return 0.0;
        }
        let mut text = String::with_capacity(self.digits.len() + 24);
        if self.negative {
            text.push('-');
        }
        text.extend(self.digits.iter().map(|d| char::from(b'0' + d)));
        text.push_str(&format!("e{}", self.exp));
        text.parse().unwrap_or(f64::NAN)
    }

    fn magnitude_cmp(&self, other: &Quantity) -> Ordering {
        match (self.digits.is_empty(), other.digits.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let top = |q: &Quantity| q.exp.saturating_add(q.digits.len() as i64);
        top(self)
            .cmp(&top(other))
            .then_with(|| self.digits.cmp(&other.digits))
    }

    /// Numeric comparison (`compareTo`).
    pub fn compare(&self, other: &Quantity) -> Ordering {
        match self.sign().cmp(&other.sign()) {
            Ordering::Equal if self.negative => other.magnitude_cmp(self),
            Ordering::Equal => self.magnitude_cmp(other),
            unequal => unequal,
        }
    }

    /// `self + other` (`sub` negates `other` first).
    pub fn add(&self, other: &Quantity) -> Result<Quantity, String> {
        if other.digits.is_empty() {
            return Ok(self.clone());
        }
        if self.digits.is_empty() {
            return Ok(other.clone());
        }
        let low = self.exp.min(other.exp);
        let top = |q: &Quantity| q.exp.saturating_add(q.digits.len() as i64);
        let width = top(self).max(top(other)).saturating_sub(low);
        if width > MAX_DIGITS as i64 {
            return Err(format!(
                "the quantities are too far apart in magnitude to add (more than {MAX_DIGITS} digits)"
            ));
        }
        let aligned = |q: &Quantity| {
            let mut d = q.digits.clone();
            d.resize(d.len() + (q.exp - low) as usize, 0);
            d
        };
        let (a, b) = (aligned(self), aligned(other));
        let mut result = if self.negative == other.negative {
            Quantity {
                negative: self.negative,
                digits: add_digits(&a, &b),
                exp: low,
            }
        } else if self.magnitude_cmp(other) != Ordering::Less {
            Quantity {
                negative: self.negative,
                digits: sub_digits(&a, &b),
                exp: low,
            }
        } else {
            Quantity {
                negative: other.negative,
                digits: sub_digits(&b, &a),
                exp: low,
            }
        };
        result.normalize();
        Ok(result)
    }

    /// `-self`.
    pub fn negated(&self) -> Quantity {
        let mut q = self.clone();
        q.negative = !q.negative && !q.digits.is_empty();
        q
    }
}

/// `digits *= factor`, big-endian decimal.
fn multiply(digits: &mut Vec<u8>, factor: u64) {
    let mut carry: u128 = 0;
    for d in digits.iter_mut().rev() {
        let v = u128::from(*d) * u128::from(factor) + carry;
        *d = (v % 10) as u8;
        carry = v / 10;
    }
    while carry > 0 {
        digits.insert(0, (carry % 10) as u8);
        carry /= 10;
    }
}

fn add_one(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, 1);
}

/// Sum of two big-endian digit strings.
fn add_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0u8);
    while i > 0 || j > 0 || carry > 0 {
        let x = if i > 0 {
            i -= 1;
            a[i]
        } else {
            0
        };
        let y = if j > 0 {
            j -= 1;
            b[j]
        } else {
            0
        };
        let s = x + y + carry;
        out.push(s % 10);
        carry = s / 10;
    }
    out.reverse();
    out
}

/// `a - b` for `a >= b`, big-endian digit strings.
fn sub_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len());
    let (mut i, mut j, mut borrow) = (a.len(), b.len(), 0i8);
    while i > 0 {
        i -= 1;
        let y = if j > 0 {
            j -= 1;
            b[j] as i8
        } else {
            0
        };
        let mut s = a[i] as i8 - y - borrow;
        borrow = 0;
        if s < 0 {
            s += 10;
            borrow = 1;
        }
        out.push(s as u8);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Quantity {
        Quantity::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn parses_as_kubernetes_does() {
        assert_eq!(q("1Gi"), Quantity::from_i64(1 << 30));
        assert_eq!(q("1000m"), q("1"));
        assert_eq!(q("1.5k"), Quantity::from_i64(1500));
        assert_eq!(q("1e3"), Quantity::from_i64(1000));
        assert_eq!(q("1E3"), Quantity::from_i64(1000));
        assert_eq!(q("1E"), Quantity::from_i64(1_000_000_000_000_000_000));
        assert_eq!(q("-0"), Quantity::zero());
        assert_eq!(q("."), Quantity::zero());
        assert_eq!(q("1."), Quantity::from_i64(1));
        assert_eq!(q("+5"), Quantity::from_i64(5));
        assert_eq!(q("0.5Ki"), Quantity::from_i64(512));
        // Rounded up to nano.
        assert_eq!(q("0.0000000001"), q("1n"));
        assert_eq!(q("-0.0000000001"), q("-1n"));
        // Binary SI is capped at 2^63-1.
        assert_eq!(q("100Ei"), Quantity::from_i64(i64::MAX));
        assert_eq!(Quantity::parse(""), Err(ERR_FORMAT));
        assert_eq!(Quantity::parse("1x"), Err(ERR_FORMAT));
        assert_eq!(Quantity::parse("1Ki5"), Err(ERR_SUFFIX));
        assert_eq!(Quantity::parse("1e"), Err(ERR_SUFFIX));
        assert_eq!(Quantity::parse("1 "), Err(ERR_FORMAT));
        assert_eq!(Quantity::parse("1kk"), Err(ERR_SUFFIX));
    }

    #[test]
    fn compares_and_adds_exactly() {
        assert_eq!(q("4Gi").compare(&q("4294967296")), Ordering::Equal);
        assert_eq!(q("4Gi").compare(&q("4294967297")), Ordering::Less);
        assert_eq!(q("-1").compare(&q("-2")), Ordering::Greater);
        assert_eq!(q("0").compare(&q("-1n")), Ordering::Greater);
        assert_eq!(q("1e1000").compare(&q("1Ei")), Ordering::Greater);
        assert_eq!(q("1.5").add(&q("500m")), Ok(q("2")));
        assert_eq!(q("1").add(&q("-3")), Ok(q("-2")));
        assert!(q("1e100000").add(&q("1")).is_err());
        assert_eq!(q("1.5").as_i64(), None);
        assert_eq!(q("2k").as_i64(), Some(2000));
        assert_eq!(q("9223372036854775808").as_i64(), None);
        assert_eq!(q("1.5").as_f64(), 1.5);
        assert!(q("3").is_integer() && !q("3m").is_integer());
    }
}
