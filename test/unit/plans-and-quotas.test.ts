import { ProblemError } from '../../src/domain/error-catalog';
import { PLANS, PLAN_IDS, upgradeFor } from '../../src/domain/plans';
import { assertCanCreate, assertFeature, assertNotSuspended } from '../../src/domain/quota';

const pricing = 'https://docs.example/pricing';

function problemOf(fn: () => void): ProblemError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a problem');
}

describe('plans', () => {
  it('has at least one plan without the public API, and plans ordered by what they allow', () => {
    expect(PLAN_IDS.filter((id) => !PLANS[id].features.has('public_api'))).toEqual(['free']);
    for (let i = 1; i < PLAN_IDS.length; i++) {
      const lower = PLANS[PLAN_IDS[i - 1]!];
      const higher = PLANS[PLAN_IDS[i]!];
      expect(higher.rateLimit.perMinute).toBeGreaterThan(lower.rateLimit.perMinute);
      for (const f of lower.features) expect(higher.features.has(f)).toBe(true);
    }
  });

  it('suggests the cheapest plan that lifts the limit, or none', () => {
    expect(upgradeFor('team', { feature: 'customers' })?.id).toBe('business');
    expect(upgradeFor('team', { capability: 'services', used: 25 })?.id).toBe('business');
    expect(upgradeFor('business', { capability: 'services', used: 250 })?.id).toBe('enterprise');
    expect(upgradeFor('enterprise', { feature: 'sla_ledger' })).toBeNull();
  });
});

describe('quotas', () => {
  it('lets the last item under the cap through and refuses the next with quota_exceeded', () => {
    expect(() => assertCanCreate(PLANS.team, 'services', 24, pricing)).not.toThrow();
    const p = problemOf(() => assertCanCreate(PLANS.team, 'services', 25, pricing));
    expect(p.token).toBe('quota_exceeded');
    expect(p.status).toBe(403);
    expect(p.extras).toEqual({
      quota: { capability: 'services', used: 25, cap: 25, plan: 'team' },
      upgrade: { plan: 'business', label: 'Upgrade to Business', url: `${pricing}#business` },
    });
  });

  it('never limits an unlimited plan, and offers no upgrade from the top', () => {
    expect(() => assertCanCreate(PLANS.enterprise, 'services', 1_000_000, pricing)).not.toThrow();
    expect(() => assertNotSuspended(PLANS.enterprise, 'services', 1_000_000, 1_000_001, pricing)).not.toThrow();
  });

  it('answers feature_locked for a capability whose feature the plan lacks', () => {
    const p = problemOf(() => assertCanCreate(PLANS.team, 'customers', 0, pricing));
    expect(p.token).toBe('feature_locked');
    expect(p.extras.upgrade?.plan).toBe('business');
    expect(problemOf(() => assertFeature(PLANS.team, 'customers', pricing)).token).toBe('feature_locked');
    expect(() => assertFeature(PLANS.business, 'customers', pricing)).not.toThrow();
  });

  it('suspends exactly the items ranked at or beyond the cap', () => {
    expect(() => assertNotSuspended(PLANS.team, 'services', 24, 30, pricing)).not.toThrow();
    const p = problemOf(() => assertNotSuspended(PLANS.team, 'services', 25, 30, pricing));
    expect(p.token).toBe('item_suspended_plan');
    expect(p.extras.quota).toEqual({ capability: 'services', used: 30, cap: 25, plan: 'team' });
  });
});
