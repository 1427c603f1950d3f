//! Polls moisture cables and aeration fans in the grain bins over Modbus
//! TCP. One RS-485 gateway serves several bins, so access to the bus is
//! serialised.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, Semaphore};
use tokio_modbus::client::{tcp, Context, Reader, Writer};
use tokio_modbus::slave::{Slave, SlaveContext};

pub struct BinBus {
    pub ctx: Mutex<Context>,
    pub fan_slots: Semaphore,
    pub readings: ReadingsSink,
}

impl BinBus {
    pub async fn connect(addr: std::net::SocketAddr) -> anyhow::Result<Arc<Self>> {
        let ctx = tcp::connect(addr).await?;
        Ok(Arc::new(BinBus { ctx: Mutex::new(ctx), fan_slots: Semaphore::new(2), readings: ReadingsSink::default() }))
    }

    pub async fn poll_bin(&self, unit: u8) -> anyhow::Result<Vec<u16>> {
        let mut ctx = self.ctx.lock().await;
        ctx.set_slave(Slave(unit));
        let regs = ctx.read_input_registers(0x0010, 12).await??;
        drop(ctx);
        self.readings.record(unit, &regs).await?;
        Ok(regs)
    }

    pub async fn run_fan(&self, unit: u8, minutes: u64) -> anyhow::Result<()> {
        let _slot = self.fan_slots.acquire().await?;
        {
            let mut ctx = self.ctx.lock().await;
            ctx.set_slave(Slave(unit));
            ctx.write_single_coil(0x0001, true).await??;
        }
        tokio::time::sleep(Duration::from_secs(minutes * 60)).await;
        let mut ctx = self.ctx.lock().await;
        ctx.write_single_coil(0x0001, false).await??;
        Ok(())
    }

    pub fn try_quick_read(&self, unit: u8) -> Option<()> {
        let guard = self.ctx.try_lock().ok()?;
        drop(guard);
        tracing::trace!(unit, "bus free");
        Some(())
    }
}
