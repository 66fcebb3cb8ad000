import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import { activeSigningKey } from '../usecases/sla/signing-keys';
import { secretBox } from './adapters';

/**
 * Makes sure a statement-signing key exists when the API or the worker starts, so the JWKS
 * publishes it before the first statement is signed (customers can pin it beforehand).
 * Idempotent, and race-safe across processes: activeSigningKey creates under an advisory lock,
 * so two processes starting at once agree on one key.
 */
export async function ensureStatementSigningKey(
  orm: Orm,
  config: Config,
  log: Logger,
  now = new Date(),
): Promise<string> {
  const key = await activeSigningKey(orm.em.fork(), secretBox(config), now);
  log.info({ kid: key.kid }, 'statement signing key published');
  return key.kid;
}
