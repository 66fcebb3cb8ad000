import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ProblemError } from '../../domain/error-catalog';

/**
 * Runs a write that may set a config_key, turning the live-key unique index's refusal (another
 * write got there first) into 409 config_key_taken.
 */
export async function guardConfigKey<T>(
  what: string,
  key: string | null | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException) || !/config_key/.test(err.message)) throw err;
    throw new ProblemError(
      'config_key_taken',
      key
        ? `Another ${what} already uses config_key "${key}".`
        : `Another ${what} took one of these config_keys meanwhile; plan again.`,
      {
        errors: [{ path: 'config_key', message: 'Already in use' }],
      },
    );
  }
}
