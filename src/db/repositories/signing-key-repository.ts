import type { EntityManager } from '@mikro-orm/postgresql';
import { rawRows } from '../raw-sql';

/** Serializes creating and rotating statement-signing keys until the caller's transaction ends. */
export async function lockSigningKeys(tx: EntityManager): Promise<void> {
  await rawRows(tx, `select pg_advisory_xact_lock(hashtext('vigil.statement_signing_keys'))`, []);
}
