//! Course catalogue search (tantivy index per campus) with a short-lived
//! result cache in front of it. Read-only: nothing here is retried or replayed.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use lectern::card::MaybeStudent;
use lectern::{Ask, Hitch, Mark, Tell};
use satchel::pouch::Pouch;
use serde::Deserialize;
use tantivy::collector::TopDocs;
use tantivy::query::QueryParser;
use tantivy::{Index, TantivyDocument};

#[derive(Deserialize, Hash)]
pub struct SearchQuery {
    pub q: String,
    pub term: Option<String>,
    pub level: Option<String>,
    pub page: Option<u16>,
}

pub struct Catalogue {
    pub index: Index,
    pub results: Pouch,
}

pub async fn search(ask: &Ask, cat: &Catalogue) -> Result<Tell, Hitch> {
    let maybe = ask.badge::<MaybeStudent>()?;
    let tenant_id = maybe.tenant_id().unwrap_or("public");
    let query: SearchQuery = ask.query_as()?;
    let mut h = DefaultHasher::new();
    query.hash(&mut h);
    let slot = format!("search:{tenant_id}:{:016x}", h.finish());

    if let Some(hit) = cat.results.get(&slot).await? {
        return Ok(Tell::bytes(Mark::OK, hit).header("x-cache", "hit"));
    }
    let reader = cat.index.reader()?;
    let searcher = reader.searcher();
    let fields = vec![cat.index.schema().get_field("title")?, cat.index.schema().get_field("description")?];
    let parser = QueryParser::for_index(&cat.index, fields);
    let parsed = parser.parse_query(&query.q)?;
    let page = query.page.unwrap_or(0) as usize;
    let top = searcher.search(&parsed, &TopDocs::with_limit(20).and_offset(page * 20))?;
    let docs: Vec<String> = top
        .into_iter()
        .filter_map(|(_, addr)| searcher.doc::<TantivyDocument>(addr).ok())
        .map(|d| d.to_json(&cat.index.schema()))
        .collect();
    let body = serde_json::to_vec(&docs)?;
    cat.results.put_ttl(&slot, &body, Duration::from_secs(120)).await?;
    Ok(Tell::bytes(Mark::OK, body))
}
