import { Migration } from '@mikro-orm/migrations';
import {
  CONFIRM_AGGREGATE_V1_SQL,
  CONFIRM_FAILING_SQL,
  CONFIRM_STATE_TYPE_SQL,
  CONFIRM_STEP_V1_SQL,
} from '../confirm-sql';

/**
 * Confirmed status.
 * - metrics: `locations` (NULL = the default: every online cloud location, or the metric's agent),
 *   `confirmation` ({quorum, failures, recoveries, recheck}; NULL for pushed metrics, which no
 *   location measures), the latest reading per location, and the pending confirmation (the key
 *   being confirmed, how many consecutive rounds, since when, the rounds' votes).
 * - metric_status_flips: the votes that confirmed the flip, how many rounds, and when it was
 *   confirmed (`at` stays the first failing round: the outage started then).
 * - `vigil_confirm`: the window aggregate the ingest statement walks each metric's new samples
 *   with, in time order, from the metric's stored state (see samples-repository.ts; its SQL is in
 *   ../confirm-sql.ts). Failing rounds (unhealthy, degraded, no_data of a target reason) count
 *   together; a good one (healthy) ends them.
 * Existing measured metrics get failures 1 and recoveries 1: every round counts at once, as before.
 */
export class Migration20261126090000Confirmation extends Migration {
  override async up(): Promise<void> {
    this
      .addSql(`alter table metrics add column locations text[] null, add column confirmation jsonb null, add column location_readings jsonb null,
      add column pending_key varchar(32) null, add column pending_count int not null default 0, add column pending_since timestamptz(3) null,
      add column pending_evidence jsonb null;`);
    this
      .addSql(`update metrics set confirmation = '{"quorum":"majority","failures":1,"recoveries":1,"recheck":false}'::jsonb
      where source_type not in ('manual', 'heartbeat', 'alert');`);
    this.addSql(
      `alter table metric_status_flips add column votes jsonb null, add column confirmations int null, add column confirmed_at timestamptz(3) null;`,
    );
    this.addSql(CONFIRM_STATE_TYPE_SQL);
    // One step per sample (a round): a sample agreeing with the confirmed key ends any pending
    // change; another key starts or continues one; enough consecutive rounds confirm it. A gap
    // (no_data of a measurement reason) is neither an outage nor a recovery and takes effect at
    // once, and so does the first good reading after a gap.
    this.addSql(CONFIRM_FAILING_SQL);
    this.addSql(CONFIRM_STEP_V1_SQL);
    this.addSql(CONFIRM_AGGREGATE_V1_SQL);
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop aggregate vigil_confirm(text, timestamptz, text, jsonb, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(`drop function vigil_confirm_step;`);
    this.addSql(`drop function vigil_confirm_failing;`);
    this.addSql(`drop type vigil_confirm_state;`);
    this.addSql(
      `alter table metric_status_flips drop column votes, drop column confirmations, drop column confirmed_at;`,
    );
    this
      .addSql(`alter table metrics drop column locations, drop column confirmation, drop column location_readings, drop column pending_key,
      drop column pending_count, drop column pending_since, drop column pending_evidence;`);
  }
}
