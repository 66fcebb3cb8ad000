import { Migration } from '@mikro-orm/migrations';

export class Migration20261122050000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_subscriptions (
        id uuid primary key,
        organization_id uuid not null constraint webhook_subscriptions_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        url text not null,
        description text null,
        event_types text[] not null,
        sealed_secret text not null,
        sealed_previous_secret text null,
        previous_secret_expires_at timestamptz(3) null,
        disabled_at timestamptz(3) null,
        deleted_at timestamptz(3) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );`);
    this.addSql(
      `create index webhook_subscriptions_organization_id_created_at_id_index on webhook_subscriptions (organization_id, created_at, id);`,
    );
    this.addSql(`
      create table webhook_deliveries (
        id uuid primary key,
        organization_id uuid not null constraint webhook_deliveries_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        subscription_id uuid not null constraint webhook_deliveries_subscription_id_foreign references webhook_subscriptions (id) on update cascade on delete cascade,
        event_id uuid not null constraint webhook_deliveries_event_id_foreign references outbox_events (id) on update cascade on delete cascade,
        event_type varchar(64) not null,
        state varchar(16) not null,
        attempt_count int not null,
        last_status_code int null,
        last_error text null,
        next_attempt_at timestamptz(3) null,
        workflow_started_at timestamptz(3) null,
        redelivery_of uuid null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        completed_at timestamptz(3) null
      );`);
    this.addSql(
      `create index webhook_deliveries_subscription_id_created_at_id_index on webhook_deliveries (subscription_id, created_at, id);`,
    );
    this.addSql(
      `create index webhook_deliveries_unstarted_index on webhook_deliveries (created_at) where workflow_started_at is null;`,
    );
    this.addSql(
      `create unique index webhook_deliveries_event_subscription_unique on webhook_deliveries (event_id, subscription_id) where redelivery_of is null;`,
    );
    this.addSql(`
      create table webhook_attempts (
        id uuid primary key,
        organization_id uuid not null constraint webhook_attempts_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        delivery_id uuid not null constraint webhook_attempts_delivery_id_foreign references webhook_deliveries (id) on update cascade on delete cascade,
        number int not null,
        attempted_at timestamptz(3) not null,
        status_code int null,
        latency_ms int not null,
        error text null,
        succeeded boolean not null
      );`);
    this.addSql(
      `alter table webhook_attempts add constraint webhook_attempts_delivery_id_number_unique unique (delivery_id, number);`,
    );
    // Wakes the outbox relay in the worker the moment an event commits.
    this.addSql(`
      create or replace function vigil_notify_outbox() returns trigger language plpgsql as $$
        begin
          perform pg_notify('vigil_outbox', '');
          return null;
        end;
      $$;`);
    this.addSql(
      `create trigger outbox_events_notify_relay after insert on outbox_events for each statement execute function vigil_notify_outbox();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists outbox_events_notify_relay on outbox_events;');
    this.addSql('drop function if exists vigil_notify_outbox();');
    for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_subscriptions'])
      this.addSql(`drop table if exists ${table} cascade;`);
  }
}
