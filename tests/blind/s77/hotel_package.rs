//! Ski-and-stay packages: the confirmation runs in a background task and the
//! client polls.

use cornice::ledge::Ledge;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub async fn book_package(turn: Turn, skier: Skier, db: Ledge) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?.to_owned();
    let req: crate::stay::PackageRequest = turn.json()?;
    let (tenant_id, user_id) = (skier.tenant_id.clone(), skier.user_id.clone());

    tokio::spawn(async move {
        let run = async {
            db.sql("INSERT INTO idempotency_requests (tenant_id, user_id, route, idem_key, status) VALUES ($1, $2, $3, $4, 'in_progress')")
                .bind(&tenant_id)
                .bind(&user_id)
                .bind("stay.package")
                .bind(&key)
                .run()
                .await?;
            let room = crate::stay::hold_room(&req).await?;
            let folio = crate::stay::open_folio(&room).await?;
            db.sql("UPDATE idempotency_requests SET status = 'completed', response = $5 WHERE tenant_id = $1 AND user_id = $2 AND route = $3 AND idem_key = $4")
                .bind(&tenant_id)
                .bind(&user_id)
                .bind("stay.package")
                .bind(&key)
                .bind(folio.to_json())
                .run()
                .await?;
            anyhow::Ok(())
        };
        if let Err(e) = run.await {
            tracing::error!(error = %e, "package booking failed");
        }
    });

    let mut tx = db.begin().await?;
    tx.sql("UPDATE skier_profile SET last_package_at = now() WHERE user_id = $1").bind(&skier.user_id).run().await?;
    tx.commit().await?;
    Ok(Carve::accepted("processing"))
}
