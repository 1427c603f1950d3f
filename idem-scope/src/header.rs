//! Parsing the `Idempotency-Key` request header (RFC 9651 Item, sf-string).

use std::borrow::Cow;
use std::convert::Infallible;
use std::fmt;

use sfv::visitor::{
    parameter_visitor_with, EntryVisitor, Ignored, InnerListVisitor, ItemVisitor, ListVisitor,
};
use sfv::{BareItemFromInput, Parser};

/// The header name, lower-case as HTTP/2 and `http::HeaderName` spell it.
pub const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";

/// Default bound on the key's length in bytes; equal to [`crate::MAX_KEY_LEN`]
/// so every accepted key also fits [`crate::scoped`].
pub const DEFAULT_MAX_KEY_LEN: usize = 255;

/// Why an `Idempotency-Key` value was refused. The `Display` text is meant for
/// the client (it is what [`crate::Problem::invalid_key`] receives) and never
/// repeats the raw value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeaderError {
    /// No `Idempotency-Key` field line at all (answer with
    /// [`crate::Problem::missing_key`]).
    Missing,
    /// The field is present but empty, or is the empty string `""`.
    Empty,
    /// A byte outside printable ASCII (`0x20..=0x7E`; in lenient raw values
    /// also a space). Surrounding spaces are trimmed, tabs are not.
    InvalidChar {
        /// The offending byte.
        byte: u8,
        /// Its offset in the value after trimming surrounding spaces.
        index: usize,
    },
    /// A well-formed structured field, but not a String item.
    NotAString {
        /// What was found instead, e.g. `"a token"`, `"an inner list"`.
        found: &'static str,
    },
    /// Not a well-formed RFC 9651 Item; the text says where and why.
    Syntax(String),
    /// The key is longer than `max` bytes.
    TooLong {
        /// The bound in force.
        max: usize,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::Missing => f.write_str("the Idempotency-Key header is missing"),
            HeaderError::Empty => f.write_str("the Idempotency-Key is empty"),
            HeaderError::InvalidChar { byte, index } => write!(
                f,
                "the Idempotency-Key has byte 0x{byte:02x} at offset {index}; only printable ASCII is allowed \
                 (surrounding spaces are trimmed, tabs are not)"
            ),
            HeaderError::NotAString { found } => write!(
                f,
                "the Idempotency-Key must be a quoted sf-string such as \"8e03978e-40d5\", found {found}"
            ),
            HeaderError::Syntax(why) => {
                write!(f, "the Idempotency-Key is not a valid structured field item: {why}")
            }
            HeaderError::TooLong { max } => write!(f, "the Idempotency-Key is longer than {max} bytes"),
        }
    }
}

impl std::error::Error for HeaderError {}

/// A parsed `Idempotency-Key`: non-empty printable ASCII, within its bound.
///
/// It is the client's declaration of intent, not a storage key: build the
/// storage key with [`crate::scoped`].
///
/// ```
/// use idem_scope::{HeaderError, IdempotencyKey};
///
/// let k = IdempotencyKey::parse(br#""8e03978e-40d5-43e8-bc93-6894a57f9324";v=1"#)?;
/// assert_eq!(k.as_str(), "8e03978e-40d5-43e8-bc93-6894a57f9324");
///
/// // A bare token is not a String item: strict parsing says so...
/// assert_eq!(
///     IdempotencyKey::parse(b"abc"),
///     Err(HeaderError::NotAString { found: "a token" }),
/// );
/// // ...lenient parsing accepts it as the same key as "abc".
/// assert_eq!(IdempotencyKey::parse_lenient(b"abc")?, IdempotencyKey::parse(br#""abc""#)?);
///
/// // Two field lines are combined with ", " and cannot form one Item.
/// assert!(IdempotencyKey::parse_lines([&b"\"a\""[..], &b"\"b\""[..]]).is_err());
/// # Ok::<(), HeaderError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IdempotencyKey {
    key: String,
}

fn trim_sp(v: &[u8]) -> &[u8] {
    let start = v.iter().position(|&b| b != b' ').unwrap_or(v.len());
    let end = v.iter().rposition(|&b| b != b' ').map_or(start, |i| i + 1);
    &v[start..end]
}

fn check_printable(v: &[u8], allow_space: bool) -> Result<(), HeaderError> {
    match v
        .iter()
        .position(|&b| !(b == b' ' && allow_space || (0x21..=0x7e).contains(&b)))
    {
        Some(index) => Err(HeaderError::InvalidChar {
            byte: v[index],
            index,
        }),
        None => Ok(()),
    }
}

fn describe(item: &BareItemFromInput<'_>) -> &'static str {
    match item {
        BareItemFromInput::String(_) => "a string",
        BareItemFromInput::Token(_) => "a token",
        BareItemFromInput::Integer(_) => "an integer",
        BareItemFromInput::Decimal(_) => "a decimal",
        BareItemFromInput::Boolean(_) => "a boolean",
        BareItemFromInput::ByteSequence(_) => "a byte sequence",
        BareItemFromInput::Date(_) => "a date",
        BareItemFromInput::DisplayString(_) => "a display string",
    }
}

/// Keeps the string (or what was found instead) and ignores the parameters,
/// which the draft allows but gives no meaning.
fn string_item(
    item: BareItemFromInput<'_>,
) -> Result<impl sfv::visitor::ParameterVisitor<'_, Out = Result<String, &'static str>>, Infallible>
{
    let out = match item {
        BareItemFromInput::String(s) => Ok(match s {
            Cow::Borrowed(s) => s.as_str().to_owned(),
            Cow::Owned(s) => s.into(),
        }),
        other => Err(describe(&other)),
    };
    Ok(parameter_visitor_with(Ignored, move |()| Ok(out)))
}

/// Counts the members of a List and notes whether the first is an inner list,
/// to explain why a value that is not an Item was refused.
#[derive(Default)]
struct ListShape {
    members: usize,
    first_is_inner_list: bool,
}

struct MemberShape<'a>(&'a mut ListShape);

impl<'de> ListVisitor<'de> for ListShape {
    type Out = ListShape;
    type Error = Infallible;

    fn entry(&mut self) -> Result<impl EntryVisitor<'de>, Self::Error> {
        self.members += 1;
        Ok(MemberShape(self))
    }

    fn finish(self) -> Result<Self::Out, Self::Error> {
        Ok(self)
    }
}

impl<'de> EntryVisitor<'de> for MemberShape<'_> {
    type Error = Infallible;

    fn item(self) -> Result<impl ItemVisitor<'de>, Self::Error> {
        Ok(Ignored)
    }

    fn inner_list(self) -> Result<impl InnerListVisitor<'de>, Self::Error> {
        if self.0.members == 1 {
            self.0.first_is_inner_list = true;
        }
        Ok(Ignored)
    }
}

fn parse_strict(v: &[u8], max: usize) -> Result<IdempotencyKey, HeaderError> {
    check_printable(v, true)?;
    match Parser::new(v).parse_item_with_visitor(string_item) {
        Ok(Ok(key)) => IdempotencyKey::bounded(key, max),
        Ok(Err(found)) => Err(HeaderError::NotAString { found }),
        Err(item_err) => match Parser::new(v).parse_list_with_visitor(ListShape::default()) {
            Ok(shape) if shape.members > 1 => Err(HeaderError::NotAString {
                found: "a list of several members (several Idempotency-Key lines, or a comma)",
            }),
            Ok(shape) if shape.first_is_inner_list => Err(HeaderError::NotAString {
                found: "an inner list",
            }),
            _ => Err(HeaderError::Syntax(item_err.to_string())),
        },
    }
}

fn join_lines<'a, I: IntoIterator<Item = &'a [u8]>>(lines: I) -> Option<Vec<u8>> {
    let mut joined: Option<Vec<u8>> = None;
    for line in lines {
        match joined.as_mut() {
            None => joined = Some(line.to_vec()),
            Some(buf) => {
                buf.extend_from_slice(b", ");
                buf.extend_from_slice(line);
            }
        }
    }
    joined
}

impl IdempotencyKey {
    fn bounded(key: String, max: usize) -> Result<Self, HeaderError> {
        if key.is_empty() {
            Err(HeaderError::Empty)
        } else if key.len() > max {
            Err(HeaderError::TooLong { max })
        } else {
            Ok(IdempotencyKey { key })
        }
    }

    /// Strict parsing per draft-ietf-httpapi-idempotency-key-header: an RFC 9651
    /// Item whose bare item is a String; parameters are accepted and ignored,
    /// surrounding spaces (not tabs) are trimmed. Bound: [`DEFAULT_MAX_KEY_LEN`].
    pub fn parse(v: &[u8]) -> Result<Self, HeaderError> {
        Self::parse_with_limit(v, DEFAULT_MAX_KEY_LEN)
    }

    /// [`IdempotencyKey::parse`] with a custom bound on the unescaped key, in bytes.
    pub fn parse_with_limit(v: &[u8], max: usize) -> Result<Self, HeaderError> {
        let v = trim_sp(v);
        if v.is_empty() {
            return Err(HeaderError::Empty);
        }
        parse_strict(v, max)
    }

    /// Like [`IdempotencyKey::parse`], but a value that does not start with `"`
    /// is taken verbatim as the key (many clients send bare UUIDs). Such a raw
    /// value must be 1..=bound bytes of printable ASCII without spaces; it is
    /// not interpreted further (`k;p=1` is the key `k;p=1`). A quoted value is
    /// parsed strictly, so `"k"` and `k` give the same key.
    pub fn parse_lenient(v: &[u8]) -> Result<Self, HeaderError> {
        Self::parse_lenient_with_limit(v, DEFAULT_MAX_KEY_LEN)
    }

    /// [`IdempotencyKey::parse_lenient`] with a custom bound, in bytes.
    pub fn parse_lenient_with_limit(v: &[u8], max: usize) -> Result<Self, HeaderError> {
        let v = trim_sp(v);
        match v.first() {
            None => Err(HeaderError::Empty),
            Some(b'"') => parse_strict(v, max),
            Some(_) => {
                check_printable(v, false)?;
                // All bytes are ASCII, so this conversion is lossless.
                Self::bounded(String::from_utf8_lossy(v).into_owned(), max)
            }
        }
    }

    /// Strict parsing of every `Idempotency-Key` field line of a request,
    /// combined with `", "` as HTTP requires: two lines form a List, not an
    /// Item, and are refused. No line at all is [`HeaderError::Missing`].
    pub fn parse_lines<'a, I: IntoIterator<Item = &'a [u8]>>(
        lines: I,
    ) -> Result<Self, HeaderError> {
        join_lines(lines).map_or(Err(HeaderError::Missing), |v| Self::parse(&v))
    }

    /// Lenient counterpart of [`IdempotencyKey::parse_lines`].
    pub fn parse_lines_lenient<'a, I: IntoIterator<Item = &'a [u8]>>(
        lines: I,
    ) -> Result<Self, HeaderError> {
        join_lines(lines).map_or(Err(HeaderError::Missing), |v| Self::parse_lenient(&v))
    }

    /// Strict extraction from a request's headers (all `Idempotency-Key` lines).
    ///
    /// ```
    /// let mut h = http::HeaderMap::new();
    /// assert_eq!(idem_scope::IdempotencyKey::from_headers(&h), Err(idem_scope::HeaderError::Missing));
    /// h.insert("idempotency-key", http::HeaderValue::from_static("\"k1\""));
    /// assert_eq!(idem_scope::IdempotencyKey::from_headers(&h)?.as_str(), "k1");
    /// h.append("idempotency-key", http::HeaderValue::from_static("\"k2\""));
    /// assert!(idem_scope::IdempotencyKey::from_headers(&h).is_err());
    /// # Ok::<(), idem_scope::HeaderError>(())
    /// ```
    #[cfg(feature = "http")]
    pub fn from_headers(headers: &http::HeaderMap) -> Result<Self, HeaderError> {
        Self::parse_lines(
            headers
                .get_all(IDEMPOTENCY_KEY_HEADER)
                .iter()
                .map(|v| v.as_bytes()),
        )
    }

    /// Lenient extraction from a request's headers.
    #[cfg(feature = "http")]
    pub fn from_headers_lenient(headers: &http::HeaderMap) -> Result<Self, HeaderError> {
        Self::parse_lines_lenient(
            headers
                .get_all(IDEMPOTENCY_KEY_HEADER)
                .iter()
                .map(|v| v.as_bytes()),
        )
    }

    /// The key, unescaped.
    pub fn as_str(&self) -> &str {
        &self.key
    }

    /// The key as an owned `String`.
    pub fn into_string(self) -> String {
        self.key
    }
}

impl AsRef<str> for IdempotencyKey {
    fn as_ref(&self) -> &str {
        &self.key
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(v: &str) -> Result<String, HeaderError> {
        IdempotencyKey::parse(v.as_bytes()).map(IdempotencyKey::into_string)
    }

    fn lenient(v: &str) -> Result<String, HeaderError> {
        IdempotencyKey::parse_lenient(v.as_bytes()).map(IdempotencyKey::into_string)
    }

    #[test]
    fn strict_accepts_strings_with_params_and_spaces() {
        assert_eq!(strict(r#""abc""#).unwrap(), "abc");
        assert_eq!(strict(r#"  "abc"  "#).unwrap(), "abc");
        assert_eq!(strict(r#""abc";a=1;b"#).unwrap(), "abc");
        assert_eq!(strict(r#""a \"q\" \\ b""#).unwrap(), r#"a "q" \ b"#);
    }

    #[test]
    fn strict_refuses_other_types_and_says_which() {
        let found = |v: &str| match strict(v) {
            Err(HeaderError::NotAString { found }) => found,
            other => panic!("{v}: {other:?}"),
        };
        assert_eq!(found("abc"), "a token");
        assert_eq!(found("123"), "an integer");
        assert_eq!(found("1.5"), "a decimal");
        assert_eq!(found("?1"), "a boolean");
        assert_eq!(found(":YWJj:"), "a byte sequence");
        assert_eq!(found("@1700000000"), "a date");
        assert_eq!(found(r#"%"x""#), "a display string");
        assert_eq!(found(r#"("a" "b")"#), "an inner list");
        assert!(found(r#""a", "b""#).starts_with("a list"));
    }

    #[test]
    fn strict_refuses_garbage_empty_tabs_and_long() {
        assert!(matches!(strict(r#""abc" x"#), Err(HeaderError::Syntax(_))));
        assert!(matches!(strict(r#""abc"#), Err(HeaderError::Syntax(_))));
        assert!(matches!(strict(r#""a\x""#), Err(HeaderError::Syntax(_))));
        assert_eq!(strict(""), Err(HeaderError::Empty));
        assert_eq!(strict("   "), Err(HeaderError::Empty));
        assert_eq!(strict(r#""""#), Err(HeaderError::Empty));
        assert_eq!(
            strict("\t\"abc\""),
            Err(HeaderError::InvalidChar {
                byte: b'\t',
                index: 0
            })
        );
        assert_eq!(
            strict("\"é\""),
            Err(HeaderError::InvalidChar {
                byte: 0xc3,
                index: 1
            })
        );
        let long = format!("\"{}\"", "k".repeat(256));
        assert_eq!(strict(&long), Err(HeaderError::TooLong { max: 255 }));
        assert_eq!(
            IdempotencyKey::parse_with_limit(b"\"abcd\"", 3),
            Err(HeaderError::TooLong { max: 3 })
        );
        assert!(IdempotencyKey::parse_with_limit(b"\"abc\"", 3).is_ok());
    }

    #[test]
    fn lenient_normalises_bare_and_quoted() {
        let uuid = "8e03978e-40d5-43e8-bc93-6894a57f9324";
        assert_eq!(lenient(uuid).unwrap(), uuid);
        assert_eq!(lenient(&format!("\"{uuid}\"")).unwrap(), uuid);
        assert_eq!(lenient(" 42 ").unwrap(), "42");
        assert_eq!(lenient("k;p=1").unwrap(), "k;p=1");
        assert_eq!(
            lenient("a b"),
            Err(HeaderError::InvalidChar {
                byte: b' ',
                index: 1
            })
        );
        assert_eq!(
            lenient("a\x01"),
            Err(HeaderError::InvalidChar { byte: 1, index: 1 })
        );
        assert_eq!(lenient(""), Err(HeaderError::Empty));
        assert_eq!(
            lenient(&"k".repeat(256)),
            Err(HeaderError::TooLong { max: 255 })
        );
        assert!(matches!(
            lenient("\"unterminated"),
            Err(HeaderError::Syntax(_))
        ));
    }

    #[test]
    fn several_lines_are_refused_and_none_is_missing() {
        let one: [&[u8]; 1] = [b"\"k\""];
        assert_eq!(IdempotencyKey::parse_lines(one).unwrap().as_str(), "k");
        let two: [&[u8]; 2] = [b"\"k\"", b"\"k\""];
        assert!(matches!(
            IdempotencyKey::parse_lines(two),
            Err(HeaderError::NotAString { .. })
        ));
        let bare_two: [&[u8]; 2] = [b"k", b"k"];
        assert!(IdempotencyKey::parse_lines_lenient(bare_two).is_err());
        assert_eq!(
            IdempotencyKey::parse_lines(std::iter::empty()),
            Err(HeaderError::Missing)
        );
    }

    #[test]
    fn messages_do_not_echo_the_value() {
        for v in ["secret-token", "\"secret\" trailing", "(\"secret\")"] {
            let msg = IdempotencyKey::parse(v.as_bytes()).unwrap_err().to_string();
            assert!(!msg.contains("secret"), "{msg}");
        }
    }
}
