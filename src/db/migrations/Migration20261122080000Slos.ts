import { Migration } from '@mikro-orm/migrations';

export class Migration20261122080000Slos extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table slos (
        id uuid primary key,
        organization_id uuid not null constraint slos_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        name varchar(200) not null,
        config_key varchar(100) null,
        metric_id uuid null constraint slos_metric_id_foreign references metrics (id) on update cascade on delete cascade,
        service_id uuid null constraint slos_service_id_foreign references services (id) on update cascade on delete cascade,
        objective varchar(16) not null,
        "window" jsonb not null,
        no_data varchar(16) not null,
        maintenance varchar(16) not null,
        degraded varchar(8) not null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        deleted_at timestamptz(3) null
      );`);
    this.addSql(`create index slos_metric_id_index on slos (metric_id);`);
    this.addSql(`create index slos_service_id_index on slos (service_id);`);
    this.addSql(`create index slos_organization_id_created_at_id_index on slos (organization_id, created_at, id);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists slos cascade;');
  }
}
