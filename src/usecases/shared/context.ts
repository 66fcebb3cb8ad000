import type { EntityManager } from '@mikro-orm/postgresql';
import type { Plan } from '../../domain/plans';

/** Where a use case reports what went wrong after its data was committed (a workflow it could not reach). */
export interface UseCaseLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * What every organization-scoped use-case gets, always as its first argument: its own
 * EntityManager fork, the caller's organization, the clock, and the request's log.
 */
export interface OrgContext {
  em: EntityManager;
  org: { id: string; plan: Plan };
  now: Date;
  /** Where plan-limit problems point for an upgrade. */
  pricingUrl: string;
  /** Absent outside a request (tests, scripts): failures after commit then go unlogged. */
  log?: UseCaseLog;
}

/**
 * Runs a use case's write in the unit of work its caller chooses: by default a transaction of the
 * context's EntityManager; the API's idempotent create passes one that also records the answer.
 * A use case calls workflows only after its unit of work has committed.
 */
export type UnitOfWork = <T>(work: (em: EntityManager) => Promise<T>) => Promise<T>;

export const ownTransaction =
  (ctx: Pick<OrgContext, 'em'>): UnitOfWork =>
  (work) =>
    ctx.em.transactional((tx) => work(tx));

/** For a write that is one statement, and so atomic without a transaction of its own. */
export const oneStatement =
  (ctx: Pick<OrgContext, 'em'>): UnitOfWork =>
  (work) =>
    work(ctx.em);
