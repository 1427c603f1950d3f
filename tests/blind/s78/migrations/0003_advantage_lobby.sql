-- Advantage Database Server 12 (data dictionary "lobby.add") used by the
-- lobby kiosks' local cashiering service. Statements run through ARC32.

CREATE TABLE kiosk_idempotency (
   idem_key    Char(64),
   tenant_id   Char(36),
   client_id   Char(36),
   route       Char(48),
   status      Char(12),
   fingerprint Raw(32),
   response    Memo,
   created_at  TimeStamp
) IN DATABASE;

CREATE UNIQUE INDEX kiosk_idem_key ON kiosk_idempotency (idem_key);

EXECUTE PROCEDURE sp_ModifyTableProperty('kiosk_idempotency', 'Table_Primary_Key', 'kiosk_idem_key', 'APPEND_FAIL', NULL);

CREATE TABLE kiosk_void_idempotency (
   row_id      AutoInc,
   idem_key    Char(64),
   tenant_id   Char(36),
   client_id   Char(36),
   route       Char(48),
   response    Memo,
   created_at  TimeStamp
) IN DATABASE;

CREATE UNIQUE INDEX kiosk_void_pk ON kiosk_void_idempotency (row_id);
CREATE UNIQUE INDEX kiosk_void_scope ON kiosk_void_idempotency (tenant_id, client_id, route, idem_key);

EXECUTE PROCEDURE sp_ModifyTableProperty('kiosk_void_idempotency', 'Table_Primary_Key', 'kiosk_void_pk', 'APPEND_FAIL', NULL);

CREATE TABLE cash_drawer_events (
   event_no    AutoInc,
   drawer_id   Char(12),
   amount      Money,
   occurred_at TimeStamp
) IN DATABASE;

CREATE UNIQUE INDEX cash_drawer_pk ON cash_drawer_events (event_no);
