import { Migration } from '@mikro-orm/migrations';
import { CONFIRM_AGGREGATE_V1, CONFIRM_STEP_V1 } from './Migration20261126090000Confirmation';

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `vigil_confirm` takes a sample's vote in either of two forms: `votes` (a cloud round's votes,
 * jsonb) or `voter` (the one location whose own answer the sample is: an agent on its metric),
 * whose vote the step builds from the sample only when a round joins a pending confirmation's
 * evidence. Most samples agree with the confirmed status, so most never build one: before, every
 * agent sample carried its vote as JSON from the API into the statement (bench:ingest, issue 25).
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
    this
      .addSql(`create function vigil_confirm_step(s vigil_confirm_state, k text, at timestamptz, reason text, votes jsonb, voter text, value float8, status text,
        init_confirmed text, init_reason text, init_pending text, init_count int, init_since timestamptz, init_evidence jsonb,
        failures int, recoveries int) returns vigil_confirm_state language plpgsql immutable as $$
      declare needed int;
      begin
        if s.confirmed is null then
          s := row(init_confirmed, init_reason, init_pending, coalesce(init_count, 0), init_since, coalesce(init_evidence, '[]'::jsonb), false, null, null, null, 0)::vigil_confirm_state;
        elsif s.flipped then
          s.flipped := false; s.flip_from := null; s.flip_at := null; s.flip_evidence := null; s.rounds := 0;
        end if;
        if k = s.confirmed then
          s.reason := reason;
          if s.pending is not null or s.count <> 0 then
            s.pending := null; s.count := 0; s.since := null; s.evidence := '[]'::jsonb;
          end if;
          return s;
        end if;
        -- Failing rounds count together whatever they failed with (refused, then too slow); the
        -- change goes to the latest one's status.
        if s.pending is distinct from k and not coalesce(vigil_confirm_failing(s.pending) and vigil_confirm_failing(k), false) then
          s.pending := k; s.count := 0; s.since := at; s.evidence := '[]'::jsonb;
        end if;
        s.pending := k;
        s.count := s.count + 1;
        s.evidence := s.evidence || jsonb_build_array(jsonb_build_object('at', ${ISO('at')}, 'votes', coalesce(votes,
          case when voter is null then '[]'::jsonb
               else jsonb_build_array(jsonb_build_object('location', voter, 'value', value, 'reason', reason, 'status', status, 'at', ${ISO('at')})) end)));
        if jsonb_array_length(s.evidence) > 10 then s.evidence := s.evidence - 0; end if;
        needed := case when k = 'no_data/measurement' then 1
                       when k = 'healthy' then (case when s.confirmed = 'no_data/measurement' then 1 else coalesce(recoveries, 1) end)
                       else coalesce(failures, 1) end;
        if s.count >= needed then
          s.flipped := true; s.flip_from := s.confirmed; s.flip_at := s.since; s.flip_evidence := s.evidence; s.rounds := s.count;
          s.confirmed := k; s.reason := reason; s.pending := null; s.count := 0; s.since := null; s.evidence := '[]'::jsonb;
        end if;
        return s;
      end $$;`);
    this
      .addSql(`create aggregate vigil_confirm(text, timestamptz, text, jsonb, text, float8, text, text, text, text, int, timestamptz, jsonb, int, int) (
      sfunc = vigil_confirm_step, stype = vigil_confirm_state);`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop aggregate vigil_confirm(text, timestamptz, text, jsonb, text, float8, text, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(
      `drop function vigil_confirm_step(vigil_confirm_state, text, timestamptz, text, jsonb, text, float8, text, text, text, text, int, timestamptz, jsonb, int, int);`,
    );
    this.addSql(CONFIRM_STEP_V1);
    this.addSql(CONFIRM_AGGREGATE_V1);
  }
}
