import { LockWaitTimeoutException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../raw-sql';

/**
 * Inside a transaction: takes the organization row's lock until the transaction ends, so applies
 * of one organization run one after another (and single-item creates, which lock the same row for
 * their quota, wait for an apply too). Answers false when the lock was not free within `timeoutMs`.
 */
export async function lockOrganizationForConfig(
  tx: EntityManager,
  organizationId: string,
  timeoutMs: number,
): Promise<boolean> {
  await rawRows(tx, `select set_config('lock_timeout', ?, true)`, [`${Math.max(1, Math.round(timeoutMs))}ms`]);
  try {
    await rawRows(tx, 'select id from organizations where id = ? for update', [organizationId]);
    return true;
  } catch (err) {
    if (err instanceof LockWaitTimeoutException || (err as { code?: string }).code === '55P03') return false;
    throw err;
  } finally {
    // Back to the server default for the rest of the transaction (the row lock stays held).
    await rawRows(tx, `select set_config('lock_timeout', '0', true)`, []).catch(() => undefined);
  }
}
