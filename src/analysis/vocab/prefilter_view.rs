//! The pre-filter's view of the vocabulary (see `crate::prefilter`): the
//! words whose absence from a file rules out a rule's facts.

use super::vocabulary::Vocabulary;

impl Vocabulary {
    /// Words (matched case-insensitively anywhere in code and string
    /// literals) without which no identifier or literal of a file can be a
    /// client key value: every built-in and configured client-key name and
    /// header, the request-id names and the key constructors (a placeholder
    /// component makes their key argument a client key). `idem` covers every
    /// name [`Vocabulary::is_client_key_name`] accepts by its words.
    pub fn client_key_triggers(&self) -> Vec<String> {
        let mut out = vec!["idem".to_string()];
        let request_ids = ["request_id", "req_id", "requestid", "request-id"];
        let constructors = self
            .key_constructors
            .iter()
            .map(|c| super::text::last_segment(c));
        let names = self
            .client_key
            .iter()
            .chain(&self.headers)
            .map(String::as_str);
        for name in names.chain(request_ids).chain(constructors) {
            out.push(name.to_ascii_lowercase());
        }
        out
    }

    /// The built-in and configured fragments of idempotency table names
    /// (`idempot`, `dedup`, `replay`): a unit naming one is where request
    /// ids count as client keys.
    pub fn idempotency_table_words(&self) -> Vec<String> {
        self.idempotency_tables
            .iter()
            .map(|t| t.to_ascii_lowercase())
            .collect()
    }

    /// Substrings of every name [`Vocabulary::is_claim_verb`] accepts (the
    /// built-in prefixes are verbs of the list themselves).
    pub fn claim_verb_words(&self) -> Vec<String> {
        self.claim_verbs
            .iter()
            .map(|v| v.to_ascii_lowercase())
            .collect()
    }
}
