import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040000Maintenances extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table maintenances (
        id uuid primary key,
        organization_id uuid not null constraint maintenances_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        title varchar(300) not null,
        description text null,
        affected_services uuid[] not null,
        scheduled_start_at timestamptz(3) not null,
        scheduled_end_at timestamptz(3) not null,
        actual_start_at timestamptz(3) null,
        actual_end_at timestamptz(3) null,
        canceled_at timestamptz(3) null,
        deleted_at timestamptz(3) null,
        starting_soon_at timestamptz(3) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );`);
    this.addSql(
      `create index maintenances_organization_id_created_at_id_index on maintenances (organization_id, created_at, id);`,
    );
    this.addSql(`
      create table maintenance_messages (
        id uuid primary key,
        organization_id uuid not null constraint maintenance_messages_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        maintenance_id uuid not null constraint maintenance_messages_maintenance_id_foreign references maintenances (id) on update cascade on delete cascade,
        type varchar(16) not null,
        body text not null,
        posted_at timestamptz(3) not null
      );`);
    this.addSql(`create index maintenance_messages_maintenance_id_index on maintenance_messages (maintenance_id);`);
    for (const table of ['maintenances', 'maintenance_messages']) {
      this.addSql(
        `create trigger ${table}_notify_change after insert or update or delete on ${table} for each row execute function vigil_notify_change();`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const table of ['maintenance_messages', 'maintenances']) this.addSql(`drop table if exists ${table} cascade;`);
  }
}
