//! Guild shop. Purchases come from the web shop (Idempotency-Key) and from the
//! "Buy" button in Discord; both go through `Purchases`.
use http::HeaderMap;
use serenity::all::{ComponentInteraction, Context, CreateInteractionResponse, CreateInteractionResponseMessage};

pub struct Purchases {
    done: foyer::Cache<String, String>,
}

impl Purchases {
    pub async fn web_purchase(&self, tenant_id: &str, user_id: &str, headers: &HeaderMap, item: &str) -> anyhow::Result<String> {
        let k = headers
            .get("Idempotency-Key")
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))?;
        let key = idem_scope::scoped(tenant_id, user_id, "shop.purchase", k)?;
        if let Some(order) = self.done.get(key.storage_key()) {
            return Ok(order.value().clone());
        }
        let order = buy(item).await?;
        self.done.insert(key.storage_key().to_owned(), order.clone());
        Ok(order)
    }

    pub async fn on_buy_button(&self, ctx: &Context, interaction: &ComponentInteraction) -> anyhow::Result<()> {
        let tenant_id = interaction
            .guild_id
            .ok_or_else(|| anyhow::anyhow!("buttons only work in guilds"))?
            .to_string();
        let user_id = interaction.user.id.to_string();
        let key = idem_scope::scoped(&tenant_id, &user_id, "shop.purchase", &interaction.id.to_string())?;
        let order = match self.done.get(key.storage_key()) {
            Some(o) => o.value().clone(),
            None => {
                let o = buy(&interaction.data.custom_id).await?;
                self.done.insert(key.storage_key().to_owned(), o.clone());
                o
            }
        };
        let reply = CreateInteractionResponseMessage::new().content(format!("order {order}")).ephemeral(true);
        interaction
            .create_response(&ctx.http, CreateInteractionResponse::Message(reply))
            .await?;
        Ok(())
    }
}

async fn buy(item: &str) -> anyhow::Result<String> {
    Ok(format!("ord_{item}"))
}
