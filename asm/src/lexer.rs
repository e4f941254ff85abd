//! The lexer: source text to tokens (logos).
//!
//! Infallible: text that is no token becomes [`Kind::Error`], so the parser
//! can report it and the assembler goes on with the next statement. Tokens
//! carry only their kind and byte range; their text is sliced from the source
//! when needed, which keeps a token at 12 bytes.

use logos::Logos;

/// Token kinds.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\r\x0c\x0b]+")]
#[logos(skip(r"#[^\n]*", allow_greedy = true))]
pub enum Kind {
    /// End of a line (ends a statement).
    #[token("\n")]
    Newline,
    /// `;` (ends a statement).
    #[token(";")]
    Semi,
    /// Identifier: symbol, mnemonic, directive, register.
    #[regex(r"[A-Za-z_.$][A-Za-z0-9_.$]*")]
    Ident,
    /// Integer literal: decimal, `0x` hex, `0b` binary, `0` octal.
    #[regex(r"[0-9]+|0[xX][0-9a-fA-F]+|0[bB][01]+")]
    Int,
    /// Local label reference `1b` / `1f`.
    #[regex(r"[0-9]+[bf]")]
    LocalRef,
    /// String literal with C escapes.
    #[regex(r#""([^"\\\n]|\\[^\n])*""#)]
    Str,
    /// Character literal `'a'` or GNU's `'a`.
    #[regex(r"'([^\\\n']|\\[^\n])'?")]
    Char,
    /// `/* ... */`, skipped; may span lines.
    #[token("/*", block_comment)]
    BlockComment,
    /// `,`
    #[token(",")]
    Comma,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `:`
    #[token(":")]
    Colon,
    /// `=`
    #[token("=")]
    Assign,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `<<`
    #[token("<<")]
    Shl,
    /// `>>`
    #[token(">>")]
    Shr,
    /// `&`
    #[token("&")]
    Amp,
    /// `|`
    #[token("|")]
    Pipe,
    /// `^`
    #[token("^")]
    Caret,
    /// `~`
    #[token("~")]
    Tilde,
    /// `!`: logical not before an operand, "or not" between two (GNU as).
    #[token("!")]
    Bang,
    /// `!!`: GNU as's exclusive or between two operands (two logical nots before one).
    #[token("!!")]
    BangBang,
    /// `<`
    #[token("<")]
    Lt,
    /// `>`
    #[token(">")]
    Gt,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `==`
    #[token("==")]
    EqEq,
    /// `!=` or `<>`
    #[token("!=")]
    #[token("<>")]
    Ne,
    /// `&&`
    #[token("&&")]
    AndAnd,
    /// `||`
    #[token("||")]
    OrOr,
    /// `@` (as in `@function`)
    #[token("@")]
    At,
    /// `\` outside a macro body.
    #[token("\\")]
    Backslash,
    /// Text that is no token.
    Error,
}

fn block_comment(lex: &mut logos::Lexer<Kind>) -> logos::Skip {
    let rest = lex.remainder();
    let len = rest.find("*/").map_or(rest.len(), |i| i + 2);
    lex.bump(len);
    logos::Skip
}

/// A token: kind and byte range in its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Kind.
    pub kind: Kind,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

/// Lexes a whole text. A final newline token is always present, so every
/// statement ends with one.
pub fn lex(text: &str) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(text.len() / 4 + 1);
    let mut lexer = Kind::lexer(text);
    while let Some(result) = lexer.next() {
        let span = lexer.span();
        let kind = result.unwrap_or(Kind::Error);
        // Merge runs of error bytes into one token.
        if kind == Kind::Error
            && let Some(last) = tokens.last_mut()
            && matches!(last, Token { kind: Kind::Error, end, .. } if *end as usize == span.start)
        {
            last.end = span.end as u32;
            continue;
        }
        tokens.push(Token {
            kind,
            start: span.start as u32,
            end: span.end as u32,
        });
    }
    if tokens.last().is_none_or(|t| t.kind != Kind::Newline) {
        tokens.push(Token {
            kind: Kind::Newline,
            start: text.len() as u32,
            end: text.len() as u32,
        });
    }
    tokens
}

/// Decodes the body of a string literal (between the quotes) with GNU as
/// escapes: `\n \t \r \b \f \v \\ \" \'`, octal `\ooo`, hex `\xhh...`.
pub fn unescape(body: &str) -> Vec<u8> {
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b != b'\\' || i + 1 >= bytes.len() {
            out.push(b);
            i += 1;
            continue;
        }
        i += 1;
        let e = bytes[i];
        i += 1;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + (bytes[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'x' | b'X' => {
                let mut v = 0u32;
                while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (bytes[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    out
}

/// Value of an integer literal token's text (`None` when it overflows 64 bits
/// or is a malformed octal number).
pub fn parse_int(text: &str) -> Option<u64> {
    let t = text;
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if t.len() > 1 && t.starts_with('0') {
        u64::from_str_radix(&t[1..], 8).ok()
    } else {
        t.parse().ok()
    }
}

/// Value of a character literal token's text (`'a'`, `'a`, `'\n'`).
pub fn parse_char(text: &str) -> u8 {
    let body = text.trim_start_matches('\'');
    let body = body.strip_suffix('\'').unwrap_or(body);
    unescape(body).first().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Kind> {
        lex(text).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn local_refs_binary_and_hex() {
        use Kind::*;
        assert_eq!(
            kinds("1b 0b101 0x1f 2f"),
            vec![LocalRef, Int, Int, LocalRef, Newline]
        );
    }

    #[test]
    fn comments_and_block_comments() {
        use Kind::*;
        assert_eq!(
            kinds("a # x\n/* y\n z */ b"),
            vec![Ident, Newline, Ident, Newline]
        );
    }

    #[test]
    fn strings_with_escapes() {
        assert_eq!(unescape(r#"a\n\x41\101\"\\"#), b"a\nAA\"\\");
        assert_eq!(parse_char("'a"), b'a');
        assert_eq!(parse_char(r"'\n'"), b'\n');
    }

    #[test]
    fn octal_and_overflow() {
        assert_eq!(parse_int("010"), Some(8));
        assert_eq!(parse_int("09"), None);
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("99999999999999999999999"), None);
    }

    #[test]
    fn error_bytes_merge() {
        assert_eq!(
            kinds("a ?? b"),
            vec![Kind::Ident, Kind::Error, Kind::Ident, Kind::Newline]
        );
    }
}
