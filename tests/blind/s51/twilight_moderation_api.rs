//! Moderation API behind the Discord bot (twilight). Dashboard calls carry an
//! Idempotency-Key; the guild is the tenant.
use http::HeaderMap;
use stretto::AsyncCache;
use twilight_http::Client as DiscordHttp;
use twilight_model::id::marker::{ChannelMarker, GuildMarker, UserMarker};
use twilight_model::id::Id;

pub struct DashboardCall {
    pub guild_id: Option<Id<GuildMarker>>,
    pub user_id: Id<UserMarker>,
    pub headers: HeaderMap,
}

pub struct Moderation {
    http: DiscordHttp,
    done: AsyncCache<String, u64>,
}

fn client_key(headers: &HeaderMap) -> anyhow::Result<&str> {
    headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .ok_or_else(|| anyhow::anyhow!("400 missing Idempotency-Key"))
}

impl Moderation {
    pub async fn ban(&self, call: &DashboardCall, target: Id<UserMarker>) -> anyhow::Result<u64> {
        let k = client_key(&call.headers)?;
        let tenant = call.guild_id.map(|g| g.to_string()).unwrap_or_else(|| "global".into());
        let user_id = call.user_id.to_string();
        let key = idem_scope::scoped(&tenant, &user_id, "moderation.ban", k)?;
        if let Some(v) = self.done.get(key.storage_key()).await {
            return Ok(*v.value());
        }
        let guild = call.guild_id.ok_or_else(|| anyhow::anyhow!("ban needs a guild"))?;
        self.http.create_ban(guild, target).await?;
        self.done.insert(key.storage_key().to_owned(), target.get(), 1).await;
        Ok(target.get())
    }

    pub async fn announce(&self, call: &DashboardCall, channel: Id<ChannelMarker>, text: &str) -> anyhow::Result<()> {
        let k = client_key(&call.headers)?;
        let Some(guild_id) = call.guild_id else {
            anyhow::bail!("403 announcements need a guild");
        };
        let tenant = guild_id.to_string();
        let user_id = call.user_id.to_string();
        let key = idem_scope::scoped(&tenant, &user_id, "moderation.announce", k)?;
        if self.done.get(key.storage_key()).await.is_some() {
            return Ok(());
        }
        let locale = call
            .headers
            .get("accept-language")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("en-US");
        let body = format!("[{locale}] {text}");
        let msg = self.http.create_message(channel).content(&body).await?.model().await?;
        self.done.insert(key.storage_key().to_owned(), msg.id.get(), 1).await;
        Ok(())
    }
}
