use bbolt_rs::{Bolt, BucketApi, BucketRwApi, DbApi, DbRwAPI, TxApi, TxRwRefApi};
use fastwebsockets::{Frame, OpCode, Payload, WebSocket};
use serde::Deserialize;

pub struct Session {
    pub account_id: String,
    pub subject: String,
}

#[derive(Deserialize)]
struct OrderFrame {
    #[serde(rename = "Idempotency-Key")]
    idem: String,
    symbol: String,
    qty: i64,
    limit_price: Option<i64>,
}

const ROUTE: &str = "trading.place_order";

fn order_key(session: &Session, route: &str, frame: &OrderFrame) -> Vec<u8> {
    let mut key = Vec::with_capacity(160);
    key.extend_from_slice(session.account_id.as_bytes());
    key.push(0x1e);
    key.extend_from_slice(session.subject.as_bytes());
    key.push(0x1e);
    key.extend_from_slice(route.as_bytes());
    key.push(0x1e);
    key.extend_from_slice(frame.idem.as_bytes());
    key
}

pub async fn serve<S>(mut ws: WebSocket<S>, session: Session, db: Bolt) -> anyhow::Result<()>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        let frame = ws.read_frame().await?;
        match frame.opcode {
            OpCode::Close => break,
            OpCode::Text => {
                let order: OrderFrame = serde_json::from_slice(&frame.payload)?;
                let key = order_key(&session, ROUTE, &order);
                let previous = db.view(|tx| Ok(tx.bucket("orders").and_then(|b| b.get(&key).map(|v| v.to_vec()))))?;
                let reply = match previous {
                    Some(prev) => prev,
                    None => {
                        let symbol = order.symbol.trim_matches('/').to_uppercase();
                        let ack = format!(r#"{{"symbol":"{}","qty":{},"limit":{:?}}}"#, symbol, order.qty, order.limit_price).into_bytes();
                        db.update(|mut tx| {
                            let mut bucket = tx.create_bucket_if_not_exists("orders")?;
                            bucket.put(&key, &ack)?;
                            Ok(())
                        })?;
                        ack
                    }
                };
                ws.write_frame(Frame::text(Payload::Owned(reply))).await?;
            }
            _ => {}
        }
    }
    Ok(())
}
