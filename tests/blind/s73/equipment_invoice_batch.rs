//! Dealers post batches of equipment service invoices (parts and labour) to
//! be charged to member accounts. A batch is identified by the Merkle root
//! of its lines so the dealer portal can prove inclusion of a line later.

use bushel::rows::Pool;
use furrow::glean::Form;
use furrow::warrant::PartnerLink;
use furrow::{Petition, Ruling, Shared, StatusLine};
use idem_scope::Fingerprint;
use rs_merkle::algorithms::Sha256;
use rs_merkle::{Hasher, MerkleTree};
use serde::Deserialize;

const ROUTE: &str = "invoice_batch";
const RECORD: &str = "INSERT INTO idempotency_invoice_batches \
                      (org_id, client_id, route, batch_key, fingerprint) \
                      VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING id";
const ANSWER: &str = "UPDATE idempotency_invoice_batches SET response = $1 WHERE id = $2";

#[derive(Deserialize)]
pub struct InvoiceForm {
    pub member_no: Vec<String>,
    pub line_desc: Vec<String>,
    pub amount_cents: Vec<i64>,
}

impl InvoiceForm {
    fn leaves(&self) -> Vec<[u8; 32]> {
        self.member_no
            .iter()
            .zip(&self.line_desc)
            .zip(&self.amount_cents)
            .map(|((m, d), a)| Sha256::hash(format!("{m}|{d}|{a}").as_bytes()))
            .collect()
    }
}

pub async fn post_batch(p: Petition, Shared(pool): Shared<Pool>, dealer: PartnerLink, Form(form): Form<InvoiceForm>) -> Ruling {
    let tree = MerkleTree::<Sha256>::from_leaves(&form.leaves());
    let Some(root) = tree.root_hex() else {
        return Ruling::with(StatusLine::UNPROCESSABLE).text("empty batch");
    };

    let fingerprint = Fingerprint::of(ROUTE, p.body());
    let recorded = pool
        .prep(RECORD)
        .bind(&dealer.org_id)
        .bind(&dealer.client_id)
        .bind(ROUTE)
        .bind(&root)
        .bind(fingerprint.as_bytes().as_slice())
        .one::<i64>()
        .await;
    let row_id = match recorded {
        Ok(Some(id)) => id,
        Ok(None) => return Ruling::ok().text("batch already posted"),
        Err(e) => return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string()),
    };

    let charged = charge_lines(&dealer, &form).await;
    let body = furrow::codec::to_vec(&charged).unwrap_or_default();
    let _ = pool.prep(ANSWER).bind(&body).bind(row_id).run().await;
    let proof_root = tree.root_hex().unwrap_or_default();
    Ruling::created().header("X-Batch-Root", &proof_root).bytes(body)
}
