import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/**
 * Answers an organization-scoped read from the platform read cache. What is cached is the JSON
 * text, checked against the response schema once when it is loaded, so a cache hit costs neither
 * a query nor a serialisation.
 */
export async function sendCachedJson<S extends z.ZodType>(
  request: FastifyRequest,
  reply: FastifyReply,
  key: string,
  schema: S,
  load: () => Promise<z.input<S>>,
): Promise<FastifyReply> {
  const orgId = request.principal!.organizationId;
  const text = (await request.server.platform.reads.getOrLoad(orgId, key, async () =>
    JSON.stringify(schema.parse(await load())),
  )) as string;
  return reply.type('application/json; charset=utf-8').send(text);
}
