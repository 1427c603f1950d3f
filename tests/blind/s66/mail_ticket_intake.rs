use std::sync::Arc;

use idem_scope::{scoped, scoped_server, Problem};
use lintel::blocking::{Answer, Call, Code};
use mailin_embedded::response::{INTERNAL_ERROR, OK};
use mailin_embedded::{Handler, Response};
use skerry::stash::BlockingStash;

use crate::support::{Helpdesk, MailboxMap, TicketDraft};

fn header_value<'a>(raw: &'a [u8], name: &str) -> Option<&'a str> {
    let text = std::str::from_utf8(raw).ok()?;
    let head = text.split("\r\n\r\n").next()?;
    head.lines()
        .find(|l| l.len() > name.len() && l[..name.len()].eq_ignore_ascii_case(name) && l.as_bytes()[name.len()] == b':')
        .map(|l| l[name.len() + 1..].trim())
}

#[derive(Clone)]
pub struct MailIntake {
    stash: Arc<BlockingStash>,
    desk: Arc<Helpdesk>,
    mailboxes: Arc<MailboxMap>,
    rcpt: Vec<String>,
    buf: Vec<u8>,
}

impl Handler for MailIntake {
    fn data_start(&mut self, _domain: &str, _from: &str, _is8bit: bool, to: &[String]) -> Response {
        self.rcpt = to.to_vec();
        self.buf.clear();
        OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let Some(mailbox) = self.rcpt.first().and_then(|r| self.mailboxes.resolve(r)) else { return INTERNAL_ERROR };
        let Some(message_id) = header_value(&self.buf, "Message-ID").map(str::to_owned) else { return INTERNAL_ERROR };
        let sender = header_value(&self.buf, "From").unwrap_or_default().to_owned();
        let Ok(slot) = scoped(&mailbox.tenant_id, &mailbox.user_id, "ticket_open", &message_id) else { return INTERNAL_ERROR };
        if let Ok(Some(_)) = self.stash.get(slot.storage_key()) {
            return OK;
        }
        let draft = TicketDraft::from_mail(&sender, &self.buf);
        match self.desk.open_blocking(&mailbox.tenant_id, &mailbox.user_id, draft) {
            Ok(t) => {
                let _ = self.stash.put(slot.storage_key(), t.number.as_bytes());
                OK
            }
            Err(_) => INTERNAL_ERROR,
        }
    }
}

impl MailIntake {
    pub fn open_ticket(&self, call: Call) -> Answer {
        let Some(who) = call.identity() else { return Answer::status(Code::UNAUTHORIZED) };
        let Some(key) = call.header("Idempotency-Key") else { return Answer::problem(Problem::missing_key()) };
        let Ok(slot) = scoped(&who.tenant_id, &who.user_id, "ticket_open", key) else {
            return Answer::problem(Problem::invalid_key("bad key"));
        };
        if let Ok(Some(prev)) = self.stash.get(slot.storage_key()) {
            return Answer::bytes(Code::OK, prev);
        }
        let Ok(draft) = call.json::<TicketDraft>() else { return Answer::status(Code::BAD_REQUEST) };
        match self.desk.open_blocking(&who.tenant_id, &who.user_id, draft) {
            Ok(t) => {
                let _ = self.stash.put(slot.storage_key(), t.number.as_bytes());
                Answer::text(Code::CREATED, &t.number)
            }
            Err(e) => Answer::text(Code::BAD_GATEWAY, &e.to_string()),
        }
    }

    pub fn mark_bounced(&self, tenant_id: &str, user_id: &str, bounce_message_id: &str) {
        if let Ok(slot) = scoped_server(tenant_id, user_id, "ticket_bounce", bounce_message_id) {
            let _ = self.stash.put(slot.storage_key(), b"bounced");
        }
    }
}
