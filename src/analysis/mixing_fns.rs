//! Hash functions a crate writes by hand (FNV-1a, djb2, Jenkins'
//! one-at-a-time): recognised by what their body does, not by a name. A
//! function that returns an integer and folds its input into it in a loop
//! with the mixing operators of a hash (multiplication or addition that
//! wraps, xor, shifts or rotations) returns a digest of that input.

use syn::visit::Visit;

/// Whether `def` is a hand-written hash of its parameters: it takes at
/// least one, returns a primitive integer, loops (or folds) over its input,
/// and mixes with at least two kinds of a hash's operators.
pub fn is_mixing_fn(sig: &syn::Signature, block: &syn::Block) -> bool {
    let returns_integer = match &sig.output {
        syn::ReturnType::Type(_, ty) => is_integer_type(ty) || wraps_tail_integer(ty, block),
        syn::ReturnType::Default => false,
    };
    let takes_input = sig.inputs.iter().any(|i| matches!(i, syn::FnArg::Typed(_)));
    if !returns_integer || !takes_input {
        return false;
    }
    let mut ops = Ops::default();
    ops.visit_block(block);
    ops.loops && ops.kinds() >= 2
}

/// A newtype built around the integer the body mixed (`-> Self` ending in
/// `BodyTag(h)` of `impl From<&[u8]> for BodyTag`): a digest by another name.
fn wraps_tail_integer(ty: &syn::Type, block: &syn::Block) -> bool {
    let Some(syn::Stmt::Expr(syn::Expr::Call(call), None)) = block.stmts.last() else {
        return false;
    };
    let constructs = matches!(&*call.func, syn::Expr::Path(f)
        if f.path.segments.last().is_some_and(|s| s.ident.to_string().starts_with(char::is_uppercase)));
    let one_binding = matches!(
        (call.args.len(), call.args.first()),
        (1, Some(syn::Expr::Path(a))) if a.path.get_ident().is_some()
    );
    matches!(ty, syn::Type::Path(_)) && constructs && one_binding
}

fn is_integer_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Path(p) => p.path.get_ident().is_some_and(|i| {
            matches!(
                i.to_string().as_str(),
                "u16" | "u32" | "u64" | "u128" | "usize" | "i32" | "i64" | "i128"
            )
        }),
        syn::Type::Paren(p) => is_integer_type(&p.elem),
        _ => false,
    }
}

/// What a body does: whether it loops, and which mixing operators it uses.
#[derive(Default)]
struct Ops {
    loops: bool,
    wrapping: bool,
    xor: bool,
    shift: bool,
    rotate: bool,
}

impl Ops {
    fn kinds(&self) -> usize {
        [self.wrapping, self.xor, self.shift, self.rotate]
            .iter()
            .filter(|&&k| k)
            .count()
    }
}

impl<'ast> Visit<'ast> for Ops {
    fn visit_expr_for_loop(&mut self, e: &'ast syn::ExprForLoop) {
        self.loops = true;
        syn::visit::visit_expr_for_loop(self, e);
    }

    fn visit_expr_while(&mut self, e: &'ast syn::ExprWhile) {
        self.loops = true;
        syn::visit::visit_expr_while(self, e);
    }

    fn visit_expr_loop(&mut self, e: &'ast syn::ExprLoop) {
        self.loops = true;
        syn::visit::visit_expr_loop(self, e);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let method = m.method.to_string();
        match method.as_str() {
            "fold" | "for_each" => self.loops = true,
            "rotate_left" | "rotate_right" => self.rotate = true,
            "wrapping_mul" | "wrapping_add" | "wrapping_shl" | "overflowing_mul" => {
                self.wrapping = true
            }
            _ => {}
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_bin_op(&mut self, op: &'ast syn::BinOp) {
        match op {
            syn::BinOp::BitXor(_) | syn::BinOp::BitXorAssign(_) => self.xor = true,
            syn::BinOp::Shl(_)
            | syn::BinOp::Shr(_)
            | syn::BinOp::ShlAssign(_)
            | syn::BinOp::ShrAssign(_) => self.shift = true,
            _ => {}
        }
    }

    // Items nested in the body are functions of their own.
    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mixing(src: &str) -> bool {
        let f: syn::ItemFn = syn::parse_str(src).expect("function");
        is_mixing_fn(&f.sig, &f.block)
    }

    #[test]
    fn hashes_by_their_operators() {
        assert!(mixing(
            "fn fnv(b: &[u8]) -> u64 { let mut h = 0xcbf29ce484222325u64; \
             for x in b { h ^= *x as u64; h = h.wrapping_mul(0x100000001b3); } h }"
        ));
        assert!(mixing(
            "fn oaat(b: &[u8]) -> u32 { b.iter().fold(0u32, |h, &x| { \
             let h = h.wrapping_add(x as u32); h ^ (h << 10) }) }"
        ));
        // A sum, a count, a parser: no mixing.
        assert!(!mixing(
            "fn total(v: &[u32]) -> u64 { let mut t = 0; for x in v { t += *x as u64; } t }"
        ));
        assert!(!mixing("fn flags(a: u32, b: u32) -> u32 { (a << 4) ^ b }"));
        // A newtype around the mixed integer (ELF hash into `Tag(h)`).
        assert!(mixing(
            "fn from(b: &[u8]) -> Self { let mut h: u32 = 0; for &x in b { \
             h = (h << 4).wrapping_add(u32::from(x)); h ^= (h & 0xF000_0000) >> 24; } Tag(h) }"
        ));
        // A parser filling a record: no hash.
        assert!(!mixing(
            "fn parse(b: &[u8]) -> Self { let mut n = 0; for x in b { n = n * 10 + u32::from(*x); } Count(n) }"
        ));
        assert!(!mixing("fn id(s: &str) -> String { let mut o = String::new(); for c in s.chars() { o.push(c); } o }"));
    }
}
