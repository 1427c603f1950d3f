-- Supabase (PostgreSQL 15) migration 20240611120000_idempotency.sql

create table public.idempotency_keys (
  scope_version text        not null default 'v1',
  org_id        uuid        not null references public.orgs (id) on delete cascade,
  user_id       uuid        not null references auth.users (id) on delete cascade,
  route         text        not null,
  ns            text        not null check (ns in ('u:', 's:')),
  idem_key      text        not null check (length(idem_key) between 1 and 255),
  fingerprint   bytea       not null,
  status        text        not null check (status in ('in_progress', 'completed')),
  response      jsonb,
  expires_at    timestamptz not null default now() + interval '24 hours',
  primary key (scope_version, org_id, user_id, route, ns, idem_key)
);

alter table public.idempotency_keys enable row level security;

create policy "members read their own keys" on public.idempotency_keys
  for select using (user_id = auth.uid());

create table public.webhook_replay_cache (
  idempotency_key text        primary key,
  body            jsonb       not null,
  stored_at       timestamptz not null default now()
);

create table public.profiles (
  id          uuid primary key references auth.users (id),
  handle      text not null,
  full_name   text,
  avatar_url  text
);

create unique index profiles_handle_idx on public.profiles (lower(handle));
