-- Bursar database on SAP ASE 16.0 SP04 (Sybase Adaptive Server Enterprise).
-- Reply cache for the portal's payment routes, the card-office replay log and
-- the meal-swipe dedup table. Run with isql -D bursar -i <file>.

use bursar
go

if object_id('idempotency_replies') is not null
    drop table idempotency_replies
go

create table idempotency_replies (
    scope_version  varchar(8)     not null,
    tenant_id      varchar(64)    not null,
    principal_id   varchar(128)   not null,
    route          varchar(255)   not null,
    ns             char(2)        not null,
    idem_key       varchar(255)   not null,
    fingerprint    binary(32)     not null,
    status         smallint       not null,
    body           image          null,
    created_at     datetime       default getdate() not null,
    expires_at     datetime       not null,
    constraint pk_idempotency_replies primary key clustered (scope_version, tenant_id, principal_id, route, ns, idem_key)
)
lock datarows
go

create table card_replay_log (
    idem_key       varchar(255)   not null,
    tenant_id      varchar(64)    not null,
    user_id        varchar(128)   not null,
    response       image          null,
    logged_at      datetime       default getdate() not null,
    constraint pk_card_replay_log primary key nonclustered (idem_key)
)
lock datapages
go

create table dedup_swipes (
    swipe_id       numeric(18,0)  identity,
    tenant_id      varchar(64)    not null,
    user_id        varchar(128)   not null,
    route          varchar(255)   not null,
    idem_key       varchar(255)   not null,
    swiped_at      datetime       default getdate() not null,
    constraint pk_dedup_swipes primary key clustered (swipe_id)
)
lock datarows
with identity_gap = 1000
go

create unique nonclustered index ux_dedup_swipes_key on dedup_swipes (tenant_id, idem_key)
go

create nonclustered index ix_dedup_swipes_user on dedup_swipes (user_id, idem_key)
go

create table payment_batches (
    batch_id       varchar(64)    not null primary key,
    tenant_id      varchar(64)    not null,
    submitted_at   datetime       not null
)
lock allpages
go
