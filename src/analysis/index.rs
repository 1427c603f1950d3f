//! The crate index: every function and constant of a unit, by name, so
//! calls and constant references can be resolved across files.

use std::collections::{HashMap, HashSet};
use syn::visit::Visit;

use crate::analysis::payload_sources;

use super::hashing;
use super::header_holders::{HeaderHolders, Holder, HolderCollector};
pub use super::syntax::ConstDef;
use super::vocab::{Vocabulary, TRANSPARENT_METHODS};

/// The constructor methods of the request-extractor traits (axum's
/// `from_request_parts`/`from_request`, actix's `from_request`, salvo's
/// `extract`, `from_parts` of smaller frameworks): a type
/// whose constructor reads the key header is a client-key extractor.
/// Shared with the pre-filter, which keeps the handlers using such a type.
pub const EXTRACTOR_FNS: &[&str] = &[
    "from_request_parts",
    "from_request",
    "from_parts",
    "extract",
];

/// Whether a type's associated function so named may be an extractor's
/// constructor: one of [`EXTRACTOR_FNS`], or any other function without a
/// receiver that a trait's impl gives the type (an in-house
/// `FromHead::from_head`, `Take::take`, `from_metadata`), except the
/// standard conversions and constructors, which build a value from what it
/// is given. Only a body that hands the key header's value out makes the
/// type an extractor.
pub fn is_extractor_fn(name: &str, in_trait_impl: bool, has_receiver: bool) -> bool {
    !has_receiver
        && (EXTRACTOR_FNS.contains(&name)
            || (in_trait_impl
                && !matches!(
                    name,
                    "from"
                        | "from_str"
                        | "try_from"
                        | "from_iter"
                        | "default"
                        | "new"
                        | "deserialize"
                )))
}

/// A parsed file of the unit.
pub struct ParsedFile {
    /// Index in the unit.
    pub id: u32,
    /// The syntax tree.
    pub ast: syn::File,
}

/// One function body in the unit.
pub struct FnDef<'a> {
    /// File the function is in.
    pub file: u32,
    /// The function's name.
    pub name: String,
    /// The `impl` type, for methods.
    pub self_ty: Option<String>,
    /// The trait a method implements (`impl KeyLayout for Flat`), or
    /// whose default method it is.
    pub trait_of: Option<String>,
    /// Signature.
    pub sig: &'a syn::Signature,
    /// Body.
    pub block: &'a syn::Block,
    /// Attributes, doc comments included.
    pub attrs: &'a [syn::Attribute],
}

impl<'a> FnDef<'a> {
    /// Whether the function takes `self`.
    pub fn has_receiver(&self) -> bool {
        self.sig.receiver().is_some()
    }

    /// The parameters bound to a plain name, with their types.
    pub fn named_params(&self) -> impl Iterator<Item = (String, &'a syn::Type)> + 'a {
        (self.sig.inputs.iter()).filter_map(|input| match input {
            syn::FnArg::Typed(pt) => match &*pt.pat {
                syn::Pat::Ident(pi) => Some((pi.ident.to_string(), &*pt.ty)),
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
    }
}

/// Functions and constants of one unit.
#[derive(Default)]
pub struct CrateIndex<'a> {
    /// All function bodies, in file and source order.
    pub fns: Vec<FnDef<'a>>,
    /// Function ids by name.
    pub fns_by_name: HashMap<String, Vec<usize>>,
    /// Constants by name.
    pub consts: HashMap<String, Vec<ConstDef<'a>>>,
    /// Fields and variants given the key header's name.
    pub header_holders: HeaderHolders,
    /// Local enums and structs by name (what a parameter's type is).
    pub types: HashMap<String, LocalType>,
    /// Closures held in struct fields, by field name.
    pub field_closures: super::field_closures::FieldClosures<'a>,
    /// The unit's enum variants, by name.
    pub variants: std::collections::HashSet<String>,
    /// The field type of each local newtype struct, by struct name.
    pub newtype_inner: HashMap<String, &'a syn::Type>,
    /// The declared types of local struct fields, by field name.
    pub field_types: HashMap<String, Vec<&'a syn::Type>>,
    /// Fields whose serde default is a function (`#[serde(default =
    /// "Config::default_header")]`): the field and the function's name.
    serde_defaults: Vec<(String, String)>,
    /// `use path::original as alias;` outside function bodies: (original, alias).
    renames: Vec<(String, String)>,
    /// Modules the crate declares (`mod fs;`, `mod store { .. }`).
    declared_mods: HashSet<String>,
    /// Per file, the names it imports from another crate (`use std::fs;`,
    /// `use tokio::fs as afs;`).
    foreign_imports: HashSet<(u32, String)>,
    /// The same with the root of each `use` path, while the crate's
    /// modules are not all known yet.
    imports: Vec<(u32, String, String)>,
    /// Per file, the full path of each name a `use` brings in (the alias
    /// of a rename): `digest` → `aws_lc_rs::digest::digest`.
    import_paths: HashMap<(u32, String), Vec<String>>,
    /// Files that bring a hashing trait into scope (`use sha2::Digest;`,
    /// `use k12::digest::Update as _;`), where `.update(..)` on a local
    /// is a hasher's.
    hash_trait_files: HashSet<u32>,
    /// Local structs and enums deriving `Deserialize`: what a framework
    /// can build from a request.
    deserialized: HashSet<String>,
    /// The unit's `macro_rules!` helpers by name (`None`: defined twice).
    pub macro_rules: HashMap<String, Option<super::macro_rules::MacroRules>>,
    /// Trait methods declared without a body, by name: the names of their
    /// parameters, per declaration (`fn store(&self, tenant: &str, ..,
    /// key: &str, value: Vec<u8>)` of a `KeyedBackend`).
    pub abstract_methods: HashMap<String, Vec<Vec<String>>>,
    /// The methods the unit's own traits declare: (trait, method).
    pub trait_methods: HashSet<(String, String)>,
    /// Those declared as a request's entry point (jsonrpsee's
    /// `#[method(name = "place")]` in an `#[rpc(server)]` trait): their
    /// implementations' parameters are deserialised from the request.
    pub entry_point_methods: HashSet<(String, String)>,
    /// Per type, its trait impls' associated functions that may construct
    /// it from a request ([`is_extractor_fn`]).
    pub extractor_fns: HashMap<String, Vec<usize>>,
    /// Consuming methods that append a parameter to a field of `self`
    /// (`eval::builders`): the types that have one, and per method the
    /// parameters and where each is appended. Found on first use.
    pub text_builders: std::sync::OnceLock<TextBuilders>,
    /// Another crate's types the unit reads the key header from or asks
    /// a record it deserialises of: the framework's request
    /// (`eval::request_input`). Found on first use.
    pub request_types: std::sync::OnceLock<HashSet<String>>,
    /// The unit's acknowledged messages (`eval::server_keys`): the
    /// bindings each function acknowledges and the parameter types of
    /// functions handed such a binding. Found on first use.
    pub acknowledged: std::sync::OnceLock<Acknowledged>,
    /// The crate's types that implement a hashing trait (`impl Hasher for
    /// Mixer`): hashers by what they are, whatever their names.
    pub local_hashers: HashSet<String>,
}

/// What the unit's functions acknowledge (`tote.ack()`): found in one walk
/// of every body, as each evaluation of a function asks again.
#[derive(Debug, Default)]
pub struct Acknowledged {
    /// Per function body of the index (by its address), the bindings it
    /// acknowledges.
    pub by_body: HashMap<usize, Vec<String>>,
    /// The parameter types of functions handed an acknowledged binding.
    pub types: HashSet<String>,
}

/// The crate's consuming methods that append a parameter to a field of
/// `self` (`fn attempt(mut self, a: &str) -> Self { write!(self.buf, ..,
/// a); self }`): builders of a text by what they do, whatever their name.
#[derive(Debug, Default)]
pub struct TextBuilders {
    /// The types that have such a method.
    pub types: HashSet<String>,
    /// Per method id, each parameter appended (its index among the
    /// arguments) and where.
    pub appends: HashMap<usize, Vec<(usize, crate::diagnostic::Span)>>,
    /// Per type, the `write!` of its `Display` impl that writes its fields
    /// as text, and which fields it writes: its `to_string()` is that text.
    pub renders: HashMap<String, (Vec<String>, super::value::Site)>,
}

/// The traits that may declare the methods of an `impl Trait for ..`: the
/// trait itself, and the one a macro generated the server trait from
/// (jsonrpsee's `impl OrdersServer` of `#[rpc(server)] trait Orders`).
/// The index and the pre-filter's selection read declarations through it.
pub fn declaring_traits(implemented: &str) -> impl Iterator<Item = &str> {
    std::iter::once(implemented).chain(implemented.strip_suffix("Server"))
}

/// What a local type item is, as far as holding a key goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalType {
    /// An `enum`: a mode or a policy, never the client's key.
    Enum,
    /// A struct with one field (`struct IdemKey(String)`): may wrap a key.
    Newtype,
    /// A struct with several fields (or none): a record, not a key.
    Record,
}

impl<'a> CrateIndex<'a> {
    /// Indexes every file of the unit.
    pub fn build(files: &'a [ParsedFile]) -> Self {
        let mut index = CrateIndex::default();
        for file in files {
            let mut collector = Collector {
                index: &mut index,
                file: file.id,
                self_ty: Vec::new(),
                traits: Vec::new(),
                in_fn: 0,
            };
            collector.visit_file(&file.ast);
        }
        // `use payments::store;` where the crate has `mod payments` is the
        // crate's own module (2018 paths), not another crate's.
        for (file, name, root) in std::mem::take(&mut index.imports) {
            if !index.declared_mods.contains(&root) {
                index.foreign_imports.insert((file, name));
            }
        }
        let mut holders = HolderCollector::default();
        for f in &index.fns {
            holders.file = f.file;
            holders.visit_block(f.block);
            super::field_closures::collect(f.file, f.block, &mut index.field_closures);
        }
        for (id, f) in index.fns.iter().enumerate() {
            index
                .fns_by_name
                .entry(f.name.clone())
                .or_default()
                .push(id);
            // A `from_*` of a trait's impl (`impl FromHead for ClientKey`),
            // not a type's own conversions.
            let constructor = is_extractor_fn(&f.name, f.trait_of.is_some(), f.has_receiver());
            if let (Some(ty), true) = (&f.self_ty, constructor) {
                index.extractor_fns.entry(ty.clone()).or_default().push(id);
            }
        }
        // A free function is called by its `use` aliases too (`pub use
        // payment::find_by_key as find_payment_by_key;`).
        for (original, alias) in &index.renames {
            let free: Vec<usize> = (index.fns_by_name.get(original).into_iter().flatten())
                .copied()
                .filter(|&id| index.fns[id].self_ty.is_none() && !index.fns[id].has_receiver())
                .collect();
            let ids = index.fns_by_name.entry(alias.clone()).or_default();
            for id in free {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        // A serde default function's result is given to its field.
        for (field, default_fn) in &index.serde_defaults {
            for &id in index.fns_by_name.get(default_fn).into_iter().flatten() {
                let f = &index.fns[id];
                if let Some(syn::Stmt::Expr(tail, None)) = f.block.stmts.last() {
                    holders.file = f.file;
                    holders.push(Holder::Field(field.clone()), tail);
                }
            }
        }
        index.header_holders = holders.holders;
        index
    }

    /// Records a local type; two types of one name that disagree count as
    /// a newtype, so the name stays a fallback for both.
    fn add_type(&mut self, ident: &syn::Ident, kind: LocalType) {
        self.types
            .entry(ident.to_string())
            .and_modify(|k| {
                if *k != kind {
                    *k = LocalType::Newtype;
                }
            })
            .or_insert(kind);
    }

    /// Whether a field or variant read in `file` holds the key header's name.
    pub fn holds_key_header(&self, holder: &Holder, file: u32, vocab: &Vocabulary) -> bool {
        self.header_holders
            .holds_key_header(holder, file, vocab, &self.consts)
    }

    /// The local type every local struct's field `field` holds, through
    /// references and shared or locked handles (`bus: Arc<CommandBus>`):
    /// which type a field's own fields belong to (`self.bus.dedup` is a
    /// field of `CommandBus`). `None` when unknown or not one type.
    pub fn field_type_name(&self, field: &str) -> Option<String> {
        const HANDLES: &[&str] = &["Arc", "Rc", "Box", "Mutex", "RwLock"];
        let innermost = |ty: &syn::Type| super::syntax::type_name_within(ty, HANDLES);
        let types = self.field_types.get(field)?;
        let first = innermost(types.first()?)?;
        let one = types
            .iter()
            .all(|t| innermost(t).as_deref() == Some(first.as_str()));
        (one && self.types.contains_key(&first)).then_some(first)
    }

    /// Resolves a path call `f(..)`, `module::f(..)`, `Type::f(..)` or
    /// `Self::f(..)`. A call through a type only reaches that type's `impl`;
    /// a plain path only reaches free functions. Unknown types resolve to
    /// nothing rather than to every function of that name.
    pub fn resolve_path(
        &self,
        segments: &[String],
        current_self: Option<&str>,
        file: Option<u32>,
    ) -> Vec<usize> {
        let Some(name) = segments.last() else {
            return Vec::new();
        };
        if file.is_some_and(|file| self.is_foreign_path(segments, file)) {
            return Vec::new();
        }
        let Some(ids) = self.fns_by_name.get(name) else {
            return Vec::new();
        };
        let owner = segments
            .len()
            .checked_sub(2)
            .map(|i| segments[i].as_str())
            .filter(|s| s.chars().next().is_some_and(|c| c.is_uppercase()));
        let owner = match owner {
            Some("Self") => current_self,
            other => other,
        };
        ids.iter()
            .copied()
            .filter(|&id| match owner {
                Some(ty) => self.fns[id].self_ty.as_deref() == Some(ty),
                None => self.fns[id].self_ty.is_none(),
            })
            .collect()
    }

    /// Whether `segments` is a path into another crate as `file` sees it:
    /// `std::fs::read`, or `fs::read` where the file has `use std::fs;` and
    /// the crate declares no module `fs`. The crate's private `fn read` in
    /// some other module is not what `fs::read(path)` calls.
    fn is_foreign_path(&self, segments: &[String], file: u32) -> bool {
        match segments {
            [root, _, ..] => self.is_foreign_name(root, file),
            _ => false,
        }
    }

    /// Whether a parameter's type is another crate's as `file` names it
    /// (`&HeaderMap` with `use http::HeaderMap;`, `&std::fs::File`), behind
    /// references and smart pointers: one name the file imports from
    /// another crate, or a path whose root is one. Decided by the file's
    /// own text, so that the answer does not depend on which files the
    /// pre-filter kept.
    pub fn is_foreign_type(&self, ty: &syn::Type, file: u32) -> bool {
        const POINTERS: &[&str] = &["Arc", "Rc", "Box"];
        let Some(path) = super::syntax::type_path_within(ty, POINTERS) else {
            return false;
        };
        (path.segments.first())
            .is_some_and(|root| self.is_foreign_name(&root.ident.to_string(), file))
    }

    /// Whether `ty` is another crate's wrapper of one of the crate's own
    /// types (`web::Data<Tenancy>`, `State<Arc<Ledger>>`): it derefs to
    /// that type, so a method call on it may be the type's own method.
    pub fn wraps_own_type(&self, ty: &syn::Type) -> bool {
        const POINTERS: &[&str] = &["Arc", "Rc", "Box"];
        (super::syntax::type_path_within(ty, POINTERS))
            .and_then(|path| path.segments.last())
            .and_then(super::syntax::only_type_argument)
            .and_then(|inner| super::syntax::type_name_within(inner, POINTERS))
            .is_some_and(|name| self.types.contains_key(&name))
    }

    /// Whether `file` brings a hashing trait into scope: a local fed by
    /// `update(..)` there is a hasher by its protocol, whatever its type
    /// (`KangarooTwelve::default()`), as the compiler resolves the call.
    pub fn brings_hash_trait(&self, file: u32) -> bool {
        self.hash_trait_files.contains(&file)
    }

    /// The path another crate's `name` stands for in `file`, where a `use`
    /// brought it in (`use aws_lc_rs::digest::{digest, SHA256};` makes
    /// `digest` `aws_lc_rs::digest::digest`): what a call of it is, read
    /// as the compiler resolves it. `None` for the crate's own names.
    pub fn imported_path(&self, file: u32, name: &str) -> Option<&[String]> {
        let path = self.import_paths.get(&(file, name.to_string()))?;
        let root = path.first()?;
        let own = matches!(root.as_str(), "crate" | "self" | "super")
            || self.declared_mods.contains(root);
        (!own).then_some(path.as_slice())
    }

    /// Whether `name` is a local struct or enum deriving `Deserialize`.
    pub fn is_deserialized(&self, name: &str) -> bool {
        self.deserialized.contains(name)
    }

    /// Whether a path's root, in `file`, is another crate: `std`, `core`,
    /// `alloc`, or a name the file imports from another crate that the
    /// crate does not declare as a module of its own.
    fn is_foreign_name(&self, root: &str, file: u32) -> bool {
        matches!(root, "std" | "core" | "alloc")
            || (!self.declared_mods.contains(root)
                && self.foreign_imports.contains(&(file, root.to_string())))
    }

    /// The receiver methods named `name` of the type `ty` (for a call on
    /// a value of that type: `Type::new().name(..)`).
    pub fn methods_of(&self, name: &str, ty: &str) -> Vec<usize> {
        (self.fns_by_name.get(name).into_iter().flatten())
            .copied()
            .filter(|&id| {
                self.fns[id].has_receiver() && self.fns[id].self_ty.as_deref() == Some(ty)
            })
            .collect()
    }

    /// Whether a method `name` of `ty` gives back a value of that type
    /// (`-> Self`, `-> Result<Self, E>`): a builder's setter.
    pub fn returns_own_type(&self, name: &str, ty: &str) -> bool {
        self.methods_of(name, ty)
            .iter()
            .any(|&id| match &self.fns[id].sig.output {
                syn::ReturnType::Type(_, out) => {
                    super::syntax::type_name_within(out, &["Result", "Option"])
                        .is_some_and(|n| n == "Self" || n == ty)
                }
                syn::ReturnType::Default => false,
            })
    }

    /// Resolves a method call `recv.f(..)` by [`method_targets`]: on `self`
    /// the current `impl` wins; elsewhere a name shared by several types is
    /// ambiguous and resolves to nothing.
    /// `union_impls`: a name no other crate's type defines too (see
    /// [`unions_impls`]), so that one trait's implementations are all it
    /// can reach.
    pub fn resolve_method(
        &self,
        name: &str,
        on_self: bool,
        current_self: Option<&str>,
        union_impls: bool,
    ) -> Vec<usize> {
        let Some(ids) = self.fns_by_name.get(name) else {
            return Vec::new();
        };
        let methods: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&id| self.fns[id].has_receiver())
            .collect();
        let owners: Vec<Option<&str>> = methods
            .iter()
            .map(|&id| self.fns[id].self_ty.as_deref())
            .collect();
        match method_targets(&owners, on_self.then_some(current_self)) {
            MethodTargets::Own(ty) => methods
                .into_iter()
                .filter(|&id| self.fns[id].self_ty.as_deref() == ty)
                .collect(),
            MethodTargets::All => methods,
            // Every definition implements one trait (`impl KeyLayout for
            // Flat`, `.. for Scoped`): a call on a value of that trait
            // (`self.layout: Box<dyn KeyLayout>`) may reach any of them.
            MethodTargets::Ambiguous if union_impls && self.one_trait(&methods) => methods,
            MethodTargets::Ambiguous => Vec::new(),
        }
    }

    /// Whether `def` implements a trait method declared as a request's
    /// entry point: of the trait itself, or of the server trait a macro
    /// generates from it (jsonrpsee's `impl OrdersServer` of `trait
    /// Orders`).
    pub fn implements_entry_point(&self, def: &FnDef<'_>) -> bool {
        let Some(tr) = def.trait_of.as_deref() else {
            return false;
        };
        declaring_traits(tr)
            .any(|t| (self.entry_point_methods).contains(&(t.to_string(), def.name.to_string())))
    }

    /// Whether the methods `ids` all implement one trait of the unit (or
    /// are its default methods): one the unit declares with that method,
    /// not `Display` or `Clone`, whose implementations a call on any value
    /// could be.
    fn one_trait(&self, ids: &[usize]) -> bool {
        let mut traits = ids.iter().map(|&id| self.fns[id].trait_of.as_deref());
        let Some(first) = traits.next().flatten() else {
            return false;
        };
        let name = ids
            .first()
            .map(|&id| self.fns[id].name.clone())
            .unwrap_or_default();
        traits.all(|t| t == Some(first)) && self.trait_methods.contains(&(first.to_string(), name))
    }
}

/// Whether a call of a method name that several implementations of one
/// trait define may reach all of them: not a name the standard library's
/// or a store client's types also define (`insert`, `get`, `clone`), whose
/// receiver is as likely another crate's value.
pub fn unions_impls(name: &str, vocab: &Vocabulary) -> bool {
    !TRANSPARENT_METHODS.contains(&name) && !vocab.is_store_method(name)
}

/// Which receiver methods of one name a call `recv.name(..)` reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodTargets<O> {
    /// Those of this owner: called on `self` inside one of its blocks.
    Own(O),
    /// All of them: at most one owner defines the name.
    All,
    /// None: several owners define it, and without types we cannot tell
    /// which one runs.
    Ambiguous,
}

/// The method-resolution rule, over the owners (`impl` types) of the
/// receiver methods named like the call, one per definition: on `self`
/// (`on_self` is the current block's owner) the own method wins; elsewhere
/// a name shared by several owners resolves to nothing. The index applies
/// it to syntax trees and the pre-filter to token scans, so both agree on
/// which calls link.
pub fn method_targets<O: Copy + PartialEq>(owners: &[O], on_self: Option<O>) -> MethodTargets<O> {
    if let Some(current) = on_self {
        if owners.contains(&current) {
            return MethodTargets::Own(current);
        }
    }
    match owners.split_first() {
        Some((first, rest)) if rest.iter().any(|o| o != first) => MethodTargets::Ambiguous,
        _ => MethodTargets::All,
    }
}

struct Collector<'i, 'a> {
    index: &'i mut CrateIndex<'a>,
    file: u32,
    self_ty: Vec<Option<String>>,
    /// The trait of each block in `self_ty` (`None`: an inherent `impl`).
    traits: Vec<Option<String>>,
    /// Function bodies the visit is in (their `use`s rename nothing outside).
    in_fn: usize,
}

/// Whether `#[derive(..)]` lists `Deserialize` (`serde::Deserialize` too).
fn derives_deserialize(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("derive"))
        .any(|a| {
            let mut found = false;
            // A derive list that does not parse derives nothing we can read.
            let _ = a.parse_nested_meta(|meta| {
                found |= meta
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "Deserialize");
                Ok(())
            });
            found
        })
}

/// One name a `use` tree brings in: the name it goes by here (a rename's
/// alias, `_` for `as _`) and the full path of what it names, whose last
/// segment is the original name.
struct UseEntry {
    alias: String,
    path: Vec<String>,
}

impl UseEntry {
    fn original(&self) -> &str {
        self.path.last().map_or("", String::as_str)
    }
}

/// Every name of a `use` tree (see [`UseEntry`]); `prefix` holds the
/// segments above `tree`. The index reads its renames, its imports from
/// other crates, the full paths of those, and hashing traits from these.
fn use_entries(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<UseEntry>) {
    let mut entry = |alias: &syn::Ident, original: &syn::Ident| {
        let mut path = prefix.clone();
        path.push(original.to_string());
        out.push(UseEntry {
            alias: alias.to_string(),
            path,
        });
    };
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_entries(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Group(g) => (g.items.iter()).for_each(|t| use_entries(t, prefix, out)),
        syn::UseTree::Name(n) if n.ident != "self" => entry(&n.ident, &n.ident),
        syn::UseTree::Rename(r) => entry(&r.rename, &r.ident),
        _ => {}
    }
}

pub(crate) use super::test_support::is_test;
use super::test_support::is_test_module;

fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Reference(r) => type_name(&r.elem),
        _ => None,
    }
}

impl<'ast> Collector<'_, 'ast> {
    fn push_const(&mut self, ident: &syn::Ident, expr: &'ast syn::Expr) {
        self.index
            .consts
            .entry(ident.to_string())
            .or_default()
            .push(ConstDef {
                file: self.file,
                expr,
            });
    }
}

impl<'ast> Visit<'ast> for Collector<'_, 'ast> {
    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        if is_test(&item.attrs) {
            return;
        }
        if let Some((name, rules)) = super::macro_rules::parse(item, self.file) {
            // A second definition of the name: which one a call expands is
            // a matter of module order, not read here.
            let twice = self.index.macro_rules.contains_key(&name);
            self.index
                .macro_rules
                .insert(name, (!twice).then_some(rules));
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if self.in_fn > 0 {
            return;
        }
        let mut entries = Vec::new();
        use_entries(&item.tree, &mut Vec::new(), &mut entries);
        for e in &entries {
            if e.alias != "_" && e.alias != e.original() {
                (self.index.renames).push((e.original().to_string(), e.alias.clone()));
            }
        }
        let syn::UseTree::Path(p) = &item.tree else {
            return;
        };
        let root = p.ident.to_string();
        for e in entries {
            if hashing::is_hash_protocol_trait(e.original()) {
                self.index.hash_trait_files.insert(self.file);
            }
            if e.alias == "_" {
                continue;
            }
            // `use std::fs;`, `use tokio::fs as afs;`: modules, functions and
            // types whose calls and methods are not the crate's own (where
            // the root is not one of the crate's modules, known later).
            if e.path.len() > 1 && !matches!(root.as_str(), "crate" | "self" | "super") {
                (self.index.imports).push((self.file, e.alias.clone(), root.clone()));
            }
            self.index.import_paths.insert((self.file, e.alias), e.path);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.index.declared_mods.insert(item.ident.to_string());
        if !is_test_module(item) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.note_extracted_types(&item.sig);
        self.index.fns.push(FnDef {
            file: self.file,
            name: item.sig.ident.to_string(),
            self_ty: None,
            trait_of: None,
            sig: &item.sig,
            block: &item.block,
            attrs: &item.attrs,
        });
        // Nested items are functions of their own.
        self.self_ty.push(None);
        self.traits.push(None);
        self.in_fn += 1;
        syn::visit::visit_item_fn(self, item);
        self.in_fn -= 1;
        self.self_ty.pop();
        self.traits.pop();
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        if is_test(&item.attrs) {
            return;
        }
        let of_trait = (item.trait_.as_ref()).and_then(|(_, path, _)| path.segments.last());
        // A blanket impl (`impl<T: Hash> Dedupe for T`) gives its methods to
        // any type, as the trait's default methods do: they are read as
        // those (`self_ty` is the trait).
        let self_ty = type_name(&item.self_ty);
        let blanket = (item.generics.type_params()).any(|p| Some(p.ident.to_string()) == self_ty);
        self.self_ty.push(match (blanket, of_trait) {
            (true, Some(t)) => Some(t.ident.to_string()),
            _ => self_ty,
        });
        // `impl Hasher for Mixer`: the crate's own hasher, whatever its name.
        if let (Some(t), Some(ty)) = (of_trait, type_name(&item.self_ty)) {
            if matches!(
                t.ident.to_string().as_str(),
                "Hasher" | "Digest" | "Update" | "FixedOutput"
            ) {
                self.index.local_hashers.insert(ty);
            }
        }
        self.traits.push(of_trait.map(|s| s.ident.to_string()));
        syn::visit::visit_item_impl(self, item);
        self.self_ty.pop();
        self.traits.pop();
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.self_ty.push(Some(item.ident.to_string()));
        self.traits.push(Some(item.ident.to_string()));
        syn::visit::visit_item_trait(self, item);
        self.self_ty.pop();
        self.traits.pop();
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.note_extracted_types(&item.sig);
        self.index.fns.push(FnDef {
            file: self.file,
            name: item.sig.ident.to_string(),
            self_ty: self.self_ty.last().cloned().flatten(),
            trait_of: self.traits.last().cloned().flatten(),
            sig: &item.sig,
            block: &item.block,
            attrs: &item.attrs,
        });
        self.in_fn += 1;
        syn::visit::visit_impl_item_fn(self, item);
        self.in_fn -= 1;
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        if let Some(Some(own)) = self.traits.last() {
            let method = (own.clone(), item.sig.ident.to_string());
            if payload_sources::is_entry_point(&item.attrs) {
                self.index.entry_point_methods.insert(method.clone());
            }
            (self.index.trait_methods).insert(method);
        }
        if let Some(block) = &item.default {
            self.index.fns.push(FnDef {
                file: self.file,
                name: item.sig.ident.to_string(),
                self_ty: self.self_ty.last().cloned().flatten(),
                trait_of: self.traits.last().cloned().flatten(),
                sig: &item.sig,
                block,
                attrs: &item.attrs,
            });
        } else {
            let params = (item.sig.inputs.iter())
                .filter_map(|input| match input {
                    syn::FnArg::Typed(t) => match &*t.pat {
                        syn::Pat::Ident(pi) => Some(pi.ident.to_string()),
                        _ => Some(String::new()),
                    },
                    syn::FnArg::Receiver(_) => None,
                })
                .collect();
            (self.index.abstract_methods)
                .entry(item.sig.ident.to_string())
                .or_default()
                .push(params);
        }
        self.in_fn += 1;
        syn::visit::visit_trait_item_fn(self, item);
        self.in_fn -= 1;
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        self.index.add_type(&item.ident, LocalType::Enum);
        if derives_deserialize(&item.attrs) {
            self.index.deserialized.insert(item.ident.to_string());
        }
        for variant in &item.variants {
            self.index.variants.insert(variant.ident.to_string());
        }
        syn::visit::visit_item_enum(self, item);
    }

    fn visit_item_struct(&mut self, item: &'ast syn::ItemStruct) {
        let kind = if item.fields.len() == 1 {
            LocalType::Newtype
        } else {
            LocalType::Record
        };
        self.index.add_type(&item.ident, kind);
        if derives_deserialize(&item.attrs) {
            self.index.deserialized.insert(item.ident.to_string());
        }
        if let (LocalType::Newtype, Some(field)) = (kind, item.fields.iter().next()) {
            self.index
                .newtype_inner
                .insert(item.ident.to_string(), &field.ty);
        }
        for field in &item.fields {
            if let Some(name) = &field.ident {
                self.index
                    .field_types
                    .entry(name.to_string())
                    .or_default()
                    .push(&field.ty);
                if let Some(default_fn) = serde_default_fn(&field.attrs) {
                    self.index
                        .serde_defaults
                        .push((name.to_string(), default_fn));
                }
            }
        }
        syn::visit::visit_item_struct(self, item);
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.push_const(&item.ident, &item.expr);
    }

    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        self.push_const(&item.ident, &item.expr);
    }

    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        self.push_const(&item.ident, &item.expr);
    }
}

impl Collector<'_, '_> {
    /// A local type a handler's parameter extracts from the request body
    /// (`Json(input): Json<OrderInput>`) is deserialised from requests,
    /// whatever derive makes it so (an in-house `#[derive(plover::Deser)]`).
    fn note_extracted_types(&mut self, sig: &syn::Signature) {
        use super::syntax::{only_type_argument, type_name_within, type_path_within};
        for input in &sig.inputs {
            let syn::FnArg::Typed(t) = input else {
                continue;
            };
            let Some(last) = type_path_within(&t.ty, &[]).and_then(|p| p.segments.last()) else {
                continue;
            };
            if !payload_sources::is_body_extractor(&last.ident.to_string()) {
                continue;
            }
            if let Some(name) =
                only_type_argument(last).and_then(|inner| type_name_within(inner, &[]))
            {
                self.index.deserialized.insert(name);
            }
        }
    }
}

/// The function named by `#[serde(default = "path::to::f")]`, by its last
/// segment.
fn serde_default_fn(attrs: &[syn::Attribute]) -> Option<String> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        // Other serde options (`rename = ..`, `skip`) are read and ignored.
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("default") && meta.input.peek(syn::Token![=]) {
                let lit: syn::LitStr = meta.value()?.parse()?;
                let path = lit.value();
                found = path.rsplit("::").next().map(str::to_string);
            } else if meta.input.peek(syn::Token![=]) {
                let _: syn::Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(texts: &[&str]) -> Vec<ParsedFile> {
        (texts.iter().enumerate())
            .map(|(id, text)| ParsedFile {
                id: id as u32,
                ast: syn::parse_file(text).expect("test source parses"),
            })
            .collect()
    }

    fn path(segments: &[&str]) -> Vec<String> {
        segments.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn another_crates_module_is_not_resolved_to_a_function_of_this_crate() {
        let release = "fn read(path: &str) -> String { path.to_string() }";
        let caller = "use std::fs;\nuse tokio::fs as afs;\nfn f() { fs::read(p); }";
        let parsed = files(&[release, caller]);
        let index = CrateIndex::build(&parsed);
        let resolve = |segments: &[&str]| index.resolve_path(&path(segments), None, Some(1));
        assert!(resolve(&["fs", "read"]).is_empty());
        assert!(resolve(&["afs", "read"]).is_empty());
        assert!(resolve(&["std", "fs", "read"]).is_empty());
        // A module path the file does not import, or a bare call, still
        // reaches the crate's function by its name.
        assert_eq!(resolve(&["release", "read"]), [0]);
        assert_eq!(resolve(&["read"]), [0]);
        // Seen from the file that defines it, `fs` is not imported.
        assert_eq!(
            index.resolve_path(&path(&["fs", "read"]), None, Some(0)),
            [0]
        );
    }

    #[test]
    fn a_module_the_crate_declares_is_its_own() {
        let lib = "mod fs { pub fn read(path: &str) -> String { path.to_string() } }";
        let caller = "use fs::read as _r;\nuse store::fs;\nfn f() { fs::read(p); }";
        let parsed = files(&[lib, caller, "mod store;"]);
        let index = CrateIndex::build(&parsed);
        assert_eq!(
            index.resolve_path(&path(&["fs", "read"]), None, Some(1)),
            [0]
        );
    }
}
