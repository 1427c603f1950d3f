//! The crate index: every function and constant of a unit, by name, so
//! calls and constant references can be resolved across files.

use std::collections::HashMap;
use syn::visit::Visit;

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
    /// Signature.
    pub sig: &'a syn::Signature,
    /// Body.
    pub block: &'a syn::Block,
}

impl FnDef<'_> {
    /// Whether the function takes `self`.
    pub fn has_receiver(&self) -> bool {
        self.sig.receiver().is_some()
    }
}

/// A constant or static item.
pub struct ConstDef<'a> {
    /// File the item is in.
    pub file: u32,
    /// The initialiser.
    pub expr: &'a syn::Expr,
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
            };
            collector.visit_file(&file.ast);
        }
        for (id, f) in index.fns.iter().enumerate() {
            index
                .fns_by_name
                .entry(f.name.clone())
                .or_default()
                .push(id);
        }
        index
    }

    /// Functions named `name`; `with_receiver` selects methods or free functions,
    /// `self_ty` prefers an `impl` of that type.
    pub fn resolve(
        &self,
        name: &str,
        with_receiver: Option<bool>,
        self_ty: Option<&str>,
    ) -> Vec<usize> {
        let Some(ids) = self.fns_by_name.get(name) else {
            return Vec::new();
        };
        let mut found: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&id| with_receiver.is_none_or(|r| self.fns[id].has_receiver() == r))
            .collect();
        if let Some(ty) = self_ty {
            let typed: Vec<usize> = found
                .iter()
                .copied()
                .filter(|&id| self.fns[id].self_ty.as_deref() == Some(ty))
                .collect();
            if !typed.is_empty() {
                found = typed;
            }
        }
        found
    }
}

struct Collector<'i, 'a> {
    index: &'i mut CrateIndex<'a>,
    file: u32,
    self_ty: Vec<Option<String>>,
}

fn type_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        syn::Type::Reference(r) => type_name(&r.elem),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Collector<'_, 'ast> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.index.fns.push(FnDef {
            file: self.file,
            name: item.sig.ident.to_string(),
            self_ty: None,
            sig: &item.sig,
            block: &item.block,
        });
        // Nested items are functions of their own.
        self.self_ty.push(None);
        syn::visit::visit_item_fn(self, item);
        self.self_ty.pop();
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        self.self_ty.push(type_name(&item.self_ty));
        syn::visit::visit_item_impl(self, item);
        self.self_ty.pop();
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.self_ty.push(Some(item.ident.to_string()));
        syn::visit::visit_item_trait(self, item);
        self.self_ty.pop();
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.index.fns.push(FnDef {
            file: self.file,
            name: item.sig.ident.to_string(),
            self_ty: self.self_ty.last().cloned().flatten(),
            sig: &item.sig,
            block: &item.block,
        });
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(block) = &item.default {
            self.index.fns.push(FnDef {
                file: self.file,
                name: item.sig.ident.to_string(),
                self_ty: self.self_ty.last().cloned().flatten(),
                sig: &item.sig,
                block,
            });
        }
        syn::visit::visit_trait_item_fn(self, item);
    }

    fn visit_item_const(&mut self, item: &'ast syn::ItemConst) {
        self.index
            .consts
            .entry(item.ident.to_string())
            .or_default()
            .push(ConstDef {
                file: self.file,
                expr: &item.expr,
            });
    }

    fn visit_item_static(&mut self, item: &'ast syn::ItemStatic) {
        self.index
            .consts
            .entry(item.ident.to_string())
            .or_default()
            .push(ConstDef {
                file: self.file,
                expr: &item.expr,
            });
    }

    fn visit_impl_item_const(&mut self, item: &'ast syn::ImplItemConst) {
        self.index
            .consts
            .entry(item.ident.to_string())
            .or_default()
            .push(ConstDef {
                file: self.file,
                expr: &item.expr,
            });
    }
}
