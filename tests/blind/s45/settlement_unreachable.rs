use idem_scope::{scoped, ScopedKey};

#[derive(Debug)]
pub enum Rail {
    Sepa,
    Ach,
    Card,
}

pub struct SettleCmd {
    pub merchant_id: String,
    pub caller_id: String,
    pub rail: Rail,
    pub amount_minor: i64,
}

pub struct Settlements {
    records: SettlementRecords,
    sepa: SepaClient,
    ach: AchClient,
}

impl Settlements {
    pub fn settle(&self, headers: &[(&str, &str)], cmd: &SettleCmd) -> Result<String, SettleError> {
        let client_key = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| *v).ok_or(SettleError::MissingKey)?;
        let key: ScopedKey = scoped(&cmd.merchant_id, &cmd.caller_id, "settlements.create", client_key)?;
        self.records.mark_in_progress(&key)?;
        let reference = match cmd.rail {
            Rail::Sepa => self.sepa.credit_transfer(&cmd.merchant_id, cmd.amount_minor)?,
            Rail::Ach => self.ach.push(&cmd.merchant_id, cmd.amount_minor)?,
            Rail::Card => unreachable!("card settlements go through the acquirer"),
        };
        self.records.mark_completed(&key, &reference)?;
        Ok(reference)
    }

    pub fn settle_checked(&self, headers: &[(&str, &str)], cmd: &SettleCmd) -> Result<String, SettleError> {
        let client_key = headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("Idempotency-Key")).map(|(_, v)| *v).ok_or(SettleError::MissingKey)?;
        let key: ScopedKey = scoped(&cmd.merchant_id, &cmd.caller_id, "settlements.create", client_key)?;
        if matches!(cmd.rail, Rail::Card) {
            return Err(SettleError::UnsupportedRail);
        }
        self.records.mark_in_progress(&key)?;
        let reference = match self.dispatch_rail(cmd) {
            Ok(r) => r,
            Err(e) => {
                self.records.release(&key)?;
                return Err(e);
            }
        };
        self.records.mark_completed(&key, &reference)?;
        Ok(reference)
    }

    fn dispatch_rail(&self, cmd: &SettleCmd) -> Result<String, SettleError> {
        match cmd.rail {
            Rail::Sepa => self.sepa.credit_transfer(&cmd.merchant_id, cmd.amount_minor),
            Rail::Ach => self.ach.push(&cmd.merchant_id, cmd.amount_minor),
            Rail::Card => Err(SettleError::UnsupportedRail),
        }
    }
}
