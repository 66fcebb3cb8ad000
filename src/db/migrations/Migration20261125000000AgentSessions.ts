import { Migration } from '@mikro-orm/migrations';

/**
 * Agent processes: each heartbeat names its process (`session`), and each probe-test
 * job records the process that took it. When a new process of an agent heartbeats, the jobs the
 * previous one took and never answered go back to the queue (once), instead of waiting for their expiry.
 */
export class Migration20261125000000AgentSessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table agents add column session varchar(64) null;`);
    this.addSql(
      `alter table probe_test_jobs add column claimed_session varchar(64) null, add column requeued_at timestamptz(3) null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table probe_test_jobs drop column requeued_at, drop column claimed_session;`);
    this.addSql(`alter table agents drop column session;`);
  }
}
