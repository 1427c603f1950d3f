//! The tolerant reading of DDL for IDEM008: a `CREATE TABLE` that no
//! dialect parses is read from its tokens, so its PRIMARY KEY / UNIQUE
//! clauses are still checked.

use super::*;

/// The tolerant fallback for a `CREATE TABLE` no dialect parses (see
/// [`Statement_::tolerant_create_table`]); false when it cannot read it.
pub(super) fn read(
    statement_text: &str,
    base: usize,
    head: &DdlHead,
    vocab: &Vocabulary,
    out: &mut Vec<TextConstraint>,
) -> bool {
    let Ok(tokens) = Tokenizer::new(&PostgreSqlDialect {}, statement_text).tokenize_with_location()
    else {
        return false;
    };
    if !head.create_table {
        return names_no_key(&tokens);
    }
    let none = std::collections::HashSet::new();
    let ctx = Statement_ {
        tokens: &tokens,
        lines: Lines::new(statement_text),
        base,
        vocab,
        client_key_tables: &none,
    };
    ctx.tolerant_create_table(&head.table, out)
}

/// The tolerant reading of a `CREATE TABLE` that no dialect parses (an
/// extension's column type, a storage clause, a typo far from the key):
/// the column list is split at its top-level commas and each element is
/// read from its tokens alone, so `PRIMARY KEY (key, user_id)` is still
/// checked. Only uniqueness is read; everything else in an element is
/// passed over.
impl Statement_<'_> {
    /// Reads the column list of `table`; false when there is none to read
    /// (then the statement stays skipped).
    pub(super) fn tolerant_create_table(&self, table: &str, out: &mut Vec<TextConstraint>) -> bool {
        let Some(open) = (0..self.tokens.len()).find(|&i| self.tokens[i].token == Token::LParen)
        else {
            return false;
        };
        let Some(close) = self.matching_paren(open) else {
            return false;
        };
        let mut candidates = Vec::new();
        let mut table_columns = Vec::new();
        let mut generated = Vec::new();
        let mut understood = false;
        let mut property_key = Vec::new();
        for element in self.list_items(open, close) {
            // A `;` inside the list continues the line (Visual FoxPro).
            let element: Vec<usize> = element
                .into_iter()
                .filter(|&i| !is_trivia(&self.tokens[i].token))
                .filter(|&i| self.tokens[i].token != Token::SemiColon)
                .collect();
            let Some(&first) = element.first() else {
                continue;
            };
            // `CONSTRAINT name PRIMARY KEY (..)`.
            let head = if self.keyword(first) == Some(Keyword::CONSTRAINT) {
                element.get(2).copied()
            } else {
                Some(first)
            };
            let Some(head) = head else { continue };
            match self.keyword(head) {
                Some(Keyword::PRIMARY | Keyword::UNIQUE) => {
                    let kind = if self.keyword(head) == Some(Keyword::PRIMARY) {
                        ConstraintKind::PrimaryKey
                    } else {
                        ConstraintKind::Unique
                    };
                    let listed = element
                        .iter()
                        .any(|&i| self.tokens[i].token == Token::LParen);
                    let candidate = if listed {
                        self.tolerant_table_constraint(first, head, kind)
                    } else {
                        self.key_expression(&element, kind)
                    };
                    if let Some(candidate) = candidate {
                        candidates.push(candidate);
                        understood = true;
                    }
                }
                Some(
                    Keyword::FOREIGN
                    | Keyword::CHECK
                    | Keyword::EXCLUDE
                    | Keyword::LIKE
                    | Keyword::CONSTRAINT,
                ) => understood = true,
                // MySQL `KEY idx (col)` / `INDEX idx (col)`: not unique. A
                // column named `key` is followed by its type instead.
                Some(Keyword::KEY | Keyword::INDEX)
                    if element
                        .iter()
                        .take(3)
                        .any(|&i| self.tokens[i].token == Token::LParen) =>
                {
                    understood = true
                }
                _ => {
                    let Some(name) = self.word(first) else {
                        continue;
                    };
                    understood = true;
                    let name_range = self.token_range(first, first).unwrap_or_default();
                    table_columns.push((name.clone(), name_range));
                    if self.tolerant_generated(&element) {
                        generated.push(name.clone());
                    }
                    self.tolerant_column_candidates(&element, &name, name_range, &mut candidates);
                    if self.has_key_property(&element) {
                        let range = self.token_range(first, *element.last().unwrap_or(&first));
                        property_key.push((name.clone(), name_range, range.unwrap_or(name_range)));
                    }
                }
            }
        }
        // Cloud Spanner's and ClickHouse's key comes after the column list:
        // `) PRIMARY KEY (tenant_id, idem_key)`; so does Doris's and
        // StarRocks' unique key model, `) UNIQUE KEY (idem_key)`.
        if let Some(candidate) = self.trailing_primary_key(close) {
            candidates.push(candidate);
        }
        // The columns with a key property make one key together, reported
        // at the first of them.
        if let Some((_, _, range)) = property_key.first() {
            candidates.push(Candidate {
                kind: ConstraintKind::PrimaryKey,
                range: *range,
                columns: property_key
                    .iter()
                    .map(|(n, r, _)| (n.clone(), *r))
                    .collect(),
            });
        }
        let generated: Vec<&str> = generated.iter().map(String::as_str).collect();
        self.judge(table, candidates, &table_columns, &generated, out);
        understood
    }

    /// `PRIMARY KEY (..)` or `UNIQUE KEY (..)` outside the column list
    /// that ends at `close`. Not Doris's `DUPLICATE KEY` or `AGGREGATE
    /// KEY`, which are sort keys.
    fn trailing_primary_key(&self, close: usize) -> Option<Candidate> {
        let mut depth = 0usize;
        for i in close + 1..self.tokens.len() {
            let kind = match self.keyword(i) {
                Some(Keyword::PRIMARY) => Some(ConstraintKind::PrimaryKey),
                Some(Keyword::UNIQUE) => Some(ConstraintKind::Unique),
                _ => None,
            };
            match (&self.tokens[i].token, kind) {
                (Token::LParen, _) => depth += 1,
                (Token::RParen, _) => depth = depth.saturating_sub(1),
                (_, Some(kind)) if depth == 0 => {
                    let next = |from: usize| {
                        (from + 1..self.tokens.len()).find(|&j| !is_trivia(&self.tokens[j].token))
                    };
                    let key = next(i);
                    if key.is_some_and(|j| self.keyword(j) == Some(Keyword::KEY)) {
                        return self.tolerant_table_constraint(i, i, kind);
                    }
                    // Teradata's `UNIQUE PRIMARY INDEX (idem_key)` (also
                    // `UNIQUE INDEX`): an index that enforces uniqueness.
                    let index = match key.map(|j| self.keyword(j)) {
                        Some(Some(Keyword::PRIMARY)) => key.and_then(next),
                        _ => key,
                    };
                    let unique_index = kind == ConstraintKind::Unique
                        && index.is_some_and(|j| self.keyword(j) == Some(Keyword::INDEX));
                    if unique_index {
                        return self.tolerant_table_constraint(i, i, kind);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// A key written as an expression of its columns instead of a list
    /// (Visual FoxPro's `PRIMARY KEY org_id + user_id + idem_key TAG pk`):
    /// the word after `KEY` and each word joined to it by `+`, `||` or
    /// `,`, up to the first that is not (the tag).
    fn key_expression(&self, element: &[usize], kind: ConstraintKind) -> Option<Candidate> {
        let key = element
            .iter()
            .position(|&i| self.keyword(i) == Some(Keyword::KEY))?;
        let mut columns: Vec<(String, CharRange)> = Vec::new();
        let mut joined = true;
        for &i in &element[key + 1..] {
            match &self.tokens[i].token {
                Token::Plus | Token::StringConcat | Token::Comma => joined = true,
                Token::Word(_) if joined => {
                    columns.extend(self.word(i).zip(self.token_range(i, i)));
                    joined = false;
                }
                _ => break,
            }
        }
        if columns.is_empty() {
            return None;
        }
        Some(Candidate {
            kind,
            range: self.token_range(*element.first()?, *element.last()?)?,
            columns,
        })
    }

    /// The token indices of each top-level item of the list `open`..`close`.
    fn list_items(&self, open: usize, close: usize) -> Vec<Vec<usize>> {
        let mut items = vec![Vec::new()];
        let mut depth = 0usize;
        for i in open + 1..close {
            match self.tokens[i].token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                Token::Comma if depth == 0 => {
                    items.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(item) = items.last_mut() {
                item.push(i);
            }
        }
        items
    }

    /// An identifier's text (unquoted).
    fn word(&self, i: usize) -> Option<String> {
        match &self.tokens.get(i)?.token {
            Token::Word(w) => Some(w.value.clone()),
            _ => None,
        }
    }

    /// `[CONSTRAINT c] PRIMARY KEY (a, lower(b))`: the columns of the first
    /// parenthesised list after the keyword.
    fn tolerant_table_constraint(
        &self,
        start: usize,
        head: usize,
        kind: ConstraintKind,
    ) -> Option<Candidate> {
        let open = (head..self.tokens.len()).find(|&i| self.tokens[i].token == Token::LParen)?;
        let close = self.matching_paren(open)?;
        let mut columns = Vec::new();
        for i in self.list_columns(open, close) {
            if let Some(name) = self.word(i) {
                columns.push((name, self.token_range(i, i)?));
            }
        }
        Some(Candidate {
            kind,
            range: self.token_range(start, close)?,
            columns,
        })
    }

    /// The column of each item of the list `open`..`close`: a word that is
    /// not a function name or an ordering keyword (`lower(idem_key) DESC`);
    /// every column of a parenthesised group (a CQL composite partition
    /// key, `PRIMARY KEY ((tenant_id, principal_id), idem_key)`).
    fn list_columns(&self, open: usize, close: usize) -> Vec<usize> {
        let mut columns = Vec::new();
        for item in self.list_items(open, close) {
            let first = item
                .iter()
                .copied()
                .find(|&i| !is_trivia(&self.tokens[i].token));
            if let Some(group) = first.filter(|&i| self.tokens[i].token == Token::LParen) {
                if let Some(end) = self.matching_paren(group) {
                    columns.extend(self.list_columns(group, end));
                }
                continue;
            }
            let column = item.iter().copied().find(|&i| {
                let next = (i + 1..close).find(|&j| !is_trivia(&self.tokens[j].token));
                let called = next.is_some_and(|j| self.tokens[j].token == Token::LParen);
                let ordering = matches!(
                    self.keyword(i),
                    Some(
                        Keyword::ASC
                            | Keyword::DESC
                            | Keyword::NULLS
                            | Keyword::FIRST
                            | Keyword::LAST
                            | Keyword::COLLATE
                    )
                );
                self.word(i).is_some() && !called && !ordering
            });
            columns.extend(column.filter(|&i| self.word(i).is_some()));
        }
        columns
    }

    /// `key TEXT NOT NULL PRIMARY KEY`, `k TEXT UNIQUE`: the column alone.
    fn tolerant_column_candidates(
        &self,
        element: &[usize],
        name: &str,
        name_range: CharRange,
        out: &mut Vec<Candidate>,
    ) {
        let mut depth = 0usize;
        for (n, &i) in element.iter().enumerate().skip(1) {
            match self.tokens[i].token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            let kind = match (depth, self.keyword(i)) {
                (0, Some(Keyword::PRIMARY)) => ConstraintKind::PrimaryKey,
                (0, Some(Keyword::UNIQUE)) => ConstraintKind::Unique,
                _ => continue,
            };
            let end = match element.get(n + 1) {
                Some(&k) if self.keyword(k) == Some(Keyword::KEY) => k,
                _ => i,
            };
            out.push(Candidate {
                kind,
                range: self.token_range(element[0], end).unwrap_or(name_range),
                columns: vec![(name.to_string(), name_range)],
            });
        }
    }

    /// Kinetica's column property inside the type's parentheses:
    /// `VARCHAR(256, primary_key, shard_key)`.
    fn has_key_property(&self, element: &[usize]) -> bool {
        let mut depth = 0usize;
        element.iter().any(|&i| {
            match self.tokens[i].token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth > 0
                && self
                    .word(i)
                    .is_some_and(|w| w.eq_ignore_ascii_case("primary_key"))
        })
    }

    /// A column the database fills in (see [`is_generated`]), from its tokens.
    fn tolerant_generated(&self, element: &[usize]) -> bool {
        element.iter().enumerate().any(|(n, &i)| {
            let word = self.word(i).unwrap_or_default().to_ascii_uppercase();
            let default_call = self.keyword(i) == Some(Keyword::DEFAULT)
                && element
                    .get(n + 2)
                    .is_some_and(|&j| self.tokens[j].token == Token::LParen);
            word.contains("SERIAL")
                || matches!(
                    word.as_str(),
                    "GENERATED" | "IDENTITY" | "AUTO_INCREMENT" | "AUTOINCREMENT"
                )
                || default_call
        })
    }
}

/// Whether a statement no parser knows names no key, constraint or index:
/// an `ALTER` of a storage option (TiDB's `SET TIFLASH REPLICA 1`) cannot
/// change what the table is keyed by, so IDEM008 has nothing to check.
pub(super) fn names_no_key(tokens: &[TokenWithSpan]) -> bool {
    !tokens.iter().any(|t| match &t.token {
        Token::Word(w) => {
            matches!(
                w.keyword,
                Keyword::PRIMARY
                    | Keyword::UNIQUE
                    | Keyword::KEY
                    | Keyword::INDEX
                    | Keyword::CONSTRAINT
            ) || w.value.eq_ignore_ascii_case("key")
        }
        _ => false,
    })
}
