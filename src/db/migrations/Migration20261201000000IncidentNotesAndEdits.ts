import { Migration } from '@mikro-orm/migrations';

/**
 * Incidents drafted from a metric or an alert speak to customers; what was measured goes to
 * `incidents.internal_note`, which no public output reads. Timeline messages can be edited:
 * `edited_at` is the last edit, `previous_bodies` the bodies it replaced (oldest first).
 */
export class Migration20261201000000IncidentNotesAndEdits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table incidents add column internal_note text null;`);
    this.addSql(
      `alter table incident_messages add column edited_at timestamptz(3) null, add column previous_bodies jsonb null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table incident_messages drop column previous_bodies, drop column edited_at;`);
    this.addSql(`alter table incidents drop column internal_note;`);
  }
}
