//! Names that tell where a value comes from: server-minted ids and the
//! server key namespace (IDEM007), and the request payload (IDEM003).

use super::text::{contains_ci, ends_with_ci, snake, words};
use super::vocabulary::Vocabulary;

pub(super) const SERVER_PREFIXES: &[&str] = &["s:"];

impl Vocabulary {
    /// Literal prefixes reserved for server-minted keys (`s:` by default).
    pub fn server_prefixes(&self) -> &[String] {
        &self.server_prefixes
    }

    /// Whether a literal key prefix puts a key in the server namespace.
    pub fn has_server_prefix(&self, literal: &str) -> bool {
        self.server_prefixes
            .iter()
            .any(|p| !p.is_empty() && literal.starts_with(p.as_str()))
    }

    /// Whether a literal starts with a server-only namespace prefix (`"s:"`).
    pub fn has_server_namespace_prefix(&self, literal: &str) -> bool {
        self.server_namespaces
            .iter()
            .chain(&self.server_prefixes)
            .any(|p| !p.is_empty() && literal.starts_with(p.as_str()))
    }

    /// Whether an identifier names a server-minted key: an event, delivery,
    /// webhook, message, job or replay id (`event_id`, `evt_id`, `msgId`).
    pub fn is_server_id_name(&self, ident: &str) -> bool {
        let cheap_reject = self.server_ids.is_empty()
            && !RECORD_ID_WORDS.iter().any(|s| ends_with_ci(ident, s))
            && !ends_with_ci(ident, "delivery_tag")
            && !ends_with_ci(ident, "deliverytag");
        if cheap_reject {
            return false;
        }
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.server_ids.iter().any(|n| n == name) {
            return true;
        }
        // The ecosystems' own short names: Nakadi's event `eid`, the job
        // `jid` of Sidekiq, Faktory and their Rust clients, AMQP's
        // `delivery_tag`.
        if matches!(name, "eid" | "jid" | "delivery_tag") {
            return true;
        }
        let w = words(name);
        let [.., entity, last] = w.as_slice() else {
            return false;
        };
        is_record_id_word(last)
            && is_server_entity_word(entity)
            && !w.iter().any(|x| x == "request" || x == "req")
    }

    /// Whether an identifier names the request payload (`body`, `raw_body`,
    /// `body_bytes`, `payload`, `req_bytes`).
    pub fn is_payload_name(&self, ident: &str) -> bool {
        let cheap_reject = self.payload.is_empty()
            && !["body", "payload", "bytes"]
                .iter()
                .any(|s| contains_ci(ident, s));
        if cheap_reject {
            return false;
        }
        let name = snake(ident.trim_start_matches("r#"));
        let name = name.trim_start_matches('_');
        if self.payload.iter().any(|n| n == name) {
            return true;
        }
        let w = words(name);
        let has = |s: &str| w.iter().any(|x| x == s);
        if has("hash") || has("digest") || has("fingerprint") || has("len") || has("size") {
            return false;
        }
        // Only names made of request-body words: `payload_b64` (a JWT part)
        // or `webhook_payload_sig` are something else.
        (has("body") || has("payload") || has("bytes"))
            && w.iter().all(|x| {
                matches!(
                    x.as_str(),
                    "body"
                        | "payload"
                        | "bytes"
                        | "req"
                        | "request"
                        | "raw"
                        | "json"
                        | "full"
                        | "buf"
                        | "http"
                        | "incoming"
                )
            })
    }
}

/// Things whose ids the server (or an upstream system) mints: their
/// redeliveries must never share key space with client keys.
pub fn is_server_entity_word(word: &str) -> bool {
    matches!(
        word,
        "event"
            | "evt"
            | "ev"
            | "delivery"
            | "webhook"
            | "hook"
            | "message"
            | "msg"
            | "job"
            | "replay"
            | "redelivery"
            | "outbox"
            | "notification"
            | "task"
    )
}

/// A call of another crate that mints a fresh id from nothing: a minting
/// verb on a type or crate named for an id (`Timeflake::random()`,
/// `TypeSafeId::new()`, `xid::new()`, `ObjectId::new()`), as
/// `Uuid::new_v4()` is. The caller checks that nothing is given and that
/// the crate defines no such function, whose body would say.
pub fn names_fresh_id_call<S: AsRef<str>>(segments: &[S]) -> bool {
    let [.., owner, verb] = segments else {
        return false;
    };
    // `rand::random::<u128>()`: a random number made from nothing.
    if owner.as_ref() == "rand" && verb.as_ref() == "random" {
        return true;
    }
    // A verb with a form suffix mints too (`scru64::new_string()`,
    // `Uuid::now_v7()`, `generate_id`).
    let verb = verb.as_ref();
    // A crate's eponymous function mints too (`uuid7::uuid7()`).
    let eponymous = verb == owner.as_ref();
    let minting = eponymous
        || ["new", "generate", "random", "now", "create"]
            .iter()
            .any(|v| {
                verb == *v
                    || verb
                        .strip_prefix(v)
                        .is_some_and(|rest| rest.starts_with('_'))
            });
    minting
        && words(owner.as_ref())
            .last()
            .is_some_and(|w| is_id_scheme_word(w))
}

/// A macro that mints an id from nothing (`nanoid!()`, `nanoid!(10)`
/// with a length): named for an id scheme, not `uuid!`, which parses the
/// literal it is given.
pub fn names_minting_macro(name: &str) -> bool {
    name != "uuid" && name != "id" && is_id_scheme_word(name)
}

/// A method asked of a generator for its next id with nothing given
/// (`g.generate()` of a snowflake generator, `flake.next_id()`).
pub fn mints_id_method(method: &str) -> bool {
    matches!(method, "generate" | "generate_id" | "next_id" | "new_id")
        // A random generator's next number, asked with nothing given
        // (`OsRng.next_u64()`, `rng.gen::<u128>()`): fresh, as a v4 UUID is.
        || matches!(method, "next_u64" | "next_u32" | "gen")
}

/// A word naming an id or an id scheme.
/// The words that name a record's own id: `id`, `uuid`, `ulid`, and
/// Twilio's `sid` (`message_sid`). One list for the server-id names
/// (`event_id`) and the id fields of server entities (`msg.id`).
const RECORD_ID_WORDS: &[&str] = &["id", "uuid", "guid", "ulid", "sid"];

/// Whether a word (a field, or the last word of a name) names a record's
/// own id: `id`, `uuid`, `ulid`, `sid`.
pub fn is_record_id_word(word: &str) -> bool {
    RECORD_ID_WORDS.contains(&word)
}

/// Whether a word names a scheme of ids (`ksuid`, `snowflake`, `xid`):
/// a type or crate so named mints ids.
fn is_id_scheme_word(word: &str) -> bool {
    // A scheme's width is no part of its name (`scru64`, `scru128`, `cuid2`).
    let word = word.trim_end_matches(|c: char| c.is_ascii_digit());
    matches!(
        word,
        "id" | "uuid"
            | "ulid"
            | "ksuid"
            | "cuid"
            | "xid"
            | "tsid"
            | "nanoid"
            | "flake"
            | "snowflake"
            | "sonyflake"
            | "timeflake"
            | "objectid"
            | "scru"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_ids_by_the_shape_of_their_call() {
        let minted = [
            "Timeflake::random",
            "TypeSafeId::new",
            "xid::new",
            "bson::oid::ObjectId::new",
            "scru64::new_string",
            "scru128::new",
            "Uuid::now_v7",
            "cuid2::create_id",
        ];
        for path in minted {
            assert!(
                names_fresh_id_call(&path.split("::").collect::<Vec<_>>()),
                "{path}"
            );
        }
        for path in [
            "Utc::now",
            "Instant::now",
            "HashMap::new",
            "new",
            "Order::random",
            "OffsetDateTime::now_utc",
            "Uuid::newline",
        ] {
            assert!(
                !names_fresh_id_call(&path.split("::").collect::<Vec<_>>()),
                "{path}"
            );
        }
        assert!(mints_id_method("next_id") && mints_id_method("generate"));
        assert!(mints_id_method("next_u64") && names_fresh_id_call(&["rand", "random"]));
        assert!(!mints_id_method("next") && !mints_id_method("generated"));
    }

    #[test]
    fn twilio_sids_of_server_entities_are_server_ids() {
        let v = Vocabulary::default();
        assert!(v.is_server_id_name("message_sid") && v.is_server_id_name("MessageSid"));
        assert!(!v.is_server_id_name("account_sid") && !v.is_server_id_name("sid"));
    }
}
