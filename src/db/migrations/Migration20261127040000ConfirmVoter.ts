import { Migration } from '@mikro-orm/migrations';
import { CONFIRM_AGGREGATE_SQL, CONFIRM_AGGREGATE_V1_SQL, CONFIRM_STEP_SQL, CONFIRM_STEP_V1_SQL } from '../confirm-sql';

/**
 * `vigil_confirm` takes a sample's vote in either of two forms: `votes` (a cloud round's votes,
 * jsonb) or `voter` (the one location whose own answer the sample is: an agent on its metric),
 * whose vote the step builds from the sample only when a round joins a pending confirmation's
 * evidence. Most samples agree with the confirmed status, so most never build one: before, every
 * agent sample carried its vote as JSON from the API into the statement (bench:ingest).
 * The step also resets the per-row flip fields only after a flip and the pending ones only while
 * one is pending: the same results, fewer assignments per sample.
 */
export class Migration20261127040000ConfirmVoter extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `drop aggregate vigil_confirm(text, timestamptz, text, jsonb, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(
      `drop function vigil_confirm_step(vigil_confirm_state, text, timestamptz, text, jsonb, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(CONFIRM_STEP_SQL);
    this.addSql(CONFIRM_AGGREGATE_SQL);
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop aggregate vigil_confirm(text, timestamptz, text, jsonb, text, float8, text, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(
      `drop function vigil_confirm_step(vigil_confirm_state, text, timestamptz, text, jsonb, text, float8, text, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(CONFIRM_STEP_V1_SQL);
    this.addSql(CONFIRM_AGGREGATE_V1_SQL);
  }
}
