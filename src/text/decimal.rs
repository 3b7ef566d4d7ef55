//! Decimal text to `f64`: accepts exactly what `str::parse::<f64>` accepts and returns the same
//! double, correctly rounded (ties to the even significand).
//!
//! Why not `str::parse`: the standard parser carries a 10 KB table of 128-bit powers of five for
//! its fast algorithm, about 4% of the page's compressed WebAssembly, and numbers typed into a
//! calculator hardly need it. This parser takes two routes:
//!
//! 1. Exact arithmetic (Clinger's fast path): with at most 15 significant digits and a power of
//!    ten up to 10^22, the digits and the power are both exact doubles, and one IEEE
//!    multiplication or division rounds the quotient correctly.
//! 2. Otherwise an estimate within a few units in the last place, then a walk: the exact decimal
//!    value is compared, as big integers, with the midpoints between the estimate and its
//!    neighbours, and the estimate steps until the value lies between them.
//!
//! Inputs longer than [`MAX_DIGITS`] significant digits keep the first ones and remember whether
//! anything non-zero followed, which is all that rounding needs from the rest: no midpoint
//! between two doubles has more than 767 significant digits. The tests compare results with
//! `str::parse` bit for bit.

use std::cmp::Ordering;

/// Significant digits kept; any double's midpoint to its neighbour needs at most 767.
const MAX_DIGITS: usize = 800;

/// Powers of ten that are exact doubles (10^22 < 2^53 · 2^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The double `text` denotes, or `None` where `str::parse::<f64>` would fail: an optional sign,
/// then digits with an optional point (at least one digit) and an optional exponent, or
/// `inf`, `infinity`, `nan` in any case. No spaces.
pub fn parse(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let (negative, rest) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let v = if rest.eq_ignore_ascii_case(b"inf") || rest.eq_ignore_ascii_case(b"infinity") {
        f64::INFINITY
    } else if rest.eq_ignore_ascii_case(b"nan") {
        f64::NAN
    } else {
        magnitude(rest)?
    };
    Some(if negative { -v } else { v })
}

/// A decimal `digits × 10^exp` (digits most significant first, no leading or trailing zeros),
/// plus whether non-zero digits were dropped after the kept ones.
struct Decimal {
    digits: Vec<u8>,
    exp: i64,
    truncated: bool,
}

/// Reads `digits[.digits][e[sign]digits]` in full, or `None`.
fn read(b: &[u8]) -> Option<Decimal> {
    let mut d = Decimal {
        digits: Vec::new(),
        exp: 0,
        truncated: false,
    };
    let mut i = 0;
    let mut any_digit = false;
    let mut in_fraction = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                any_digit = true;
                if in_fraction {
                    d.exp -= 1;
                }
                if d.digits.len() == MAX_DIGITS {
                    d.exp += 1;
                    d.truncated |= c != b'0';
                } else if !(d.digits.is_empty() && c == b'0') {
                    d.digits.push(c - b'0');
                }
            }
            b'.' if !in_fraction => in_fraction = true,
            _ => break,
        }
        i += 1;
    }
    if !any_digit {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let negative = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e: i64 = 0;
        while let Some(c @ b'0'..=b'9') = b.get(i) {
            // Far beyond any double's range, and far from overflowing.
            e = (e * 10 + i64::from(c - b'0')).min(1 << 40);
            i += 1;
        }
        if i == start {
            return None;
        }
        d.exp += if negative { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    while d.digits.last() == Some(&0) {
        d.digits.pop();
        d.exp += 1;
    }
    Some(d)
}

/// The non-negative double a digit string denotes.
fn magnitude(b: &[u8]) -> Option<f64> {
    let d = read(b)?;
    let n = d.digits.len() as i64;
    if n == 0 {
        return Some(0.0);
    }
    // 10^(n+exp-1) ≤ value < 10^(n+exp).
    if n + d.exp - 1 > 308 {
        return Some(f64::INFINITY);
    }
    if n + d.exp < -324 {
        return Some(0.0);
    }
    if !d.truncated && n <= 15 && d.exp.abs() <= 22 {
        let m = d.digits.iter().fold(0u64, |m, &c| m * 10 + u64::from(c)) as f64;
        let p = POW10[d.exp.unsigned_abs() as usize];
        return Some(if d.exp >= 0 { m * p } else { m / p });
    }
    Some(settle(&d, estimate(&d)))
}

/// Within a few units in the last place: the first 19 digits times a power of ten, the power
/// taken in two halves so neither overflows nor underflows on its own.
fn estimate(d: &Decimal) -> f64 {
    let k = d.digits.len().min(19);
    let w = d.digits[..k].iter().fold(0u64, |m, &c| m * 10 + u64::from(c)) as f64;
    let e = (d.exp + (d.digits.len() - k) as i64) as i32;
    let half = e / 2;
    (w * 10f64.powi(half) * 10f64.powi(e - half)).min(f64::MAX)
}

/// Steps `x` to the double nearest to `d`.
fn settle(d: &Decimal, mut x: f64) -> f64 {
    let value = Big::from_digits(&d.digits);
    let odd = |x: f64| x.to_bits() & 1 == 1;
    loop {
        let above = compare_with_midpoint(&value, d, x);
        if above == Ordering::Greater || (above == Ordering::Equal && odd(x)) {
            if x == f64::MAX {
                return f64::INFINITY;
            }
            x = f64::from_bits(x.to_bits() + 1);
            continue;
        }
        if x > 0.0 {
            let below = f64::from_bits(x.to_bits() - 1);
            let o = compare_with_midpoint(&value, d, below);
            if o == Ordering::Less || (o == Ordering::Equal && odd(x)) {
                x = below;
                continue;
            }
        }
        return x;
    }
}

/// How the decimal compares with the midpoint between finite `x ≥ 0` and the next double up.
/// With `x = m · 2^e`, that midpoint is `(2m + 1) · 2^(e-1)`, also across a power of two.
fn compare_with_midpoint(value: &Big, d: &Decimal, x: f64) -> Ordering {
    let bits = x.to_bits();
    let (biased, fraction) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    };
    // digits · 5^exp · 2^exp against (2m + 1) · 2^(e-1), each power on the side where it is whole.
    let mut left = value.clone();
    let mut right = Big::from_u64(2 * m + 1);
    if d.exp >= 0 {
        left.mul_pow5(d.exp as u64);
    } else {
        right.mul_pow5(d.exp.unsigned_abs());
    }
    let shift = d.exp - (e - 1);
    if shift >= 0 {
        left.shl(shift as u64);
    } else {
        right.shl(shift.unsigned_abs());
    }
    match left.cmp(&right) {
        // Dropped non-zero digits put the value just above what was kept.
        Ordering::Equal if d.truncated => Ordering::Greater,
        o => o,
    }
}

/// An unsigned big integer, 32-bit limbs, least significant first.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        Big(vec![v as u32, (v >> 32) as u32])
    }

    fn from_digits(digits: &[u8]) -> Big {
        let mut b = Big(vec![0]);
        for chunk in digits.chunks(9) {
            b.mul_add(10u32.pow(chunk.len() as u32), chunk.iter().fold(0, |a, &c| a * 10 + u32::from(c)));
        }
        b
    }

    /// self = self · k + add
    fn mul_add(&mut self, k: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(k) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow5(&mut self, mut n: u64) {
        const FIVE_13: u32 = 1_220_703_125;
        while n >= 13 {
            self.mul_add(FIVE_13, 0);
            n -= 13;
        }
        self.mul_add(5u32.pow(n as u32), 0);
    }

    fn shl(&mut self, n: u64) {
        let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
        if bits > 0 {
            let mut carry = 0;
            for limb in &mut self.0 {
                let v = (u64::from(*limb) << bits) | carry;
                *limb = v as u32;
                carry = v >> 32;
            }
            if carry > 0 {
                self.0.push(carry as u32);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, words));
    }

    fn cmp(&self, other: &Big) -> Ordering {
        let significant = |b: &Big| b.0.len() - b.0.iter().rev().take_while(|&&l| l == 0).count();
        let (a, b) = (&self.0[..significant(self)], &other.0[..significant(other)]);
        a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The same answer as the standard parser, bit for bit (any NaN matches any NaN).
    fn agrees(text: &str) -> Result<(), String> {
        let ours = parse(text);
        let std = text.parse::<f64>().ok();
        let same = match (ours, std) {
            (Some(a), Some(b)) => a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            (None, None) => true,
            _ => false,
        };
        if same {
            Ok(())
        } else {
            Err(format!("{text:?}: ours {ours:?}, std {std:?}"))
        }
    }

    #[test]
    fn agrees_on_the_edges() {
        let cases = [
            "",
            ".",
            "+",
            "-",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "1.",
            ".5",
            "+.5",
            "-0",
            "0",
            "00.000",
            "1_0",
            "0x10",
            " 1",
            "1 ",
            "1,5",
            "inf",
            "+Infinity",
            "-INF",
            "nan",
            "NaN",
            "-nan",
            "infinit",
            "infinityy",
            "in",
            "1.2.3",
            "1e5e5",
            "1e5.5",
            "4.58",
            "19000",
            "0.1",
            "0.3",
            "1e308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2e308",
            "1e-310",
            "4.9e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "9007199254740993",
            "9007199254740995",
            "9007199254740993.0000000000000000001",
            "123456789012345678901234567890",
            "0.000000000000000000000000000000001234567890123456789",
            "1e22",
            "1e23",
            "123456789012345e-22",
            "1234567890123456e-22",
            "1e-400",
            "1e400",
            "0e999999999999999",
            "1e99999999999999999999999",
            "1e-99999999999999999999",
        ];
        for c in cases {
            agrees(c).unwrap();
        }
    }

    #[test]
    fn keeps_rounding_right_past_the_kept_digits() {
        // 2^53 + 1 is halfway between two doubles: exactly there it rounds to even, and any
        // non-zero digit however far out tips it up.
        let tie = "9007199254740993.";
        agrees(&format!("{tie}{}", "0".repeat(2000))).unwrap();
        agrees(&format!("{tie}{}1", "0".repeat(2000))).unwrap();
        agrees(&format!("1{}", "0".repeat(400))).unwrap();
        agrees(&format!("0.{}1e330", "0".repeat(1000))).unwrap();
        agrees(&"7".repeat(5000)).unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn reads_back_every_double_as_rust_writes_it(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            for text in [format!("{x}"), format!("{x:e}"), format!("{x:.20e}"), format!("{x:.3}")] {
                agrees(&text).map_err(TestCaseError::fail)?;
            }
        }

        #[test]
        fn agrees_on_decimal_shaped_text(text in "[+-]?[0-9]{0,40}(\\.[0-9]{0,40})?([eE][+-]?[0-9]{1,4})?") {
            agrees(&text).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn agrees_on_arbitrary_text(text in "[0-9.eE+-infatyINFATY ]{0,12}") {
            agrees(&text).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn rounds_exact_midpoints_to_even(m in (1u64 << 52)..(1u64 << 53), e in -25i64..40) {
            // (2m + 1) · 2^(e-1), written out exactly in decimal, lies halfway between two doubles.
            let text = if e >= 1 {
                format!("{}", u128::from(2 * m + 1) << (e - 1))
            } else {
                let k = (1 - e) as u32;
                format!("{}e-{k}", u128::from(2 * m + 1) * 5u128.pow(k))
            };
            agrees(&text).map_err(TestCaseError::fail)?;
        }
    }
}
