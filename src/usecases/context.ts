import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plan } from '../domain/plans';

/** What every organization-scoped use-case gets: its own EntityManager fork, the caller's organization, and the clock. */
export interface OrgContext {
  em: EntityManager;
  org: { id: string; plan: Plan };
  now: Date;
  /** Where plan-limit problems point for an upgrade. */
  pricingUrl: string;
}
