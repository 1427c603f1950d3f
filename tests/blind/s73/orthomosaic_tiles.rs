//! Orthomosaic tile storage for drone flights. Tiles are content-addressed:
//! the object name is the KangarooTwelve hash of the tile bytes, so
//! overlapping flights share storage.

use bushel::blobs::Blobs;
use furrow::glean::RawBytes;
use furrow::warrant::Agronomist;
use furrow::{Petition, Ruling, Shared, StatusLine};
use gearhash::Hasher as GearHasher;
use marsupial::KT128;

pub struct TileStore {
    pub blobs: Blobs,
    pub index: FlightIndex,
}

const MASK: u64 = 0x0000_d930_0353_0000;

fn chunk_bounds(bytes: &[u8]) -> Vec<usize> {
    let mut gear = GearHasher::default();
    let mut cuts = Vec::new();
    let mut start = 0;
    while let Some(off) = gear.next_match(&bytes[start..], MASK) {
        start += off;
        cuts.push(start);
    }
    cuts
}

pub async fn put_tile(p: Petition, Shared(ts): Shared<TileStore>, a: Agronomist, raw: RawBytes) -> Ruling {
    let Some(flight) = p.query("flight") else {
        return Ruling::with(StatusLine::BAD_REQUEST);
    };
    let mut names = Vec::new();
    let mut prev = 0;
    for cut in chunk_bounds(&raw.0).into_iter().chain(std::iter::once(raw.0.len())) {
        let chunk = &raw.0[prev..cut];
        let name = marsupial::hash::<KT128>(chunk).to_hex().to_string();
        let path = format!("{}/chunks/{}", a.org_id, name);
        if let Err(e) = ts.blobs.put_object(&path, chunk.to_vec()).await {
            return Ruling::with(StatusLine::SERVICE_UNAVAILABLE).text(&e.to_string());
        }
        names.push(name);
        prev = cut;
    }
    ts.index.add_tile(&a.org_id, flight, &names).await;
    Ruling::created().json(&names)
}
