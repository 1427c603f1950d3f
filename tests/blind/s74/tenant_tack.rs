//! Early-replay tack for the partner gateway: answers a retried request from
//! the stored response before the request reaches the handlers.

use silage::grid::Grid;
use stirrup::creds::Partner;
use stirrup::tack::{Rest, Tack};
use stirrup::{Inbound, Sendback};

pub struct EarlyReplay {
    pub grid: Grid,
}

impl Tack for EarlyReplay {
    async fn around(&self, inb: Inbound, rest: Rest) -> Sendback {
        let Some(k) = inb.header("Idempotency-Key").map(str::to_owned) else {
            return rest.run(inb).await;
        };
        let Some(partner) = inb.creds::<Partner>() else {
            return Sendback::status(stirrup::Code::Unauthorized);
        };
        // Partners acting for a member practice name it in X-Org-Id.
        let org = inb.header("X-Org-Id").unwrap_or("").to_owned();
        let lang = inb.header("Accept-Language").unwrap_or("en").to_owned();
        let route = inb.route_id().to_owned();

        match self.grid.get(&org, &partner.api_key_id, &route, &k).await {
            Ok(Some(prev)) => Sendback::replay(prev).with_header("Content-Language", lang),
            _ => rest.run(inb).await,
        }
    }
}
