import { Migration } from '@mikro-orm/migrations';

/**
 * Subscriber-email runs are now created by the statement that dispatches their event, so no relay
 * scans recent events for ones without a run any more, and the index that scan used only costs
 * writes.
 */
export class Migration20261123000000EmailRunsAtDispatch extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index if exists outbox_events_email_index;');
  }

  override async down(): Promise<void> {
    this.addSql(
      `create index if not exists outbox_events_email_index on outbox_events (created_at) where type like 'incident.%' or type like 'maintenance.%' or type like 'subscriber.%';`,
    );
  }
}
