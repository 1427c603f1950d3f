//! `idem-probe`: runs the conformance checks against a live base URL.
//! (The checks land with the `conformance` module.)
fn main() {}
