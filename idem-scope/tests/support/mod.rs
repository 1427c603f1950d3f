//! Shared by the integration tests (each uses a part of it).
#![allow(dead_code)]

#[cfg(feature = "conformance")]
pub mod broken;
pub mod pg_cluster;
pub mod redis_server;
#[cfg(feature = "tower")]
pub mod scenarios;
#[cfg(feature = "tower")]
#[path = "../../examples/charge_service.rs"]
pub mod service;
