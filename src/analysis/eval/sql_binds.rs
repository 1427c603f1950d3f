//! Key positions inside a SQL statement, for all rules: which bind
//! parameters of a query are the key of the row it reaches. The stored
//! values (`SET response_body = $3`, a response column of an `INSERT`) are
//! never part of the key, whatever they hold.
//!
//! The key of a statement is, in order of evidence: the conflict target
//! (`ON CONFLICT (scope_hash)`), the columns the `WHERE` clause compares
//! with a parameter, or, for a plain `INSERT`, the inserted columns named
//! like a key or a scope component. When none of these can be read, the
//! caller treats every bind as part of the key (the old, cautious reading).

use crate::analysis::vocab::Vocabulary;

/// One lexical token of a (lower-cased) statement.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// An identifier or keyword, qualifier and quotes stripped (`t."key"` → `key`).
    Word(String),
    /// A bind parameter, by index into the binds (`$2` → 1, the third `?` → 2).
    Param(usize),
    /// Any other character outside string literals.
    Punct(char),
    /// A string literal (`'capture'`): a value written in the statement.
    Str,
}

/// The key columns of a statement and the binds that fill them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct KeyBinds {
    /// Indices into the binds, in statement order.
    pub(super) binds: Vec<usize>,
    /// The key columns, for the scope components their names show.
    pub(super) columns: Vec<String>,
    /// Each key column that meets a parameter, with that parameter.
    pub(super) filled: Vec<(String, usize)>,
}

/// The key binds of `sql` (lower case), or `None` when the statement's key
/// cannot be read.
#[cfg(test)]
pub(super) fn key_binds(sql: &str, vocab: &Vocabulary) -> Option<KeyBinds> {
    key_binds_known(sql, vocab, None)
}

/// [`key_binds`], where `looked_up` are the columns the same code looks
/// the statement's table up by: a plain `INSERT` into it is keyed on those
/// (`SELECT .. WHERE tenant_id = $1 AND body_key = $2`, then `INSERT`).
pub(super) fn key_binds_known(
    sql: &str,
    vocab: &Vocabulary,
    looked_up: Option<&[String]>,
) -> Option<KeyBinds> {
    let toks = tokenize(sql);
    let pairs = column_params(&toks);
    let mut columns = match (lookup_columns_of(&toks), looked_up) {
        (None, Some(known)) if insert_groups(&toks).is_some() => {
            // The inserted scope columns key the row too.
            let mut columns = known.to_vec();
            for column in key_columns(&toks, &pairs, vocab).unwrap_or_default() {
                if !columns.contains(&column) {
                    columns.push(column);
                }
            }
            columns
        }
        _ => key_columns(&toks, &pairs, vocab)?,
    };
    // A scope column the statement itself fills (`route = 'capture'`) keys
    // the row as much as a bound one; it has no bind.
    for column in literal_columns(&toks) {
        if vocab.component_of_name(&column).is_some() && !columns.contains(&column) {
            columns.push(column);
        }
    }
    // A key computed inside the statement (`digest($1 || $2)`) is not read
    // here: every bind may feed it.
    filling(&pairs, columns)
}

/// The binds that fill `columns`, when there are any.
fn filling(pairs: &[(String, usize)], columns: Vec<String>) -> Option<KeyBinds> {
    let filled: Vec<(String, usize)> = pairs
        .iter()
        .filter(|(c, _)| columns.contains(c))
        .cloned()
        .collect();
    let mut binds: Vec<usize> = filled.iter().map(|(_, p)| *p).collect();
    binds.sort_unstable();
    binds.dedup();
    (!binds.is_empty()).then_some(KeyBinds {
        binds,
        columns,
        filled,
    })
}

/// The key binds of a statement on a business table (`transactions`) that
/// looks rows up by the client's key: its conflict target or `WHERE`
/// comparisons include a client key column (`idempotency_key`). Such a table
/// is an idempotency store by use, whatever it is called. Plain `INSERT`
/// columns are not read here: inserting the key beside other data is no
/// lookup, and the table's own unique constraint is IDEM008's business.
pub(super) fn client_key_lookup(sql: &str, vocab: &Vocabulary) -> Option<KeyBinds> {
    let toks = tokenize(sql);
    let columns = conflict_target(&toks).or_else(|| {
        let compared: Vec<String> = where_pairs(&toks).into_iter().map(|(c, _)| c).collect();
        (!compared.is_empty()).then_some(compared)
    })?;
    if !columns.iter().any(|c| vocab.is_client_key_name(c)) {
        return None;
    }
    filling(&column_params(&toks), columns)
}

fn tokenize(sql: &str) -> Vec<Tok> {
    let chars: Vec<char> = sql.chars().collect();
    let mut toks = Vec::new();
    let mut ordinal = 0usize;
    let mut i = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            // A string literal: skip to its end ('' is an escaped quote).
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += 1;
            }
            i += 1;
            toks.push(Tok::Str);
        } else if c == '@'
            && matches!(chars.get(i + 1), Some('p' | 'P'))
            && chars.get(i + 2).is_some_and(char::is_ascii_digit)
        {
            // SQL Server's positional parameters: `@P1`.
            let start = i + 2;
            let mut j = start;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let number: usize = chars[start..j]
                .iter()
                .collect::<String>()
                .parse()
                .unwrap_or(0);
            if number >= 1 {
                toks.push(Tok::Param(number - 1));
            }
            i = j;
        } else if c == '$' || c == '?' {
            let start = i + 1;
            let mut j = start;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let number: Option<usize> = chars[start..j].iter().collect::<String>().parse().ok();
            match (c, number) {
                (_, Some(n)) if n >= 1 => toks.push(Tok::Param(n - 1)),
                ('?', None) => {
                    toks.push(Tok::Param(ordinal));
                    ordinal += 1;
                }
                _ => toks.push(Tok::Punct(c)),
            }
            i = j;
        } else if c.is_ascii_alphanumeric() || c == '_' || c == '"' || c == '`' || c == '.' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || matches!(chars[i], '_' | '"' | '`' | '.'))
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let last = word.rsplit('.').next().unwrap_or(&word);
            toks.push(Tok::Word(last.trim_matches(['"', '`']).to_string()));
        } else {
            if !c.is_whitespace() {
                toks.push(Tok::Punct(c));
            }
            i += 1;
        }
    }
    toks
}

/// Where a column meets a parameter: `col = $1` in a `WHERE`, and the
/// columns of an `INSERT` against their `VALUES` items. `SET col = $2` is an
/// assignment of a stored value, not a key comparison, and is left out.
fn column_params(toks: &[Tok]) -> Vec<(String, usize)> {
    let mut pairs = insert_pairs(toks);
    pairs.extend(where_pairs(toks));
    pairs
}

fn where_pairs(toks: &[Tok]) -> Vec<(String, usize)> {
    (where_comparisons(toks).into_iter())
        .filter_map(|(left, right)| match (left, right) {
            (Tok::Word(c), Tok::Param(p)) | (Tok::Param(p), Tok::Word(c)) => Some((c.clone(), *p)),
            _ => None,
        })
        .collect()
}

/// The two sides of each `a = b` in the statement's `WHERE` clause.
fn where_comparisons(toks: &[Tok]) -> Vec<(&Tok, &Tok)> {
    let mut sides = Vec::new();
    let mut in_where = false;
    for (i, tok) in toks.iter().enumerate() {
        if let Tok::Word(w) = tok {
            match w.as_str() {
                "where" => in_where = true,
                "set" | "returning" | "order" | "group" | "limit" | "values" => in_where = false,
                _ => {}
            }
        }
        if !in_where || toks.get(i + 1) != Some(&Tok::Punct('=')) {
            continue;
        }
        if let Some(right) = toks.get(i + 2) {
            sides.push((tok, right));
        }
    }
    sides
}

/// The comma-separated items of a parenthesised group, each its tokens.
type Items = Vec<Vec<Tok>>;

/// `INSERT INTO table ( cols ) VALUES ( items )`: the columns and the
/// items of the first row.
fn insert_groups(toks: &[Tok]) -> Option<(Items, Items)> {
    let into = toks.iter().position(|t| *t == Tok::Word("into".into()))?;
    let open = toks[into..]
        .iter()
        .position(|t| *t == Tok::Punct('('))
        .map(|p| p + into)?;
    let (columns, after) = group(toks, open);
    let values = toks[after..]
        .iter()
        .position(|t| *t == Tok::Word("values".into()))
        .map(|p| p + after)?;
    if toks.get(values + 1) != Some(&Tok::Punct('(')) {
        return None;
    }
    let (items, _) = group(toks, values + 1);
    Some((columns, items))
}

/// The table an `INSERT INTO t (..)` writes.
fn insert_table(toks: &[Tok]) -> Option<&str> {
    let into = toks.iter().position(|t| *t == Tok::Word("into".into()))?;
    match toks.get(into + 1)? {
        Tok::Word(table) => Some(table),
        _ => None,
    }
}

fn insert_pairs(toks: &[Tok]) -> Vec<(String, usize)> {
    let Some((columns, items)) = insert_groups(toks) else {
        return Vec::new();
    };
    columns
        .iter()
        .zip(items.iter())
        .filter_map(|(col, item)| {
            let [Tok::Word(c)] = col.as_slice() else {
                return None;
            };
            let params: Vec<usize> = item
                .iter()
                .filter_map(|t| match t {
                    Tok::Param(p) => Some(*p),
                    _ => None,
                })
                .collect();
            // `$1` or `$1::uuid`: the item is the parameter itself.
            match (item.first(), params.as_slice()) {
                (Some(Tok::Param(p)), [_]) => Some((c.clone(), *p)),
                _ => None,
            }
        })
        .collect()
}

/// The comma-separated items of the parenthesised group opening at `open`,
/// and the index after its closing parenthesis.
fn group(toks: &[Tok], open: usize) -> (Vec<Vec<Tok>>, usize) {
    let mut items = vec![Vec::new()];
    let mut depth = 0usize;
    for (i, tok) in toks.iter().enumerate().skip(open) {
        match tok {
            Tok::Punct('(') => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            Tok::Punct(')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (items, i + 1);
                }
            }
            Tok::Punct(',') if depth == 1 => {
                items.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = items.last_mut() {
            last.push(tok.clone());
        }
    }
    (items, toks.len())
}

/// The columns a statement keys its rows on by its own text: its conflict
/// target, or the columns its `WHERE` compares with a parameter.
pub(super) fn lookup_columns(sql: &str) -> Option<Vec<String>> {
    lookup_columns_of(&tokenize(sql))
}

fn lookup_columns_of(toks: &[Tok]) -> Option<Vec<String>> {
    if let Some(target) = conflict_target(toks) {
        return Some(target);
    }
    let compared: Vec<String> = where_pairs(toks).into_iter().map(|(c, _)| c).collect();
    (!compared.is_empty()).then_some(compared)
}

/// The statement's key columns (see the module docs).
fn key_columns(toks: &[Tok], pairs: &[(String, usize)], vocab: &Vocabulary) -> Option<Vec<String>> {
    if let Some(columns) = lookup_columns_of(toks) {
        return Some(columns);
    }
    // An idempotency table says what it dedupes: its `*_key`/`*_token`
    // column is the key whatever it is called (`pass_import_dedup.upload_key`).
    let idem_table = insert_table(toks).is_some_and(|t| vocab.is_idempotency_table(t));
    let keyish: Vec<String> = pairs
        .iter()
        .map(|(c, _)| c.clone())
        .filter(|c| {
            vocab.is_key_column(c)
                || vocab.component_of_name(c).is_some()
                || (idem_table && vocab.is_table_key_column(c))
        })
        .collect();
    (!keyish.is_empty()).then_some(keyish)
}

/// Columns given a string literal in the statement: compared in its `WHERE`
/// (`route = 'capture'`) or inserted (`VALUES ($1, 'capture')`).
fn literal_columns(toks: &[Tok]) -> Vec<String> {
    let mut columns: Vec<String> = (where_comparisons(toks).into_iter())
        .filter_map(|sides| match sides {
            (Tok::Word(c), Tok::Str) => Some(c.clone()),
            _ => None,
        })
        .collect();
    if let Some((names, items)) = insert_groups(toks) {
        for (name, item) in names.iter().zip(&items) {
            if let ([Tok::Word(c)], [Tok::Str]) = (name.as_slice(), item.as_slice()) {
                columns.push(c.clone());
            }
        }
    }
    columns
}

/// `ON CONFLICT (a, b)`: the columns of the constraint the row is keyed on.
fn conflict_target(toks: &[Tok]) -> Option<Vec<String>> {
    let at = toks
        .windows(2)
        .position(|w| w[0] == Tok::Word("on".into()) && w[1] == Tok::Word("conflict".into()))?;
    if toks.get(at + 2) != Some(&Tok::Punct('(')) {
        return None;
    }
    let (items, _) = group(toks, at + 2);
    let columns: Vec<String> = items
        .iter()
        .filter_map(|item| match item.as_slice() {
            [Tok::Word(c), ..] => Some(c.clone()),
            _ => None,
        })
        .collect();
    (!columns.is_empty()).then_some(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binds(sql: &str) -> Option<Vec<usize>> {
        key_binds(&sql.to_ascii_lowercase(), &Vocabulary::default()).map(|k| k.binds)
    }

    #[test]
    fn a_scope_column_filled_by_a_literal_is_a_key_column() {
        let columns = |sql: &str| {
            key_binds(&sql.to_ascii_lowercase(), &Vocabulary::default()).map(|k| k.columns)
        };
        let insert =
            "INSERT INTO idempotency_keys (tenant_id, principal_id, route, idem_key, status) \
                      VALUES ($1, $2, 'capture', $3, 'in_progress')";
        let found = columns(insert).unwrap_or_default();
        assert!(found.contains(&"route".to_string()), "{found:?}");
        assert!(!found.contains(&"status".to_string()), "{found:?}");
        let update = "UPDATE idempotency_keys SET status = 'completed', route = 'x' \
                      WHERE tenant_id = $1 AND route = 'capture' AND idem_key = $2";
        let found = columns(update).unwrap_or_default();
        assert!(found.contains(&"route".to_string()), "{found:?}");
        assert_eq!(binds(update), Some(vec![0, 1]));
        // A literal in `SET` is a stored value, not a key column.
        let set_only = "UPDATE idempotency_keys SET route = 'x' WHERE idem_key = $1";
        let found = columns(set_only).unwrap_or_default();
        assert!(!found.contains(&"route".to_string()), "{found:?}");
    }

    #[test]
    fn conflict_target_is_the_key() {
        let sql = "INSERT INTO idempotency_keys (scope_hash, principal, route, idempotency_key) \
                   VALUES ($1, $2, $3, $4) ON CONFLICT (scope_hash) DO NOTHING";
        assert_eq!(binds(sql), Some(vec![0]));
    }

    #[test]
    fn update_set_values_are_not_key() {
        let sql = "UPDATE idempotency_keys SET status = 'done', event_id = $2 WHERE key = $1";
        assert_eq!(binds(sql), Some(vec![0]));
    }

    #[test]
    fn insert_without_conflict_keeps_key_and_scope_columns() {
        let sql =
            "INSERT INTO idempotency (key, user_id, response, status_code) VALUES (?, ?, ?, ?)";
        assert_eq!(binds(sql), Some(vec![0, 1]));
    }

    #[test]
    fn plain_insert_is_keyed_as_its_table_is_looked_up() {
        let select = "select id from form_idem where tenant_id = $1 and body_key = $2";
        let looked_up = super::lookup_columns(select);
        assert_eq!(
            looked_up.as_deref(),
            Some(&["tenant_id".to_string(), "body_key".to_string()][..])
        );
        let insert = "insert into form_idem (tenant_id, body_key, lead) values ($1, $2, $3)";
        let vocab = Vocabulary::default();
        let known = super::key_binds_known(insert, &vocab, looked_up.as_deref());
        assert_eq!(known.map(|k| k.binds), Some(vec![0, 1]));
        // Without the lookup the idempotency table's `*_key` column is its
        // key by the table's name; in a business table only the tenant
        // column is key-like by its name.
        assert_eq!(binds(insert), Some(vec![0, 1]));
        let business = "insert into leads (tenant_id, body_key, lead) values ($1, $2, $3)";
        assert_eq!(binds(business), Some(vec![0]));
    }

    #[test]
    fn casts_and_where_with_several_columns() {
        let sql = "SELECT r FROM idempotency WHERE user_id = $1::uuid AND idempotency_key = $2";
        assert_eq!(binds(sql), Some(vec![0, 1]));
    }

    fn lookup(sql: &str) -> Option<Vec<usize>> {
        client_key_lookup(&sql.to_ascii_lowercase(), &Vocabulary::default()).map(|k| k.binds)
    }

    #[test]
    fn business_table_looked_up_by_client_key_column() {
        let find = "SELECT id FROM transactions WHERE account_id = $1 AND idempotency_key = $2";
        assert_eq!(lookup(find), Some(vec![0, 1]));
        let upsert = "INSERT INTO usage (q, idempotency_key) VALUES ($1, $2) \
                      ON CONFLICT (idempotency_key) DO NOTHING";
        assert_eq!(lookup(upsert), Some(vec![1]));
        // No lookup by the key: a plain insert, or a lookup by id.
        assert_eq!(
            lookup("INSERT INTO transactions (amount, idempotency_key) VALUES ($1, $2)"),
            None
        );
        assert_eq!(lookup("SELECT * FROM transactions WHERE id = $1"), None);
    }

    #[test]
    fn unreadable_statement_gives_none() {
        assert_eq!(binds("SELECT check_idem($1, $2)"), None);
        let computed =
            "INSERT INTO idem (k, v) VALUES (digest($1 || $2), $3) ON CONFLICT (k) DO NOTHING";
        assert_eq!(binds(computed), None);
    }
}
