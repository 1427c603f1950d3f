-- SAP ASE 16.0 SP04: idempotency tables for the card-present gateway.
use gateway
go

if object_id('dbo.idempotency_request') is null
begin
    create table dbo.idempotency_request (
        merchant_id     varchar(64)     not null,
        dedup_key       varchar(255)    not null,
        status          char(1)         default 'P' not null,
        response        image           null,
        created_at      datetime        default getdate() not null,
        constraint pk_idempotency_request primary key clustered (merchant_id, dedup_key)
    ) lock datarows
end
go

if object_id('dbo.replay_response') is null
begin
    create table dbo.replay_response (
        merchant_id     varchar(64)     not null,
        caller_id       varchar(64)     not null,
        operation       varchar(64)     not null,
        dedup_key       varchar(255)    not null,
        fingerprint     binary(32)      not null,
        status_code     smallint        not null,
        body            image           null,
        created_at      datetime        default getdate() not null,
        constraint pk_replay_response primary key clustered (merchant_id, caller_id, operation, dedup_key)
    ) lock datarows
end
go

create nonclustered index ix_replay_response_created
    on dbo.replay_response (created_at)
go

grant select, insert, update, delete on dbo.idempotency_request to gateway_app
go
grant select, insert, update, delete on dbo.replay_response to gateway_app
go
