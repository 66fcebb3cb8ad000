import { Migration } from '@mikro-orm/migrations';

/**
 * Every sample batch rewrites its metrics' latest outcome and their day rollups. Free room on each
 * page lets PostgreSQL update those rows in place (HOT: no new index entries, dead versions pruned
 * on the page itself), instead of spreading dead rows and index bloat that slow every batch after.
 */
export class Migration20261122100000HotUpdates extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table metrics set (fillfactor = 50);');
    this.addSql('alter table metric_daily_rollups set (fillfactor = 50);');
  }

  override async down(): Promise<void> {
    this.addSql('alter table metrics reset (fillfactor);');
    this.addSql('alter table metric_daily_rollups reset (fillfactor);');
  }
}
