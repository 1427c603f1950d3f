//! Values only sent on as a header of an outgoing request or response: a
//! binding named like a key (`upstream_key`) whose every use sets a header
//! (`.insert_header(("Idempotency-Key", upstream_key.as_str()))`) is sent to
//! another API, which is no key position (rules.md, "Sinks").

use super::calls::HEADER_SETTERS;
use super::sinks::receiver_name;

/// Whether every use of the local `name` in `body` is a header value set
/// on an outgoing request or response (`.insert_header(("Idempotency-Key",
/// upstream_key.as_str()))`, `headers.insert(NAME, v)`): a value named like
/// a key that is only sent to another API is no key position (rules.md,
/// "Sinks").
pub(super) fn only_sent_as_header(body: &syn::Block, name: &str) -> bool {
    struct Uses<'n> {
        name: &'n str,
        in_setter: usize,
        uses: usize,
        sent: usize,
    }
    impl<'ast> syn::visit::Visit<'ast> for Uses<'_> {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            let method = m.method.to_string();
            let on_headers = receiver_name(&m.receiver)
                .is_some_and(|r| r.to_ascii_lowercase().contains("header"));
            // A generic verb (`insert`, `append`, `set`) sets a header only
            // on a header map; one named for headers does on anything.
            let setter = HEADER_SETTERS.contains(&method.as_str())
                && (on_headers || method.contains("header"));
            self.visit_expr(&m.receiver);
            self.in_setter += usize::from(setter);
            for arg in &m.args {
                self.visit_expr(arg);
            }
            self.in_setter -= usize::from(setter);
        }
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if p.is_ident(self.name) {
                self.uses += 1;
                self.sent += usize::from(self.in_setter > 0);
            }
        }
    }
    let mut uses = Uses {
        name,
        in_setter: 0,
        uses: 0,
        sent: 0,
    };
    syn::visit::Visit::visit_block(&mut uses, body);
    uses.uses > 0 && uses.uses == uses.sent
}
