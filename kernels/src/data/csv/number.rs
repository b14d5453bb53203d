//! Numbers from CSV fields: a fast path for plain decimals, the standard library for
//! everything else. Both give the correctly rounded `f64`, so which path a field takes
//! never changes its value.

/// Exact powers of ten as `f64` (all of `10^0 ..= 10^15` are exact).
pub(super) const POW10: [f64; 16] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// `[+-]digits[.digits]` with at most 15 digits: the digits as an integer `m < 2^53`
/// and the point's place `k ≤ 15` make `m / 10^k` a division of two exact `f64`s,
/// which IEEE rounds correctly (Clinger's fast path). `None` for anything else
/// (exponents, more digits, `inf`, junk): the caller then asks `str::parse`.
#[inline]
pub(super) fn fast_decimal(field: &[u8]) -> Option<f64> {
    let (negative, digits) = match field.first()? {
        b'-' => (true, &field[1..]),
        b'+' => (false, &field[1..]),
        _ => (false, field),
    };
    let (mut m, mut count, mut point) = (0u64, 0usize, None);
    for (i, &b) in digits.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(b - b'0');
                count += 1;
            }
            b'.' if point.is_none() => point = Some(i),
            _ => return None,
        }
    }
    if count == 0 || count > 15 {
        return None;
    }
    let places = point.map_or(0, |p| digits.len() - p - 1);
    let v = m as f64 / POW10[places];
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::fast_decimal;

    #[test]
    fn agrees_with_the_standard_parser_or_declines() {
        for s in [
            "0",
            "-0",
            "1",
            "+2.5",
            "0.25311",
            "-1.17475",
            "123456789012345",
            "0.1",
            "9007199254740.991",
            ".5",
            "5.",
            "-.75",
            "1e5",
            "1.2.3",
            "",
            "-",
            ".",
            "nan",
            "1234567890123456",
            "00000000000000001",
        ] {
            let expected = s.parse::<f64>().ok();
            match fast_decimal(s.as_bytes()) {
                Some(v) => assert_eq!(Some(v.to_bits()), expected.map(f64::to_bits), "{s}"),
                None => assert!(
                    s.contains(['e', 'n'])
                        || s.len() >= 16
                        || expected.is_none()
                        || s.matches('.').count() > 1,
                    "{s} declined"
                ),
            }
        }
    }
}
