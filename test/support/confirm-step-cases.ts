import { type Quorum, type Vote, roundOutcome } from '../../src/domain/confirmation';
import {
  type ConfirmRounds,
  type ConfirmSample,
  type EvidenceRound,
  type FlipKey,
  type StoredConfirmation,
  confirmWalk,
  flipKey,
} from '../../src/domain/confirm-step';
import type { HealthStatus } from '../../src/domain/thresholds';

/**
 * One table of consecutive-rounds cases, run through `vigil_confirm` on PostgreSQL
 * (test/db/confirm-step.test.ts) and through `confirmWalk` / `confirmStep` (there and in
 * test/unit/confirm-step.test.ts). Times are seconds from BASE; rounds are a minute apart.
 */
export const BASE = Date.UTC(2026, 2, 1, 12, 0, 0);
export const time = (s: number) => new Date(BASE + s * 1000);
const iso = (s: number) => time(s).toISOString();

export interface ConfirmCase {
  name: string;
  confirmation: ConfirmRounds;
  stored: StoredConfirmation;
  samples: ConfirmSample[];
  /** What the walk should flip (which sample confirms it, from and to, dated when, after how many rounds). */
  flips: { sample: number; from: FlipKey | null; to: FlipKey; at: number | null; rounds: number }[];
  /** What is pending after the last sample, if anything. */
  pending: { key: FlipKey; count: number; since: number | null } | null;
}

const AGENT = 'agent:7d1c2b9e-0000-4000-8000-000000000001';

/** A confirmed state with nothing pending. */
const confirmed = (key: FlipKey, reason: string | null = null): StoredConfirmation => ({
  confirmed: key,
  reason,
  pending: null,
  count: 0,
  since: null,
  evidence: null,
});

/** An agent's own sample (single location: its vote is built from the sample, `voter`). */
function agent(at: number, status: HealthStatus, value: number | null, reason: string | null = null): ConfirmSample {
  return { key: flipKey(status, reason), at: time(at), reason, value, status, voter: AGENT };
}

/** A sample no location voted for (pushed, heartbeat, manual). */
function unvoted(at: number, status: HealthStatus, value: number | null, reason: string | null = null): ConfirmSample {
  return { key: flipKey(status, reason), at: time(at), reason, value, status };
}

type V = [location: string, status: HealthStatus, value: number | null, reason?: string | null, recheck?: V];
/** A location's vote in the round at `at`; a recheck's answer with it when given. */
function vote(at: number, [location, status, value, reason, recheck]: V): Vote {
  const v: Vote = { location, value, reason: reason ?? null, status, at: iso(at) };
  if (recheck) {
    const [rl, rs, rv, rr] = recheck;
    v.recheck = { location: rl, value: rv, reason: rr ?? null, status: rs, at: iso(at) };
  }
  return v;
}

/** A cloud round's sample, as the round activity stores it: the representative vote's reading, with every vote. */
function round(at: number, quorum: Quorum, given: V[]): ConfirmSample {
  const votes = given.map((v) => vote(at, v));
  const rep = roundOutcome(votes, quorum).representative!;
  const reason = rep.value === null ? rep.reason : null;
  return { key: flipKey(rep.status, reason), at: time(at), reason, value: rep.value, status: rep.status, votes };
}

const evidence = (...ats: number[]): EvidenceRound[] => ats.map((at) => ({ at: iso(at), votes: [] }));

const ONCE: ConfirmRounds = { failures: 1, recoveries: 1 };
const healthy = confirmed('healthy');

export const CONFIRM_CASES: ConfirmCase[] = [
  {
    name: 'quorum majority: 2 of 3 locations failing is a failing round',
    confirmation: ONCE,
    stored: healthy,
    samples: [
      round(0, 'majority', [
        ['ap-south', 'healthy', 40],
        ['eu-central', 'unhealthy', 850],
        ['us-east', 'unhealthy', 900],
      ]),
    ],
    flips: [{ sample: 0, from: 'healthy', to: 'unhealthy', at: 0, rounds: 1 }],
    pending: null,
  },
  {
    name: 'quorum majority: 1 of 3 failing is a passing round',
    confirmation: ONCE,
    stored: healthy,
    samples: [
      round(0, 'majority', [
        ['ap-south', 'healthy', 40],
        ['eu-central', 'healthy', 45],
        ['us-east', 'unhealthy', 900],
      ]),
    ],
    flips: [],
    pending: null,
  },
  {
    name: 'quorum any: 1 of 3 failing fails the round',
    confirmation: ONCE,
    stored: healthy,
    samples: [
      round(0, 'any', [
        ['ap-south', 'healthy', 40],
        ['eu-central', 'healthy', 45],
        ['us-east', 'degraded', 150],
      ]),
    ],
    flips: [{ sample: 0, from: 'healthy', to: 'degraded', at: 0, rounds: 1 }],
    pending: null,
  },
  {
    name: 'quorum all: 2 of 3 failing passes, 3 of 3 fails',
    confirmation: ONCE,
    stored: healthy,
    samples: [
      round(0, 'all', [
        ['ap-south', 'healthy', 40],
        ['eu-central', 'unhealthy', 850],
        ['us-east', 'unhealthy', 900],
      ]),
      round(60, 'all', [
        ['ap-south', 'unhealthy', 700],
        ['eu-central', 'unhealthy', 850],
        ['us-east', 'unhealthy', 900],
      ]),
    ],
    flips: [{ sample: 1, from: 'healthy', to: 'unhealthy', at: 60, rounds: 1 }],
    pending: null,
  },
  {
    name: 'quorum k = 2: one failing location passes, two fail the round',
    confirmation: { failures: 2, recoveries: 2 },
    stored: healthy,
    samples: [
      round(0, 2, [
        ['ap-south', 'healthy', 40],
        ['eu-central', 'healthy', 45],
        ['us-east', 'unhealthy', 900],
      ]),
      round(60, 2, [
        ['ap-south', 'healthy', 40],
        ['eu-central', 'unhealthy', 850, null],
        ['us-east', 'no_data', null, 'ECONNREFUSED'],
      ]),
      round(120, 2, [
        ['ap-south', 'unhealthy', 600],
        ['eu-central', 'unhealthy', 850],
        ['us-east', 'healthy', 50],
      ]),
    ],
    flips: [{ sample: 2, from: 'healthy', to: 'unhealthy', at: 60, rounds: 2 }],
    pending: null,
  },
  {
    name: 'consecutive failures: the failures-th failing round flips, dated at the first of them',
    confirmation: { failures: 3, recoveries: 2 },
    stored: healthy,
    samples: [agent(0, 'unhealthy', 900), agent(60, 'unhealthy', 950), agent(120, 'unhealthy', 990)],
    flips: [{ sample: 2, from: 'healthy', to: 'unhealthy', at: 0, rounds: 3 }],
    pending: null,
  },
  {
    name: 'failing rounds of different statuses count together; the flip goes to the latest one',
    confirmation: { failures: 3, recoveries: 1 },
    stored: healthy,
    samples: [agent(0, 'unhealthy', 900), agent(60, 'no_data', null, 'ECONNREFUSED'), agent(120, 'degraded', 150)],
    flips: [{ sample: 2, from: 'healthy', to: 'degraded', at: 0, rounds: 3 }],
    pending: null,
  },
  {
    name: 'flapping: a good round resets the failing count',
    confirmation: { failures: 2, recoveries: 2 },
    stored: healthy,
    samples: [
      agent(0, 'unhealthy', 900),
      agent(60, 'healthy', 40),
      agent(120, 'unhealthy', 900),
      agent(180, 'healthy', 40),
      agent(240, 'unhealthy', 900),
      agent(300, 'unhealthy', 900),
    ],
    flips: [{ sample: 5, from: 'healthy', to: 'unhealthy', at: 240, rounds: 2 }],
    pending: null,
  },
  {
    name: 'recoveries: recoveries consecutive healthy rounds return, dated at the first',
    confirmation: { failures: 2, recoveries: 2 },
    stored: confirmed('unhealthy'),
    samples: [
      agent(0, 'healthy', 40),
      agent(60, 'unhealthy', 900),
      agent(120, 'healthy', 40),
      agent(180, 'healthy', 45),
    ],
    flips: [{ sample: 3, from: 'unhealthy', to: 'healthy', at: 120, rounds: 2 }],
    pending: null,
  },
  {
    name: 'flapping during a recovery: a failing round (any failing status) resets it',
    confirmation: { failures: 2, recoveries: 3 },
    stored: confirmed('unhealthy'),
    samples: [
      agent(0, 'healthy', 40),
      agent(60, 'healthy', 40),
      agent(120, 'degraded', 150),
      agent(180, 'healthy', 40),
      agent(240, 'healthy', 40),
    ],
    flips: [],
    pending: { key: 'healthy', count: 2, since: 180 },
  },
  {
    name: 'a recovery after a target-class no_data needs recoveries rounds',
    confirmation: { failures: 1, recoveries: 2 },
    stored: confirmed('no_data/target', 'ECONNREFUSED'),
    samples: [agent(0, 'no_data', null, 'ETIMEDOUT'), agent(60, 'healthy', 40), agent(120, 'healthy', 40)],
    flips: [{ sample: 2, from: 'no_data/target', to: 'healthy', at: 60, rounds: 2 }],
    pending: null,
  },
  {
    name: 'a measurement gap takes effect at once, during an outage too, and so does the first healthy round after it',
    confirmation: { failures: 3, recoveries: 3 },
    stored: confirmed('unhealthy'),
    samples: [agent(0, 'no_data', null, 'mtls_ref_missing'), agent(60, 'healthy', 40)],
    flips: [
      { sample: 0, from: 'unhealthy', to: 'no_data/measurement', at: 0, rounds: 1 },
      { sample: 1, from: 'no_data/measurement', to: 'healthy', at: 60, rounds: 1 },
    ],
    pending: null,
  },
  {
    name: 'a measurement gap ends a pending failure; failing after the gap needs failures rounds again',
    confirmation: { failures: 2, recoveries: 2 },
    stored: healthy,
    samples: [
      agent(0, 'unhealthy', 900),
      agent(60, 'no_data', null, 'icmp_privilege_denied'),
      agent(120, 'unhealthy', 900),
      agent(180, 'unhealthy', 900),
    ],
    flips: [
      { sample: 1, from: 'healthy', to: 'no_data/measurement', at: 60, rounds: 1 },
      { sample: 3, from: 'no_data/measurement', to: 'unhealthy', at: 120, rounds: 2 },
    ],
    pending: null,
  },
  {
    name: 'target-class no_data is a failing round, not a gap; a class change within no_data is a flip',
    confirmation: { failures: 2, recoveries: 2 },
    stored: confirmed('no_data/measurement', 'no_data'),
    samples: [agent(0, 'no_data', null, 'ECONNREFUSED'), agent(60, 'no_data', null, 'ENOTFOUND')],
    flips: [{ sample: 1, from: 'no_data/measurement', to: 'no_data/target', at: 0, rounds: 2 }],
    pending: null,
  },
  {
    name: 'absent locations: a round where every location could not measure is a gap (at once)',
    confirmation: { failures: 2, recoveries: 2 },
    stored: healthy,
    samples: [
      round(0, 'majority', [
        ['eu-central', 'no_data', null, 'mtls_ref_missing'],
        ['us-east', 'no_data', null, 'header_ref_missing'],
      ]),
    ],
    flips: [{ sample: 0, from: 'healthy', to: 'no_data/measurement', at: 0, rounds: 1 }],
    pending: null,
  },
  {
    name: 'absent locations do not vote: 1 failing of 2 voters passes a majority, 1 of 1 fails it',
    confirmation: ONCE,
    stored: healthy,
    samples: [
      round(0, 'majority', [
        ['ap-south', 'no_data', null, 'icmp_unavailable'],
        ['eu-central', 'healthy', 45],
        ['us-east', 'unhealthy', 900],
      ]),
      round(60, 'majority', [
        ['ap-south', 'no_data', null, 'icmp_unavailable'],
        ['eu-central', 'no_data', null, 'icmp_unavailable'],
        ['us-east', 'unhealthy', 900],
      ]),
    ],
    flips: [{ sample: 1, from: 'healthy', to: 'unhealthy', at: 60, rounds: 1 }],
    pending: null,
  },
  {
    name: 'recheck: a failing location rechecked healthy passes the round; a failing recheck fails it',
    confirmation: { failures: 1, recoveries: 1 },
    stored: healthy,
    samples: [
      round(0, 'any', [
        ['eu-central', 'healthy', 45],
        ['us-east', 'no_data', null, 'ECONNREFUSED', ['eu-central', 'healthy', 44]],
      ]),
      round(60, 'any', [
        ['eu-central', 'healthy', 45],
        ['us-east', 'no_data', null, 'ECONNREFUSED', ['eu-central', 'no_data', null, 'ETIMEDOUT']],
      ]),
    ],
    flips: [{ sample: 1, from: 'healthy', to: 'no_data/target', at: 60, rounds: 1 }],
    pending: null,
  },
  {
    name: 'single location without a voter (pushed): its rounds carry no votes',
    confirmation: { failures: 2, recoveries: 1 },
    stored: healthy,
    samples: [unvoted(0, 'unhealthy', 900), unvoted(60, 'unhealthy', 910)],
    flips: [{ sample: 1, from: 'healthy', to: 'unhealthy', at: 0, rounds: 2 }],
    pending: null,
  },
  {
    name: 'given votes win over the voter, an empty list too',
    confirmation: { failures: 2, recoveries: 1 },
    stored: healthy,
    samples: [
      { ...agent(0, 'unhealthy', 900), votes: [] },
      { ...agent(60, 'unhealthy', 900), votes: [vote(60, ['us-east', 'unhealthy', 900])] },
    ],
    flips: [{ sample: 1, from: 'healthy', to: 'unhealthy', at: 0, rounds: 2 }],
    pending: null,
  },
  {
    name: 'a stored pending change continues across batches, dated at its stored start',
    confirmation: { failures: 3, recoveries: 2 },
    stored: {
      confirmed: 'healthy',
      reason: null,
      pending: 'no_data/target',
      count: 2,
      since: time(-120),
      evidence: evidence(-120, -60),
    },
    samples: [agent(0, 'unhealthy', 900)],
    flips: [{ sample: 0, from: 'healthy', to: 'unhealthy', at: -120, rounds: 3 }],
    pending: null,
  },
  {
    name: 'a stored pending recovery is reset by a failing round, which starts a failing count',
    confirmation: { failures: 2, recoveries: 2 },
    stored: {
      confirmed: 'degraded',
      reason: null,
      pending: 'healthy',
      count: 1,
      since: time(-60),
      evidence: evidence(-60),
    },
    samples: [agent(0, 'unhealthy', 900)],
    flips: [],
    pending: { key: 'unhealthy', count: 1, since: 0 },
  },
  {
    name: 'a stored pending count without a start flips undated; no count or evidence stored reads as none',
    confirmation: { failures: 2, recoveries: 2 },
    stored: { confirmed: 'healthy', reason: null, pending: 'unhealthy', count: 1, since: null, evidence: null },
    samples: [agent(0, 'unhealthy', 900)],
    flips: [{ sample: 0, from: 'healthy', to: 'unhealthy', at: null, rounds: 2 }],
    pending: null,
  },
  {
    name: 'an agreeing round ends a pending change and takes its reason',
    confirmation: { failures: 3, recoveries: 3 },
    stored: {
      confirmed: 'no_data/target',
      reason: 'ECONNREFUSED',
      pending: 'healthy',
      count: 2,
      since: time(-120),
      evidence: evidence(-120, -60),
    },
    samples: [agent(0, 'no_data', null, 'ETIMEDOUT'), agent(60, 'healthy', 40)],
    flips: [],
    pending: { key: 'healthy', count: 1, since: 60 },
  },
  {
    name: 'an agreeing round leaves a stale start and evidence as they are when nothing is pending',
    confirmation: ONCE,
    stored: { confirmed: 'healthy', reason: null, pending: null, count: 0, since: time(-60), evidence: evidence(-60) },
    samples: [agent(0, 'healthy', 40)],
    flips: [],
    pending: null,
  },
  {
    name: 'evidence keeps the last 10 rounds; the flip is still dated at the first',
    confirmation: { failures: 12, recoveries: 1 },
    stored: healthy,
    samples: Array.from({ length: 12 }, (_, i) => agent(i * 60, 'unhealthy', 900 + i)),
    flips: [{ sample: 11, from: 'healthy', to: 'unhealthy', at: 0, rounds: 12 }],
    pending: null,
  },
  {
    name: 'stored evidence longer than the cap shrinks by one round per round',
    confirmation: { failures: 5, recoveries: 1 },
    stored: {
      confirmed: 'healthy',
      reason: null,
      pending: 'unhealthy',
      count: 2,
      since: time(-120),
      evidence: evidence(-720, -660, -600, -540, -480, -420, -360, -300, -240, -180, -120, -60),
    },
    samples: [agent(0, 'unhealthy', 900)],
    flips: [],
    pending: { key: 'unhealthy', count: 3, since: -120 },
  },
  {
    name: 'no counts given: every round counts at once',
    confirmation: { failures: null, recoveries: null },
    stored: healthy,
    samples: [agent(0, 'degraded', 150), agent(60, 'healthy', 40)],
    flips: [
      { sample: 0, from: 'healthy', to: 'degraded', at: 0, rounds: 1 },
      { sample: 1, from: 'degraded', to: 'healthy', at: 60, rounds: 1 },
    ],
    pending: null,
  },
  {
    name: 'a stored state without a confirmed key starts again at every round until one flips',
    confirmation: { failures: 2, recoveries: 1 },
    stored: { confirmed: null, reason: null, pending: null, count: 0, since: null, evidence: null },
    samples: [
      agent(0, 'unhealthy', 900),
      agent(60, 'unhealthy', 900),
      agent(120, 'healthy', 40),
      agent(180, 'unhealthy', 900),
    ],
    flips: [{ sample: 2, from: null, to: 'healthy', at: 120, rounds: 1 }],
    pending: { key: 'unhealthy', count: 1, since: 180 },
  },
];

/** A case's flips and what is left pending, by the pure walk, in the case's terms. */
export function walkedByPure(c: ConfirmCase): Pick<ConfirmCase, 'flips' | 'pending'> {
  const seconds = (d: Date | null) => (d === null ? null : (d.getTime() - BASE) / 1000);
  const steps = confirmWalk(c.stored, c.samples, c.confirmation);
  const last = steps.at(-1)!.state;
  return {
    flips: steps.flatMap((s, sample) =>
      s.flip ? [{ sample, from: s.flip.from, to: s.flip.to, at: seconds(s.flip.at), rounds: s.flip.rounds }] : [],
    ),
    pending: last.pending === null ? null : { key: last.pending, count: last.count, since: seconds(last.since) },
  };
}
