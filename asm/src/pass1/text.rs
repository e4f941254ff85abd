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
/// optimal string alignment: the restricted Damerau-Levenshtein distance,
/// which needs no allocation). Candidates whose length alone puts them too
/// far are passed over before the distance is computed (it is at least the
/// difference in length): a program full of unknown names against many
/// labels stays fast.
pub(crate) fn nearest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let len = name.chars().count();
    let most = 2.max(name.len() / 3);
    candidates
        .filter(|c| len.abs_diff(c.chars().count()) <= most)
        .map(|c| (strsim::osa_distance(name, c), c))
        .filter(|(d, c)| *d <= most && *d < c.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
