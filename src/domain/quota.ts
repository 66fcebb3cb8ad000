import { ProblemError } from './error-catalog';
import { CAPABILITY_FEATURE, type Capability, type Feature, type Plan, upgradeFor } from './plans';

function upgradeLink(target: Plan | null, pricingUrl: string) {
  return target
    ? { upgrade: { plan: target.id, label: `Upgrade to ${target.label}`, url: `${pricingUrl}#${target.id}` } }
    : {};
}

/** Throws feature_locked / quota_exceeded when creating one more `capability` is not allowed. */
export function assertCanCreate(plan: Plan, capability: Capability, used: number, pricingUrl: string): void {
  const feature = CAPABILITY_FEATURE[capability];
  if (feature && !plan.features.has(feature)) {
    throw new ProblemError('feature_locked', `The ${plan.label} plan does not include ${capability}.`, {
      quota: { capability, used, cap: 0, plan: plan.id },
      ...upgradeLink(upgradeFor(plan.id, { feature }), pricingUrl),
    });
  }
  const cap = plan.quotas[capability];
  if (cap !== null && used >= cap) {
    throw new ProblemError('quota_exceeded', `The ${plan.label} plan allows ${cap} ${capability}; ${used} exist.`, {
      quota: { capability, used, cap, plan: plan.id },
      ...upgradeLink(upgradeFor(plan.id, { capability, used }), pricingUrl),
    });
  }
}

/** Throws feature_locked when the plan lacks the feature behind `capability` (reads and writes alike). */
export function assertFeature(plan: Plan, capability: Capability, pricingUrl: string): void {
  const feature = CAPABILITY_FEATURE[capability];
  if (feature && !plan.features.has(feature)) {
    throw new ProblemError('feature_locked', `The ${plan.label} plan does not include ${capability}.`, {
      quota: { capability, used: null, cap: 0, plan: plan.id },
      ...upgradeLink(upgradeFor(plan.id, { feature }), pricingUrl),
    });
  }
}

/**
 * After a downgrade the oldest `cap` items stay writable; the rest are suspended. `rank` is the
 * item's 0-based position among the organization's live items, oldest first.
 */
export function assertNotSuspended(
  plan: Plan,
  capability: Capability,
  rank: number,
  used: number,
  pricingUrl: string,
): void {
  const cap = plan.quotas[capability];
  if (cap === null || rank < cap) return;
  throw new ProblemError(
    'item_suspended_plan',
    `This item is beyond the ${plan.label} plan's quota of ${cap} ${capability} and is read-only; delete others or upgrade.`,
    {
      quota: { capability, used, cap, plan: plan.id },
      ...upgradeLink(upgradeFor(plan.id, { capability, used }), pricingUrl),
    },
  );
}

/** Throws feature_locked when the plan lacks a feature that is not a countable capability (the SLA ledger). */
export function assertPlanFeature(plan: Plan, feature: Feature, label: string, pricingUrl: string): void {
  if (plan.features.has(feature)) return;
  throw new ProblemError('feature_locked', `The ${plan.label} plan does not include ${label}.`, {
    quota: { capability: feature, used: null, cap: 0, plan: plan.id },
    ...upgradeLink(upgradeFor(plan.id, { feature }), pricingUrl),
  });
}

/**
 * For a change of many items at once (config as code): throws feature_locked / quota_exceeded when
 * the organization would end with `result` live items of `capability`; `used` is how many exist now.
 */
export function assertResultWithinQuota(
  plan: Plan,
  capability: Capability,
  used: number,
  result: number,
  pricingUrl: string,
): void {
  if (result <= used) return;
  const feature = CAPABILITY_FEATURE[capability];
  if (feature && !plan.features.has(feature)) assertCanCreate(plan, capability, used, pricingUrl);
  const cap = plan.quotas[capability];
  if (cap === null || result <= cap) return;
  throw new ProblemError(
    'quota_exceeded',
    `The document needs ${result} ${capability}; the ${plan.label} plan allows ${cap} (${used} exist now).`,
    {
      quota: { capability, used, cap, plan: plan.id },
      ...upgradeLink(upgradeFor(plan.id, { capability, used: result - 1 }), pricingUrl),
    },
  );
}
