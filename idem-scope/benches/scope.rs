//! Cost of doing it right versus the ad-hoc `format!` it replaces.
//!
//! `cargo bench -p idem-scope --bench scope -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use idem_scope::{scoped, IdempotencyKey};

const TENANT: &str = "tenant_5f1c2a";
const PRINCIPAL: &str = "user_8812";
const ROUTE: &str = "POST /v1/charges";
const KEY: &str = "8e03978e-40d5-43e8-bc93-6894a57f9324";
const HEADER: &[u8] = b"\"8e03978e-40d5-43e8-bc93-6894a57f9324\"";

fn storage_key(c: &mut Criterion) {
    let mut g = c.benchmark_group("storage_key");
    g.bench_function("scoped+storage_key", |b| {
        b.iter(|| {
            let k = scoped(
                black_box(TENANT),
                black_box(PRINCIPAL),
                black_box(ROUTE),
                black_box(KEY),
            )
            .unwrap();
            black_box(k.storage_key().len())
        })
    });
    g.bench_function("format!", |b| {
        b.iter(|| {
            let (t, p, r, k) = (
                black_box(TENANT),
                black_box(PRINCIPAL),
                black_box(ROUTE),
                black_box(KEY),
            );
            let s = format!("v1\0{t}\0{p}\0{r}\0u:\0{k}");
            black_box(s.len())
        })
    });
    g.finish();
}

fn header(c: &mut Criterion) {
    let mut g = c.benchmark_group("header");
    g.bench_function("IdempotencyKey::parse", |b| {
        b.iter(|| {
            black_box(
                IdempotencyKey::parse(black_box(HEADER))
                    .unwrap()
                    .as_str()
                    .len(),
            )
        })
    });
    g.bench_function("IdempotencyKey::parse_lenient(bare)", |b| {
        b.iter(|| {
            black_box(
                IdempotencyKey::parse_lenient(black_box(KEY.as_bytes()))
                    .unwrap()
                    .as_str()
                    .len(),
            )
        })
    });
    g.bench_function("naive trim+to_owned", |b| {
        // The naive handler: take the bytes as they come and copy them out.
        b.iter(|| {
            let raw = std::str::from_utf8(black_box(HEADER)).unwrap();
            black_box(raw.trim_matches('"').to_owned().len())
        })
    });
    g.finish();
}

criterion_group!(benches, storage_key, header);
criterion_main!(benches);
