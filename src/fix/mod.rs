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

mod args;
mod scope;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use syn::spanned::Spanned;
use syn::visit::Visit;

use crate::analysis::index::ParsedFile;
use crate::analysis::syntax::span_of;
use crate::analysis::value::Origin;
use crate::analysis::vocab::{Component, Vocabulary};
use crate::model::{Applicability, Diagnostic, Edit, Fix, Position, Span};

pub use args::{route_segment, Arg, Trust};

/// The name the inserted `let` binds.
pub const BINDING: &str = "scoped_key";

/// Where a rule's help text shows the suggested `let scoped_key = ..;`:
/// the sink puts the call resolved against the finding's scope there, so
/// the help and the fix never disagree.
pub const BINDING_SLOT: &str = "\u{1}scoped-binding\u{1}";

/// The `idem_scope::scoped(tenant, principal, route, key)` call a finding
/// suggests, as the origins of its components (tenant, principal, route,
/// key) the analysis found; [`Locator::resolve`] turns them into arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopedCall {
    origins: [Option<Origin>; 4],
    /// Per argument: the service has no such component (`[scope] tenant =
    /// false`), so a missing one is a constant, never asked for.
    absent: [bool; 4],
}

impl ScopedCall {
    /// The call from each component's origin (tenant, principal, route, key).
    pub fn new(components: [Option<&Origin>; 4]) -> ScopedCall {
        ScopedCall {
            origins: components.map(|o| o.cloned()),
            absent: [false; 4],
        }
    }

    /// The same call in a service without `component`: its argument is what
    /// the key already has there (a literal too), else a constant
    /// (`"single-tenant"`) every key of the service shares, never a
    /// placeholder or a guess.
    pub fn without(mut self, component: Component) -> ScopedCall {
        if let Some(i) = args::ROLES
            .iter()
            .position(|r| r.component() == Some(component))
        {
            self.absent[i] = true;
        }
        self
    }

    /// The arguments from the origins' texts alone, where the finding's
    /// scope is unknown: never better than a guess.
    pub fn unscoped(&self) -> Resolved {
        let mut resolved = self.resolve(0, None);
        for arg in &mut resolved.args {
            arg.trust = arg.trust.max(Trust::Guessed);
        }
        resolved
    }

    fn resolve(&self, file: u32, at: Option<&args::At<'_>>) -> Resolved {
        let mut roles = args::ROLES.iter().zip(self.absent);
        let args = self.origins.each_ref().map(|origin| {
            let (role, absent) = roles
                .next()
                .map_or((args::Role::Key, false), |(r, a)| (*r, a));
            if absent {
                args::resolve_absent(role, origin.as_ref(), file, at)
            } else {
                args::resolve(role, origin.as_ref(), file, at)
            }
        });
        Resolved { args }
    }
}

/// A [`ScopedCall`] with its arguments chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    args: [Arg; 4],
}

impl Resolved {
    /// `idem_scope::scoped(a, b, c, d)`.
    pub fn call(&self) -> String {
        let texts: Vec<&str> = self.args.iter().map(|a| a.text.as_str()).collect();
        format!("idem_scope::scoped({})", texts.join(", "))
    }

    /// `let scoped_key = idem_scope::scoped(a, b, c, d)?;`
    pub fn binding(&self) -> String {
        format!("let {BINDING} = {}?;", self.call())
    }

    /// The least trusted argument's trust.
    pub fn trust(&self) -> Trust {
        self.args
            .iter()
            .map(|a| a.trust)
            .max()
            .unwrap_or(Trust::Known)
    }

    /// Why a human must look: the placeholders and guesses, by role.
    fn reason(&self) -> Option<String> {
        let roles = |trust: Trust| -> Vec<&str> {
            (args::ROLES.iter().zip(&self.args))
                .filter(|(_, a)| a.trust == trust)
                .map(|(r, _)| r.as_str())
                .collect()
        };
        let placeholders = roles(Trust::Placeholder);
        let guessed = roles(Trust::Guessed);
        let mut parts = Vec::new();
        if !placeholders.is_empty() {
            parts.push(format!(
                "no {} in scope",
                english_joined(&placeholders, "or")
            ));
        }
        if !guessed.is_empty() {
            parts.push(format!(
                "{} guessed from a name in scope the key does not use",
                english_joined(&guessed, "and")
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// `a`, `a or b`, `a, b or c` (with `and` likewise). Not the rules'
/// `english_list`: rules use this module, not the other way round.
fn english_joined(items: &[&str], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}

/// Where a unit's fixes are computed: its parsed files and their texts,
/// both indexed by the file's id in the unit.
pub struct Locator<'a> {
    files: &'a [ParsedFile],
    texts: Vec<Option<&'a str>>,
    /// Names roles in guesses (`ctx.tenant_id`); none: no guesses.
    vocab: Option<&'a Vocabulary>,
    /// Struct fields by struct name over the unit, computed on the first fix.
    fields: std::cell::OnceCell<HashMap<String, Vec<String>>>,
    /// Where each text's lines start, computed on its first fix: finding a
    /// line by scanning from the top would make many findings quadratic.
    line_starts: Vec<std::cell::OnceCell<Vec<usize>>>,
    /// Where each top-level item of each file ends (`files[i]`), computed
    /// on the file's first fix: a syn node's span prints the node to tokens,
    /// so searching the items anew for each finding cost a print of about
    /// 14 whole items per finding.
    item_ends: Vec<std::cell::OnceCell<Vec<Position>>>,
    /// The top-level constants of each file (`files[i]`), computed on the
    /// file's first fix: collecting them anew for each finding made a file
    /// with many functions and findings quadratic.
    consts: Vec<std::cell::OnceCell<Vec<scope::Binding>>>,
    /// The scope at each key span resolved so far: the rules that report
    /// one key expression (IDEM001 and IDEM002 often both do) share it,
    /// since finding it prints the enclosing function's nodes for spans.
    scopes: std::cell::RefCell<HashMap<(usize, Span), std::rc::Rc<scope::Scope>>>,
    /// Where each key span's edit goes, found so far (shared like `scopes`).
    targets: std::cell::RefCell<HashMap<(usize, Span), Option<Target>>>,
}

impl<'a> Locator<'a> {
    /// A locator over a unit's parsed files and texts (`texts[id]`).
    pub fn new(files: &'a [ParsedFile], texts: Vec<Option<&'a str>>) -> Locator<'a> {
        let line_starts = texts.iter().map(|_| std::cell::OnceCell::new()).collect();
        let item_ends = files.iter().map(|_| std::cell::OnceCell::new()).collect();
        let consts = files.iter().map(|_| std::cell::OnceCell::new()).collect();
        Locator {
            files,
            texts,
            vocab: None,
            fields: std::cell::OnceCell::new(),
            line_starts,
            item_ends,
            consts,
            scopes: std::cell::RefCell::default(),
            targets: std::cell::RefCell::default(),
        }
    }

    /// Lets missing components be suggested from the names in scope that
    /// `vocab` gives their role.
    pub fn with_vocab(mut self, vocab: &'a Vocabulary) -> Locator<'a> {
        self.vocab = Some(vocab);
        self
    }

    fn item_ends(&self, index: usize) -> &[Position] {
        let ast = &self.files[index].ast;
        self.item_ends[index].get_or_init(|| ast.items.iter().map(item_end).collect())
    }

    /// What is in scope at `span` of `files[index]`.
    fn scope(&self, index: usize, span: Span) -> std::rc::Rc<scope::Scope> {
        let cached = self.scopes.borrow().get(&(index, span)).cloned();
        cached.unwrap_or_else(|| {
            let ast = &self.files[index].ast;
            let consts = self.consts[index].get_or_init(|| scope::consts(ast));
            let scope =
                std::rc::Rc::new(scope::Scope::at(ast, self.item_ends(index), consts, span));
            self.scopes
                .borrow_mut()
                .insert((index, span), scope.clone());
            scope
        })
    }

    /// The arguments of `call` for a finding at `span` of file `file`: what
    /// is in scope there decides each one (see `args`).
    pub fn resolve(&self, file: u32, span: Span, call: &ScopedCall) -> Resolved {
        let Some(index) = self.files.iter().position(|f| f.id == file) else {
            return call.unscoped();
        };
        let scope = self.scope(index, span);
        let fields = self
            .fields
            .get_or_init(|| scope::struct_fields(self.files.iter().map(|f| &f.ast)));
        let default_vocab;
        let vocab = match self.vocab {
            Some(vocab) => vocab,
            None => {
                default_vocab = Vocabulary::default();
                &default_vocab
            }
        };
        let key_text = self
            .texts
            .get(file as usize)
            .copied()
            .flatten()
            .map_or(String::new(), |text| self.slice(file, text, span));
        let at = args::At {
            key: span,
            key_text: &key_text,
            scope: &scope,
            fields,
            vocab,
        };
        call.resolve(file, Some(&at))
    }

    /// The fix replacing the key expression at `span` of file `file` with
    /// the scoped key `call` builds, or `None` when `span` is not an
    /// expression the fix knows how to replace.
    pub fn fix(&self, file: u32, span: Span, call: &Resolved) -> Option<Fix> {
        let index = self.files.iter().position(|f| f.id == file)?;
        let ast = &self.files[index].ast;
        let text = self.texts.get(file as usize).copied().flatten()?;
        let cached = self.targets.borrow().get(&(index, span)).copied();
        let target = match cached {
            Some(target) => target,
            None => {
                let target = Target::find(ast, self.item_ends(index), span);
                self.targets.borrow_mut().insert((index, span), target);
                target
            }
        }?;
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
        let applicability = match (call.trust(), target.returns_result) {
            (Trust::Placeholder, _) => Applicability::HasPlaceholders,
            (Trust::Guessed, _) | (Trust::Known, false) => Applicability::MaybeIncorrect,
            (Trust::Known, true) => Applicability::MachineApplicable,
        };
        let mut reasons: Vec<String> = call.reason().into_iter().collect();
        if !target.returns_result {
            reasons.push("the function does not return a `Result` for `?`".to_string());
        }
        let why = if reasons.is_empty() {
            String::new()
        } else {
            format!(" (needs a hand: {})", reasons.join("; "))
        };
        Some(Fix {
            applicability,
            description: format!(
                "bind the scoped key first (`{}`), then use `{replacement}`{why}",
                call.binding()
            ),
            edits: vec![insertion, Edit { span, replacement }],
        })
    }
}

impl Locator<'_> {
    /// The text of `span` in file `file`, whose text is `text`.
    fn slice(&self, file: u32, text: &str, span: Span) -> String {
        let mut out = String::new();
        for line in span.start.line..=span.end.line {
            let chars = self.line(file, text, line).chars();
            let from = if line == span.start.line {
                span.start.column.saturating_sub(1)
            } else {
                out.push('\n');
                0
            };
            if line == span.end.line {
                let to = span.end.column.saturating_sub(1);
                out.extend(chars.skip(from).take(to.saturating_sub(from)));
            } else {
                out.extend(chars.skip(from));
            }
        }
        out
    }

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
#[derive(Debug, Clone, Copy)]
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

/// The findings `--fix` leaves for a human, by why.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct NeedsHand {
    /// Fixes with a placeholder: a component has no value in scope.
    pub placeholders: usize,
    /// Fixes with a guessed component or no `Result` for `?`.
    pub maybe_incorrect: usize,
    /// Findings without a suggested edit.
    pub no_edit: usize,
}

impl NeedsHand {
    /// Counts the findings of `diagnostics` that `--fix` does not apply.
    pub fn of(diagnostics: &[Diagnostic]) -> NeedsHand {
        let mut out = NeedsHand::default();
        for d in diagnostics {
            match d.fix.as_ref().map(|f| f.applicability) {
                Some(Applicability::MachineApplicable) => {}
                Some(Applicability::HasPlaceholders) => out.placeholders += 1,
                Some(Applicability::MaybeIncorrect) => out.maybe_incorrect += 1,
                None => out.no_edit += 1,
            }
        }
        out
    }

    /// How many in all.
    pub fn total(&self) -> usize {
        self.placeholders + self.maybe_incorrect + self.no_edit
    }
}

impl std::fmt::Display for NeedsHand {
    /// `9 findings need a hand: 7 fixes have placeholders (..), 2 have no edit (..)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let total = self.total();
        let plural =
            |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        write!(
            f,
            "{total} finding{} need{} a hand",
            plural(total, "", "s"),
            plural(total, "s", "")
        )?;
        let parts = [
            (
                self.placeholders,
                "fix has a placeholder",
                "fixes have placeholders",
                "a scope component has no value in scope",
            ),
            (
                self.maybe_incorrect,
                "fix may be incorrect",
                "fixes may be incorrect",
                "a component guessed from a name in scope, or no `Result` for `?`",
            ),
            (
                self.no_edit,
                "has no suggested edit",
                "have no suggested edit",
                "the rule suggests none, or the key is built inside a call, closure or match arm",
            ),
        ];
        let mut first = true;
        for (n, one, many, why) in parts {
            if n == 0 {
                continue;
            }
            write!(
                f,
                "{} {n} {} ({why})",
                if first { ":" } else { ";" },
                plural(n, one, many)
            )?;
            first = false;
        }
        Ok(())
    }
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
    fn needs_hand_says_how_many_and_why() {
        let hand = NeedsHand {
            placeholders: 7,
            maybe_incorrect: 0,
            no_edit: 2,
        };
        assert_eq!(
            hand.to_string(),
            "9 findings need a hand: 7 fixes have placeholders (a scope component has no value in scope); 2 have no suggested edit (the rule suggests none, or the key is built inside a call, closure or match arm)"
        );
        let one = NeedsHand {
            maybe_incorrect: 1,
            ..NeedsHand::default()
        };
        assert_eq!(
            one.to_string(),
            "1 finding needs a hand: 1 fix may be incorrect (a component guessed from a name in scope, or no `Result` for `?`)"
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
