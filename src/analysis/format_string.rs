//! Parsing of `format!` strings: which arguments a format string uses and
//! the literal text between them.

/// One argument reference in a format string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatArg {
    /// `{}`: the next positional argument.
    Next,
    /// `{0}`.
    Index(usize),
    /// `{name}`: a named argument or an inline capture.
    Named(String),
}

/// A parsed format string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FormatString {
    /// Argument references in order.
    pub args: Vec<FormatArg>,
    /// Literal text pieces between them.
    pub literals: Vec<String>,
}

/// Parses a format string; malformed input yields what could be read.
pub fn parse(fmt: &str) -> FormatString {
    let mut out = FormatString::default();
    let mut literal = String::new();
    for piece in pieces(fmt) {
        match piece {
            Piece::Char(ch) => literal.push(ch),
            Piece::Spec(spec) => {
                out.literals.push(std::mem::take(&mut literal));
                let arg = arg_name(spec);
                out.args.push(if arg.is_empty() {
                    FormatArg::Next
                } else if let Ok(i) = arg.parse::<usize>() {
                    FormatArg::Index(i)
                } else {
                    FormatArg::Named(arg.to_string())
                });
                // `{:.*}` takes the precision from the next positional argument.
                if spec.contains(".*") {
                    out.args.insert(out.args.len() - 1, FormatArg::Next);
                }
            }
        }
    }
    out.literals.push(literal);
    out
}

/// The names a format string reads by name (`"{key}:lock"` → `key`), as
/// slices of `fmt`: the arguments `parse` reports as `FormatArg::Named`.
pub fn named_args(fmt: &str) -> impl Iterator<Item = &str> {
    pieces(fmt).filter_map(|piece| match piece {
        Piece::Spec(spec) => {
            let arg = arg_name(spec);
            (!arg.is_empty() && arg.parse::<usize>().is_err()).then_some(arg)
        }
        Piece::Char(_) => None,
    })
}

/// A literal char (`{{` and `}}` unescaped) or the text between `{` and `}`.
enum Piece<'a> {
    Char(char),
    Spec(&'a str),
}

fn pieces(fmt: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut chars = fmt.char_indices().peekable();
    std::iter::from_fn(move || {
        let (at, ch) = chars.next()?;
        let doubled = matches!(ch, '{' | '}') && chars.peek().map(|&(_, c)| c) == Some(ch);
        if doubled {
            chars.next();
            return Some(Piece::Char(ch));
        }
        if ch != '{' {
            return Some(Piece::Char(ch));
        }
        let start = at + 1;
        let end = chars
            .by_ref()
            .find(|&(_, c)| c == '}')
            .map_or(fmt.len(), |(i, _)| i);
        Some(Piece::Spec(&fmt[start..end]))
    })
}

/// `name` of `{name:?}`, trimmed.
fn arg_name(spec: &str) -> &str {
    spec.split(':').next().unwrap_or("").trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_argument_forms() {
        let f = parse("idem:{}:{0}:{tenant}:{key:?}:{{x}}");
        assert_eq!(
            f.args,
            vec![
                FormatArg::Next,
                FormatArg::Index(0),
                FormatArg::Named("tenant".into()),
                FormatArg::Named("key".into()),
            ]
        );
        assert_eq!(f.literals, vec!["idem:", ":", ":", ":", ":{x}"]);
        let named: Vec<&str> = named_args("idem:{}:{0}:{tenant}:{key:?}:{{x}}").collect();
        assert_eq!(named, ["tenant", "key"]);
        // Unterminated: what could be read.
        assert_eq!(named_args("{a}{b").collect::<Vec<_>>(), ["a", "b"]);
        let named: Vec<&str> = named_args("{{literal}} {0} {tenant:?}-{}").collect();
        assert_eq!(named, ["tenant"]);
        assert_eq!(named_args("no captures").count(), 0);
    }
}
