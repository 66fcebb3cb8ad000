import { Migration } from '@mikro-orm/migrations';

/**
 * The probe locations that registered by heartbeat, per installation (the main Temporal
 * task queue they heartbeat to; tests give every harness its own). Written by the location
 * workflow's local activity, read by GET /v1/locations and by the check rounds (who is online).
 * `stopped_at` is set by the last heartbeat of a process that stopped on purpose.
 */
export class Migration20261126100000Locations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table probe_locations (
        task_queue text not null,
        id text not null,
        label text not null,
        version text not null,
        heartbeat_seconds int not null,
        started_at timestamptz(3) not null,
        last_seen_at timestamptz(3) not null,
        stopped_at timestamptz(3) null,
        primary key (task_queue, id)
      );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table probe_locations;`);
  }
}
