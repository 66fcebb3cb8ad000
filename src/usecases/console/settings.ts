import type { EntityManager } from '@mikro-orm/postgresql';
import { ConsoleUserSchema } from '../../db/entities';
import { ProblemError } from '../../domain/error-catalog';
import { isValidTimeZone } from '../../domain/periods';

/**
 * Stores the user's time zone; null (or '') goes back to the browser's. An unknown zone is the
 * API's 400 validation_failed, its error on `time_zone` in words.
 */
export async function setConsoleTimeZone(
  em: EntityManager,
  userId: string,
  zone: string | null,
): Promise<string | null> {
  const chosen = zone?.trim() ? zone.trim() : null;
  if (chosen !== null && (chosen.length > 64 || !isValidTimeZone(chosen))) {
    const message = `"${chosen.slice(0, 64)}" is not a time zone: choose one from the list, such as Europe/Berlin or America/New_York.`;
    throw new ProblemError('validation_failed', `time_zone: ${message}`, { errors: [{ path: 'time_zone', message }] });
  }
  await em.nativeUpdate(ConsoleUserSchema, { id: userId }, { timeZone: chosen });
  return chosen;
}
