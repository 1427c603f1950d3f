-- SAP ASE 16.0 SP04: dedup tables for the settlement gateway.
use settlement
go

create table dbo.dedup_keys (
    tenant_id     varchar(64)   not null,
    idem_key      varchar(255)  not null,
    fingerprint   varbinary(32) not null,
    status        varchar(16)   default 'in_progress' not null,
    response      image         null,
    created_at    bigdatetime   default current_bigdatetime() not null,
    constraint pk_dedup_keys primary key clustered (tenant_id, idem_key)
) lock datarows
go

create table dbo.idempotency_replies (
    reply_id      numeric(18,0) identity,
    tenant_id     varchar(64)   not null,
    principal_id  varchar(64)   not null,
    route         varchar(128)  not null,
    ns            char(2)       default 'u:' not null,
    idem_key      varchar(255)  not null,
    status_code   smallint      not null,
    body          image         null,
    constraint pk_idempotency_replies primary key nonclustered (reply_id)
) lock datarows
go

create unique index ux_idempotency_replies_scope on dbo.idempotency_replies (tenant_id, principal_id, route, ns, idem_key)
go

create index ix_idempotency_replies_created on dbo.idempotency_replies (tenant_id, reply_id)
go

grant select, insert, update, delete on dbo.dedup_keys to settlement_app
go

grant select, insert, update on dbo.idempotency_replies to settlement_app
go

sp_chgattribute 'dbo.dedup_keys', 'exp_row_size', 1, 512
go
