import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table organizations (
        id uuid primary key,
        name varchar(200) not null,
        plan varchar(32) not null,
        rate_limit_per_minute int null,
        rate_limit_per_day int null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );`);
    this.addSql(`
      create table api_keys (
        id uuid primary key,
        organization_id uuid not null constraint api_keys_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        name varchar(200) not null,
        prefix varchar(16) not null,
        key_hash varchar(64) not null,
        scopes text[] not null,
        created_at timestamptz(3) not null,
        revoked_at timestamptz(3) null,
        last_used_at timestamptz(3) null
      );`);
    this.addSql(`create index api_keys_organization_id_index on api_keys (organization_id);`);
    this.addSql(`alter table api_keys add constraint api_keys_key_hash_unique unique (key_hash);`);

    this.addSql(`
      create table services (
        id uuid primary key,
        organization_id uuid not null constraint services_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        name varchar(200) not null,
        description text null,
        config_key varchar(100) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        deleted_at timestamptz(3) null
      );`);
    this.addSql(
      `create index services_organization_id_created_at_id_index on services (organization_id, created_at, id);`,
    );
    this.addSql(
      `create unique index services_live_config_key_unique on services (organization_id, config_key) where deleted_at is null and config_key is not null;`,
    );

    this.addSql(`
      create table customers (
        id uuid primary key,
        organization_id uuid not null constraint customers_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        name varchar(200) not null,
        external_id varchar(200) null,
        contact_email varchar(320) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        deleted_at timestamptz(3) null
      );`);
    this.addSql(
      `create index customers_organization_id_created_at_id_index on customers (organization_id, created_at, id);`,
    );

    this.addSql(`
      create table idempotency_records (
        id uuid primary key,
        organization_id uuid not null constraint idempotency_records_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        key varchar(255) not null,
        operation varchar(100) not null,
        request_hash varchar(64) not null,
        status_code int not null,
        response_body jsonb not null,
        created_at timestamptz(3) not null
      );`);
    this.addSql(`create index idempotency_records_created_at_index on idempotency_records (created_at);`);
    this.addSql(
      `alter table idempotency_records add constraint idempotency_records_organization_id_key_unique unique (organization_id, key);`,
    );

    // Rate-limit counters are hot, short-lived and cheap to lose on a crash: an unlogged table
    // skips the WAL, and rows of past windows are pruned by the housekeeping workflow.
    this.addSql(`
      create unlogged table rate_limit_counters (
        organization_id uuid not null,
        window_kind varchar(8) not null,
        window_start timestamptz not null,
        count int not null,
        primary key (organization_id, window_kind, window_start)
      );`);
  }

  override async down(): Promise<void> {
    for (const table of [
      'rate_limit_counters',
      'idempotency_records',
      'customers',
      'services',
      'api_keys',
      'organizations',
    ]) {
      this.addSql(`drop table if exists ${table} cascade;`);
    }
  }
}
