//! RISC-V ISA strings (`-march=`, `.attribute arch`) read and written back
//! as GNU as 2.40 does for `Tag_RISCV_arch`: every extension with its
//! version (the ISA specification's default where none is given), the
//! extensions each one implies added (`m` brings `zmmul`, `d` brings `f`,
//! `f` brings `zicsr`, `v` its `zve*`/`zvl*` chain, ...), and all of them
//! in canonical order (`rv32i2p1_m2p0_..._zicsr2p0_zmmul1p0`).
//!
//! What GNU as 2.40 accepts and how it writes each string was read off its
//! output, extension by extension (tests/gnu_arch.rs compares every case
//! with the installed GNU as). Only the 20191213 and 20190608 versions of
//! the specification are known here (`-misa-spec=`; gcc passes 20191213,
//! GNU's default); 2.2 is refused with an error rather than written with
//! the wrong versions. The string names what the object declares; the
//! assembler still takes every RV32G instruction whatever it says.

/// The ISA specification whose default versions apply (`-misa-spec=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum IsaSpec {
    /// `20190608`: `a` is 2.0.
    V20190608,
    /// `20191213` (GNU as 2.40's default, and what gcc passes).
    #[default]
    V20191213,
}

impl IsaSpec {
    /// The value of `-misa-spec=`.
    pub fn parse(text: &str) -> Result<IsaSpec, String> {
        match text {
            "20191213" => Ok(IsaSpec::V20191213),
            "20190608" => Ok(IsaSpec::V20190608),
            "2.2" => Err(
                "-misa-spec=2.2 is not supported (its versions are not known here); use 20191213, GNU's and gcc's default, or 20190608".into(),
            ),
            other => Err(format!(
                "-misa-spec={other}: unknown ISA specification (20191213 or 20190608)"
            )),
        }
    }
}

/// A version `major.minor`.
type Version = (u32, u32);

/// The single-letter extensions after the base, in canonical order.
const STANDARD_ORDER: &str = "mafdqlcbkjtpvnh";

/// Default versions of the extensions GNU as 2.40 knows by name, the same
/// in both specifications but for `a` (see [`default_version`]).
const KNOWN: &[(&str, Version)] = &[
    ("e", (1, 9)),
    ("i", (2, 1)),
    ("m", (2, 0)),
    ("a", (2, 1)),
    ("f", (2, 2)),
    ("d", (2, 2)),
    ("q", (2, 2)),
    ("c", (2, 0)),
    ("v", (1, 0)),
    ("h", (1, 0)),
    ("zicbom", (1, 0)),
    ("zicbop", (1, 0)),
    ("zicboz", (1, 0)),
    ("zicsr", (2, 0)),
    ("zifencei", (2, 0)),
    ("zihintpause", (2, 0)),
    ("zmmul", (1, 0)),
    ("zawrs", (1, 0)),
    ("zfh", (1, 0)),
    ("zfhmin", (1, 0)),
    ("zfinx", (1, 0)),
    ("zdinx", (1, 0)),
    ("zhinx", (1, 0)),
    ("zhinxmin", (1, 0)),
    ("zba", (1, 0)),
    ("zbb", (1, 0)),
    ("zbc", (1, 0)),
    ("zbs", (1, 0)),
    ("zbkb", (1, 0)),
    ("zbkc", (1, 0)),
    ("zbkx", (1, 0)),
    ("zk", (1, 0)),
    ("zkn", (1, 0)),
    ("zknd", (1, 0)),
    ("zkne", (1, 0)),
    ("zknh", (1, 0)),
    ("zkr", (1, 0)),
    ("zks", (1, 0)),
    ("zksed", (1, 0)),
    ("zksh", (1, 0)),
    ("zkt", (1, 0)),
    ("ztso", (0, 1)),
    ("zve32x", (1, 0)),
    ("zve32f", (1, 0)),
    ("zve64x", (1, 0)),
    ("zve64f", (1, 0)),
    ("zve64d", (1, 0)),
    ("zvl32b", (1, 0)),
    ("zvl64b", (1, 0)),
    ("zvl128b", (1, 0)),
    ("zvl256b", (1, 0)),
    ("zvl512b", (1, 0)),
    ("zvl1024b", (1, 0)),
    ("zvl2048b", (1, 0)),
    ("zvl4096b", (1, 0)),
    ("zvl8192b", (1, 0)),
    ("zvl16384b", (1, 0)),
    ("zvl32768b", (1, 0)),
    ("zvl65536b", (1, 0)),
    ("smaia", (1, 0)),
    ("smepmp", (1, 0)),
    ("smstateen", (1, 0)),
    ("ssaia", (1, 0)),
    ("sscofpmf", (1, 0)),
    ("ssstateen", (1, 0)),
    ("sstc", (1, 0)),
    ("svinval", (1, 0)),
    ("svnapot", (1, 0)),
    ("svpbmt", (1, 0)),
    ("xtheadba", (1, 0)),
    ("xtheadbb", (1, 0)),
    ("xtheadbs", (1, 0)),
    ("xtheadcmo", (1, 0)),
    ("xtheadcondmov", (1, 0)),
    ("xtheadfmemidx", (1, 0)),
    ("xtheadfmv", (1, 0)),
    ("xtheadint", (1, 0)),
    ("xtheadmac", (1, 0)),
    ("xtheadmemidx", (1, 0)),
    ("xtheadmempair", (1, 0)),
    ("xtheadsync", (1, 0)),
];

/// What each extension brings with it (applied until nothing is added).
/// `i` brings `zicsr` and `zifencei` only below version 2.1, which still
/// held them (see [`implied`]).
const IMPLIES: &[(&str, &[&str])] = &[
    ("g", &["i", "m", "a", "f", "d", "zicsr", "zifencei"]),
    ("e", &["i"]),
    ("m", &["zmmul"]),
    ("q", &["d"]),
    ("d", &["f"]),
    ("f", &["zicsr"]),
    ("h", &["zicsr"]),
    ("v", &["zve64d", "zvl128b"]),
    ("zve64d", &["d", "zve64f"]),
    ("zve64f", &["zve32f", "zve64x", "zvl64b"]),
    ("zve32f", &["f", "zve32x", "zvl32b"]),
    ("zve64x", &["zve32x", "zvl64b"]),
    ("zve32x", &["zvl32b"]),
    ("zvl65536b", &["zvl32768b"]),
    ("zvl32768b", &["zvl16384b"]),
    ("zvl16384b", &["zvl8192b"]),
    ("zvl8192b", &["zvl4096b"]),
    ("zvl4096b", &["zvl2048b"]),
    ("zvl2048b", &["zvl1024b"]),
    ("zvl1024b", &["zvl512b"]),
    ("zvl512b", &["zvl256b"]),
    ("zvl256b", &["zvl128b"]),
    ("zvl128b", &["zvl64b"]),
    ("zvl64b", &["zvl32b"]),
    ("zfh", &["zfhmin"]),
    ("zfhmin", &["f"]),
    ("zfinx", &["zicsr"]),
    ("zdinx", &["zfinx"]),
    ("zhinx", &["zhinxmin"]),
    ("zhinxmin", &["zfinx"]),
    ("zk", &["zkn", "zkr", "zkt"]),
    ("zkn", &["zbkb", "zbkc", "zbkx", "zkne", "zknd", "zknh"]),
    ("zks", &["zbkb", "zbkc", "zbkx", "zksed", "zksh"]),
    ("smaia", &["ssaia"]),
    ("smstateen", &["ssstateen"]),
    ("smepmp", &["zicsr"]),
    ("ssaia", &["zicsr"]),
    ("sscofpmf", &["zicsr"]),
    ("ssstateen", &["zicsr"]),
    ("sstc", &["zicsr"]),
];

/// The extension's default version under `spec`, if it has one.
fn default_version(name: &str, spec: IsaSpec) -> Option<Version> {
    if name == "a" && spec == IsaSpec::V20190608 {
        return Some((2, 0));
    }
    KNOWN.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// What `name` at `version` brings with it.
fn implied(name: &str, version: Version) -> &'static [&'static str] {
    if name == "i" {
        return if version < (2, 1) {
            &["zicsr", "zifencei"]
        } else {
            &[]
        };
    }
    IMPLIES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |(_, list)| list)
}

/// A version as GNU as reads one: digits, with `p` before the minor
/// number; `0p0` (or nothing) means "the default". Returns the version and
/// how many bytes it took. A second `p` starts over (GNU's reading of
/// `2p1p0` is 1.0, kept so the same string means the same thing).
fn read_version(s: &[u8]) -> (Option<Version>, usize) {
    let (mut major, mut num, mut seen_p) = (0u32, 0u32, false);
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c.is_ascii_digit() {
            num = num.wrapping_mul(10).wrapping_add(u32::from(c - b'0'));
        } else if c == b'p' && s.get(i + 1).is_some_and(u8::is_ascii_digit) {
            major = num;
            num = 0;
            seen_p = true;
        } else {
            break;
        }
        i += 1;
    }
    let v = if seen_p { (major, num) } else { (num, 0) };
    ((v != (0, 0)).then_some(v), i)
}

/// The prefixed extension `token` (`zba`, `zve32x1p0`, `xfoo2`): its name
/// and version, read from the end as GNU as does.
fn split_prefixed(token: &str) -> Result<(&str, Option<Version>), String> {
    let b = token.as_bytes();
    let mut end = b.len();
    if end > 0 && b[end - 1] == b'p' && end > 1 && b[end - 2].is_ascii_digit() {
        return Err(format!(
            "invalid prefixed ISA extension `{token}` ends with <number>p"
        ));
    }
    while end > 0 && b[end - 1].is_ascii_digit() {
        end -= 1;
    }
    if end < b.len() && end > 1 && b[end - 1] == b'p' && b[end - 2].is_ascii_digit() {
        end -= 1;
        while end > 0 && b[end - 1].is_ascii_digit() {
            end -= 1;
        }
    }
    let (name, version) = token.split_at(end);
    Ok((name, read_version(version.as_bytes()).0))
}

/// Where an extension goes in the canonical string: base, single letters
/// in [`STANDARD_ORDER`], then `z*` by their second letter's place (`i`
/// first) and name, `s*` by name, `x*` by name.
fn rank(name: &str) -> (u8, usize, &str) {
    let letter_place = |c: char| {
        if c == 'i' {
            0
        } else {
            STANDARD_ORDER
                .find(c)
                .map_or(STANDARD_ORDER.len() + 1, |p| p + 1)
        }
    };
    let mut chars = name.chars();
    match chars.next() {
        Some('e' | 'i') if name.len() == 1 => (0, 0, name),
        Some('z') => (2, chars.next().map_or(0, letter_place), name),
        Some('s') if name.len() > 1 => (3, 0, name),
        Some('x') if name.len() > 1 => (4, 0, name),
        Some(c) => (1, letter_place(c), name),
        None => (5, 0, name),
    }
}

/// `text` (`rv32imafd`, `rv32i2p1_m2p0_zicsr2p0`, ...) as GNU as 2.40
/// writes it in `Tag_RISCV_arch`, or GNU's reason for refusing it.
pub fn canonical(text: &str, spec: IsaSpec) -> Result<String, String> {
    if text.is_empty() {
        return Err("the architecture string cannot be empty".into());
    }
    if text.bytes().any(|c| c.is_ascii_uppercase()) {
        return Err(format!(
            "{text}: ISA string cannot contain uppercase letters"
        ));
    }
    let Some(rest) = text
        .strip_prefix("rv32")
        .or_else(|| text.strip_prefix("rv64"))
    else {
        return Err(format!("{text}: ISA string must begin with rv32 or rv64"));
    };
    let xlen = &text[..4];
    let exts = explicit_extensions(text, rest, spec)?;
    if xlen == "rv64" && exts.iter().any(|(n, _)| n == "e") {
        return Err("rv64 does not support the `e' extension".into());
    }
    let full = with_implied(&exts, spec);
    check_combination(xlen, &full)?;
    Ok(in_canonical_order(xlen, full))
}

/// The extensions `text` names after `rv32`/`rv64` (`rest`), in the order
/// given (the first mention wins), with the versions written, or GNU's
/// reason for refusing one.
fn explicit_extensions(
    text: &str,
    rest: &str,
    spec: IsaSpec,
) -> Result<Vec<(String, Option<Version>)>, String> {
    // Explicit extensions in the order given; the first mention wins.
    let mut exts: Vec<(String, Option<Version>)> = Vec::new();
    let add = |exts: &mut Vec<(String, Option<Version>)>, name: &str, v: Option<Version>| {
        if !exts.iter().any(|(n, _)| n == name) {
            exts.push((name.to_string(), v));
        }
    };
    let b = rest.as_bytes();
    match b.first() {
        Some(b'e' | b'i' | b'g') => {}
        _ => {
            return Err(format!(
                "{text}: first ISA extension must be `e', `i' or `g'"
            ));
        }
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'_' {
            i += 1;
            continue;
        }
        if matches!(c, b'z' | b's' | b'x') {
            let end = rest[i..].find('_').map_or(rest.len(), |e| i + e);
            let token = &rest[i..end];
            let (name, version) = split_prefixed(token).map_err(|e| format!("{text}: {e}"))?;
            let known = KNOWN.iter().any(|(n, _)| *n == name);
            if c == b'x' && !known {
                if version.is_none() {
                    return Err(format!(
                        "x ISA extension `{name}' must be set with the versions"
                    ));
                }
            } else if !known {
                return Err(format!("{text}: unknown prefixed ISA extension `{name}'"));
            }
            add(&mut exts, name, version);
            i = end;
            continue;
        }
        let name = &rest[i..i + 1];
        if !(c.is_ascii_lowercase()
            && (STANDARD_ORDER.contains(name) || matches!(c, b'e' | b'i' | b'g')))
        {
            return Err(format!(
                "{text}: unknown standard ISA extension or prefix class `{}'",
                c as char
            ));
        }
        let (version, took) = read_version(&b[i + 1..]);
        if version.is_none() && name != "g" && default_version(name, spec).is_none() {
            return Err(format!(
                "cannot find default versions of the ISA extension `{name}'"
            ));
        }
        add(&mut exts, name, version);
        i += 1 + took;
    }
    Ok(exts)
}

/// Every extension with its version (the default where none was written),
/// then what each implies, until nothing is added; `g` only implies.
fn with_implied(exts: &[(String, Option<Version>)], spec: IsaSpec) -> Vec<(String, Version)> {
    let mut full: Vec<(String, Version)> = Vec::new();
    for (name, v) in exts {
        if let Some(v) = v.or_else(|| default_version(name, spec)) {
            full.push((name.clone(), v));
        } else if name == "g" {
            full.push((name.clone(), (0, 0)));
        }
    }
    let mut at = 0;
    while at < full.len() {
        let (name, version) = full[at].clone();
        for &more in implied(&name, version) {
            if !full.iter().any(|(n, _)| n == more)
                && let Some(v) = default_version(more, spec)
            {
                full.push((more.to_string(), v));
            }
        }
        at += 1;
    }
    full.retain(|(n, _)| n != "g");
    full
}

/// GNU's reason for refusing a combination of extensions, if any.
fn check_combination(xlen: &str, full: &[(String, Version)]) -> Result<(), String> {
    // Q below 2.2 was defined for RV64 only.
    if xlen == "rv32" && full.iter().any(|(n, v)| n == "q" && *v < (2, 2)) {
        return Err("rv32 does not support the `q' extension".into());
    }
    let has = |n: &str| full.iter().any(|(m, _)| m == n);
    if has("zfinx") && ["f", "d", "q", "zfh", "zfhmin"].iter().any(|n| has(n)) {
        return Err("`zfinx' is conflict with the `f/d/q/zfh/zfhmin' extension".into());
    }
    if full.iter().any(|(n, _)| n.starts_with("zvl"))
        && !full.iter().any(|(n, _)| n == "v" || n.starts_with("zve"))
    {
        return Err("zvl*b extensions need to enable either `v' or `zve' extension".into());
    }
    Ok(())
}

/// The string GNU writes: `e` drops `i`, then base, single letters and
/// prefixed extensions in [`rank`]'s order, `_` between.
fn in_canonical_order(xlen: &str, mut full: Vec<(String, Version)>) -> String {
    if full.iter().any(|(n, _)| n == "e") {
        full.retain(|(n, _)| n != "i");
    }
    full.sort_by(|(a, _), (b, _)| rank(a).cmp(&rank(b)));
    let mut out = String::from(xlen);
    for (k, (name, (major, minor))) in full.iter().enumerate() {
        if k > 0 {
            out.push('_');
        }
        out.push_str(&format!("{name}{major}p{minor}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> String {
        canonical(s, IsaSpec::V20191213).unwrap_or_else(|e| format!("ERROR {e}"))
    }

    #[test]
    fn gcc_strings_gain_what_they_imply() {
        assert_eq!(
            c("rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0"),
            "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0_zmmul1p0"
        );
        assert_eq!(c("rv32g"), crate::object::RV32G_ARCH);
        assert_eq!(c("rv32e"), "rv32e1p9");
        assert_eq!(c("rv32i2p0"), "rv32i2p0_zicsr2p0_zifencei2p0");
        assert_eq!(
            canonical("rv32ima", IsaSpec::V20190608).unwrap(),
            "rv32i2p1_m2p0_a2p0_zmmul1p0"
        );
    }

    #[test]
    fn order_is_canonical_whatever_the_order_written() {
        assert_eq!(
            c("rv32i_zbb_zba_xfoo1p0_svinval_zicsr_m"),
            "rv32i2p1_m2p0_zicsr2p0_zmmul1p0_zba1p0_zbb1p0_svinval1p0_xfoo1p0"
        );
        assert_eq!(c("rv32i_zba2p0_zba1p0"), "rv32i2p1_zba2p0");
        assert_eq!(c("rv32i2p1p0"), "rv32i1p0_zicsr2p0_zifencei2p0");
    }

    #[test]
    fn errors_say_gnus_reason() {
        assert!(c("RV32I").contains("uppercase"));
        assert!(c("rv32mi").contains("first ISA extension"));
        assert!(c("rv32ib").contains("default versions"));
        assert!(c("rv32iu").contains("unknown standard"));
        assert!(c("rv32i_zfoo").contains("unknown prefixed"));
        assert!(c("rv32i_xfoo").contains("must be set with the versions"));
        assert!(c("rv32if_zfinx").contains("conflict"));
        assert!(c("rv32i_zvl64b").contains("zvl*b"));
        assert!(c("rv64e").contains("rv64"));
        assert!(c("rv32iq2p0").contains("`q'"));
        assert!(c("rv32i_zba1p").contains("<number>p"));
        assert!(IsaSpec::parse("2.2").is_err());
    }
}
