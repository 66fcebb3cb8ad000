/** Plans live in code: what each includes, how much of it, and how fast its API may be called. */
export const PLAN_IDS = ['free', 'team', 'business', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type Feature = 'public_api' | 'customers' | 'sla_ledger';
/** Countable things a plan caps. `null` cap = unlimited. */
export type Capability = 'services' | 'customers' | 'api_keys' | 'webhooks' | 'metrics' | 'status_pages';

export interface Plan {
  id: PlanId;
  label: string;
  features: ReadonlySet<Feature>;
  quotas: Readonly<Record<Capability, number | null>>;
  rateLimit: { perMinute: number; perDay: number };
}

export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    label: 'Free',
    features: new Set<Feature>(),
    quotas: { services: 5, customers: 0, api_keys: 2, webhooks: 0, metrics: 10, status_pages: 1 },
    rateLimit: { perMinute: 60, perDay: 5_000 },
  },
  team: {
    id: 'team',
    label: 'Team',
    features: new Set<Feature>(['public_api']),
    quotas: { services: 25, customers: 0, api_keys: 10, webhooks: 5, metrics: 100, status_pages: 3 },
    rateLimit: { perMinute: 300, perDay: 50_000 },
  },
  business: {
    id: 'business',
    label: 'Business',
    features: new Set<Feature>(['public_api', 'customers', 'sla_ledger']),
    quotas: { services: 250, customers: 500, api_keys: 50, webhooks: 25, metrics: 1_000, status_pages: 10 },
    rateLimit: { perMinute: 1_200, perDay: 500_000 },
  },
  enterprise: {
    id: 'enterprise',
    label: 'Enterprise',
    features: new Set<Feature>(['public_api', 'customers', 'sla_ledger']),
    quotas: { services: null, customers: null, api_keys: null, webhooks: null, metrics: null, status_pages: null },
    rateLimit: { perMinute: 6_000, perDay: 5_000_000 },
  },
};

/** Which feature a capability belongs to; creating one on a plan without the feature is `feature_locked`. */
export const CAPABILITY_FEATURE: Readonly<Partial<Record<Capability, Feature>>> = {
  customers: 'customers',
};

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function planHas(plan: Plan, feature: Feature): boolean {
  return plan.features.has(feature);
}

/** The cheapest plan above `from` that has the feature, or whose cap for the capability exceeds `used`. */
export function upgradeFor(
  from: PlanId,
  need: { feature?: Feature; capability?: Capability; used?: number },
): Plan | null {
  const start = PLAN_IDS.indexOf(from) + 1;
  for (const id of PLAN_IDS.slice(start)) {
    const plan = PLANS[id];
    if (need.feature && !plan.features.has(need.feature)) continue;
    if (need.capability !== undefined) {
      const cap = plan.quotas[need.capability];
      if (cap !== null && cap <= (need.used ?? 0)) continue;
    }
    return plan;
  }
  return null;
}
