import { Migration } from '@mikro-orm/migrations';

/**
 * A metric can be paused (`paused_at` set): cloud rounds skip it, agents are not handed
 * it, and samples sent for it are not stored. NULL: it runs.
 */
export class Migration20261127010000MetricPause extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table metrics add column paused_at timestamptz(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table metrics drop column paused_at;`);
  }
}
