//! Support chat over XMPP (the help desk runs Prosody). A bot account turns
//! chat messages into support tickets; riders can open the same tickets from
//! the app form.

use hopper::bay::Bay;
use idem_scope::{scoped, Problem};
use tokio_stream::StreamExt;
use tokio_xmpp::{AsyncClient, Event};
use wharf::badge::Rider;
use wharf::{Answer, Code, Fault, Hail};
use xmpp_parsers::message::{Body, Message, MessageType};

use crate::directory::RiderDirectory;
use crate::helpdesk::HelpDesk;

pub struct SupportBot {
    tenant_id: String,
    tickets: Bay,
    desk: HelpDesk,
    directory: RiderDirectory,
}

impl SupportBot {
    /// `POST /v1/support/tickets` from the app form.
    pub async fn open_from_app(&self, hail: Hail, rider: Rider) -> Result<Answer, Fault> {
        let k = hail.header("Idempotency-Key").ok_or_else(Problem::missing_key)?;
        let text = String::from_utf8_lossy(hail.body()).into_owned();
        let key = scoped(&rider.tenant_id, &rider.user_id, "support.open", k)?;
        if let Some(prev) = self.tickets.get(key.storage_key()).await? {
            return Ok(Answer::replayed(prev));
        }
        let ticket = self.desk.open(&rider.tenant_id, &rider.user_id, &text).await?;
        self.tickets.put(key.storage_key(), ticket.id.as_bytes().to_vec()).await?;
        Ok(Answer::json(Code::Created, &ticket))
    }

    pub async fn run(&self, mut client: AsyncClient) -> anyhow::Result<()> {
        while let Some(event) = client.next().await {
            let Event::Stanza(stanza) = event else { continue };
            let Ok(msg) = Message::try_from(stanza) else { continue };
            if msg.type_ != MessageType::Chat {
                continue;
            }
            let (Some(from), Some(id)) = (msg.from.clone(), msg.id.clone()) else { continue };
            let Some(user_id) = self.directory.user_for_jid(&self.tenant_id, &from).await? else {
                continue;
            };

            let key = scoped(&self.tenant_id, &user_id, "support.open", &id)?;
            if self.tickets.exists(key.storage_key()).await? {
                continue;
            }
            let text = msg.bodies.values().next().map(|b| b.0.clone()).unwrap_or_default();
            let ticket = self.desk.open(&self.tenant_id, &user_id, &text).await?;
            self.tickets.put(key.storage_key(), ticket.id.as_bytes().to_vec()).await?;

            let mut reply = Message::new(Some(from));
            reply.id = Some(format!("ack-{id}"));
            reply.bodies.insert(String::new(), Body(format!("Ticket {} opened", ticket.id)));
            client.send_stanza(reply.into()).await?;
        }
        Ok(())
    }
}
