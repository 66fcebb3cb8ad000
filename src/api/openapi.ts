import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { declareResponseHeaders } from './openapi-headers';
import { declareResponseMediaTypes } from './openapi-media';
import { OPENAPI_TAGS } from './openapi-tags';

export const API_DESCRIPTION = `Vigil turns measured values into health status, runs probes, publishes status pages and feeds,
manages incidents and maintenance windows, and produces signed SLA statements.

Authenticate with \`Authorization: Bearer vgl_pub_…\`. Each operation names the scope it needs.
Errors are RFC 7807 problem details; branch on \`title\`. Lists are cursor-paged
(\`items\`, \`next_cursor\`, null on the last page; \`limit\` 1..200 clamped; a \`cursor\` this API did not issue is 400
\`validation_failed\`). Every response after authentication carries
\`X-RateLimit-*\` and \`X-RateLimit-Daily-*\` headers, and every 429 \`Retry-After\` with \`retry_after\` and
\`limit\` in its body. Rules the runtime checks beyond the schemas are listed in each operation's description.`;

type JsonSchema = { anyOf?: JsonSchema[]; type?: unknown };
type BodyDoc = { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };

/**
 * The zod provider marks every request body required; a body schema that also accepts null
 * (`.nullish()`, as on POST /incidents/{id}/resolve) is one the API takes no body for, so the
 * document says the body is optional and describes the object alone.
 */
export function optionalBodies<T extends object>(input: T): T {
  const paths = (input as { paths?: Record<string, Record<string, { requestBody?: BodyDoc }>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const body = op.requestBody;
      if (!body?.content) continue;
      for (const media of Object.values(body.content)) {
        const branches = media.schema?.anyOf;
        if (!branches?.some((b) => b.type === 'null')) continue;
        const rest = branches.filter((b) => b.type !== 'null');
        if (rest.length === 1) media.schema = rest[0];
        body.required = false;
      }
    }
  }
  return input;
}

/** Registers the OpenAPI 3.1.0 generator (from the zod route schemas) and the rendered reference at /v1/reference. */
export async function registerOpenApi(app: FastifyInstance, opts: { publicBaseUrl: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vigil API', version: '1.0.0', description: API_DESCRIPTION },
      tags: [...OPENAPI_TAGS],
      servers: [{ url: opts.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An organization API key, vgl_pub_…' },
          agentToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A Vigil agent token, vgl_agt_… (agent endpoints only)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) =>
      declareResponseMediaTypes(declareResponseHeaders(optionalBodies(jsonSchemaTransformObject(input)))),
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/v1/reference',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
  });
}
