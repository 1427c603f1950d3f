//! Integration test: two tenants sending the same key must not collide.

use granary::silo::Silo;
use idem_scope::scoped;

#[tokio::test]
async fn tenants_do_not_collide() {
    let silo = Silo::memory();
    let a = scoped("tenant-a", "u1", "charge", "same-key").unwrap();
    let b = scoped("tenant-b", "u1", "charge", "same-key").unwrap();
    silo.put(a.storage_key(), b"a".to_vec()).await.unwrap();
    silo.put(b.storage_key(), b"b".to_vec()).await.unwrap();
    let raw = "same-key";
    assert!(silo.get(raw).await.unwrap().is_none());
    let naive = format!("tenant-a:{raw}");
    assert!(silo.get(&naive).await.unwrap().is_none());
}
