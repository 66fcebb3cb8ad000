import type { MikroORM } from '@mikro-orm/postgresql';
import { CONFIRM_STEP_SQL } from '../../src/db/confirm-sql';
import { createOrm } from '../../src/db/orm';
import { type ConfirmStepResult, confirmWalk } from '../../src/domain/confirm-step';
import { CONFIRM_CASES, type ConfirmCase, walkedByPure } from '../support/confirm-step-cases';
import { testDatabaseUrl } from '../support/env';

/**
 * Confirmed status's consecutive-rounds counter twice, side by side: `vigil_confirm` (the window
 * aggregate the ingest statement and the flip rebuild walk samples with, src/db/confirm-sql.ts) on
 * the suite's migrated PostgreSQL, and its pure twin `confirmWalk` / `confirmStep`
 * (src/domain/confirm-step.ts), from one table of cases (test/support/confirm-step-cases.ts).
 * Every step's whole state must agree, not only the flips.
 */
let orm: MikroORM;
beforeAll(async () => {
  orm = (await createOrm({ url: testDatabaseUrl(), poolMax: 1 })) as MikroORM;
});
afterAll(async () => orm?.close());

const sql = async <T>(text: string, params: unknown[] = []) =>
  (await orm.em.getConnection().execute(text, params)) as T[];

/** A step's result as both sides are compared: times as ISO text, no flip as null. */
interface Compared {
  confirmed: string | null;
  reason: string | null;
  pending: string | null;
  count: number;
  since: string | null;
  evidence: unknown;
  flip: { from: string | null; to: string; at: string | null; evidence: unknown; rounds: number } | null;
}

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The case's samples, in order, through `vigil_confirm` as a running window aggregate (as storeSamples runs it). */
async function walkedBySql(c: ConfirmCase): Promise<Compared[]> {
  const rows = await sql<{
    confirmed: string | null;
    reason: string | null;
    pending: string | null;
    count: number;
    since: string | null;
    evidence: unknown;
    flipped: boolean;
    flip_from: string | null;
    flip_at: string | null;
    flip_evidence: unknown;
    rounds: number;
  }>(
    `select (c).confirmed, (c).reason, (c).pending, (c).count, ${ISO('(c).since')} as since, (c).evidence,
            (c).flipped, (c).flip_from, ${ISO('(c).flip_at')} as flip_at, (c).flip_evidence, (c).rounds
     from (
       select sample.i, vigil_confirm(sample.k, sample.at, sample.reason, sample.votes, sample.voter, sample.value, sample.status,
                                      ?::text, ?::text, ?::text, ?::int, ?::timestamptz, ?::jsonb, ?::int, ?::int)
                over (order by sample.i rows between unbounded preceding and current row) as c
       from json_to_recordset(?::json) as sample(i int, k text, at timestamptz, reason text, votes jsonb, voter text, value float8, status text)
     ) walked order by i`,
    [
      c.stored.confirmed,
      c.stored.reason,
      c.stored.pending,
      c.stored.count,
      c.stored.since?.toISOString() ?? null,
      c.stored.evidence === null ? null : JSON.stringify(c.stored.evidence),
      c.confirmation.failures,
      c.confirmation.recoveries,
      JSON.stringify(
        c.samples.map((s, i) => ({
          i,
          k: s.key,
          at: s.at.toISOString(),
          reason: s.reason,
          votes: s.votes,
          voter: s.voter,
          value: s.value,
          status: s.status,
        })),
      ),
    ],
  );
  return rows.map((r) => ({
    confirmed: r.confirmed,
    reason: r.reason,
    pending: r.pending,
    count: r.count,
    since: r.since,
    evidence: r.evidence,
    // A row that did not flip must carry no flip fields (left over from an earlier row's flip).
    flip:
      r.flipped || r.flip_from !== null || r.flip_at !== null || r.flip_evidence !== null || r.rounds !== 0
        ? {
            from: r.flip_from,
            to: r.flipped ? r.confirmed! : '(not flipped)',
            at: r.flip_at,
            evidence: r.flip_evidence,
            rounds: r.rounds,
          }
        : null,
  }));
}

function compared({ state, flip }: ConfirmStepResult): Compared {
  return {
    ...state,
    since: state.since?.toISOString() ?? null,
    flip: flip && { ...flip, at: flip.at?.toISOString() ?? null },
  };
}

describe('vigil_confirm and confirmStep, side by side', () => {
  it('runs the current step: the database function is CONFIRM_STEP_SQL', async () => {
    const [fn] = await sql<{ prosrc: string }>(`select prosrc from pg_proc where proname = 'vigil_confirm_step'`);
    expect(fn!.prosrc).toBe(
      CONFIRM_STEP_SQL.slice(CONFIRM_STEP_SQL.indexOf('$$') + 2, CONFIRM_STEP_SQL.lastIndexOf('$$')),
    );
  });

  it.each(CONFIRM_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const pure = confirmWalk(c.stored, c.samples, c.confirmation).map(compared);
    expect(await walkedBySql(c)).toEqual(pure);
    // And the case says what it is about: its flips (when, from the first failing round) and what is left pending.
    expect(walkedByPure(c)).toEqual({ flips: c.flips, pending: c.pending });
  });
});
