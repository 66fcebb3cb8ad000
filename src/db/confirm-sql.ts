/**
 * The PL/pgSQL of confirmed status: `vigil_confirm`, the window aggregate that walks a metric's
 * samples in time order from its stored confirmation state (storeSamples in
 * repositories/samples-repository.ts, rebuildFlips in repositories/sample-import-repository.ts),
 * and its step function `vigil_confirm_step`. The pure twin of the step is `confirmStep`
 * (src/domain/confirm-step.ts); test/db/confirm-step.test.ts runs the same cases through both.
 *
 * Migrations that already ran must keep executing the same text, so a version a later migration
 * replaced keeps its own constant here, byte for byte: change the function by adding a migration
 * and a new constant, never by editing one of these.
 */

/** The aggregate's state: the confirmed key and the pending change, plus what the last step flipped. */
export const CONFIRM_STATE_TYPE_SQL = `create type vigil_confirm_state as (
      confirmed text, reason text, pending text, count int, since timestamptz, evidence jsonb,
      flipped boolean, flip_from text, flip_at timestamptz, flip_evidence jsonb, rounds int);`;

/** The keys that are failing rounds: they count together toward a flip. */
export const CONFIRM_FAILING_SQL = `create function vigil_confirm_failing(k text) returns boolean language sql immutable as $$ select k in ('unhealthy', 'degraded', 'no_data/target') $$;`;

/** The first step: votes given as jsonb on every sample (Migration20261126090000Confirmation; Migration20261127040000ConfirmVoter replaced it, its down() restores it). */
export const CONFIRM_STEP_V1_SQL = `create function vigil_confirm_step(s vigil_confirm_state, k text, at timestamptz, reason text, votes jsonb,
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

/** The first aggregate, over the first step's arguments. */
export const CONFIRM_AGGREGATE_V1_SQL = `create aggregate vigil_confirm(text, timestamptz, text, jsonb, text, text, text, int, timestamptz, jsonb, int, int) (
      sfunc = vigil_confirm_step, stype = vigil_confirm_state);`;

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The current step (Migration20261127040000ConfirmVoter): a sample's vote comes either as `votes`
 * (a cloud round's votes, jsonb) or as `voter` (the one location whose own answer the sample is:
 * an agent on its metric), from which the step builds the vote only when the round joins a pending
 * confirmation's evidence. Most samples agree with the confirmed status, so most never build one.
 * It resets the flip fields only after a flip and the pending ones only while one is pending: the
 * same results as the first step, fewer assignments per sample.
 */
export const CONFIRM_STEP_SQL = `create function vigil_confirm_step(s vigil_confirm_state, k text, at timestamptz, reason text, votes jsonb, voter text, value float8, status text,
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
      end $$;`;

/** The current aggregate, over the current step's arguments. */
export const CONFIRM_AGGREGATE_SQL = `create aggregate vigil_confirm(text, timestamptz, text, jsonb, text, float8, text, text, text, text, int, timestamptz, jsonb, int, int) (
      sfunc = vigil_confirm_step, stype = vigil_confirm_state);`;
