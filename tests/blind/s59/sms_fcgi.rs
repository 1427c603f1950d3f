use std::io::{Read, Write};

use blake2s_simd::{blake2s, Params};
use sluice::kv::SyncBucket;

use crate::carrier::{CarrierClient, OutboundSms};
use crate::identity::{resolve_bearer, Identity};

pub struct SmsGateway {
    replays: SyncBucket,
    carrier: CarrierClient,
    signing_secret: Vec<u8>,
}

impl SmsGateway {
    pub fn run(self) {
        fastcgi::run(move |mut req| {
            let ident = match req.param("HTTP_AUTHORIZATION").and_then(|h| resolve_bearer(&h).ok()) {
                Some(i) => i,
                None => {
                    let _ = write!(req.stdout(), "Status: 401\r\n\r\n");
                    return;
                }
            };
            let body: Vec<u8> = match req.stdin().bytes().collect::<Result<_, _>>() {
                Ok(b) => b,
                Err(_) => {
                    let _ = write!(req.stdout(), "Status: 400\r\n\r\n");
                    return;
                }
            };
            let out = self.send(&ident, &body);
            let _ = write!(req.stdout(), "Status: {}\r\nContent-Type: application/json\r\n\r\n", out.0);
            let _ = req.stdout().write_all(&out.1);
        });
    }

    fn send(&self, ident: &Identity, body: &[u8]) -> (u16, Vec<u8>) {
        let replay_key = (ident.tenant_id.as_str(), ident.user_id.as_str(), "sms.send", blake2s(body).to_hex().to_string());
        if let Ok(Some(prev)) = self.replays.get::<Vec<u8>>(&replay_key) {
            return (200, prev);
        }
        let sms: OutboundSms = match serde_json::from_slice(body) {
            Ok(s) => s,
            Err(e) => return (422, e.to_string().into_bytes()),
        };
        let message_sid = format!("SM{}", cuid2::create_id());
        let signature = Params::new().hash_length(16).key(&self.signing_secret).hash(body).to_hex();
        let accepted = self.carrier.submit(&message_sid, &sms, signature.as_str());
        let out = serde_json::json!({ "sid": message_sid, "accepted": accepted }).to_string().into_bytes();
        let _ = self.replays.put(&replay_key, &out);
        (202, out)
    }
}
