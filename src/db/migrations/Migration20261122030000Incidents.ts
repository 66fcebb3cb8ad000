import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030000Incidents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table incidents (
        id uuid primary key,
        organization_id uuid not null constraint incidents_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        title varchar(300) not null,
        severity varchar(16) not null,
        affected_services uuid[] not null,
        visible_to_customer_ids uuid[] not null,
        published_at timestamptz(3) null,
        resolved_at timestamptz(3) null,
        canceled_at timestamptz(3) null,
        deleted_at timestamptz(3) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );`);
    this.addSql(
      `create index incidents_organization_id_created_at_id_index on incidents (organization_id, created_at, id);`,
    );
    this.addSql(`
      create table incident_messages (
        id uuid primary key,
        organization_id uuid not null constraint incident_messages_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        incident_id uuid not null constraint incident_messages_incident_id_foreign references incidents (id) on update cascade on delete cascade,
        type varchar(16) not null,
        body text not null,
        posted_at timestamptz(3) not null
      );`);
    this.addSql(`create index incident_messages_incident_id_index on incident_messages (incident_id);`);
    this.addSql(`
      create table outbox_events (
        id uuid primary key,
        organization_id uuid not null constraint outbox_events_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        type varchar(64) not null,
        resource_kind varchar(32) not null,
        resource_id uuid not null,
        payload jsonb not null,
        created_at timestamptz(3) not null,
        dispatched_at timestamptz(3) null
      );`);
    this.addSql(
      `create index outbox_events_undispatched_index on outbox_events (created_at) where dispatched_at is null;`,
    );
    for (const table of ['incidents', 'incident_messages']) {
      this.addSql(
        `create trigger ${table}_notify_change after insert or update or delete on ${table} for each row execute function vigil_notify_change();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const table of ['outbox_events', 'incident_messages', 'incidents'])
      this.addSql(`drop table if exists ${table} cascade;`);
  }
}
