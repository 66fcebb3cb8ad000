import { Migration } from '@mikro-orm/migrations';

/**
 * Incidents the way Statuspage users work. `incidents.service_impacts`: the impact the
 * operator chose per affected service (null: none chosen, every service follows the severity).
 * `incident_messages.notify_subscribers`: false for an update the operator chose not to email
 * (every existing message was emailed: true). `incident_templates`: prepared incidents.
 */
export class Migration20261127013000IncidentImpact extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table incidents add column service_impacts jsonb null;`);
    this.addSql(`alter table incident_messages add column notify_subscribers boolean not null default true;`);
    this.addSql(`
      create table incident_templates (
        id uuid primary key,
        organization_id uuid not null constraint incident_templates_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        name varchar(200) not null,
        title varchar(300) not null,
        body text null,
        severity varchar(16) not null,
        message_type varchar(16) not null,
        affected_services uuid[] not null,
        service_impacts jsonb not null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        deleted_at timestamptz(3) null
      );`);
    this.addSql(
      `create index incident_templates_organization_id_created_at_id_index on incident_templates (organization_id, created_at, id);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table incident_templates;`);
    this.addSql(`alter table incident_messages drop column notify_subscribers;`);
    this.addSql(`alter table incidents drop column service_impacts;`);
  }
}
