import type { Knex } from '@mikro-orm/knex';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs SQL in the EntityManager's transaction when it has one, with bound parameters (sent to
 * PostgreSQL as such, not pasted into the SQL text). Knex expands a JS array parameter into a
 * list, so batches travel as one JSON parameter (or a PostgreSQL array literal).
 */
async function raw(em: EntityManager, sql: string, params: unknown[]): Promise<{ rows: unknown[]; rowCount: number }> {
  const knex = em.getTransactionContext<Knex.Transaction>() ?? em.getConnection().getKnex();
  return await knex.raw<{ rows: unknown[]; rowCount: number }>(sql, params as Knex.RawBinding[]);
}

/** The rows a statement returns. */
export async function rawRows<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return (await raw(em, sql, params)).rows as T[];
}

/** How many rows a statement changed. */
export async function rawRun(em: EntityManager, sql: string, params: unknown[]): Promise<number> {
  return (await raw(em, sql, params)).rowCount;
}

/** A PostgreSQL array literal of values that need no quoting (uuids, plain words), for `?::uuid[]` / `?::text[]`. */
export function pgArray(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

/** A PostgreSQL text[] literal of any strings (each quoted) and NULLs. */
export function pgTextArray(values: readonly (string | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}
