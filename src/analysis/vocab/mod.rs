//! The naming vocabulary: which identifiers, literals, methods and receivers
//! play which role. Defaults come from the rule catalog; every list a user
//! may extend is extended by the `[vocabulary]` configuration.
//!
//! One file per concern, each asking only the files above it in this list:
//! - `text`: word splitting and allocation-free case-insensitive matching;
//! - `vocabulary`: the [`Vocabulary`] value (its lists and content id);
//! - `extension`: the configuration schema ([`VocabularyExtension`]) and how
//!   configured names join the lists;
//! - `semantics`: how the evaluator reads methods (pass-through, opaque
//!   getters) and sanitising replacements — fixed, not configurable;
//! - `sentinels`: "nobody in particular" names and placeholder literals;
//! - `roles`: the user-extendable roles — tenant, principal and route
//!   (the key's scope [`Component`]s), client key, request id, key positions,
//!   the key header;
//! - `stores`: store receivers and methods, key constructors, idempotency
//!   tables and key columns;
//! - `provenance`: server-minted ids, the server namespace, the payload;
//! - `evidence`: idempotency evidence in raw texts, shared by the
//!   analysis's idempotency context and the pre-filter's unit gate;
//! - `verbs`: IDEM004's claim / complete / release / lock / transaction verbs,
//!   asked only through the `Vocabulary` methods so configured verbs count
//!   everywhere;
//! - `prefilter_view`: the words the pre-filter searches files for;
//! - `builtin`: the built-in lists gathered into `Vocabulary::default()`.
//!
//! Nothing here imports another analysis module: the evaluator, the claim
//! walker, the hash recognisers and the pre-filter ask the vocabulary, never
//! the other way round. Every item is re-exported here, so callers use
//! `crate::analysis::vocab::X`.

mod builtin;
mod documented;
mod evidence;
mod extension;
mod prefilter_view;
mod provenance;
mod roles;
mod semantics;
mod sentinels;
mod stores;
mod text;
mod verbs;
mod vocabulary;

pub use documented::{attribute_documents_client_key, documented_key_names, documented_parameter};
pub use evidence::{
    calls_conditional_insert, compile_words, ident_span, starts_word, word_hits, Evidence,
};
pub use extension::VocabularyExtension;
pub use provenance::{
    is_record_id_word, is_server_entity_word, mints_id_method, names_fresh_id_call,
    names_minting_macro,
};
pub use roles::{names_key_header_constant, names_operation, Component};
pub use semantics::{
    is_escape_replacement, is_file_read, is_wrapper_call, BUFFER_APPEND_METHODS, ELEMENT_METHODS,
    KEY_SEPARATORS, MINTING_CONSTRUCTORS, NO_TEXT_FLOW, OPAQUE_GETTERS, OWN_ACCESSORS,
    POSITIONAL_SQL_METHODS, PREPARED_EXECUTE_METHODS, REMAINDER_METHODS, SETTER_ACCESSORS,
    TRANSPARENT_METHODS,
};
pub use sentinels::{is_sentinel_literal, is_sentinel_name};
pub use stores::{
    is_claim_api_method, is_conditional_insert, is_dynamo_key_attribute,
    is_dynamo_primary_attribute, is_namespace_column, is_scope_version_column, names_handle_type,
    names_idempotency_store, names_map_entry, names_request_extensions, names_strong_store,
    names_transaction_handle, writes_with_options, CLOSURE_ENTRY_METHODS, DYNAMO_STORE,
    STRONG_STORE_WORDS,
};
pub use text::{contains_ci, ends_with_ci, snake, words};
pub use verbs::{
    is_lock_verb, CLAIM_VERBS, COMPLETE_VERBS, LOCK_VERBS, NOT_CLAIMED_VARIANTS, RELEASE_VERBS,
    RESPONSE_WORDS, RESPONSE_WRITE_METHODS, TRANSACTION_VERBS,
};
pub use vocabulary::Vocabulary;
