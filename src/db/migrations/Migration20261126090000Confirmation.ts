import { Migration } from '@mikro-orm/migrations';

/** The first `vigil_confirm` (votes given as jsonb on every sample); replaced by Migration20261127040000ConfirmVoter, whose down() restores it. */
export const CONFIRM_STEP_V1 = `create function vigil_confirm_step(s vigil_confirm_state, k text, at timestamptz, reason text, votes jsonb,
        init_confirmed text, init_reason text, init_pending text, init_count int, init_since timestamptz, init_evidence jsonb,
        failures int, recoveries int) returns vigil_confirm_state language plpgsql immutable as $$
      declare needed int;
      begin
        if s.confirmed is null then
          s := row(init_confirmed, init_reason, init_pending, coalesce(init_count, 0), init_since, coalesce(init_evidence, '[]'::jsonb), false, null, null, null, 0)::vigil_confirm_state;
        end if;
        s.flipped := false; s.flip_from := null; s.flip_at := null; s.flip_evidence := null; s.rounds := 0;
        if k = s.confirmed then
          s.reason := reason; s.pending := null; s.count := 0; s.since := null; s.evidence := '[]'::jsonb;
          return s;
        end if;
        -- Failing rounds count together whatever they failed with (refused, then too slow); the
        -- change goes to the latest one's status.
        if s.pending is distinct from k and not coalesce(vigil_confirm_failing(s.pending) and vigil_confirm_failing(k), false) then
          s.pending := k; s.count := 0; s.since := at; s.evidence := '[]'::jsonb;
        end if;
        s.pending := k;
        s.count := s.count + 1;
        s.evidence := s.evidence || jsonb_build_array(jsonb_build_object('at', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'votes', coalesce(votes, '[]'::jsonb)));
        if jsonb_array_length(s.evidence) > 10 then s.evidence := s.evidence - 0; end if;
        needed := case when k = 'no_data/measurement' then 1
                       when k = 'healthy' then (case when s.confirmed = 'no_data/measurement' then 1 else coalesce(recoveries, 1) end)
                       else coalesce(failures, 1) end;
        if s.count >= needed then
          s.flipped := true; s.flip_from := s.confirmed; s.flip_at := s.since; s.flip_evidence := s.evidence; s.rounds := s.count;
          s.confirmed := k; s.reason := reason; s.pending := null; s.count := 0; s.since := null; s.evidence := '[]'::jsonb;
        end if;
        return s;
      end $$;`;

export const CONFIRM_AGGREGATE_V1 = `create aggregate vigil_confirm(text, timestamptz, text, jsonb, text, text, text, int, timestamptz, jsonb, int, int) (
      sfunc = vigil_confirm_step, stype = vigil_confirm_state);`;

/**
 * Issue 25: confirmed status.
 * - metrics: `locations` (NULL = the default: every online cloud location, or the metric's agent),
 *   `confirmation` ({quorum, failures, recoveries, recheck}; NULL for pushed metrics, which no
 *   location measures), the latest reading per location, and the pending confirmation (the key
 *   being confirmed, how many consecutive rounds, since when, the rounds' votes).
 * - metric_status_flips: the votes that confirmed the flip, how many rounds, and when it was
 *   confirmed (`at` stays the first failing round: the outage started then).
 * - `vigil_confirm`: the window aggregate the ingest statement walks each metric's new samples
 *   with, in time order, from the metric's stored state (see samples-repository.ts). Failing rounds
 *   (unhealthy, degraded, no_data of a target reason) count together; a good one (healthy) ends them.
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
    this.addSql(`create type vigil_confirm_state as (
      confirmed text, reason text, pending text, count int, since timestamptz, evidence jsonb,
      flipped boolean, flip_from text, flip_at timestamptz, flip_evidence jsonb, rounds int);`);
    // One step per sample (a round): a sample agreeing with the confirmed key ends any pending
    // change; another key starts or continues one; enough consecutive rounds confirm it. A gap
    // (no_data of a measurement reason) is neither an outage nor a recovery and takes effect at
    // once, and so does the first good reading after a gap.
    this.addSql(
      `create function vigil_confirm_failing(k text) returns boolean language sql immutable as $$ select k in ('unhealthy', 'degraded', 'no_data/target') $$;`,
    );
    this.addSql(CONFIRM_STEP_V1);
    this.addSql(CONFIRM_AGGREGATE_V1);
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
