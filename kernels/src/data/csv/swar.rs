//! Short decimals read eight bytes at a time (SWAR: SIMD within a register). A CSV of
//! measurements is mostly fields like `-1.17475`: one 8-byte load finds where the
//! digits, the point and the field's end are with a few bit operations, and three
//! multiplications turn the digits into an integer. The byte-by-byte loop this
//! replaces took a branch per byte and mispredicted where each field ended.

use super::number::POW10;

/// Every byte's high bit.
const HIGH: u64 = 0x8080_8080_8080_8080;
/// Every byte's low seven bits.
const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// `[-+]digits[.digits]` at `bytes[pos..]` when the number (after its sign) ends within
/// eight bytes: the value, as `m / 10^k` with `m` the digits as an integer and `k` the
/// digits after the point (so exactly what the byte-by-byte parser computes), and where
/// the number ends. `None` when it cannot tell (fewer than eight bytes left, a longer
/// number, no digit at all): the caller then parses byte by byte.
#[inline]
pub(super) fn short_decimal(bytes: &[u8], pos: usize) -> Option<(f64, usize)> {
    // Without a branch: half the numbers of a centred column are negative, so a
    // branch on the sign would mispredict every other field.
    let lead = *bytes.get(pos)?;
    let negative = lead == b'-';
    let start = pos + usize::from(negative | (lead == b'+'));
    let word = u64::from_le_bytes(bytes.get(start..start + 8)?.try_into().ok()?);
    let non_digits = non_digit_bytes(word);
    // Byte `i` of the word is the field's byte `start + i`: the lowest flagged byte is
    // the first that is not a digit.
    let first = (non_digits.trailing_zeros() / 8) as usize;
    if first == 8 {
        return None;
    }
    let values = word & 0x0F0F_0F0F_0F0F_0F0F;
    let (digits, count, places, end) = if bytes[start + first] == b'.' {
        let after = non_digits & !(0x80u64 << (8 * first));
        let second = (after.trailing_zeros() / 8) as usize;
        if second == 8 {
            return None;
        }
        // The fraction's digits moved down one byte, over the point.
        let fraction = (values >> 8) & low_bytes(second - 1) & !low_bytes(first);
        ((values & low_bytes(first)) | fraction, second - 1, second - 1 - first, second)
    } else {
        (values & low_bytes(first), first, 0, first)
    };
    if count == 0 {
        return None;
    }
    // The digits to the word's top bytes: leading zero digits in front of them.
    let m = eight_digits(digits << (8 * (8 - count)));
    let v = m as f64 / POW10[places];
    Some((f64::from_bits(v.to_bits() | u64::from(negative) << 63), start + end))
}

/// A word whose byte `i` has its high bit set where `word`'s byte `i` is not an ASCII
/// digit, and no other bit set. Byte-wise, with no carry between bytes.
#[inline]
fn non_digit_bytes(word: u64) -> u64 {
    // Not `0x3_`: the high nibble differs. `0x3A..=0x3F`: the low nibble plus 6
    // reaches 16.
    let wrong_high = (word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030;
    let too_big = ((word & 0x0F0F_0F0F_0F0F_0F0F) + 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010;
    let any = wrong_high | too_big;
    // A non-zero byte to its high bit alone (the seven low bits cannot carry out).
    (((any & LOW7) + LOW7) | any) & HIGH
}

/// The low `k` bytes of a word set (`k < 8`).
#[inline]
fn low_bytes(k: usize) -> u64 {
    (1u64 << (8 * k)) - 1
}

/// Eight digit values (`0..=9`, one per byte, byte 0 the most significant) as an
/// integer (Lemire's three-multiplication reduction, as in fast_float).
#[inline]
fn eight_digits(mut v: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    v = v.wrapping_mul(10).wrapping_add(v >> 8);
    (((v & MASK).wrapping_mul(MUL1)).wrapping_add(((v >> 16) & MASK).wrapping_mul(MUL2)) >> 32) & 0xFFFF_FFFF
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::SplitMix64;

    /// The byte-by-byte reading: digits, at most one point, the first other byte ends.
    fn by_bytes(bytes: &[u8], pos: usize) -> Option<(f64, usize)> {
        let text = &bytes[pos..];
        let sign = usize::from(matches!(text.first(), Some(b'-' | b'+')));
        let mut end = sign;
        let mut point = false;
        while let Some(&b) = text.get(end) {
            match b {
                b'0'..=b'9' => {}
                b'.' if !point => point = true,
                _ => break,
            }
            end += 1;
        }
        let number = std::str::from_utf8(&text[..end]).ok()?;
        let digits = number.bytes().filter(u8::is_ascii_digit).count();
        (digits > 0).then(|| (number.parse::<f64>().expect("a plain decimal"), pos + end))
    }

    #[test]
    fn reads_what_the_byte_by_byte_parser_reads() {
        let alphabet = b"0123456789.-+,\n/:e ";
        let mut rng = SplitMix64::new(11);
        for _ in 0..200_000 {
            let len = 1 + rng.below(14) as usize;
            let bytes: Vec<u8> =
                (0..len).map(|_| alphabet[rng.below(alphabet.len() as u64) as usize]).collect();
            let pos = rng.below(len as u64) as usize;
            if let Some((v, end)) = short_decimal(&bytes, pos) {
                let expected = by_bytes(&bytes, pos);
                let shown = String::from_utf8_lossy(&bytes[pos..]);
                assert_eq!(Some((v.to_bits(), end)), expected.map(|(e, at)| (e.to_bits(), at)), "{shown:?}");
            }
        }
    }

    #[test]
    fn takes_the_common_fields_and_declines_long_or_short_ones() {
        let at = |s: &str| short_decimal(s.as_bytes(), 0);
        assert_eq!(at("-1.17475,0.5,1"), Some((-1.17475, 8)));
        assert_eq!(at("0.25311\n0.1234"), Some((0.25311, 7)));
        assert_eq!(at("1234567,xxxxxx"), Some((1234567.0, 7)));
        assert_eq!(at("5.,000000000"), Some((5.0, 2)));
        assert_eq!(at(".5,00000000"), Some((0.5, 2)));
        // The end beyond the word, too few bytes, no digit: byte by byte instead.
        assert_eq!(at("123456789,000"), None);
        assert_eq!(at("1.5,"), None);
        assert_eq!(at("-.,00000000"), None);
    }
}
