//! The printed form of a stressmark's results, which the assembly programs
//! write and the tests and `scmp sweep --check` read back.
//!
//! One result per line: a name (`[a-z][a-z0-9_]*`, optionally followed by
//! `:`), then its values separated by spaces. A name printed again appends
//! its values, so a long vector may be printed in pieces (in order). The
//! `[tN cM] ` prefix the emulator adds when several threads run is skipped;
//! lines of any other shape (free text) are ignored.
//!
//! Values: integers in decimal (signed or unsigned: a u32 printed with
//! `print_int` reads back as the same bits) or `0x` hexadecimal; floating
//! point in decimal (`print_double`'s shortest round-trip form; an f32
//! widened to double reads back exactly) or as its bits in hexadecimal,
//! `0x` and 8 digits for an f32, 16 for an f64.
//!
//! `timed_cycles N`, printed by node 0, is the cycles of the timed region
//! (from the barrier after input generation until node 0 holds the
//! results); `scmp sweep` takes it for the run's time when present.

use std::collections::BTreeMap;

/// The name of the timed region's cycles.
pub const TIMED_CYCLES: &str = "timed_cycles";

/// The results a program printed, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Printed {
    values: BTreeMap<String, Vec<String>>,
}

impl Printed {
    /// Reads the results in a program's output.
    pub fn parse(text: &str) -> Printed {
        let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for line in text.lines() {
            let line = skip_thread_prefix(line);
            let mut tokens = line.split_whitespace();
            let Some(name) = tokens.next().map(|n| n.strip_suffix(':').unwrap_or(n)) else {
                continue;
            };
            let rest: Vec<&str> = tokens.collect();
            if !is_name(name) || rest.is_empty() || !rest.iter().all(|t| is_number(t)) {
                continue;
            }
            values
                .entry(name.to_string())
                .or_default()
                .extend(rest.iter().map(|t| t.to_string()));
        }
        Printed { values }
    }

    /// The names printed.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.values.keys().map(String::as_str)
    }

    /// Every result with its values as printed, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    fn tokens(&self, name: &str) -> Result<&[String], String> {
        self.values
            .get(name)
            .map(Vec::as_slice)
            .ok_or_else(|| format!("the program printed no `{name}`"))
    }

    fn one<'a>(&'a self, name: &str) -> Result<&'a str, String> {
        match self.tokens(name)? {
            [one] => Ok(one),
            many => Err(format!(
                "`{name}` is one value; the program printed {}",
                many.len()
            )),
        }
    }

    /// Integers (as u32 bits: `-1` and `4294967295` are the same).
    pub fn u32s(&self, name: &str) -> Result<Vec<u32>, String> {
        self.tokens(name)?
            .iter()
            .map(|t| parse_u32(t).ok_or_else(|| bad(name, t, "a 32-bit integer")))
            .collect()
    }

    /// One integer, as printed (decimal or hexadecimal).
    pub fn int(&self, name: &str) -> Result<i64, String> {
        let t = self.one(name)?;
        parse_i64(t).ok_or_else(|| bad(name, t, "an integer"))
    }

    /// Floats.
    pub fn f32s(&self, name: &str) -> Result<Vec<f32>, String> {
        self.tokens(name)?
            .iter()
            .map(|t| parse_f32(t).ok_or_else(|| bad(name, t, "a float")))
            .collect()
    }

    /// Doubles.
    pub fn f64s(&self, name: &str) -> Result<Vec<f64>, String> {
        self.tokens(name)?
            .iter()
            .map(|t| parse_f64(t).ok_or_else(|| bad(name, t, "a double")))
            .collect()
    }

    /// One double.
    pub fn f64(&self, name: &str) -> Result<f64, String> {
        let t = self.one(name)?;
        parse_f64(t).ok_or_else(|| bad(name, t, "a double"))
    }

    /// Whether `name` was printed.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }
}

fn bad(name: &str, token: &str, what: &str) -> String {
    format!("`{name}`: `{token}` is not {what}")
}

/// The line after the `[tN cM] ` prefix the emulator puts before a
/// thread's output when several threads run, if any.
pub fn skip_thread_prefix(line: &str) -> &str {
    if let Some(rest) = line.strip_prefix("[t")
        && let Some((inside, after)) = rest.split_once("] ")
        && inside
            .chars()
            .all(|c| c.is_ascii_digit() || c == ' ' || c == 'c')
    {
        return after;
    }
    line
}

fn is_name(token: &str) -> bool {
    let mut chars = token.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn is_number(token: &str) -> bool {
    parse_i64(token).is_some() || parse_f64(token).is_some()
}

fn hex_digits(token: &str) -> Option<&str> {
    token
        .strip_prefix("0x")
        .or_else(|| token.strip_prefix("0X"))
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
}

fn parse_i64(token: &str) -> Option<i64> {
    match hex_digits(token) {
        Some(h) => i64::from_str_radix(h, 16).ok(),
        None => token.parse().ok(),
    }
}

fn parse_u32(token: &str) -> Option<u32> {
    let v = parse_i64(token)?;
    (i64::from(i32::MIN)..=i64::from(u32::MAX))
        .contains(&v)
        .then_some(v as u32)
}

fn parse_f32(token: &str) -> Option<f32> {
    match hex_digits(token) {
        Some(h) if h.len() == 8 => u32::from_str_radix(h, 16).ok().map(f32::from_bits),
        Some(_) => None,
        None => token.parse::<f64>().ok().map(|v| v as f32),
    }
}

fn parse_f64(token: &str) -> Option<f64> {
    match hex_digits(token) {
        Some(h) if h.len() == 16 => u64::from_str_radix(h, 16).ok().map(f64::from_bits),
        Some(_) => None,
        None => token.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_by_name_across_threads_and_pieces() {
        let text = "generating\n[t0 c0] rows 1 2 -1\n[t0 c0] rows: 0x10\n\
                    [t3 c1] node 3 done\nerr 1.5e-6\nentropy 0x3f800000 2.5\n\
                    timed_cycles 12345\nx 0x3ff0000000000000 -0.25\n";
        let p = Printed::parse(text);
        assert_eq!(p.u32s("rows").unwrap(), [1, 2, u32::MAX, 16]);
        assert_eq!(p.f64("err").unwrap(), 1.5e-6);
        assert_eq!(p.f32s("entropy").unwrap(), [1.0, 2.5]);
        assert_eq!(p.int(TIMED_CYCLES).unwrap(), 12345);
        assert_eq!(p.f64s("x").unwrap(), [1.0, -0.25]);
        // "node 3 done" has a word among its values: free text.
        assert!(!p.has("node"));
        assert_eq!(
            p.names().collect::<Vec<_>>(),
            ["entropy", "err", "rows", "timed_cycles", "x"]
        );
    }

    #[test]
    fn wrong_shapes_are_errors_that_name_the_result() {
        let p = Printed::parse("k 1 2\nbig 4294967296\nf 0x3ff0000000000000\n");
        assert!(p.int("k").unwrap_err().contains("`k` is one value"));
        assert!(p.u32s("big").unwrap_err().contains("`4294967296`"));
        assert!(p.f32s("f").is_err(), "16 hex digits are not an f32");
        assert!(p.f64s("missing").unwrap_err().contains("no `missing`"));
    }
}
