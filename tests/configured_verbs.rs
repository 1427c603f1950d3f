//! Configured IDEM004 verbs count everywhere the built-in ones do: a release
//! verb added by `[vocabulary] release-verbs` in a `Drop` impl makes the
//! type a guard, with and without the pre-filter.

use std::path::Path;
use std::process::Command;

/// A claim on an idempotency store (IDEM004 needs idempotency context) held
/// by a local guard whose `Drop` calls `evict`, with a `?` between the
/// claim and its completion.
const DROP_GUARD: &str = r#"pub struct InFlight<'a> {
    store: &'a Store,
    key: String,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.store.evict(&self.key);
    }
}

pub fn handler(idem_store: &Store, headers: &HeaderMap, ctx: &Ctx) -> Result<(), Error> {
    let raw = headers.get("Idempotency-Key").ok_or(Error::MissingKey)?.to_str()?;
    let scoped = idem_scope::scoped(&ctx.tenant_id, &ctx.user_id, "charges.create", raw)?;
    let key = scoped.storage_key();
    idem_store.claim(key)?;
    let _in_flight = InFlight { store: idem_store, key: key.to_owned() };
    let resp = idem_store.compute()?;
    idem_store.complete(key, &resp)?;
    Ok(())
}
"#;

/// The rule codes idem-lint reports for the files of `dir`.
fn codes(dir: &Path, extra: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_idem-lint"))
        .args(["--format", "json", "."])
        .args(extra)
        .current_dir(dir)
        .output()
        .expect("idem-lint runs");
    let code = out.status.code().unwrap_or(-1);
    assert!(
        code == 0 || code == 1,
        "exit {code}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    json["diagnostics"]
        .as_array()
        .expect("array")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn configured_release_verb_in_drop_is_a_guard() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("guard.rs"), DROP_GUARD).expect("write");
    for extra in [&[][..], &["--no-prefilter"][..]] {
        assert_eq!(
            codes(dir.path(), extra),
            ["IDEM004"],
            "`evict` is no release verb by default ({extra:?})"
        );
    }
    std::fs::write(
        dir.path().join("idem-lint.toml"),
        "[vocabulary]\nrelease-verbs = [\"evict\"]\n",
    )
    .expect("write");
    for extra in [&[][..], &["--no-prefilter"][..]] {
        assert_eq!(
            codes(dir.path(), extra),
            Vec::<String>::new(),
            "a configured release verb in `Drop` makes a guard ({extra:?})"
        );
    }
}
