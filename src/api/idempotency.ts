import { z } from 'zod';
import { createHash, randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdempotencyRecordSchema } from '../db/entities';
import { ProblemError } from '../domain/error-catalog';
import type { UnitOfWork } from '../usecases/shared/context';

const TTL_MS = 24 * 3600 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** An optional `Idempotency-Key` header of the documented shape, saying what a repeat does. */
export function idempotencyKeyHeader(description: string) {
  return z.object({
    'idempotency-key': z
      .string()
      .regex(KEY_SHAPE, 'Invalid Idempotency-Key')
      .optional()
      .describe(`1 to 255 visible ASCII characters. ${description}`),
  });
}

/** The header every create accepts, for the route schemas (and so the OpenAPI document). */
export const IdempotencyHeaders = idempotencyKeyHeader(
  'The same key with the same body within 24 hours returns the first answer (with `Idempotent-Replayed: true`) without creating twice; with another body, 409 `idempotency_key_reused`.',
);

function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function readKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || !KEY_SHAPE.test(key)) {
    throw new ProblemError('validation_failed', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      errors: [{ path: 'headers.idempotency-key', message: 'Invalid Idempotency-Key' }],
    });
  }
  return key;
}

/** A use case's unit of work that is also an idempotent create (see idempotentCreate). */
export function idempotentUnit(request: FastifyRequest, reply: FastifyReply, operation: string): UnitOfWork {
  return (work) => idempotentCreate(request, reply, operation, work);
}

/**
 * Runs a create at most once per Idempotency-Key (24 hours, per organization): the resource and
 * the recorded response commit in one transaction, so a retry after a crash either replays the
 * first answer or creates afresh, never twice. The same key with another body is 409.
 */
export async function idempotentCreate<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  operation: string,
  create: (em: EntityManager) => Promise<T>,
): Promise<T> {
  const key = readKey(request);
  const orgId = request.principal!.organizationId;
  if (key === null) {
    reply.code(201);
    return create(request.em);
  }
  const requestHash = createHash('sha256')
    .update(`${operation}\n${canonical(request.body ?? null)}`)
    .digest('hex');
  const replay = async (): Promise<T | null> => {
    const found = await request.em.fork().findOne(IdempotencyRecordSchema, {
      organization: orgId,
      key,
      createdAt: { $gt: new Date(request.now.getTime() - TTL_MS) },
    });
    if (!found) return null;
    if (found.requestHash !== requestHash) {
      throw new ProblemError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request in the last 24 hours.',
      );
    }
    reply.code(found.statusCode).header('idempotent-replayed', 'true');
    return found.responseBody as T;
  };
  const earlier = await replay();
  if (earlier !== null) return earlier;
  try {
    const body = await request.em.transactional(async (em) => {
      await em.nativeDelete(IdempotencyRecordSchema, {
        organization: orgId,
        key,
        createdAt: { $lte: new Date(request.now.getTime() - TTL_MS) },
      });
      const result = await create(em);
      em.create(IdempotencyRecordSchema, {
        id: randomUUID(),
        organization: orgId,
        key,
        operation,
        requestHash,
        statusCode: 201,
        responseBody: result,
        createdAt: request.now,
      });
      await em.flush();
      return result;
    });
    reply.code(201);
    return body;
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      const raced = await replay();
      if (raced !== null) return raced;
    }
    throw err;
  }
}
