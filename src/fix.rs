//! Suggested fixes that compile: a key built ad hoc (or a raw client key)
//! becomes `scoped_key.storage_key()`, with
//! `let scoped_key = idem_scope::scoped(..)?;` inserted before the statement
//! that holds it. Binding the `ScopedKey` first is what makes it compile:
//! `let k = scoped(..)?.storage_key();` borrows from a temporary dropped at
//! the end of the statement (E0716).
//!
//! Rules describe the call ([`ScopedCall`]); a [`Locator`] turns it into
//! edits with the parsed file and its text; [`apply`] writes the
//! machine-applicable ones back (`idem-lint --fix`).

use std::collections::BTreeMap;
use std::path::Path;

use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::analysis::index::ParsedFile;
use crate::analysis::syntax::span_of;
use crate::analysis::value::Origin;
use crate::model::{Applicability, Diagnostic, Edit, Fix, Position, Span};

/// The name the inserted `let` binds.
pub const BINDING: &str = "scoped_key";

/// The longest component text put into a suggestion; longer expressions
/// (a whole header-parsing chain) are better named by hand.
const MAX_COMPONENT: usize = 60;

/// Text for a component found in scope (`&ctx.tenant_id`, `"refund"`), or
/// `None` when there is no usable expression.
pub fn component_text(origin: Option<&Origin>) -> Option<String> {
    let o = origin?;
    if o.text.is_empty() || o.text.len() > MAX_COMPONENT {
        return None;
    }
    let text = o.text.trim_start_matches('&');
    Some(if text.starts_with('"') {
        text.to_string()
    } else {
        format!("&{text}")
    })
}

/// The `idem_scope::scoped(tenant, principal, route, key)` call a finding
/// suggests: in-scope values where the analysis found them, placeholders
/// (`&principal`) elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopedCall {
    args: [String; 4],
    complete: bool,
}

impl ScopedCall {
    /// The call from each component's origin (tenant, principal, route,
    /// key); a missing one becomes its placeholder.
    pub fn new(components: [Option<&Origin>; 4]) -> ScopedCall {
        const PLACEHOLDERS: [&str; 4] = ["&tenant", "&principal", "\"route\"", "&key"];
        let texts = components.map(component_text);
        let complete = texts.iter().all(Option::is_some);
        let mut args = PLACEHOLDERS.map(str::to_string);
        for (arg, text) in args.iter_mut().zip(texts) {
            if let Some(text) = text {
                *arg = text;
            }
        }
        ScopedCall { args, complete }
    }

    /// `idem_scope::scoped(a, b, c, d)`.
    pub fn call(&self) -> String {
        format!("idem_scope::scoped({})", self.args.join(", "))
    }

    /// `let scoped_key = idem_scope::scoped(a, b, c, d)?;`
    pub fn binding(&self) -> String {
        format!("let {BINDING} = {}?;", self.call())
    }

    /// Whether every component is a value found in scope.
    pub fn complete(&self) -> bool {
        self.complete
    }
}

/// Where a unit's fixes are computed: its parsed files and their texts,
/// both indexed by the file's id in the unit.
pub struct Locator<'a> {
    files: &'a [ParsedFile],
    texts: Vec<Option<&'a str>>,
    /// Where each text's lines start, computed on its first fix: finding a
    /// line by scanning from the top would make many findings quadratic.
    line_starts: Vec<std::cell::OnceCell<Vec<usize>>>,
    /// Where each top-level item of each file ends (`files[i]`), computed
    /// on the file's first fix: a syn node's span prints the node to tokens,
    /// so searching the items anew for each finding cost a print of about
    /// 14 whole items per finding.
    item_ends: Vec<std::cell::OnceCell<Vec<Position>>>,
}

impl<'a> Locator<'a> {
    /// A locator over a unit's parsed files and texts (`texts[id]`).
    pub fn new(files: &'a [ParsedFile], texts: Vec<Option<&'a str>>) -> Locator<'a> {
        let line_starts = texts.iter().map(|_| std::cell::OnceCell::new()).collect();
        let item_ends = files.iter().map(|_| std::cell::OnceCell::new()).collect();
        Locator {
            files,
            texts,
            line_starts,
            item_ends,
        }
    }

    /// The fix replacing the key expression at `span` of file `file` with
    /// the scoped key, or `None` when `span` is not an expression the fix
    /// knows how to replace.
    pub fn fix(&self, file: u32, span: Span, call: &ScopedCall) -> Option<Fix> {
        let index = self.files.iter().position(|f| f.id == file)?;
        let ast = &self.files[index].ast;
        let text = self.texts.get(file as usize).copied().flatten()?;
        let item_ends =
            self.item_ends[index].get_or_init(|| ast.items.iter().map(item_end).collect());
        let target = Target::find(ast, item_ends, span)?;
        if target.binds_between {
            // The `let` would land outside the closure or match arm that
            // binds names the key may use: no edit, the help text stays.
            return None;
        }
        let replacement = match target.expr {
            KeyExpr::Owned => format!("{BINDING}.storage_key().to_owned()"),
            KeyExpr::Borrowed => format!("{BINDING}.storage_key()"),
        };
        let insertion = Edit {
            span: Span {
                start: target.statement,
                end: target.statement,
            },
            replacement: format!(
                "{}{}",
                call.binding(),
                separator(
                    self.line(file, text, target.statement.line),
                    target.statement
                )
            ),
        };
        let applicability = match (call.complete(), target.returns_result) {
            (false, _) => Applicability::HasPlaceholders,
            (true, false) => Applicability::MaybeIncorrect,
            (true, true) => Applicability::MachineApplicable,
        };
        Some(Fix {
            applicability,
            description: format!(
                "bind the scoped key first (`{}`), then use `{replacement}`",
                call.binding()
            ),
            edits: vec![insertion, Edit { span, replacement }],
        })
    }
}

impl Locator<'_> {
    /// Line `line` (1-based) of file `file`, whose text is `text`.
    fn line<'t>(&self, file: u32, text: &'t str, line: usize) -> &'t str {
        let Some(cell) = self.line_starts.get(file as usize) else {
            return "";
        };
        let starts = cell.get_or_init(|| {
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        let Some(&start) = starts.get(line.saturating_sub(1)) else {
            return "";
        };
        let end = starts.get(line).map_or(text.len(), |&next| next);
        text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Where `item` ends. A brace-delimited item ends with its closing brace,
/// whose span is at hand; any other item is printed to find its last token
/// (what `Spanned` does), which for whole functions cost a print of the
/// file.
fn item_end(item: &syn::Item) -> Position {
    let close = match item {
        syn::Item::Fn(f) => Some(f.block.brace_token.span.close()),
        syn::Item::Impl(i) => Some(i.brace_token.span.close()),
        syn::Item::Trait(t) => Some(t.brace_token.span.close()),
        syn::Item::Mod(m) => m.content.as_ref().map(|(brace, _)| brace.span.close()),
        _ => None,
    };
    span_of(close.unwrap_or_else(|| item.span())).end
}

/// What follows the inserted `let`: a newline and the statement's
/// indentation when the statement starts its line, a space otherwise.
fn separator(line: &str, at: Position) -> String {
    let before: String = line.chars().take(at.column.saturating_sub(1)).collect();
    if before.chars().all(char::is_whitespace) {
        format!("\n{before}")
    } else {
        " ".to_string()
    }
}

/// The kind of expression a fix replaces, which decides the replacement's
/// type: a built `String` stays a `String`, a borrowed key stays a `&str`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyExpr {
    /// `format!(..)`, `a + b`: a `String`.
    Owned,
    /// `key`, `&key`, `ctx.key`: a borrowed key.
    Borrowed,
}

impl KeyExpr {
    fn of(expr: &syn::Expr) -> Option<KeyExpr> {
        match expr {
            syn::Expr::Macro(m) if m.mac.path.is_ident("format") => Some(KeyExpr::Owned),
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => Some(KeyExpr::Owned),
            syn::Expr::Path(_) | syn::Expr::Field(_) => Some(KeyExpr::Borrowed),
            syn::Expr::Reference(r) => KeyExpr::of(&r.expr),
            syn::Expr::Paren(p) => KeyExpr::of(&p.expr),
            _ => None,
        }
    }
}

/// Where a fix goes: the key expression and the statement holding it.
struct Target {
    expr: KeyExpr,
    /// Start of the innermost block statement containing the expression.
    statement: Position,
    /// The enclosing function (not a closure) returns a `Result`, so `?` fits.
    returns_result: bool,
    /// A closure or match arm without a block of its own lies between the
    /// statement and the expression: its bindings are not in scope there.
    binds_between: bool,
}

impl Target {
    /// `item_ends[i]` is where `ast.items[i]` ends.
    fn find(ast: &syn::File, item_ends: &[Position], span: Span) -> Option<Target> {
        let mut finder = Finder {
            span,
            expr: None,
            statement: None,
            in_result_fn: false,
            returns_result: false,
            binds_between: false,
        };
        // Only the top-level item holding the span is walked (items are in
        // source order): a file with thousands of findings must not be
        // walked whole once per finding.
        let at = item_ends.partition_point(|&end| end < span.start);
        if let Some(item) = ast.items.get(at) {
            finder.visit_item(item);
        }
        Some(Target {
            expr: finder.expr?,
            statement: finder.statement?,
            returns_result: finder.returns_result,
            binds_between: finder.binds_between,
        })
    }
}

/// Walks a file for the expression at `span` and its innermost statement.
struct Finder {
    span: Span,
    expr: Option<KeyExpr>,
    statement: Option<Position>,
    /// Whether the function being walked returns a `Result` (false inside
    /// closures, whose return type is not written).
    in_result_fn: bool,
    returns_result: bool,
    /// Set on entering a closure or match arm around the expression, reset
    /// by a block statement inside it.
    binds_between: bool,
}

impl Finder {
    fn contains(&self, node: &impl Spanned) -> bool {
        let outer = span_of(node.span());
        outer.start <= self.span.start && self.span.end <= outer.end
    }

    fn in_function(&mut self, output: &syn::ReturnType, walk: impl FnOnce(&mut Self)) {
        let saved = self.in_result_fn;
        self.in_result_fn = returns_result(output);
        walk(self);
        self.in_result_fn = saved;
    }
}

/// Whether a function's declared output is a `Result` (any `…Result` alias).
fn returns_result(output: &syn::ReturnType) -> bool {
    let syn::ReturnType::Type(_, ty) = output else {
        return false;
    };
    let syn::Type::Path(path) = ty.as_ref() else {
        return false;
    };
    path.path
        .segments
        .last()
        .is_some_and(|s| s.ident.to_string().ends_with("Result"))
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.in_function(&f.sig.output, |me| syn::visit::visit_item_fn(me, f));
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.in_function(&f.sig.output, |me| syn::visit::visit_impl_item_fn(me, f));
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        if self.contains(c) {
            self.binds_between = true;
        }
        self.in_function(&syn::ReturnType::Default, |me| {
            syn::visit::visit_expr_closure(me, c)
        });
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        // Deeper blocks are visited after this one: the innermost wins.
        // Only the statement holding the span is walked: the others cannot
        // hold the expression, a closure or an arm around it, and each node's
        // span prints the node, so walking them made a finding cost its whole
        // function.
        if let Some(stmt) = block.stmts.iter().find(|s| self.contains(*s)) {
            self.statement = Some(span_of(stmt.span()).start);
            self.returns_result = self.in_result_fn;
            self.binds_between = false;
            self.visit_stmt(stmt);
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if self.contains(arm) {
            self.binds_between = true;
        }
        syn::visit::visit_arm(self, arm);
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        let outer = span_of(expr.span());
        if outer == self.span && self.expr.is_none() {
            self.expr = KeyExpr::of(expr);
        }
        // An expression not holding the span holds nothing the walk looks
        // for (the expression, or a closure, arm or block around it).
        if outer.start <= self.span.start && self.span.end <= outer.end {
            syn::visit::visit_expr(self, expr);
        }
    }
}

/// What `--fix` did to the files.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    /// Fixes written.
    pub applied: usize,
    /// Machine-applicable fixes left out because they overlap one written.
    pub skipped: usize,
}

/// Writes every machine-applicable fix of `diagnostics` into its file;
/// `root` resolves the display paths. A file that cannot be read or
/// written is an error naming it; files before it stay fixed.
pub fn apply(diagnostics: &[Diagnostic], root: &Path) -> Result<Applied, FixError> {
    let mut by_file: BTreeMap<&str, Vec<&Fix>> = BTreeMap::new();
    for d in diagnostics {
        if let Some(fix) = d
            .fix
            .as_ref()
            .filter(|f| f.applicability == Applicability::MachineApplicable)
        {
            by_file.entry(d.path.as_str()).or_default().push(fix);
        }
    }
    let mut total = Applied::default();
    for (path, fixes) in by_file {
        let file = root.join(path);
        let io = |source| FixError {
            path: file.display().to_string(),
            source,
        };
        let text = std::fs::read_to_string(&file).map_err(io)?;
        let (fixed, applied) = apply_to_text(&text, &fixes);
        std::fs::write(&file, fixed).map_err(io)?;
        total.applied += applied.applied;
        total.skipped += applied.skipped;
    }
    Ok(total)
}

/// A file `--fix` could not read or write.
#[derive(Debug, thiserror::Error)]
#[error("cannot apply fixes to {path}: {source}")]
pub struct FixError {
    path: String,
    source: std::io::Error,
}

/// Applies `fixes` to `text`: a fix whose edits touch an edit already
/// taken is skipped whole; the taken edits are applied back to front so
/// earlier offsets stay valid.
pub fn apply_to_text(text: &str, fixes: &[&Fix]) -> (String, Applied) {
    let offsets = LineOffsets::new(text);
    let mut taken: Vec<(usize, usize, &str)> = Vec::new();
    let mut counts = Applied::default();
    for fix in fixes {
        let Some(edits) = fix
            .edits
            .iter()
            .map(|e| {
                Some((
                    offsets.of(e.span.start)?,
                    offsets.of(e.span.end)?,
                    e.replacement.as_str(),
                ))
            })
            .collect::<Option<Vec<_>>>()
        else {
            counts.skipped += 1;
            continue;
        };
        // Touching counts as overlapping: two insertions at one point would
        // bind `scoped_key` twice.
        let clashes = edits
            .iter()
            .any(|(s, e, _)| taken.iter().any(|(ts, te, _)| s <= te && ts <= e));
        if clashes {
            counts.skipped += 1;
        } else {
            taken.extend(edits);
            counts.applied += 1;
        }
    }
    // At one offset the replacement (longer) goes first, so the insertion
    // lands before it.
    taken.sort_by_key(|&(start, end, _)| std::cmp::Reverse((start, end)));
    let mut out = text.to_string();
    for (start, end, replacement) in taken {
        out.replace_range(start..end, replacement);
    }
    (out, counts)
}

/// Byte offsets of 1-based lines and char columns in one text.
struct LineOffsets<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineOffsets<'a> {
    fn new(text: &'a str) -> LineOffsets<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineOffsets { text, starts }
    }

    fn of(&self, at: Position) -> Option<usize> {
        let start = *self.starts.get(at.line.checked_sub(1)?)?;
        let rest = &self.text[start..];
        let line = rest.split('\n').next().unwrap_or(rest);
        let column = at.column.checked_sub(1)?;
        line.char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(line.len()))
            .nth(column)
            .map(|i| start + i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, column: usize) -> Position {
        Position { line, column }
    }

    /// (start line and column, end line and column, replacement).
    type TestEdit<'a> = ((usize, usize), (usize, usize), &'a str);

    fn fix(edits: &[TestEdit<'_>]) -> Fix {
        Fix {
            applicability: Applicability::MachineApplicable,
            description: String::new(),
            edits: edits
                .iter()
                .map(|(s, e, r)| Edit {
                    span: Span {
                        start: at(s.0, s.1),
                        end: at(e.0, e.1),
                    },
                    replacement: r.to_string(),
                })
                .collect(),
        }
    }

    #[test]
    fn edits_apply_back_to_front_with_the_insertion_before_its_statement() {
        let text = "fn f() {\n    let k = format!(\"{t}:{k}\");\n}\n";
        let one = fix(&[
            ((2, 5), (2, 5), "let s = x;\n    "),
            ((2, 13), (2, 31), "s.get()"),
        ]);
        let (out, counts) = apply_to_text(text, &[&one]);
        assert_eq!(out, "fn f() {\n    let s = x;\n    let k = s.get();\n}\n");
        assert_eq!(
            counts,
            Applied {
                applied: 1,
                skipped: 0
            }
        );
    }

    #[test]
    fn a_fix_touching_a_taken_edit_is_skipped_whole() {
        let text = "ab\ncd\n";
        let first = fix(&[((1, 1), (1, 1), "X"), ((2, 1), (2, 2), "Y")]);
        let second = fix(&[((1, 1), (1, 1), "Z"), ((1, 2), (1, 3), "W")]);
        let (out, counts) = apply_to_text(text, &[&first, &second]);
        assert_eq!(out, "Xab\nYd\n");
        assert_eq!(
            counts,
            Applied {
                applied: 1,
                skipped: 1
            }
        );
    }

    #[test]
    fn columns_count_chars_and_stay_on_their_line() {
        let offsets = LineOffsets::new("é1\nab");
        assert_eq!(offsets.of(at(1, 2)), Some(2));
        assert_eq!(offsets.of(at(1, 3)), Some(3));
        assert_eq!(offsets.of(at(1, 9)), None);
        assert_eq!(offsets.of(at(2, 1)), Some(4));
    }
}
