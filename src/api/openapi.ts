import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export const API_DESCRIPTION = `Vigil turns measured values into health status, runs probes, publishes status pages and feeds,
manages incidents and maintenance windows, and produces signed SLA statements.

Authenticate with \`Authorization: Bearer vgl_pub_…\`. Each operation names the scope it needs.
Errors are RFC 7807 problem details; branch on \`title\`. Lists are cursor-paged
(\`items\`, \`next_cursor\`; \`limit\` 1..200 clamped). Every authenticated response carries
\`X-RateLimit-*\` and \`X-RateLimit-Daily-*\` headers.`;

/** Registers the OpenAPI 3.1.0 generator (from the zod route schemas) and the rendered reference at /v1/reference. */
export async function registerOpenApi(app: FastifyInstance, opts: { publicBaseUrl: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Vigil API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [{ url: opts.publicBaseUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An organization API key, vgl_pub_…' },
          agentToken: { type: 'http', scheme: 'bearer', description: 'A Vigil agent token, vgl_agt_… (agent endpoints only)' },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/v1/reference',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
  });
}
