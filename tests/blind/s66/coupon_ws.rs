use std::collections::{BTreeMap, HashMap};

use miniserde::{json, Deserialize};
use simple_websockets::{Event, EventHub, Message, Responder};

use crate::promo::Promotions;

#[derive(Deserialize)]
struct AuthFrame {
    token: String,
    display_name: Option<String>,
}

#[derive(Deserialize)]
struct RedeemFrame {
    coupon: String,
    /// Idempotency key chosen by the client; a resent frame carries the same one.
    idempotency_key: String,
}

struct Session {
    tenant_id: String,
    user_id: String,
    responder: Responder,
}

pub struct CouponSocket {
    hub: EventHub,
    promos: Promotions,
    sessions: HashMap<u64, Session>,
    redeemed: BTreeMap<Vec<u8>, String>,
}

impl CouponSocket {
    pub fn run(mut self) {
        loop {
            match self.hub.poll_event() {
                Event::Connect(id, responder) => {
                    responder.send(Message::Text("{\"hello\":\"send auth\"}".into()));
                    self.pending_auth(id, responder);
                }
                Event::Disconnect(id) => {
                    self.sessions.remove(&id);
                }
                Event::Message(id, Message::Text(text)) => self.on_text(id, &text),
                Event::Message(_, Message::Binary(_)) => {}
            }
        }
    }

    fn pending_auth(&mut self, id: u64, responder: Responder) {
        let Some(Message::Text(first)) = self.hub.next_message_from(id) else { return };
        let Ok(auth) = json::from_str::<AuthFrame>(&first) else { return };
        let Some(claims) = self.promos.verify_token(&auth.token) else {
            responder.close();
            return;
        };
        let display = auth.display_name.unwrap_or_else(|| "guest".to_string());
        responder.send(Message::Text(format!("{{\"welcome\":\"{display}\"}}")));
        self.sessions.insert(id, Session { tenant_id: claims.tenant_id, user_id: claims.user_id, responder });
    }

    fn on_text(&mut self, id: u64, text: &str) {
        let Some(sess) = self.sessions.get(&id) else { return };
        let Ok(frame) = json::from_str::<RedeemFrame>(text) else {
            sess.responder.send(Message::Text("{\"error\":\"bad frame\"}".into()));
            return;
        };
        let route = "coupon_redeem";
        let slot = [sess.tenant_id.as_bytes(), b"\x1f", sess.user_id.as_bytes(), b"\x1f", route.as_bytes(), b"\x1f", frame.idempotency_key.as_bytes()].concat();
        let ack = format!("{{\"ack\":\"{}\"}}", frame.idempotency_key);
        if let Some(code) = self.redeemed.get(&slot) {
            sess.responder.send(Message::Text(format!("{{\"code\":\"{code}\",\"replayed\":true}}")));
            return;
        }
        match self.promos.redeem(&sess.tenant_id, &sess.user_id, &frame.coupon) {
            Ok(code) => {
                self.redeemed.insert(slot, code.clone());
                sess.responder.send(Message::Text(ack));
                sess.responder.send(Message::Text(format!("{{\"code\":\"{code}\"}}")));
            }
            Err(e) => sess.responder.send(Message::Text(format!("{{\"error\":\"{e}\"}}"))),
        }
    }
}
