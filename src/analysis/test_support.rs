//! What is test support, never analysed (rules.md, "What a service has"):
//! items and statements under `#[test]`-like attributes or a `cfg` that
//! only holds in tests (`test`, `any(test, ..)`, a feature named for tests,
//! mocks or fakes), files whose first attribute is such a `cfg`, and module
//! files named for test support (`testing.rs`, `mocks/`).
//!
//! Mocks and conformance helpers store client keys the way a test needs,
//! not the way a service does: their "bugs" are nobody's.

use super::syntax::last_ident;

/// Module names that say the module is test support.
const TEST_SUPPORT_MODULES: &[&str] = &[
    "testing",
    "test_support",
    "test_utils",
    "test_util",
    "testutil",
    "testutils",
    "test_helpers",
    "test_helper",
    "mock",
    "mocks",
    "fake",
    "fakes",
    "stub",
    "stubs",
];

/// Test code never serves traffic: `#[test]`, `#[tokio::test]`, `#[cfg(test)]`,
/// `#[cfg(any(test, feature = "test-support"))]`…
pub(crate) fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let path = attr.path();
        let last = last_ident(path);
        if TEST_ATTRIBUTES.contains(&last.as_str()) {
            return true;
        }
        path.is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| cfg_holds_only_in_tests(&meta))
    })
}

/// Whether a `cfg` predicate holds only where test support is compiled:
/// `test`, a test/mock/fake feature, `any(..)` or `all(..)` with such a
/// part. `not(..)` never is (it is the production side).
fn cfg_holds_only_in_tests(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => p.is_ident("test"),
        syn::Meta::NameValue(nv) => {
            nv.path.is_ident("feature")
                && matches!(&nv.value, syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s), ..
                }) if is_test_feature(&s.value()))
        }
        syn::Meta::List(list) => {
            let name = last_ident(&list.path);
            if name != "any" && name != "all" {
                return false;
            }
            list.parse_args_with(
                syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
            )
            .is_ok_and(|parts| parts.iter().any(cfg_holds_only_in_tests))
        }
    }
}

/// `test-support`, `testing`, `mock-store`, `fakes`: a feature for tests.
pub(crate) fn is_test_feature(name: &str) -> bool {
    name.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "test"
                | "tests"
                | "testing"
                | "testutils"
                | "mock"
                | "mocks"
                | "mocking"
                | "fake"
                | "fakes"
        )
    })
}

/// `mod testing { .. }`, `mod mocks;`.
pub(crate) fn is_test_module(item: &syn::ItemMod) -> bool {
    is_test(&item.attrs) || is_test_module_name(&item.ident.to_string())
}

/// Whether a module so named is test support (`testing`, `mocks`).
pub(crate) fn is_test_module_name(name: &str) -> bool {
    TEST_SUPPORT_MODULES.contains(&name)
}

/// The last path segments of attributes that mark a test (`#[test]`,
/// `#[tokio::test]`, `#[rstest]`).
pub(crate) const TEST_ATTRIBUTES: &[&str] = &[
    "test",
    "rstest",
    "gtest",
    "test_case",
    "quickcheck",
    "proptest",
];

/// A whole file of test support: `#![cfg(test)]` at its top, or a module
/// file named for it (`src/testing.rs`, `src/mocks/store.rs`,
/// `src/test_utils/mod.rs`). `path` is the file's display path.
pub fn is_test_support_file(path: &str, ast: &syn::File) -> bool {
    if is_test(&ast.attrs) {
        return true;
    }
    let mut parts = path.rsplit(['/', '\\']);
    let stem = parts
        .next()
        .and_then(|file| file.strip_suffix(".rs"))
        .unwrap_or_default();
    let parent = parts.next().unwrap_or_default();
    TEST_SUPPORT_MODULES.contains(&stem) || TEST_SUPPORT_MODULES.contains(&parent)
}

/// Attributes of a statement (`#[cfg(test)] { .. }` inside a function).
pub(crate) fn stmt_is_test(stmt: &syn::Stmt) -> bool {
    let attrs: &[syn::Attribute] = match stmt {
        syn::Stmt::Local(l) => &l.attrs,
        syn::Stmt::Macro(m) => &m.attrs,
        syn::Stmt::Item(_) => return false,
        syn::Stmt::Expr(e, _) => expr_attrs(e),
    };
    is_test(attrs)
}

fn expr_attrs(e: &syn::Expr) -> &[syn::Attribute] {
    use syn::Expr;
    match e {
        Expr::Block(x) => &x.attrs,
        Expr::Call(x) => &x.attrs,
        Expr::MethodCall(x) => &x.attrs,
        Expr::If(x) => &x.attrs,
        Expr::Match(x) => &x.attrs,
        Expr::Macro(x) => &x.attrs,
        Expr::Unsafe(x) => &x.attrs,
        Expr::Async(x) => &x.attrs,
        Expr::Assign(x) => &x.attrs,
        Expr::Await(x) => &x.attrs,
        Expr::ForLoop(x) => &x.attrs,
        Expr::While(x) => &x.attrs,
        Expr::Loop(x) => &x.attrs,
        Expr::Return(x) => &x.attrs,
        Expr::Try(x) => &x.attrs,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(src: &str) -> Vec<syn::Attribute> {
        let item: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).expect("item");
        item.attrs
    }

    #[test]
    fn cfgs_that_hold_only_in_tests() {
        for yes in [
            "#[cfg(test)]",
            "#[cfg(any(test, feature = \"test-support\"))]",
            "#[cfg(feature = \"mock-store\")]",
            "#[cfg(all(test, unix))]",
            "#[cfg(any(feature = \"fakes\", feature = \"x\"))]",
            "#[tokio::test]",
        ] {
            assert!(is_test(&attrs(yes)), "{yes}");
        }
        for no in [
            "#[cfg(not(test))]",
            "#[cfg(feature = \"postgres\")]",
            "#[cfg(feature = \"attestation\")]",
            "#[cfg(unix)]",
            "#[inline]",
        ] {
            assert!(!is_test(&attrs(no)), "{no}");
        }
    }

    #[test]
    fn files_named_for_test_support() {
        let plain = syn::parse_file("fn f() {}").expect("file");
        let gated = syn::parse_file("#![cfg(test)]\nfn f() {}").expect("file");
        assert!(is_test_support_file("src/testing.rs", &plain));
        assert!(is_test_support_file("src/mocks/store.rs", &plain));
        assert!(is_test_support_file("src/test_utils/mod.rs", &plain));
        assert!(is_test_support_file("src/handlers.rs", &gated));
        assert!(!is_test_support_file("src/handlers.rs", &plain));
        assert!(!is_test_support_file("src/mock_server_client.rs", &plain));
        assert!(!is_test_support_file("testing.rs.bak", &plain));
    }
}
