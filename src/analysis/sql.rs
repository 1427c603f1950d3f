//! SQL DDL: which idempotency tables are unique on which columns.
//!
//! Statements come from `*.sql` files and from Rust string literals
//! ([`super::sql_literals`]). The text is split into statements with the
//! `sqlparser` tokenizer, and every `CREATE TABLE`, `ALTER TABLE` and
//! `CREATE UNIQUE INDEX` is parsed with the PostgreSQL, MySQL, SQLite and SQL Server
//! dialects in turn: a migrations folder may be written for any of them. A
//! statement that no dialect parses is recorded as skipped, never guessed at.
//!
//! Positions are char offsets into the SQL text; [`SqlSource`] maps them back
//! to the file, through escapes and raw-string delimiters for literals.

use sqlparser::ast::{
    AlterTableOperation, ColumnDef, ColumnOption, Expr, FunctionArg, FunctionArgExpr,
    FunctionArguments, IndexColumn, ObjectName, Statement, TableConstraint,
};
use sqlparser::dialect::{Dialect, MsSqlDialect, MySqlDialect, PostgreSqlDialect, SQLiteDialect};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Location, Token, TokenWithSpan, Tokenizer};
use std::collections::HashSet;

use super::index::ParsedFile;
use super::sql_source::char_line_starts;
pub use super::sql_source::{CharRange, SqlSource};
use super::value::Site;
use super::vocab::{
    is_namespace_column, is_record_id_word, is_scope_version_column, words, Component, Vocabulary,
};

mod statements;
mod tolerant;

use statements::{hash_comments, past_guard, split_statements};

/// Which kind of uniqueness a constraint declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintKind {
    /// `PRIMARY KEY`, on a column or the table.
    PrimaryKey,
    /// `UNIQUE`, on a column or the table.
    Unique,
    /// `CREATE UNIQUE INDEX`.
    UniqueIndex,
}

impl ConstraintKind {
    /// The SQL words, for messages.
    pub fn as_str(self) -> &'static str {
        match self {
            ConstraintKind::PrimaryKey => "PRIMARY KEY",
            ConstraintKind::Unique => "UNIQUE constraint",
            ConstraintKind::UniqueIndex => "UNIQUE INDEX",
        }
    }
}

/// A column with its location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedSite {
    /// Column name, unquoted.
    pub name: String,
    /// Where the name is.
    pub site: Site,
}

/// A PRIMARY KEY / UNIQUE constraint of an idempotency table that contains
/// the client key column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyConstraint {
    /// The clause (or the column carrying it): the rule's primary span.
    pub site: Site,
    /// Table name as written (last part of a qualified name).
    pub table: String,
    /// What kind of constraint.
    pub kind: ConstraintKind,
    /// The constraint's columns, in order.
    pub columns: Vec<String>,
    /// The client key column and where the constraint names it.
    pub key_column: NamedSite,
    /// Scope components with a column in the constraint, with that column.
    pub present: Vec<(Component, String)>,
    /// Scope components with no column in the constraint.
    pub missing: Vec<Component>,
    /// Columns of the same statement that name a missing component but are
    /// not part of the constraint.
    pub unused_scope_columns: Vec<(Component, NamedSite)>,
    /// A `scope_version`-like column is part of the constraint.
    pub has_scope_version: bool,
    /// A namespace (`ns`) column is part of the constraint.
    pub has_namespace: bool,
    /// The constraint's id columns the vocabulary names no component by
    /// (`clerk_id` of `(tenant_id, clerk_id, route, idem_key)`): one may be
    /// a missing component under another name.
    pub unknown_ids: Vec<String>,
}

/// A statement that looks like DDL for an idempotency table but that no
/// dialect could parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedStatement {
    /// The statement's first token.
    pub site: Site,
    /// The statement's beginning, for the message.
    pub excerpt: String,
    /// What the first dialect (PostgreSQL) said.
    pub error: String,
}

/// Everything the SQL analysis found in one unit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SqlFacts {
    /// Constraints of idempotency tables that contain the key column.
    pub key_constraints: Vec<KeyConstraint>,
    /// Statements that could not be analysed.
    pub skipped: Vec<SkippedStatement>,
}

/// A `*.sql` file of the unit.
#[derive(Debug, Clone)]
pub struct SqlFile {
    /// Index in the unit (the same numbering as Rust files).
    pub id: u32,
    /// The text.
    pub text: std::sync::Arc<String>,
}

/// A constraint found in SQL text, positions relative to that text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextConstraint {
    /// The clause.
    pub range: CharRange,
    /// Table name.
    pub table: String,
    /// Kind.
    pub kind: ConstraintKind,
    /// Columns with their ranges.
    pub columns: Vec<(String, CharRange)>,
    /// Index in `columns` of the client key column.
    pub key_index: usize,
    /// Present components and their columns.
    pub present: Vec<(Component, String)>,
    /// Missing components.
    pub missing: Vec<Component>,
    /// Other columns of the statement naming a missing component.
    pub unused_scope_columns: Vec<(Component, String, CharRange)>,
    /// See [`KeyConstraint::has_scope_version`].
    pub has_scope_version: bool,
    /// See [`KeyConstraint::has_namespace`].
    pub has_namespace: bool,
    /// See [`KeyConstraint::unknown_ids`].
    pub unknown_ids: Vec<String>,
}

/// A skipped statement, positions relative to the SQL text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextSkipped {
    /// The statement's first token.
    pub range: CharRange,
    /// The statement's beginning.
    pub excerpt: String,
    /// The parser's complaint.
    pub error: String,
}

/// What one SQL text contains.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TextAnalysis {
    /// Constraints of idempotency tables that contain a key column.
    pub constraints: Vec<TextConstraint>,
    /// Idempotency DDL that could not be parsed.
    pub skipped: Vec<TextSkipped>,
}

/// Analyses the SQL of every `*.sql` file and of every DDL string literal
/// in the unit's Rust files.
pub fn collect(rust: &[ParsedFile], sql: &[SqlFile], vocab: &Vocabulary) -> SqlFacts {
    let mut facts = SqlFacts::default();
    for file in sql {
        let source = SqlSource::file(&file.text);
        let analysis = guarded(&file.text, vocab);
        add(&mut facts, file.id, &source, analysis);
    }
    for file in rust {
        for literal in super::sql_literals::ddl_literals(&file.ast) {
            let analysis = guarded(&literal.value, vocab);
            if std::env::var_os("IDEM_LINT_DEBUG").is_some() {
                eprintln!(
                    "[idem-lint debug] DDL literal in file {}: {:?}… → {} constraint(s), {} skipped",
                    file.id,
                    excerpt(literal.value.trim_start()),
                    analysis.constraints.len(),
                    analysis.skipped.len()
                );
            }
            add(&mut facts, file.id, &literal.source, analysis);
        }
    }
    facts
}

/// A panic inside the SQL parser must not cost the unit its Rust findings:
/// the text is reported as skipped instead.
fn guarded(text: &str, vocab: &Vocabulary) -> TextAnalysis {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| analyze_text(text, vocab)))
        .unwrap_or_else(|_| TextAnalysis {
            constraints: Vec::new(),
            skipped: vec![TextSkipped {
                range: CharRange::default(),
                excerpt: excerpt(text),
                error: "internal error in the SQL parser (a bug; please report it)".to_string(),
            }],
        })
}

fn add(facts: &mut SqlFacts, file: u32, source: &SqlSource, analysis: TextAnalysis) {
    let site = |range: CharRange| Site {
        file,
        span: source.span(range),
    };
    for c in analysis.constraints {
        let (key_name, key_range) = c.columns[c.key_index].clone();
        facts.key_constraints.push(KeyConstraint {
            site: site(c.range),
            table: c.table,
            kind: c.kind,
            columns: c.columns.into_iter().map(|(name, _)| name).collect(),
            key_column: NamedSite {
                name: key_name,
                site: site(key_range),
            },
            present: c.present,
            missing: c.missing,
            unused_scope_columns: c
                .unused_scope_columns
                .into_iter()
                .map(|(component, name, range)| {
                    (
                        component,
                        NamedSite {
                            name,
                            site: site(range),
                        },
                    )
                })
                .collect(),
            has_scope_version: c.has_scope_version,
            has_namespace: c.has_namespace,
            unknown_ids: c.unknown_ids,
        });
    }
    for s in analysis.skipped {
        facts.skipped.push(SkippedStatement {
            site: site(s.range),
            excerpt: s.excerpt,
            error: s.error,
        });
    }
}

/// Converts sqlparser locations (1-based line, 1-based char column) of one
/// text into char offsets of that text.
struct Lines {
    starts: Vec<usize>,
    len: usize,
}

impl Lines {
    fn new(text: &str) -> Self {
        Lines {
            starts: char_line_starts(text),
            len: text.chars().count(),
        }
    }

    fn offset(&self, loc: Location) -> Option<usize> {
        if loc.line == 0 {
            return None;
        }
        let line = usize::try_from(loc.line).ok()?;
        let column = usize::try_from(loc.column).ok()?;
        let start = *self.starts.get(line - 1)?;
        Some((start + column.saturating_sub(1)).min(self.len))
    }
}

/// The dialects a statement is parsed with, in turn, by name.
type Dialects = [(&'static str, Box<dyn Dialect>); 4];

fn dialects() -> Dialects {
    [
        ("PostgreSQL", Box::new(PostgreSqlDialect {})),
        ("MySQL", Box::new(MySqlDialect {})),
        ("SQLite", Box::new(SQLiteDialect {})),
        ("SQL Server", Box::new(MsSqlDialect {})),
    ]
}

/// Analyses one SQL text (a file or a literal's value).
pub fn analyze_text(text: &str, vocab: &Vocabulary) -> TextAnalysis {
    let mut out = TextAnalysis::default();
    let dialects = dialects();
    // MySQL's `#` line comments are an operator to the other tokenizers,
    // which would glue each comment to the statement after it.
    let mysql = hash_comments(text);
    let mut splitting = (dialects.iter()).filter(|(name, _)| !mysql || *name == "MySQL");
    let tokenize = |d: &dyn sqlparser::dialect::Dialect, t: &str| {
        Tokenizer::new(d, t).tokenize_with_location()
    };
    let tokens = (splitting.clone())
        .chain(&dialects)
        .find_map(|(_, d)| tokenize(d.as_ref(), text).ok());
    // Lines no tokenizer reads (another dialect's comments) blanked, so
    // the DDL around them is still read.
    let recovered = match tokens {
        Some(tokens) => Some((std::borrow::Cow::Borrowed(text), tokens)),
        None => splitting.next().and_then(|(_, d)| {
            statements::blank_unreadable_lines(text, |t| tokenize(d.as_ref(), t))
                .map(|(t, tokens)| (std::borrow::Cow::Owned(t), tokens))
        }),
    };
    let Some((text, tokens)) = recovered else {
        // Not even the tokenizer copes (an unterminated quote), so there are
        // no statements: one note at the tokenizer's complaint, if the text
        // holds DDL for an idempotency table anywhere.
        let lines = Lines::new(text);
        let words = plain_words(text);
        let about_idempotency = words.iter().enumerate().any(|(i, w)| {
            (w.eq_ignore_ascii_case("create") || w.eq_ignore_ascii_case("alter"))
                && ddl_head(&words[i..]).is_some_and(|h| vocab.is_idempotency_table(&h.table))
        });
        if about_idempotency {
            let error = dialects
                .first()
                .and_then(|(_, d)| Tokenizer::new(d.as_ref(), text).tokenize().err());
            let at = error
                .as_ref()
                .and_then(|e| lines.offset(e.location))
                .unwrap_or(0);
            out.skipped.push(TextSkipped {
                range: CharRange { start: at, end: at },
                excerpt: excerpt(text.trim_start()),
                error: error.map_or_else(String::new, |e| format!("PostgreSQL: {}", e.message)),
            });
        }
        return out;
    };
    let text = &*text;
    let lines = Lines::new(text);
    let byte_of_char: Vec<usize> = text
        .char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(text.len()))
        .collect();
    // Tables created with a column named for the client's key, for the
    // constraints later statements add (`ALTER TABLE .. ADD CONSTRAINT`).
    let mut client_key_tables: HashSet<String> = HashSet::new();
    for statement in split_statements(&tokens) {
        let statement = past_guard(statement);
        let Some(first) = statement.iter().find(|t| !is_trivia(&t.token)) else {
            continue;
        };
        let Some(last) = statement.iter().rev().find(|t| !is_trivia(&t.token)) else {
            continue;
        };
        let (Some(start), Some(end)) =
            (lines.offset(first.span.start), lines.offset(last.span.end))
        else {
            continue;
        };
        let (Some(&start_byte), Some(&end_byte)) = (byte_of_char.get(start), byte_of_char.get(end))
        else {
            continue;
        };
        let statement_text = &text[start_byte..end_byte];
        // Quotes differ by dialect (`"t"`, `` `t` ``, `[t]`): plain words
        // find the table whichever tokenizer split the text.
        let Some(head) = ddl_head(&plain_words(statement_text)) else {
            continue;
        };
        if !vocab.is_idempotency_table(&head.table) {
            continue;
        }
        // An index's options after its column list differ by dialect
        // (OceanBase's `LOCAL`, a `TABLESPACE`) and say nothing of the key.
        let columns = head
            .unique_index
            .then(|| statements::first_group_end(statement))
            .flatten()
            .and_then(|end| lines.offset(end))
            .and_then(|end| byte_of_char.get(end))
            .and_then(|&end| text.get(start_byte..end));
        let (parsed, first_error) = statements::parse_statement(&dialects, statement_text, columns);
        let first_token_end = lines.offset(first.span.end).unwrap_or(start);
        match parsed {
            Some((statements, tokens)) => {
                for statement in &statements {
                    if let Statement::CreateTable(create) = statement {
                        if (create.columns.iter()).any(|c| vocab.is_client_key_name(&c.name.value))
                        {
                            client_key_tables.insert(table_name(&create.name));
                        }
                    }
                }
                let ctx = Statement_ {
                    tokens: &tokens,
                    lines: Lines::new(statement_text),
                    base: start,
                    vocab,
                    client_key_tables: &client_key_tables,
                };
                for statement in &statements {
                    ctx.constraints_of(statement, &mut out.constraints);
                }
            }
            None => {
                if !tolerant::read(statement_text, start, &head, vocab, &mut out.constraints) {
                    out.skipped.push(TextSkipped {
                        range: CharRange {
                            start,
                            end: first_token_end,
                        },
                        excerpt: excerpt(statement_text),
                        error: first_error,
                    });
                }
            }
        }
    }
    out
}

/// `Expected: x, found: y at Line: 3, Column: 5`: the location is relative
/// to the statement, which would mislead; the diagnostic carries the real one.
pub(super) fn clean_error(message: &str) -> String {
    let message = message
        .strip_prefix("sql parser error: ")
        .unwrap_or(message);
    match message.find(" at Line: ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

/// The statement's first line without a trailing comment, shortened.
fn excerpt(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let line = line.split("--").next().unwrap_or_default().trim();
    if line.chars().count() > 60 {
        format!("{}…", line.chars().take(60).collect::<String>())
    } else {
        line.to_string()
    }
}

/// Where a parser error occurred (`.. at Line: 3, Column: 5`), to prefer
/// the dialect that understood the most of the statement.
pub(super) fn error_location(message: &str) -> (u64, u64) {
    let Some(i) = message.find(" at Line: ") else {
        return (0, 0);
    };
    let rest = &message[i + " at Line: ".len()..];
    let mut parts = rest.split(", Column: ");
    let line = parts
        .next()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    let column = parts
        .next()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(0);
    (line, column)
}

fn is_trivia(token: &Token) -> bool {
    matches!(token, Token::Whitespace(_) | Token::EOF)
}

/// Identifier-ish words of a text that the tokenizer rejected; only used to
/// decide whether a skip is worth a note.
fn plain_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
        .filter(|w| !w.is_empty())
        // The dot between quoted parts (`[dbo].[t]`, `"s"."t"`) is a word
        // of its own, as `ddl_head` reads a qualified name.
        .map(|w| match w.trim_matches('.') {
            "" => ".".to_string(),
            part => part.to_string(),
        })
        .collect()
}

/// The DDL statements this analysis cares about, recognised by their first words.
struct DdlHead {
    table: String,
    /// `CREATE TABLE` (not an index or `ALTER TABLE`).
    create_table: bool,
    /// `CREATE UNIQUE INDEX`.
    unique_index: bool,
}

fn ddl_head(words: &[String]) -> Option<DdlHead> {
    let upper: Vec<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
    let at = |i: usize| upper.get(i).map_or("", String::as_str);
    let name_after = |mut i: usize| {
        while matches!(at(i), "IF" | "NOT" | "EXISTS" | "ONLY" | "CONCURRENTLY") {
            i += 1;
        }
        // `schema . table`: the table is the last part.
        while at(i + 1) == "." {
            i += 2;
        }
        words.get(i).cloned()
    };
    let mut i = 0;
    match at(0) {
        "CREATE" => {
            i += 1;
            while matches!(
                at(i),
                "OR" | "REPLACE" | "TEMP" | "TEMPORARY" | "UNLOGGED" | "GLOBAL" | "LOCAL"
            ) {
                i += 1;
            }
            // A dialect's kind of table before the word (HSQLDB's `CREATE
            // CACHED TABLE`, SAP HANA's `COLUMN`, Teradata's `MULTISET`),
            // never another object's.
            let kinds = (i..i + 2)
                .take_while(|&k| !matches!(at(k), "TABLE" | "UNIQUE" | "INDEX" | "VIEW" | ""))
                .count();
            if at(i + kinds) == "TABLE" {
                i += kinds;
            }
            match at(i) {
                "TABLE" => name_after(i + 1).map(|table| DdlHead {
                    table,
                    create_table: true,
                    unique_index: false,
                }),
                "UNIQUE" => {
                    // CREATE UNIQUE INDEX [CONCURRENTLY] [IF NOT EXISTS] [name] ON table
                    let on = upper.iter().position(|w| w == "ON")?;
                    name_after(on + 1).map(|table| DdlHead {
                        table,
                        create_table: false,
                        unique_index: true,
                    })
                }
                _ => None,
            }
        }
        "ALTER" if at(1) == "TABLE" => name_after(2).map(|table| DdlHead {
            table,
            create_table: false,
            unique_index: false,
        }),
        _ => None,
    }
}

/// One parsed statement with its tokens, for locating clauses.
struct Statement_<'a> {
    tokens: &'a [TokenWithSpan],
    lines: Lines,
    /// Char offset of the statement in the whole text.
    base: usize,
    vocab: &'a Vocabulary,
    /// The text's tables created with a client-key column so far.
    client_key_tables: &'a HashSet<String>,
}

/// A uniqueness declaration before it is judged.
struct Candidate {
    kind: ConstraintKind,
    range: CharRange,
    columns: Vec<(String, CharRange)>,
}

impl Statement_<'_> {
    fn range(&self, start: Location, end: Location) -> Option<CharRange> {
        Some(CharRange {
            start: self.base + self.lines.offset(start)?,
            end: self.base + self.lines.offset(end)?,
        })
    }

    fn token_range(&self, first: usize, last: usize) -> Option<CharRange> {
        self.range(
            self.tokens.get(first)?.span.start,
            self.tokens.get(last)?.span.end,
        )
    }

    fn ident_range(&self, ident: &sqlparser::ast::Ident) -> CharRange {
        self.range(ident.span.start, ident.span.end)
            .unwrap_or(CharRange {
                start: self.base,
                end: self.base,
            })
    }

    fn token_at(&self, loc: Location) -> Option<usize> {
        if loc.line == 0 {
            return None;
        }
        // Tokens are in source order: binary search, so wide tables stay linear-ish.
        let key = (loc.line, loc.column);
        let i = self
            .tokens
            .partition_point(|t| (t.span.start.line, t.span.start.column) < key);
        (self.tokens.get(i)?.span.start == loc).then_some(i)
    }

    fn keyword(&self, i: usize) -> Option<Keyword> {
        match &self.tokens.get(i)?.token {
            Token::Word(w) if w.quote_style.is_none() => Some(w.keyword),
            _ => None,
        }
    }

    /// The `)` matching the `(` at `open`.
    fn matching_paren(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, t) in self.tokens.iter().enumerate().skip(open) {
            match t.token {
                Token::LParen => depth += 1,
                Token::RParen => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The `(` that opens the list containing token `at`.
    fn enclosing_paren(&self, at: usize) -> Option<usize> {
        let mut depth = 0usize;
        for i in (0..at).rev() {
            match self.tokens[i].token {
                Token::RParen => depth += 1,
                Token::LParen if depth == 0 => return Some(i),
                Token::LParen => depth -= 1,
                _ => {}
            }
        }
        None
    }

    /// `[CONSTRAINT name] PRIMARY KEY (..)` / `UNIQUE [KEY] (..)`: from the
    /// first keyword to the closing parenthesis, found from the first column.
    fn table_constraint_range(
        &self,
        first_column: Option<&sqlparser::ast::Ident>,
    ) -> Option<CharRange> {
        let column = self.token_at(first_column?.span.start)?;
        let open = self.enclosing_paren(column)?;
        let close = self.matching_paren(open)?;
        let mut start = None;
        for i in (0..open).rev() {
            match &self.tokens[i].token {
                Token::Comma | Token::LParen => break,
                Token::Word(_) => match self.keyword(i) {
                    Some(Keyword::ADD) => break,
                    Some(Keyword::PRIMARY | Keyword::UNIQUE | Keyword::CONSTRAINT) => {
                        start = Some(i)
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        self.token_range(start?, close)
    }

    /// `idem_key TEXT PRIMARY KEY`: from the column name to the end of the
    /// keyword(s) that make it unique.
    fn column_constraint_range(
        &self,
        column: &ColumnDef,
        kind: ConstraintKind,
    ) -> Option<CharRange> {
        let name = self.token_at(column.name.span.start)?;
        let wanted = match kind {
            ConstraintKind::PrimaryKey => Keyword::PRIMARY,
            _ => Keyword::UNIQUE,
        };
        let mut depth = 0usize;
        let mut i = name + 1;
        while let Some(t) = self.tokens.get(i) {
            match t.token {
                Token::LParen => depth += 1,
                Token::RParen if depth == 0 => return None,
                Token::RParen => depth -= 1,
                Token::Comma if depth == 0 => return None,
                _ => {}
            }
            if depth == 0 && self.keyword(i) == Some(wanted) {
                let mut end = i;
                let mut j = i + 1;
                while let Some(t) = self.tokens.get(j) {
                    match (&t.token, self.keyword(j)) {
                        (Token::Whitespace(_), _) => j += 1,
                        (_, Some(Keyword::KEY)) => {
                            end = j;
                            break;
                        }
                        _ => break,
                    }
                }
                return self.token_range(name, end);
            }
            i += 1;
        }
        None
    }

    /// `CREATE UNIQUE INDEX .. ON t (..)`: from `UNIQUE` to the closing parenthesis.
    fn unique_index_range(&self) -> Option<CharRange> {
        let unique = (0..self.tokens.len()).find(|&i| self.keyword(i) == Some(Keyword::UNIQUE))?;
        let on = (unique..self.tokens.len()).find(|&i| self.keyword(i) == Some(Keyword::ON))?;
        let open = (on..self.tokens.len()).find(|&i| self.tokens[i].token == Token::LParen)?;
        let close = self.matching_paren(open)?;
        self.token_range(unique, close)
    }

    fn statement_start(&self) -> CharRange {
        let first = self.tokens.iter().position(|t| !is_trivia(&t.token));
        first
            .and_then(|i| self.token_range(i, i))
            .unwrap_or(CharRange {
                start: self.base,
                end: self.base,
            })
    }

    fn index_columns(&self, columns: &[IndexColumn]) -> Vec<(String, CharRange)> {
        let mut out = Vec::new();
        for column in columns {
            let mut idents = Vec::new();
            expr_idents(&column.column.expr, &mut idents);
            out.extend(
                idents
                    .into_iter()
                    .map(|i| (i.value.clone(), self.ident_range(i))),
            );
        }
        out
    }

    fn constraints_of(&self, statement: &Statement, out: &mut Vec<TextConstraint>) {
        let mut candidates = Vec::new();
        let mut table_columns: Vec<(String, CharRange)> = Vec::new();
        let mut generated: Vec<&str> = Vec::new();
        let table;
        match statement {
            Statement::CreateTable(create) => {
                table = table_name(&create.name);
                for column in &create.columns {
                    table_columns.push((column.name.value.clone(), self.ident_range(&column.name)));
                    if is_generated(column) {
                        generated.push(&column.name.value);
                    }
                    self.column_candidates(column, &mut candidates);
                }
                for constraint in &create.constraints {
                    self.table_candidate(constraint, &mut candidates);
                }
            }
            Statement::AlterTable(alter) => {
                table = table_name(&alter.name);
                for operation in &alter.operations {
                    match operation {
                        AlterTableOperation::AddConstraint { constraint, .. } => {
                            self.table_candidate(constraint, &mut candidates)
                        }
                        AlterTableOperation::AddColumn { column_def, .. } => {
                            table_columns.push((
                                column_def.name.value.clone(),
                                self.ident_range(&column_def.name),
                            ));
                            self.column_candidates(column_def, &mut candidates);
                        }
                        _ => {}
                    }
                }
            }
            Statement::CreateIndex(index) if index.unique => {
                table = table_name(&index.table_name);
                let mut columns = self.index_columns(&index.columns);
                // A partial index unique only where `tenant_id = ..`
                // holds is scoped by that predicate: count its columns.
                if let Some(predicate) = &index.predicate {
                    let mut idents = Vec::new();
                    expr_idents(predicate, &mut idents);
                    columns.extend(
                        idents
                            .into_iter()
                            .filter(|i| self.vocab.component_of_name(&i.value).is_some())
                            .map(|i| (i.value.clone(), self.ident_range(i))),
                    );
                }
                let range = self
                    .unique_index_range()
                    .unwrap_or_else(|| self.statement_start());
                candidates.push(Candidate {
                    kind: ConstraintKind::UniqueIndex,
                    range,
                    columns,
                });
            }
            _ => return,
        }
        self.judge(&table, candidates, &table_columns, &generated, out);
    }

    /// Records the candidates of an idempotency table that contain its key
    /// column, with the scope components they have and lack.
    fn judge(
        &self,
        table: &str,
        candidates: Vec<Candidate>,
        table_columns: &[(String, CharRange)],
        generated: &[&str],
        out: &mut Vec<TextConstraint>,
    ) {
        if !self.vocab.names_idempotency_table(table) {
            return;
        }
        // Beside a column named for the client's key (`idem_key`), a
        // request id (`request_id`) is the row's own id, not its key: a
        // surrogate key on it holds no client key.
        let client_key_column = self.client_key_tables.contains(table)
            || (table_columns.iter()).any(|(name, _)| self.vocab.is_client_key_name(name));
        let row_id = |name: &String| {
            client_key_column
                && self.vocab.is_request_id_name(name)
                && !self.vocab.is_client_key_name(name)
        };
        for candidate in candidates {
            let not_generated = |name: &String| !generated.contains(&name.as_str());
            let Some(key_index) = (candidate.columns.iter())
                .position(|(name, _)| {
                    self.vocab.is_key_column(name) && not_generated(name) && !row_id(name)
                })
                .or_else(|| {
                    (candidate.columns.iter()).position(|(name, _)| {
                        self.vocab.is_table_key_column(name) && not_generated(name)
                    })
                })
                // A dedup table keyed by the id of what it dedupes
                // (`dedup_events (event_id PRIMARY KEY)`): that id is its key.
                .or_else(|| {
                    (candidate.columns.iter()).position(|(name, _)| {
                        self.vocab.is_server_id_name(name) && not_generated(name)
                    })
                })
            else {
                continue;
            };
            let present: Vec<(Component, String)> = candidate
                .columns
                .iter()
                .filter_map(|(name, _)| Some((self.vocab.component_of_name(name)?, name.clone())))
                .collect();
            let missing: Vec<Component> = Component::ALL
                .into_iter()
                .filter(|c| !present.iter().any(|(p, _)| p == c))
                .collect();
            let unused_scope_columns = table_columns
                .iter()
                .filter(|(name, _)| !candidate.columns.iter().any(|(c, _)| c == name))
                .filter_map(|(name, range)| {
                    let component = self.vocab.component_of_name(name)?;
                    missing
                        .contains(&component)
                        .then(|| (component, name.clone(), *range))
                })
                .collect();
            let has_scope_version = candidate
                .columns
                .iter()
                .any(|(n, _)| is_scope_version_column(n));
            let has_namespace = candidate
                .columns
                .iter()
                .any(|(n, _)| is_namespace_column(n) && self.vocab.component_of_name(n).is_none());
            let unknown_ids = (candidate.columns.iter().enumerate())
                .filter(|(i, (name, _))| {
                    let words = words(name);
                    *i != key_index
                        && !present.iter().any(|(_, p)| p == name)
                        && words.len() > 1
                        && words.last().is_some_and(|w| is_record_id_word(w))
                })
                .map(|(_, (name, _))| name.clone())
                .collect();
            out.push(TextConstraint {
                range: candidate.range,
                table: table.to_string(),
                kind: candidate.kind,
                columns: candidate.columns,
                key_index,
                present,
                missing,
                unused_scope_columns,
                has_scope_version,
                has_namespace,
                unknown_ids,
            });
        }
    }

    fn column_candidates(&self, column: &ColumnDef, out: &mut Vec<Candidate>) {
        for option in &column.options {
            let kind = match option.option {
                ColumnOption::PrimaryKey(_) => ConstraintKind::PrimaryKey,
                ColumnOption::Unique(_) => ConstraintKind::Unique,
                _ => continue,
            };
            let range = self
                .column_constraint_range(column, kind)
                .unwrap_or_else(|| self.ident_range(&column.name));
            out.push(Candidate {
                kind,
                range,
                columns: vec![(column.name.value.clone(), self.ident_range(&column.name))],
            });
        }
    }

    fn table_candidate(&self, constraint: &TableConstraint, out: &mut Vec<Candidate>) {
        let (kind, columns) = match constraint {
            TableConstraint::PrimaryKey(pk) => (ConstraintKind::PrimaryKey, &pk.columns),
            TableConstraint::Unique(unique) => (ConstraintKind::Unique, &unique.columns),
            _ => return,
        };
        let columns_named = self.index_columns(columns);
        let mut first = Vec::new();
        if let Some(c) = columns.first() {
            expr_idents(&c.column.expr, &mut first);
        }
        let range = self
            .table_constraint_range(first.first().copied())
            .or_else(|| columns_named.first().map(|(_, r)| *r))
            .unwrap_or_else(|| self.statement_start());
        out.push(Candidate {
            kind,
            range,
            columns: columns_named,
        });
    }
}

/// A column the database fills in itself (`request_id UUID DEFAULT
/// gen_random_uuid()`, `BIGSERIAL`, `AUTO_INCREMENT`, identity): a surrogate,
/// not the client's key, whatever its name.
fn is_generated(column: &ColumnDef) -> bool {
    let data_type = column.data_type.to_string().to_ascii_uppercase();
    if data_type.contains("SERIAL") {
        return true;
    }
    column.options.iter().any(|option| match &option.option {
        ColumnOption::Default(Expr::Function(_))
        | ColumnOption::Generated { .. }
        | ColumnOption::Identity(_) => true,
        ColumnOption::DialectSpecific(tokens) => tokens.iter().any(|t| {
            matches!(t, Token::Word(w) if matches!(w.keyword, Keyword::AUTO_INCREMENT | Keyword::AUTOINCREMENT))
        }),
        _ => false,
    })
}

fn table_name(name: &ObjectName) -> String {
    name.0
        .last()
        .and_then(|part| part.as_ident())
        .map(|ident| ident.value.clone())
        .unwrap_or_default()
}

/// The column names an index expression uses (`lower(idem_key)`,
/// `coalesce(tenant_id, '')`, `t.idem_key`).
fn expr_idents<'e>(expr: &'e Expr, out: &mut Vec<&'e sqlparser::ast::Ident>) {
    match expr {
        Expr::Identifier(ident) => out.push(ident),
        Expr::CompoundIdentifier(parts) => out.extend(parts.last()),
        Expr::Nested(inner)
        | Expr::Cast { expr: inner, .. }
        | Expr::Collate { expr: inner, .. }
        | Expr::UnaryOp { expr: inner, .. }
        | Expr::IsNull(inner)
        | Expr::IsNotNull(inner) => expr_idents(inner, out),
        Expr::BinaryOp { left, right, .. } => {
            expr_idents(left, out);
            expr_idents(right, out);
        }
        // Cassandra's composite partition key: `PRIMARY KEY ((a, b), c)`.
        Expr::Tuple(items) => items.iter().for_each(|e| expr_idents(e, out)),
        Expr::Function(function) => {
            if let FunctionArguments::List(list) = &function.args {
                for arg in &list.args {
                    let (FunctionArg::Unnamed(FunctionArgExpr::Expr(e))
                    | FunctionArg::Named {
                        arg: FunctionArgExpr::Expr(e),
                        ..
                    }
                    | FunctionArg::ExprNamed {
                        arg: FunctionArgExpr::Expr(e),
                        ..
                    }) = arg
                    else {
                        continue;
                    };
                    expr_idents(e, out);
                }
            }
        }
        _ => {}
    }
}

/// Table names in a SQL text: the word after FROM, INTO, UPDATE, JOIN, TABLE.
pub(crate) fn sql_tables(lower: &str) -> Vec<String> {
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '"'))
        .filter(|w| !w.is_empty())
        .collect();
    let mut tables = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if matches!(*w, "from" | "into" | "update" | "join" | "table" | "exists") {
            if let Some(next) = words.get(i + 1) {
                if !matches!(*next, "if" | "only" | "not") {
                    tables.push(next.trim_matches('"').to_string());
                }
            }
        }
    }
    tables
}

#[cfg(test)]
mod tests;
