import { decodeCursor } from '../../domain/cursor';
import { ProblemError } from '../../domain/error-catalog';

export type KeysetFilter = { $or?: [Record<string, { $lt: Date }>, Record<string, Date | { $lt: string }>] };

/** The condition that starts a newest-first page (by `field`, then id) strictly after `cursor`. */
export function afterCursor(cursor: string | undefined, field = 'createdAt'): KeysetFilter {
  if (cursor === undefined || cursor === '') return {};
  const pos = decodeCursor(cursor);
  if (!pos) {
    throw new ProblemError('validation_failed', 'The cursor is not one this API issued.', {
      errors: [{ path: 'query.cursor', message: 'Invalid cursor' }],
    });
  }
  return { $or: [{ [field]: { $lt: pos.createdAt } }, { [field]: pos.createdAt, id: { $lt: pos.id } }] };
}

export const NEWEST_FIRST = { createdAt: 'desc', id: 'desc' } as const;
