//! Snow-kindergarten (childcare) day bookings.

use cornice::logbook::Logbook;
use telemark::pass::Skier;
use telemark::{Carve, Turn, Wipeout};

pub enum CareKind {
    HalfDay,
    FullDay,
    Evening,
}

pub async fn book_day(turn: Turn, skier: Skier, book: &Logbook) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "childcare.book", key)?;
    let kind = match turn.query("kind") {
        Some("half") => CareKind::HalfDay,
        Some("evening") => CareKind::Evening,
        _ => CareKind::FullDay,
    };

    book.mark_in_progress(&sk).await?;
    let price = match kind {
        CareKind::HalfDay => 45_00,
        CareKind::FullDay => 80_00,
        CareKind::Evening => todo!("evening care pricing"),
    };
    let booking = crate::childcare::book(&skier, price).await;
    book.mark_done(&sk, &booking.to_json()).await?;
    Ok(Carve::created(booking))
}

pub async fn book_week(turn: Turn, skier: Skier, book: &Logbook) -> Result<Carve, Wipeout> {
    let key = turn.header("Idempotency-Key").ok_or_else(|| Wipeout::bad_request("missing key"))?;
    let sk = idem_scope::scoped(&skier.tenant_id, &skier.user_id, "childcare.book-week", key)?;

    book.mark_in_progress(&sk).await?;
    let result = std::panic::AssertUnwindSafe(crate::childcare::book_week(&skier));
    let outcome = futures::FutureExt::catch_unwind(result).await;
    let booking = match outcome {
        Ok(b) => b,
        Err(panic) => {
            book.abandon(&sk).await?;
            std::panic::resume_unwind(panic);
        }
    };
    book.mark_done(&sk, &booking.to_json()).await?;
    Ok(Carve::created(booking))
}
