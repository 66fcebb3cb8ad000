import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020000ChangeEvents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table change_events (
        id uuid primary key,
        organization_id uuid not null constraint change_events_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        kind varchar(32) not null,
        title varchar(300) not null,
        description text null,
        service_ids uuid[] not null,
        actor varchar(200) null,
        source varchar(100) null,
        links jsonb not null,
        metadata jsonb not null,
        occurred_at timestamptz(3) not null,
        created_at timestamptz(3) not null
      );`);
    this.addSql(
      `create index change_events_organization_id_occurred_at_id_index on change_events (organization_id, occurred_at, id);`,
    );
    this.addSql(`create index change_events_service_ids_index on change_events using gin (service_ids);`);
    this.addSql(
      `create trigger change_events_notify_change after insert or update or delete on change_events for each row execute function vigil_notify_change();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists change_events cascade;');
  }
}
