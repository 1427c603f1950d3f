-- HPE NonStop SQL/MX 3.6: replay cache for the card switch
SET SCHEMA cardsw.replay;

CREATE TABLE replay_cache
  ( tenant_id      CHAR(16)        NOT NULL
  , route          VARCHAR(64)     NOT NULL
  , idem_key       VARCHAR(255)    NOT NULL
  , response_code  SMALLINT        NOT NULL
  , response_body  VARCHAR(8000)
  , created_ts     TIMESTAMP(6)    DEFAULT CURRENT_TIMESTAMP NOT NULL
  , PRIMARY KEY (tenant_id, route, idem_key)
  )
  STORE BY PRIMARY KEY
  PARTITION (ADD FIRST KEY ('M') LOCATION $DATA02);

CREATE TABLE replay_tokens
  ( idem_key       VARCHAR(255)    NOT NULL
  , tenant_id      CHAR(16)        NOT NULL
  , principal_id   CHAR(32)        NOT NULL
  , issued_ts      TIMESTAMP(6)    NOT NULL
  , PRIMARY KEY (idem_key)
  )
  STORE BY PRIMARY KEY;

CREATE TABLE replay_keys
  ( tenant_id      CHAR(16)        NOT NULL
  , principal_id   CHAR(32)        NOT NULL
  , route          VARCHAR(64)     NOT NULL
  , idem_key       VARCHAR(255)    NOT NULL
  , state          CHAR(1)         DEFAULT 'P' NOT NULL
  , CONSTRAINT replay_keys_pk PRIMARY KEY (tenant_id, principal_id, route, idem_key)
  )
  STORE BY PRIMARY KEY;

CREATE TABLE replay_audit
  ( audit_seq      LARGEINT GENERATED ALWAYS AS IDENTITY NOT NULL
  , tenant_id      CHAR(16)        NOT NULL
  , idem_key       VARCHAR(255)    NOT NULL
  , note           VARCHAR(512)
  , PRIMARY KEY (audit_seq)
  )
  STORE BY PRIMARY KEY;
