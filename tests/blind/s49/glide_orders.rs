//! Order intake on Valkey through valkey-glide.
use compact_str::CompactString;
use valkey_glide::{GlideClient, GlideClientConfiguration, NodeAddress};

pub const IDEMPOTENCY_HEADER: &str = "Idempotency-Key";

pub struct OrderIntake {
    glide: GlideClient,
}

pub struct Principal {
    pub org: CompactString,
    pub uid: CompactString,
}

impl OrderIntake {
    pub async fn connect(host: &str) -> anyhow::Result<Self> {
        let cfg = GlideClientConfiguration::builder()
            .address(NodeAddress::new(host, 6379))
            .build();
        Ok(Self { glide: GlideClient::new(cfg).await? })
    }

    pub async fn submit(&self, req: &http::Request<Vec<u8>>, who: &Principal) -> anyhow::Result<Vec<u8>> {
        let key: CompactString = req
            .headers()
            .get(IDEMPOTENCY_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(CompactString::from)
            .ok_or_else(|| anyhow::anyhow!("Idempotency-Key header required"))?;
        let op = "orders.create";

        let mut k = String::with_capacity(80);
        k.push_str(&who.org);
        k.push('\x1f');
        k.push_str(&who.uid);
        k.push('\x1f');
        k.push_str(op);
        k.push('\x1f');
        k.push_str(key.as_str());

        if let Some(done) = self.glide.get(&k).await? {
            return Ok(done.into_bytes());
        }
        let receipt = crate::orders::create(&who.org, req.body()).await?;
        self.glide.set(&k, &receipt).await?;
        Ok(receipt.into_bytes())
    }

    pub async fn recent(&self, who: &Principal) -> anyhow::Result<Option<String>> {
        let mut k = String::from("recent:");
        k.push_str(&who.uid);
        Ok(self.glide.get(&k).await?)
    }
}
