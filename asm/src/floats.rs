//! Floating-point literals of `.float` and `.double`.
//!
//! Accepted: decimal (`1.5`, `-2e10`, `.5`, `3`), C99 hexadecimal
//! (`0x1.8p3`, an extension over GNU as 2.40), `inf`/`infinity`/`nan` in any
//! case with an optional sign, and GNU's flonum prefixes `0f`, `0d`, `0e`,
//! `0r` before a decimal number. A NaN is encoded as GNU as encodes it: all
//! mantissa bits set (`0x7fffffff`), the sign from the text.
//! Decimal conversion rounds correctly (Rust's `str::parse`); hexadecimal
//! uses the `hexf-parse` crate (exact, rejects inexact literals).

/// The bits of `text` as a single (`double == false`) or double.
pub fn parse(text: &str, double: bool) -> Result<u64, &'static str> {
    let t = text.trim();
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if body.is_empty() {
        return Err("empty number");
    }
    let lower = body.to_ascii_lowercase();
    let sign_bit = if double { 1u64 << 63 } else { 1u64 << 31 };
    let sign = if negative { sign_bit } else { 0 };
    if lower == "nan" {
        let bits = if double {
            0x7fff_ffff_ffff_ffffu64
        } else {
            0x7fff_ffff
        };
        return Ok(bits | sign);
    }
    if lower == "inf" || lower == "infinity" {
        let bits = if double {
            f64::INFINITY.to_bits()
        } else {
            f32::INFINITY.to_bits() as u64
        };
        return Ok(bits | sign);
    }
    if lower.starts_with("0x") {
        let r = if double {
            hexf_parse::parse_hexf64(body, false).map(f64::to_bits)
        } else {
            hexf_parse::parse_hexf32(body, false).map(|f| f.to_bits() as u64)
        };
        return r
            .map(|b| b | sign)
            .map_err(|_| "not an exact hexadecimal floating-point number");
    }
    let digits = match lower.as_bytes() {
        [b'0', b'f' | b'd' | b'e' | b'r', rest @ ..] if !rest.is_empty() => &body[2..],
        _ => body,
    };
    // Only digits, one point, and an exponent: no names, no second sign.
    let valid = digits.bytes().enumerate().all(|(i, b)| {
        b.is_ascii_digit()
            || b == b'.'
            || b == b'e'
            || b == b'E'
            || ((b == b'+' || b == b'-')
                && i > 0
                && matches!(digits.as_bytes()[i - 1], b'e' | b'E'))
    }) && digits.bytes().any(|b| b.is_ascii_digit());
    if !valid {
        return Err("not a number");
    }
    // A finite literal beyond the largest number would become infinity:
    // GNU as refuses it ("cannot create floating-point number").
    const OVERFLOW: &str = "cannot create floating-point number: beyond the largest finite value";
    if double {
        match digits.parse::<f64>() {
            Ok(f) if f.is_infinite() => Err(OVERFLOW),
            Ok(f) => Ok(f.to_bits() | sign),
            Err(_) => Err("not a number"),
        }
    } else {
        match digits.parse::<f32>() {
            Ok(f) if f.is_infinite() => Err(OVERFLOW),
            Ok(f) => Ok(f.to_bits() as u64 | sign),
            Err(_) => Err("not a number"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn matches_gnu_as_encodings() {
        // Values checked against riscv64-unknown-elf-as 2.40.
        assert_eq!(parse("1.5", false), Ok(0x3fc0_0000));
        assert_eq!(parse("-0.0", false), Ok(0x8000_0000));
        assert_eq!(parse("inf", false), Ok(0x7f80_0000));
        assert_eq!(parse("nan", false), Ok(0x7fff_ffff));
        assert_eq!(parse("-nan", false), Ok(0xffff_ffff));
        assert_eq!(parse(".5", false), Ok(0x3f00_0000));
        assert_eq!(parse("3", false), Ok(0x4040_0000));
        assert_eq!(parse("0f1.5", false), Ok(0x3fc0_0000));
        assert_eq!(parse("1e10", true), Ok(0x4202_a05f_2000_0000));
        assert_eq!(parse("-inf", true), Ok(0xfff0_0000_0000_0000));
        assert_eq!(parse("nan", true), Ok(0x7fff_ffff_ffff_ffff));
    }

    #[test]
    fn hexadecimal_and_errors() {
        assert_eq!(parse("0x1.8p3", false), Ok(12.0f32.to_bits() as u64));
        assert_eq!(parse("-0x1p-2", true), Ok((-0.25f64).to_bits()));
        assert!(parse("abc", true).is_err());
        assert!(parse("1.5.5e", true).is_err());
        assert!(parse("", true).is_err());
    }
}
