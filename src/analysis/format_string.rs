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
    let mut chars = fmt.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                literal.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                literal.push('}');
            }
            '{' => {
                let mut spec = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    spec.push(c);
                }
                out.literals.push(std::mem::take(&mut literal));
                let arg = spec.split(':').next().unwrap_or("").trim();
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
            other => literal.push(other),
        }
    }
    out.literals.push(literal);
    out
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
    }
}
