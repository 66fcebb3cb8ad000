import { Migration } from '@mikro-orm/migrations';

/**
 * Maintenance timelines carry more than system messages. `kind` says who wrote a
 * message: `system` (started, completed, canceled; every existing row), `update` (an operator's
 * update, POST /maintenances/{id}/messages) or `reschedule` (a PATCH that moved the window).
 * `notify_subscribers` records whether an update was emailed to subscribers (null for the others).
 */
export class Migration20261127012000MaintenanceUpdates extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table maintenance_messages add column kind varchar(16) not null default 'system', add column notify_subscribers boolean null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table maintenance_messages drop column kind, drop column notify_subscribers;`);
  }
}
