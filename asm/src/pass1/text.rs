//! Text helpers of the first pass: splitting argument lists at top-level
//! separators, and the nearest known name for "did you mean" help.

pub(crate) fn split_top_level(text: &str, sep: char) -> Vec<(usize, usize)> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if in_str {
            if c == '\\' {
                i += 1;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth -= 1;
        } else if c == sep && depth <= 0 {
            parts.push((start, i));
            start = i + 1;
        }
        i += 1;
    }
    parts.push((start, text.len()));
    parts
}

pub(crate) fn trim_range(text: &str, (s, e): (usize, usize)) -> (usize, usize) {
    let piece = &text[s..e];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    (s + lead, (e - trail).max(s + lead))
}

/// Splits macro-style arguments: by top-level commas, or by white space when
/// there is no comma. Returns trimmed byte ranges.
pub(crate) fn split_args(text: &str) -> Vec<(usize, usize)> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    let by_comma = split_top_level(text, ',');
    if by_comma.len() > 1 {
        return by_comma.into_iter().map(|r| trim_range(text, r)).collect();
    }
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if in_str {
            if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                start.get_or_insert(i);
            }
            '(' => {
                depth += 1;
                start.get_or_insert(i);
            }
            ')' => depth -= 1,
            c if c.is_whitespace() && depth <= 0 => {
                if let Some(s) = start.take() {
                    parts.push((s, i));
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        parts.push((s, text.len()));
    }
    parts
}

/// Macro arguments in GNU's alternate macro mode (`.altmacro`): as
/// [`split_args`], with `<...>` (where `!` escapes the next character) one
/// argument whatever it holds.
pub(crate) fn split_alt_args(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    // Byte ranges of `<...>` groups, then the usual splitting with them
    // masked as one word.
    let mut masked = text.as_bytes().to_vec();
    let mut i = 0;
    let mut in_str = false;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => in_str = !in_str,
            b'<' if !in_str => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != b'>' {
                    j += if bytes[j] == b'!' { 2 } else { 1 };
                }
                for m in masked.iter_mut().take(j.min(bytes.len())).skip(i + 1) {
                    *m = b'x';
                }
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    let masked = String::from_utf8(masked).unwrap_or_else(|_| text.to_string());
    split_args(&masked)
}

/// An alternate-mode argument `<...>`: its contents, `!c` read as `c`.
pub(crate) fn unangle_arg(arg: &str) -> Option<String> {
    let inner = arg.strip_prefix('<')?.strip_suffix('>')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '!' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    Some(out)
}

/// A macro argument (or default) as GNU as passes it: one whole quoted
/// string loses its quotes (`"a b"` is `a b`; a doubled `""` inside is one
/// `"`, backslashes stay), anything else is passed as written.
pub(crate) fn unquote_arg(arg: &str) -> String {
    let Some(inner) = arg.strip_prefix('"') else {
        return arg.to_string();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    let mut escaped = false;
    while let Some((i, c)) = chars.next() {
        if c == '"' && !escaped {
            if chars.peek().is_some_and(|&(_, n)| n == '"') {
                chars.next();
                out.push('"');
                continue;
            }
            // The closing quote: the argument is the string only if it
            // ends here.
            return if i + 1 == inner.len() {
                out
            } else {
                arg.to_string()
            };
        }
        escaped = c == '\\' && !escaped;
        out.push(c);
    }
    arg.to_string()
}

pub(crate) fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

/// The nearest name to `name` among `candidates`, if close enough, by the
/// edit distance with transpositions of adjacent characters (strsim's
/// optimal string alignment: the restricted Damerau-Levenshtein distance).
/// Candidates that two cheap lower bounds of that distance already put too
/// far are passed over before it is computed: the difference in length,
/// and for ASCII names the bag distance (characters one has and the other
/// lacks, counted with repeats; an insertion, deletion or substitution
/// changes it by at most one, a transposition not at all). A program full
/// of unknown names against hundreds of mnemonics or labels stays fast.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = name.chars().count();
    let most = 2.max(name.len() / 3);
    let mut counts = [0i16; 128];
    let ascii = name.is_ascii();
    if ascii {
        for b in name.bytes() {
            counts[b as usize] += 1;
        }
    }
    let bag_close = |c: &str| {
        if !ascii || !c.is_ascii() {
            return true;
        }
        let mut left = counts;
        // `name`'s characters not matched in `c`, and `c`'s not in `name`.
        let (mut only_name, mut only_c) = (name.len(), 0usize);
        for b in c.bytes() {
            let n = &mut left[b as usize];
            if *n > 0 {
                only_name -= 1;
            } else {
                only_c += 1;
            }
            *n -= 1;
        }
        only_name.max(only_c) <= most
    };
    candidates
        .filter(|c| len.abs_diff(c.chars().count()) <= most && bag_close(c))
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|(d, c)| *d <= most && *d < c.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::nearest;
    use proptest::prelude::*;

    /// `nearest` without the cheap bounds: every candidate's distance.
    fn nearest_by_distance<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let most = 2.max(name.len() / 3);
        candidates
            .iter()
            .map(|c| (strsim::osa_distance(name, c), *c))
            .filter(|(d, c)| *d <= most && *d < c.len())
            .min_by_key(|(d, _)| *d)
            .map(|(_, c)| c)
    }

    #[test]
    fn suggests_the_near_mnemonic() {
        let all: Vec<&str> = isa_spec::all_mnemonics().collect();
        let near = nearest("sendd", all.iter().copied()).expect("a suggestion");
        assert_eq!(strsim::osa_distance("sendd", near), 1, "{near}");
        assert_eq!(nearest("xq7zz", all.iter().copied()), None);
    }

    proptest! {
        /// The bounds only pass over candidates the distance would reject:
        /// the suggestion is the one every distance gives.
        #[test]
        fn bounds_change_no_suggestion(name in "[a-z0-9._]{1,9}|.{1,6}") {
            let all: Vec<&str> = isa_spec::all_mnemonics().collect();
            prop_assert_eq!(
                nearest(&name, all.iter().copied()),
                nearest_by_distance(&name, &all)
            );
        }
    }
}
