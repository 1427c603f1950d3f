//! Recognising hash functions, hashers, freshly minted ids and key
//! namespaces by their paths (the facts behind IDEM003 and IDEM007).
//! Pure functions over syntax: the evaluator decides what flows where.

use super::syntax::path_segments;
use super::value::Value;
use super::vocab::{contains_ci, words, Vocabulary};

/// What a call to a recognised path does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashCall {
    /// A one-shot digest of its arguments: `Sha256::digest(body)`,
    /// `blake3::hash(b)`, `xxh3_64(b)`, `crc32fast::hash(b)`.
    Digest,
    /// A new hasher object (`Sha256::new()`, `DefaultHasher::new()`); with
    /// `feeds_args`, its arguments are fed in (`Sha256::new_with_prefix(b)`).
    NewHasher {
        /// The arguments are hashed content, not a seed or a key.
        feeds_args: bool,
    },
    /// Feeds argument `value` into the hasher argument `hasher`:
    /// `Hash::hash(&body, &mut h)`, `Digest::update(&mut h, body)`.
    Feed {
        /// Index of the hashed value.
        value: usize,
        /// Index of the hasher.
        hasher: usize,
    },
    /// Finishes the hasher given as the first argument: `Digest::finalize(h)`.
    Finalize,
    /// A freshly generated id: `Uuid::new_v4()`, `Uuid::now_v7()`, `Ulid::new()`.
    FreshId,
}

/// Modules and crates whose free functions hash their input.
const HASH_MODULES: &[&str] = &[
    "sha1",
    "sha1_smol",
    "sha2",
    "sha256",
    "sha3",
    "md5",
    "md_5",
    "md4",
    "blake2",
    "blake3",
    "xxhash_rust",
    "xxh3",
    "xxh64",
    "xxh32",
    "twox_hash",
    "seahash",
    "crc32fast",
    "crc32c",
    "crc",
    "crc64",
    "fxhash",
    "ahash",
    "murmur3",
    "fnv",
    "highway",
    "siphasher",
    "digest",
    "sha",
    "hash",
];

/// Whether a path segment names a hashing crate or module: one of the
/// list, or a family's name glued to `hash` (`farmhash`, `t1ha`,
/// `cityhasher`, `metrohash`) as [`is_digest_fn_name`] reads a function.
pub fn is_hash_module(name: &str) -> bool {
    HASH_MODULES.contains(&name)
        // A module named for what its functions do (`sp_core::hashing`,
        // `bitcoin_hashes`'s crates, `util::hashes`).
        || matches!(name, "hashing" | "hashes")
        || is_digest_fn_name(name)
        // A crate named for what it hashes with (`ascon_hash`, `belt_hash`,
        // `polymur_hash`, `keccak_hash`).
        || name.strip_suffix("_hash").is_some_and(|head| !head.is_empty())
        || ["hasher", "hash"].iter().any(|suffix| {
            // `generichash`, `shorthash` (sodium's modules), `simhash`.
            name.strip_suffix(suffix)
                .is_some_and(|head| !head.is_empty() && head.chars().all(|c| c.is_ascii_lowercase()))
        })
}

/// Function names of one-shot digests when qualified by a hash module or type.
const DIGEST_FNS: &[&str] = &[
    "digest",
    "hash",
    "compute",
    "hash32",
    "hash64",
    "hash128",
    "hash256",
    "checksum",
    "hash_seeded",
    "hash_with_seed",
    "oneshot",
    "sha1",
    "sha256",
    "sha384",
    "sha512",
    "md5",
    "digest_bytes",
];

/// Whether a method of a hasher object digests its one argument at once
/// (`crc.checksum(&bytes)`, `algo.digest(data)`). Not `hash`, which on a
/// value feeds a hasher (`body.hash(&mut h)`).
pub fn is_one_shot_digest_method(method: &str) -> bool {
    method != "hash" && DIGEST_FNS.contains(&method)
}

/// Free functions that are digests even when imported unqualified.
const STANDALONE_DIGESTS: &[&str] = &[
    "xxh3_64",
    "xxh3_128",
    "xxh3_64_with_seed",
    "xxh3_128_with_seed",
    "xxh64",
    "xxh32",
    "crc32c",
    "murmur3_32",
    "murmur3_x64_128",
    "murmur3_x86_128",
];

/// Hasher types (besides every `*Hasher`).
const HASHER_TYPES: &[&str] = &[
    "Sha1",
    "Sha224",
    "Sha256",
    "Sha384",
    "Sha512",
    "Sha512_224",
    "Sha512_256",
    "Sha3_224",
    "Sha3_256",
    "Sha3_384",
    "Sha3_512",
    "Keccak224",
    "Keccak256",
    "Keccak384",
    "Keccak512",
    "Md5",
    "Md4",
    "Md2",
    "Blake2b",
    "Blake2s",
    "Blake2b512",
    "Blake2s256",
    "Blake2bVar",
    "Blake2sVar",
    "Xxh3",
    "Xxh3Default",
    "Xxh64",
    "Xxh32",
    "XxHash64",
    "XxHash32",
    "XxHash3_64",
    "Crc",
    "Crc32",
    "Crc64",
    "Ripemd160",
    "Sm3",
    "Whirlpool",
    "Shake128",
    "Shake256",
];

fn is_hasher_type(name: &str) -> bool {
    // A MAC (`Hmac<Sha256>`, `HmacSha256`) digests what it is fed as a hash
    // does: keyed by a secret, a MAC of the body is still one value per
    // payload (a signature compared with a header is no key position).
    // `FNV1aHasher64`, `Murmur3Hasher32`: a width after the word too.
    let hasher = name.trim_end_matches(|c: char| c.is_ascii_digit());
    (hasher.ends_with("Hasher") && hasher != "BuildHasher")
        || name.starts_with("Hmac")
        || HASHER_TYPES.contains(&name)
        || names_hash_family_type(name)
}

/// Type names of hash families beyond the list: the family's name starts
/// the type (`Keccak`, `Md4`, `Sha3_256`, `Blake2bMac`, `Crc64`,
/// `Murmur3`, `Fnv1a`), or a `Hash` word ends it with the width
/// (`MetroHash64`, `XxHash3_128`). Not `HashMap`, `BlockHash` (a value) or
/// `Shard`.
fn names_hash_family_type(name: &str) -> bool {
    let digit_or_end =
        |rest: &str| rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_digit() || c == '_');
    let family = |prefix: &str, tail: fn(&str) -> bool| name.strip_prefix(prefix).is_some_and(tail);
    let any = |_: &str| true;
    family("Sha", digit_or_end)
        || family("Md", |r| r.starts_with(|c: char| c.is_ascii_digit()))
        || family("Crc", digit_or_end)
        || family("Shake", digit_or_end)
        || [
            "Blake",
            "Keccak",
            "Xxh",
            "Murmur",
            "Ripemd",
            "Whirlpool",
            "Fnv",
            "Highway",
            "SipHash",
            "Siphash",
            "Groestl",
            "Skein",
            "Streebog",
            "T1ha",
            "WyHash",
            "Wyhash",
            "GxHash",
            "Gxhash",
            "Sm3",
        ]
        .iter()
        .any(|p| family(p, any))
        || name
            .rfind("Hash")
            .is_some_and(|i| i > 0 && name[i + 4..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Free functions whose names say they hash their input, outside the lists
/// (`gxhash128`, `wyhash::wyhash`, `farmhash::hash64`, `t1ha0`,
/// `keccak256`, `sha256_hex`): a word of a hash family, and no word of a
/// hash *map*, a hasher builder or a comparison. The evaluator reads a
/// crate-local function of such a name by its body, not its name.
pub fn is_digest_fn_name(name: &str) -> bool {
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return false;
    }
    // `hash` glued to a family's name or a width (`gxhash128`, `wyhash`,
    // `farmhash`, `hash64`), not a word of its own: `hash(..)`,
    // `content_hash(..)` and `hash_bytes(..)` are a service's own helpers
    // (read by their bodies) far more often than a crate's digest, and
    // taking every one for a digest made the pre-filter select most of a
    // service.
    let glued_hash = name.find("hash").is_some_and(|i| {
        let (head, tail) = (&name[..i], &name[i + 4..]);
        let head_glued = !head.is_empty() && !head.ends_with('_');
        let width = !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit() || c == '_');
        (head_glued && (tail.is_empty() || width)) || (head.is_empty() && width)
    });
    const FAMILIES: &[&str] = &[
        "xxh", "crc8", "crc16", "crc24", "crc32", "crc64", "murmur", "blake", "keccak", "sha1",
        "sha2", "sha3", "sha5", "md5", "md4", "ripemd", "t1ha", "fnv1", "adler", "fletcher",
        "gost", "kupyna", "streebog", "groestl", "shabal",
    ];
    const NOT: &[&str] = &["hasher", "hashmap", "hashset", "verify", "compare", "check"];
    (glued_hash || FAMILIES.iter().any(|f| name.contains(f)))
        && !NOT.iter().any(|n| name.contains(n))
}

/// Whether a string literal names a hash algorithm (`"SHA-256"`,
/// `"sha3-512"`, `"BLAKE2b(256)"`, `"RIPEMD-160"`, `"MD5"`): a
/// constructor given one (`HashFunction::new("SHA-256")`, botan; a
/// `MessageDigest` by name) makes a hasher whatever its type is called.
/// A family's name and then its width or variant, nothing else
/// (`"shared"`, `"md"`, `"crc error"` are not).
pub fn names_hash_algorithm(literal: &str) -> bool {
    if literal.len() > 24 {
        return false;
    }
    let norm: String = literal
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '(' | ')' | '/' | ' '))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if !norm.chars().all(|c| c.is_ascii_alphanumeric()) {
        return false;
    }
    // Families whose name alone is an algorithm, and families that need a
    // width or version after it.
    const ALONE: &[&str] = &[
        "keccak",
        "whirlpool",
        "sm3",
        "streebog",
        "skein",
        "tiger",
        "groestl",
    ];
    const WIDTH: &[&str] = &[
        "sha", "md", "blake", "ripemd", "crc", "xxh", "shake", "keccak", "skein", "streebog",
        "gost",
    ];
    let tail_is_width = |tail: &str| {
        tail.starts_with(|c: char| c.is_ascii_digit())
            && tail
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, 'b' | 's' | 'c' | 'x'))
    };
    ALONE.contains(&norm.as_str())
        || WIDTH
            .iter()
            .any(|f| norm.strip_prefix(f).is_some_and(tail_is_width))
}

/// Traits whose associated functions `classify_call` reads as hash calls
/// (`Digest::digest(b)`, `Hasher::finish(&h)`). `Hash::hash(&b, &mut h)`
/// only feeds a hasher that some other fact made.
const HASH_TRAITS: &[&str] = &["Digest", "DynDigest", "Hasher", "Update", "FixedOutput"];

/// Traits whose import makes `.update(..)` a hasher's method (RustCrypto's
/// `Digest`, `Update` and `Mac`, `ExtendableOutput` of XOFs, std's `Hasher`).
pub fn is_hash_protocol_trait(name: &str) -> bool {
    HASH_TRAITS.contains(&name) || matches!(name, "Mac" | "ExtendableOutput" | "VariableOutput")
}

/// Associated functions of RustCrypto's `Digest` trait that only a hash
/// has: `AnyType::digest(b)` in a file importing the trait is the trait's
/// (`Gost94CryptoPro::digest(raw)`), as the compiler resolves it.
pub fn is_trait_digest_fn(name: &str) -> bool {
    matches!(name, "digest" | "new_with_prefix")
}

/// Methods that hash or make a hasher on any receiver (see `hash_method`).
const HASHING_METHODS: &[&str] = &["hash_one", "build_hasher", "hasher", "new_hasher"];

/// Case-insensitive substrings of every name the pre-filter's
/// [`is_hash_token`] accepts: a file without one holds no hash fact.
pub const HASH_CANDIDATE_WORDS: &[&str] = &[
    "sha",
    "md5",
    "md_5",
    "md4",
    "md2",
    "blake",
    "xxh",
    "crc",
    "hash",
    "fnv",
    "murmur",
    "highway",
    "digest",
    "keccak",
    "ripemd",
    "sm3",
    "whirlpool",
    "shake",
    "update",
    "fixedoutput",
    "t1ha",
    "groestl",
    "skein",
    "streebog",
    "adler",
    "fletcher",
    "gost",
    "kupyna",
    "shabal",
];

/// Where an identifier stands, for [`is_hash_token`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPlace {
    /// Followed by `::`: the head of a path.
    PathHead,
    /// `name(..)`: a call of a free function.
    Call,
    /// `.name(..)`: a method call.
    MethodCall,
    /// Inside a function signature's parentheses: a parameter's type.
    ParamType,
    /// Anywhere else.
    Other,
}

/// Associated functions of a hasher type that make an empty hasher
/// (`Sha256::new()`, `Xxh3::with_seed(s)`); `new_with_prefix` also feeds
/// its argument.
const HASHER_CONSTRUCTORS: &[&str] = &[
    "new",
    "default",
    "with_seed",
    "new_with_seed",
    "with_secret",
    "new_keyed",
    "new_derive_key",
    "new_from_slice",
];

/// A hasher type's constructor: one of the list, or any `new_*`/`with_*`
/// (siphasher's `SipHasher13::new_with_keys(k0, k1)`, `with_key`), but
/// `new_with_prefix`, which also feeds (see [`classify_call`]).
pub fn is_hasher_constructor_name(name: &str) -> bool {
    HASHER_CONSTRUCTORS.contains(&name)
        || (name != "new_with_prefix" && (name.starts_with("new_") || name.starts_with("with_")))
}

/// Whether `Type::name(..)` makes a new hasher object (`Sha256::new()`,
/// `DefaultHasher::default()`), per [`classify_call`].
pub fn is_hasher_constructor(ty: &str, name: &str) -> bool {
    // Any other associated function may make one when called without
    // arguments (`Keccak::v256()`); the pre-filter cannot count them.
    let other_fn = name.starts_with(|c: char| c.is_ascii_lowercase())
        && !DIGEST_FNS.contains(&name)
        && !matches!(name, "update" | "write" | "finalize" | "finish");
    (is_hasher_type(ty)
        && (is_hasher_constructor_name(name) || name == "new_with_prefix" || other_fn))
        || (names_hasher_by_last_word(ty) && name == "new")
}

/// A type named for what it makes, a hash or digest word last
/// (`XoodyakHash`, `AsconDigest`): made by `new()` from nothing
/// (`XoodyakHash::new()`) it is a hasher to be fed, as a hash crate's type
/// is. Given something (`BlockHash::from(b)`, `TxHash::new(bytes)`) it is
/// a hash value, and so is its `default()`, the zero hash.
fn names_hasher_by_last_word(ty: &str) -> bool {
    let w = words(ty);
    w.len() >= 2
        && w.last()
            .is_some_and(|l| matches!(l.as_str(), "hash" | "digest"))
}

/// What may follow `Type::` in a call [`classify_call`] recognises.
fn is_hash_path_fn(name: &str) -> bool {
    DIGEST_FNS.contains(&name)
        || is_hasher_constructor_name(name)
        || matches!(
            name,
            "new_with_prefix" | "update" | "write" | "finalize" | "finish"
        )
}

/// Whether an identifier can start a payload-hash fact the evaluator
/// recognises: the pre-filter's exact view of [`classify_call`],
/// [`type_is_hasher`] and the hashing methods, so that a field named
/// `content_md5`, a type `Sha256Ctx` or an enum `UnionHasher::H2(..)`
/// never selects code. `next` is the path segment after a `PathHead`,
/// when known.
pub fn is_hash_token(ident: &str, place: TokenPlace, next: Option<&str>) -> bool {
    match place {
        TokenPlace::PathHead => {
            is_hash_module(ident)
                || next.is_some_and(|f| {
                    is_listed_foreign_digest(&[ident, f]) || is_type_digest_fn(ident, f)
                })
                || ((is_hasher_type(ident) || HASH_TRAITS.contains(&ident))
                    && next.is_none_or(is_hash_path_fn))
        }
        TokenPlace::Call => STANDALONE_DIGESTS.contains(&ident) || is_digest_fn_name(ident),
        TokenPlace::MethodCall => HASHING_METHODS.contains(&ident),
        TokenPlace::ParamType => is_hasher_type(ident) || ident == "Digest" || ident == "DynDigest",
        TokenPlace::Other => false,
    }
}

/// Whether a call of a function outside the crate is a one-shot digest
/// by its path alone: a module's `hash`/`hash64`/`digest`/`checksum`
/// (`museair::hash(&bytes, 7)`, `seahash::hash(b)`), whatever the crate
/// is called. The value's flow says what it digests; a crate-local
/// function of that name is read by its body instead.
pub fn is_foreign_digest<S: AsRef<str>>(segments: &[S]) -> bool {
    foreign_digest(segments, true)
}

/// [`is_foreign_digest`] without the names read by their words: what the
/// pre-filter's scan reads as a hash call wherever a path is so named. A
/// word inside any module path (`http::compute_checksum`) kept a fifth
/// more of the library corpus; the evaluator still reads such a call
/// where a kept function makes it.
fn is_listed_foreign_digest(segments: &[&str]) -> bool {
    foreign_digest(segments, false)
}

/// A type's function with a digest word (`Oid::hash_object(kind, body)`):
/// the evaluator reads it as a digest where the type is imported from
/// another crate ([`is_foreign_digest`] on the resolved path); the
/// pre-filter, which does not resolve imports, keeps every such call.
fn is_type_digest_fn(ident: &str, f: &str) -> bool {
    ident.starts_with(|c: char| c.is_ascii_uppercase())
        && names_digest_word(f)
        && !DIGEST_FNS.contains(&f)
}

fn foreign_digest<S: AsRef<str>>(segments: &[S], by_words: bool) -> bool {
    let [head, .., last] = segments else {
        return false;
    };
    let (head, last) = (head.as_ref(), last.as_ref());
    let lower = |s: &S| s.as_ref().starts_with(|c: char| c.is_ascii_lowercase());
    let middle = &segments[1..segments.len() - 1];
    let of_crate = head.starts_with(|c: char| c.is_ascii_lowercase())
        && !matches!(head, "crate" | "self" | "super" | "std" | "core" | "alloc");
    // A module's function of a digest's name, or one of any module or
    // type whose name has the word (`git2::Oid::hash_object(kind, body)`,
    // `simhash::compute_hash(b)`).
    // A type's bare `hash` is the `Hash` protocol's feed (`Hasher::hash`),
    // not a digest; its `digest` is a one-shot (`lsh::Lsh256::digest(b)`).
    of_crate
        && ((DIGEST_FNS.contains(&last) && (middle.iter().all(lower) || last == "digest"))
            || (by_words
                && names_digest_word(last)
                && !DIGEST_FNS.contains(&last)
                && middle.iter().rev().skip(1).all(lower)))
}

/// Whether a short function name starts or ends with a digest's word
/// (`hash_object`, `compute_digest`, `checksum_of`) and has none of a
/// hasher builder's, a collection's, a comparison's or a conversion's.
/// Not a long name with the word inside (`wrap_body_in_checksum_body`):
/// the pre-filter reads every path so named as a hash call.
fn names_digest_word(name: &str) -> bool {
    let words = words(name);
    let has = |w: &[&str]| words.iter().any(|x| w.contains(&x.as_str()));
    let digest = |w: Option<&String>| {
        w.is_some_and(|w| matches!(w.as_str(), "hash" | "digest" | "checksum"))
    };
    words.len() <= 3
        && (digest(words.first()) || digest(words.last()))
        && !has(&[
            "hasher", "map", "set", "verify", "compare", "eq", "from", "to", "into", "parse", "as",
            "new", "password",
        ])
}

/// Classifies a call by its path segments (`["sha2", "Sha256", "digest"]`).
pub fn classify_call(segments: &[String], nargs: usize) -> Option<HashCall> {
    let last = segments.last()?.as_str();
    let prev = segments.len().checked_sub(2).and_then(|i| segments.get(i));
    let prev = prev.map(String::as_str);
    let in_hash_module = segments[..segments.len() - 1]
        .iter()
        .any(|s| is_hash_module(s));
    match (prev, last) {
        (
            Some("Uuid" | "uuid"),
            "new_v4" | "now_v7" | "new_v7" | "now_v6" | "new_v6" | "now_v1",
        ) => return Some(HashCall::FreshId),
        (Some("Ulid" | "ulid" | "Ksuid" | "KsuidMs" | "Cuid"), "new" | "generate") => {
            return Some(HashCall::FreshId)
        }
        // A name-based UUID is the SHA-1 (v5) or MD5 (v3) of its name.
        (Some("Uuid" | "uuid"), "new_v5" | "new_v3") if nargs == 2 => {
            return Some(HashCall::Digest)
        }
        // `<Sha256 as Digest>::digest(body)`, `Digest::digest(body)`.
        (Some("Digest" | "DynDigest"), "digest") if nargs == 1 => return Some(HashCall::Digest),
        // The trait's own constructors (`D::new()` where `D: Digest`).
        (Some("Digest"), "new" | "default") if nargs == 0 => {
            return Some(HashCall::NewHasher { feeds_args: false })
        }
        (Some("Digest"), "new_with_prefix") if nargs == 1 => {
            return Some(HashCall::NewHasher { feeds_args: true })
        }
        (Some("Hash"), "hash") if nargs == 2 => {
            return Some(HashCall::Feed {
                value: 0,
                hasher: 1,
            })
        }
        (Some("Digest" | "Update" | "Hasher" | "DynDigest"), "update" | "write") if nargs == 2 => {
            return Some(HashCall::Feed {
                value: 1,
                hasher: 0,
            })
        }
        (Some("Digest" | "Hasher" | "DynDigest" | "FixedOutput"), "finalize" | "finish")
            if nargs == 1 =>
        {
            return Some(HashCall::Finalize)
        }
        _ => {}
    }
    if let Some(ty) = prev {
        if nargs == 0 && last == "new" && names_hasher_by_last_word(ty) {
            return Some(HashCall::NewHasher { feeds_args: false });
        }
        // `ring::digest::Context::new(..)`, sodium's `generichash::State::
        // new(len, key)`, and any type of a hash crate
        // made from nothing (`hmac_sha512::Hash::new()`): what such a
        // crate's type is before it is fed is a hasher.
        let qualified_context = in_hash_module
            && (matches!(ty, "Context" | "State")
                || (nargs == 0 && ty.starts_with(|c: char| c.is_ascii_uppercase())));
        if is_hasher_type(ty) || qualified_context {
            // `Sm3Hash::new(&data)` (libsm): a hasher made over its one
            // argument. A seed, size or algorithm given there
            // (`Crc::new(&CRC_32_ISCSI)`) carries no payload to feed.
            if last == "new" && nargs == 1 {
                return Some(HashCall::NewHasher { feeds_args: true });
            }
            if is_hasher_constructor_name(last) {
                return Some(HashCall::NewHasher { feeds_args: false });
            }
            // `Sha1::from(&body)` (sha1_smol): a hasher made fed.
            if matches!(last, "new_with_prefix" | "from" | "from_buffer") && nargs == 1 {
                return Some(HashCall::NewHasher { feeds_args: true });
            }
            // `Keccak::v256()`: a hasher's own constructor.
            let unknown = !DIGEST_FNS.contains(&last)
                && !matches!(last, "update" | "write" | "finalize" | "finish");
            if nargs == 0 && unknown && last.starts_with(|c: char| c.is_ascii_lowercase()) {
                return Some(HashCall::NewHasher { feeds_args: false });
            }
        }
        if (is_hasher_type(ty) || in_hash_module) && DIGEST_FNS.contains(&last) {
            return Some(HashCall::Digest);
        }
    }
    // Any other function of a crate named for its hash given data
    // (`chksum_sha2_256::chksum(body)`, `adler::adler32_slice(body)`):
    // what such a crate computes from its input is a digest. Not a
    // hasher's own protocol (`Sha256::update(&mut h, b)`), which the
    // arms above read.
    let protocol = is_feed_method(last) || is_finalize_method(last) || last == "new_with_prefix";
    // A type's associated function there too (`crc16::State::<XMODEM>::
    // calculate(&b)`, dryoc's `GenericHash::hash_with_defaults_to_vec(&b,
    // None)`), but what makes a hasher or a key, or converts a value that
    // already is a hash (`Hash::from_hex(s)`, `Hash::new(&bytes)`).
    let of_type = prev.is_some_and(|p| p.starts_with(|c: char| c.is_ascii_uppercase()));
    let converts = [
        "from", "try_", "to_", "as_", "into", "parse", "clone", "verify", "compare",
    ]
    .iter()
    .any(|w| last.starts_with(w))
        || is_hasher_constructor_name(last)
        || matches!(last, "eq" | "cmp" | "generate" | "random");
    if in_hash_module
        && nargs > 0
        && !protocol
        && last.starts_with(|c: char| c.is_ascii_lowercase())
        && (!of_type || !converts)
    {
        return Some(HashCall::Digest);
    }
    // Given nothing, such a function makes a hasher object (pyhash's
    // `murmur3_x64_128()`, whose `hash(&bytes)` digests).
    if nargs == 0 && (STANDALONE_DIGESTS.contains(&last) || is_digest_fn_name(last)) {
        return Some(HashCall::NewHasher { feeds_args: false });
    }
    if STANDALONE_DIGESTS.contains(&last) || is_digest_fn_name(last) {
        return Some(HashCall::Digest);
    }
    None
}

/// Whether a parameter's type is a hasher (`&mut Hasher`, `&mut Sha256`,
/// `impl Digest`, `&mut impl std::hash::Hasher`).
pub fn type_is_hasher(ty: &syn::Type) -> bool {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| is_hasher_type(w) || w == "Digest" || w == "DynDigest")
}

/// Methods that feed their argument into the hasher they are called on.
pub fn is_feed_method(method: &str) -> bool {
    matches!(
        method,
        "update" | "input" | "consume" | "write" | "write_all" | "chain_update" | "chain"
        // A sponge's (`xoodyak`, `ascon`) word for feeding.
        | "absorb"
    ) || (method.starts_with("write_") && method != "write_str" && method != "write_fmt")
        || with_form_suffix(method, &["update", "input", "consume"])
}

/// `result_str`, `input_str`, `digest_hex`, `update_bytes`: one of a
/// hasher's own verbs with the form of its input or output after it
/// (rust-crypto's `Digest::input_str`/`result_str` and their kin).
fn with_form_suffix(method: &str, verbs: &[&str]) -> bool {
    let Some((verb, form)) = method.split_once('_') else {
        return false;
    };
    verbs.contains(&verb)
        && matches!(
            form,
            "str" | "string" | "hex" | "bytes" | "slice" | "vec" | "array" | "base64" | "b64"
        )
}

/// Whether a method called on a value known to be a hasher finishes it:
/// a finishing verb, flate2's `Crc::sum()` (on anything else `sum` is
/// an iterator's), or a getter named for the digest (libsm's
/// `get_hash()`).
pub fn finishes_hasher(method: &str) -> bool {
    // A getter only: `checksum_crc32()` of a request builder sets a field.
    is_finalize_method(method)
        || method == "sum"
        || method.strip_prefix("get_").is_some_and(names_digest_word)
}

/// Methods that finish a hasher and return the digest.
pub fn is_finalize_method(method: &str) -> bool {
    matches!(
        method,
        "finalize"
            | "finalize_reset"
            | "finalize_fixed"
            | "finalize_boxed"
            | "finalize_xof"
            | "finish"
            | "finish128"
            | "digest"
            | "digest128"
            | "compute"
            | "result"
            | "result_reset"
            | "sum32"
            | "sum64"
            | "hexdigest"
            // A sponge's output, blake2's output of a chosen length.
            | "squeeze"
            | "finalize_variable"
    ) || with_width_suffix(method, &["finish", "finalize", "digest", "sum"])
        || with_form_suffix(
            method,
            &["finalize", "finish", "digest", "result", "compute"],
        )
}

/// `finish32`, `digest128`, `sum64`: a finishing verb and the digest's
/// width.
fn with_width_suffix(method: &str, verbs: &[&str]) -> bool {
    verbs.iter().any(|v| {
        method.strip_prefix(v).is_some_and(|w| {
            let w = w.strip_prefix('_').unwrap_or(w);
            !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
        })
    })
}

/// Methods of encoders (`BASE64_STANDARD.encode(&digest)`) whose result is
/// their argument in another alphabet.
pub fn is_encode_method(method: &str) -> bool {
    matches!(
        method,
        "encode"
            | "encode_to_string"
            | "encode_string"
            | "encode_upper"
            | "encode_lower"
            | "encode_hex"
    )
}

/// Whether an identifier says its value is a fingerprint stored beside a
/// key rather than a key (`fingerprint`, `RequestFingerprint`).
pub fn names_fingerprint(ident: &str) -> bool {
    contains_ci(ident, "fingerprint")
        && words(ident)
            .iter()
            .any(|w| w == "fingerprint" || w == "fingerprints")
}

/// Whether a parameter may hold the client key a caller passes in
/// (`key`, `idem_key`, `k`): a finding that needs the key to be absent
/// waits for the call site.
pub fn may_hold_client_key(name: &str, vocab: &Vocabulary) -> bool {
    if name == "k" || vocab.is_client_key_name(name) {
        return true;
    }
    words(name)
        .iter()
        .any(|w| w == "key" || w == "keys" || w == "idem")
}

/// Whether a parameter's type is a key a caller builds (`&ScopedKey`,
/// `IdempotencyKey`, `CacheKey`): like a key-named parameter, what it holds
/// is only known at the call site.
pub fn type_may_hold_key(ty: &syn::Type) -> bool {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    text.split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| w.ends_with("Key") || w.starts_with("Scoped"))
}

/// `Namespace::Server` / `Namespace::Client` from idem-scope.
pub fn namespace_path(path: &syn::Path, value: &mut Value) {
    let segs: Vec<String> = path_segments(path);
    match segs.as_slice() {
        [.., ns, variant] if ns == "Namespace" && variant == "Server" => value.server_ns = true,
        [.., ns, variant] if ns == "Namespace" && variant == "Client" => value.client_ns = true,
        _ => {}
    }
}

/// A builder's method given only a namespace (`.namespace(Namespace::Server)`)
/// puts what the builder builds into it.
pub fn namespace_args(args: &[Value], value: &mut Value) {
    let only_namespace = |a: &&Value| a.server_id.is_none() && !a.scoped && a.client_key.is_none();
    for arg in args.iter().filter(only_namespace) {
        value.server_ns |= arg.server_ns;
        value.client_ns |= arg.client_ns;
    }
}

/// `idem_scope::scoped_server(..)` puts its key into the server namespace;
/// `scoped(..)` into the client namespace, also when it is given a server
/// id, unless its key part starts with a configured server prefix.
pub fn constructor_namespace(path: &str, args: &[Value], value: &mut Value) {
    if path.rsplit("::").next() == Some("scoped_server") {
        value.server_ns = true;
    } else if args
        .get(3)
        .is_some_and(|key| key.server_ns && key.client_key.is_none())
    {
        // A key part written with a configured server prefix
        // (`format!("s:{event_id}")`): rules.md counts that literal prefix
        // as a server-only namespace wherever the key is built.
        value.server_ns = true;
    } else {
        value.client_ns = true;
    }
    if let Some(arg) = args.iter().find(|a| a.server_id.is_some()) {
        value.server_id = arg.server_id.clone();
        // One alternative of the key (`header.unwrap_or_else(|| Uuid::new_v4()..)`).
        value.server_alone = arg.server_alone;
    }
}

/// A struct literal is a key through its key fields only: a payload hash in
/// `fingerprint`/`request_hash` or a fresh id in `lease_id` describes the
/// record, it does not make the record a payload-hash or server key.
/// Returns what the field contributes to the record as a whole.
pub fn struct_field_facts(value: &Value, field: &str, vocab: &Vocabulary) -> Value {
    let mut part = value.clone();
    if part.payload_hash.is_none() && part.server_id.is_none() {
        return part;
    }
    let keyish = field == "id" || vocab.is_key_position_name(field);
    if !keyish {
        part.payload_hash = None;
        part.hash_keyed = None;
        part.server_id = None;
        part.server_concat = None;
    }
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(path: &str) -> Vec<String> {
        path.split("::").map(str::to_string).collect()
    }

    #[test]
    fn foreign_one_shot_digests() {
        assert!(is_foreign_digest(&["museair", "hash"]));
        assert!(is_foreign_digest(&["seahash", "v2", "checksum"]));
        // The crate's own and the standard library's are not.
        for path in [
            &["crate", "hash"][..],
            &["std", "hash"],
            &["self", "digest"],
        ] {
            assert!(!is_foreign_digest(path), "{path:?}");
        }
        // A type's function, or another verb.
        assert!(!is_foreign_digest(&["museair", "Hasher", "hash"]));
        // A function with a digest's word, of a module or of a type.
        assert!(is_foreign_digest(&["git2", "Oid", "hash_object"]));
        assert!(is_foreign_digest(&["simhash", "compute_digest"]));
        assert!(!is_foreign_digest(&["hashbrown", "HashMap", "with_hasher"]));
        assert!(!is_foreign_digest(&["blake3", "Hash", "from_hex"]));
        assert!(!is_foreign_digest(&["argon2", "hash_password"]));
        assert!(!is_foreign_digest(&["museair", "encode"]));
        assert!(is_finalize_method("finish32"));
        assert!(is_finalize_method("digest_128"));
        assert!(!is_finalize_method("finished"));
        assert!(!is_finalize_method("sum"));
        // On a value known to be a hasher, flate2's `Crc::sum()`.
        assert!(finishes_hasher("sum") && finishes_hasher("finalize"));
        // Modules named for a hash: sodium's, not a stash or `hashbrown`.
        assert!(is_hash_module("generichash") && is_hash_module("shorthash"));
        assert!(!is_hash_module("stash") && !is_hash_module("hashbrown"));
        // The pre-filter keeps a type's function with a digest's word.
        assert!(is_hash_token(
            "Oid",
            TokenPlace::PathHead,
            Some("hash_object")
        ));
        assert!(!is_hash_token(
            "Index",
            TokenPlace::PathHead,
            Some("hash_map")
        ));
    }

    #[test]
    fn classifies_hash_paths() {
        for path in [
            "Sha256::digest",
            "sha2::Sha256::digest",
            "blake3::hash",
            "md5::compute",
            "xxh3_64",
            "xxhash_rust::xxh3::xxh3_64",
            "seahash::hash",
            "crc32fast::hash",
            "sha256::digest",
        ] {
            assert_eq!(
                classify_call(&segs(path), 1),
                Some(HashCall::Digest),
                "{path}"
            );
        }
        for path in [
            "Sha256::new",
            "blake3::Hasher::new",
            "DefaultHasher::new",
            "Xxh3::with_seed",
            "md5::Context::new",
        ] {
            assert!(
                matches!(
                    classify_call(&segs(path), 0),
                    Some(HashCall::NewHasher { .. })
                ),
                "{path}"
            );
        }
        assert_eq!(
            classify_call(&segs("Uuid::new_v4"), 0),
            Some(HashCall::FreshId)
        );
        assert_eq!(
            classify_call(&segs("ulid::Ulid::new"), 0),
            Some(HashCall::FreshId)
        );
        // Names of hash families outside the lists.
        for path in [
            "gxhash128",
            "wyhash::wyhash",
            "farmhash::hash64",
            "t1ha::t1ha0",
            "keccak256",
            "sha256_hex",
        ] {
            assert_eq!(
                classify_call(&segs(path), 1),
                Some(HashCall::Digest),
                "{path}"
            );
        }
        for path in ["Keccak::v256", "Md4::new", "MetroHash64::default"] {
            assert!(
                matches!(
                    classify_call(&segs(path), 0),
                    Some(HashCall::NewHasher { .. })
                ),
                "{path}"
            );
        }
        for path in [
            "HashMap::with_hasher",
            "hash_map::new",
            "verify_sha256",
            "content_hash",
            "hash_bytes",
            "Shard::new",
            "BlockHash::default",
            "HashSet::new",
        ] {
            assert_eq!(classify_call(&segs(path), 1), None, "{path}");
            assert_eq!(classify_call(&segs(path), 0), None, "{path}");
        }
        for path in [
            "hex::encode",
            "Context::new",
            "Uuid::parse_str",
            "Json::from",
        ] {
            assert_eq!(classify_call(&segs(path), 1), None, "{path}");
        }
    }

    #[test]
    fn hash_tokens_contain_a_candidate_word() {
        let names = HASH_MODULES
            .iter()
            .chain(HASHER_TYPES)
            .chain(HASH_TRAITS)
            .chain(STANDALONE_DIGESTS)
            .chain(HASHING_METHODS)
            .chain(&["DefaultHasher", "FoldHasher"]);
        for name in names {
            let lower = name.to_ascii_lowercase();
            assert!(
                HASH_CANDIDATE_WORDS.iter().any(|w| lower.contains(w)),
                "{name} has no word in HASH_CANDIDATE_WORDS: the pre-filter would skip it"
            );
        }
    }

    #[test]
    fn hash_tokens_by_place() {
        assert!(is_hash_token(
            "Sha256",
            TokenPlace::PathHead,
            Some("digest")
        ));
        assert!(is_hash_token(
            "Digest",
            TokenPlace::PathHead,
            Some("digest")
        ));
        assert!(is_hash_token("md5", TokenPlace::PathHead, Some("Context")));
        assert!(is_hash_token("xxh3_64", TokenPlace::Call, None));
        assert!(is_hash_token("hash_one", TokenPlace::MethodCall, None));
        assert!(is_hash_token("DefaultHasher", TokenPlace::ParamType, None));
        // Fields, constants and enum variants named after hashes are not
        // hash calls.
        assert!(!is_hash_token("content_md5", TokenPlace::Other, None));
        assert!(!is_hash_token("Sha256", TokenPlace::Other, None));
        assert!(!is_hash_token("SHA256_CTX", TokenPlace::PathHead, None));
        assert!(!is_hash_token("Hash", TokenPlace::PathHead, Some("hash")));
        assert!(!is_hash_token(
            "UnionHasher",
            TokenPlace::PathHead,
            Some("H2")
        ));
        assert!(is_hasher_constructor("Sha256", "new"));
        assert!(!is_hasher_constructor("Sha256", "digest"));
    }

    #[test]
    fn types_named_for_a_hash_make_hashers_from_nothing() {
        let call =
            |s: &[&str], n| classify_call(&s.iter().map(|x| x.to_string()).collect::<Vec<_>>(), n);
        let new_hasher = Some(HashCall::NewHasher { feeds_args: false });
        assert_eq!(call(&["XoodyakHash", "new"], 0), new_hasher);
        assert_eq!(call(&["AsconDigest", "new"], 0), new_hasher);
        assert!(is_hasher_constructor("XoodyakHash", "new"));
        // Given bytes, or a bare `Hash`, it is a hash value.
        assert_ne!(call(&["BlockHash", "new"], 1), new_hasher);
        assert_ne!(call(&["BlockHash", "from"], 1), new_hasher);
        assert!(!is_hasher_constructor("BlockHash", "from"));
        assert!(!is_hasher_constructor("Hash", "new"));
    }

    #[test]
    fn fingerprint_names() {
        assert!(names_fingerprint("RequestFingerprint"));
        assert!(names_fingerprint("body_fingerprint"));
        assert!(!names_fingerprint("body_hash"));
    }
}
