import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { stringify } from 'yaml';
import { z } from 'zod';
import { type ApplyResult, type ConfigPorts, applyConfig } from '../../usecases/config/apply';
import { exportConfig } from '../../usecases/config/export';
import { inboundUrl } from '../../usecases/metrics/inbound';
import { YAML_MEDIA_TYPES, YamlBody, parseConfigDocument, parseYamlBody, withYamlLines } from '../config-document';
import { routeDoc } from '../route-doc';
import { BODY_ERRORS } from '../schemas/common';
import { ApplyQuery, ApplyResultSchema, ConfigDocumentSchema, ExportQuery } from '../schemas/config';

const tag = 'Config as code';

/** Large enough for a document of ten thousand metrics. */
export const CONFIG_BODY_LIMIT = 16 * 1024 * 1024;

export const CONFIG_SCHEMA_PATH = '/config/schema.json';

export const configRoutes: FastifyPluginAsyncZod<{ ports: ConfigPorts; publicBaseUrl: string }> = async (app, opts) => {
  app.addContentTypeParser(
    YAML_MEDIA_TYPES,
    { parseAs: 'string', bodyLimit: CONFIG_BODY_LIMIT },
    (_req, body, done) => {
      try {
        done(null, parseYamlBody(String(body)));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
  const schemaUrl = `${opts.publicBaseUrl}/v1${CONFIG_SCHEMA_PATH}`;
  const toUrl = (i: ApplyResult['inbound'][number]) => inboundUrl(opts.publicBaseUrl, i);

  {
    const { errorResponses, ...doc } = routeDoc('applyConfig', {
      summary: 'Apply (or plan) a configuration document',
      tag,
      errors: [
        ...BODY_ERRORS,
        'config_invalid',
        'in_use',
        'quota_exceeded',
        'feature_locked',
        'item_suspended_plan',
        'config_busy',
        'config_key_taken',
        'subdomain_taken',
      ],
    });
    app.post(
      '/config/apply',
      {
        bodyLimit: CONFIG_BODY_LIMIT,
        // The document is checked entry by entry by the use case (config_invalid with every path), not as one body.
        validatorCompiler: (route) =>
          route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as never),
        schema: {
          ...doc,
          querystring: ApplyQuery,
          body: ConfigDocumentSchema,
          response: { 200: ApplyResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const body: unknown = request.body;
        const raw = body instanceof YamlBody ? body.value : body;
        const scopes = request.principal?.scopes ?? [];
        try {
          const result = await applyConfig(request.orgContext(), opts.ports, parseConfigDocument(raw), {
            dryRun: request.query.dry_run,
            prune: request.query.prune,
            contractsAllowed: scopes.includes('write:sla'),
          });
          const { inbound, ...rest } = result;
          return {
            ...rest,
            inbound_urls: inbound.map((i) => ({ config_key: i.config_key, metric_id: i.metric_id, url: toUrl(i) })),
          };
        } catch (err) {
          throw withYamlLines(err, body);
        }
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('exportConfig', {
      summary: 'Export the configuration as a document',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/config/export',
      {
        schema: {
          ...doc,
          querystring: ExportQuery,
          response: {
            200: z.looseObject({ version: z.literal(1) }).describe('A configuration document (see ConfigDocument)'),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const ctx = request.orgContext();
        const scopes = request.principal?.scopes ?? [];
        const document = await exportConfig(ctx, {
          includeUnmanaged: request.query.include_unmanaged,
          includeContracts: scopes.includes('read:sla') && ctx.org.plan.features.has('sla_ledger'),
        });
        const withSchema = { $schema: schemaUrl, ...document };
        const wantsYaml =
          request.query.format === 'yaml' ||
          (request.query.format === undefined && YAML_MEDIA_TYPES.some((t) => request.headers.accept?.includes(t)));
        if (!wantsYaml) return withSchema;
        const text = `# Vigil configuration, exported ${ctx.now.toISOString()}.\n# Plan with \`vigil config plan --file F\`, apply with \`vigil config apply --file F\`.\n# yaml-language-server: $schema=${schemaUrl}\n${stringify(document, { lineWidth: 0 })}`;
        return reply.type('application/yaml; charset=utf-8').send(text as never);
      },
    );
  }
  {
    const { errorResponses: _e, ...doc } = routeDoc('getConfigSchema', {
      summary: 'The JSON Schema of configuration documents',
      tag,
    });
    const jsonSchema = {
      $id: schemaUrl,
      ...z.toJSONSchema(ConfigDocumentSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
    };
    app.get(
      CONFIG_SCHEMA_PATH,
      { schema: { ...doc, response: { 200: z.looseObject({}).describe('JSON Schema (draft 2020-12)') } } },
      async (_request, reply) =>
        reply
          .type('application/schema+json')
          .header('cache-control', 'public, max-age=300')
          .send(jsonSchema as never),
    );
  }
};
