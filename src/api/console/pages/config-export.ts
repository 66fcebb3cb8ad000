import type { FastifyPluginAsync } from 'fastify';
import { stringify } from 'yaml';
import { CONFIG_KINDS, type ConfigKind, SECTION_OF } from '../../../domain/config/kinds';
import { ProblemError } from '../../../domain/error-catalog';
import { exportConfig } from '../../../usecases/config/export';
import { requireScope } from '../context';
import type { ConsoleDeps } from '../deps';

const isKind = (v: string): v is ConfigKind => (CONFIG_KINDS as readonly string[]).includes(v);

/**
 * "Export as YAML" for every configurable list: `/console/export/<kind>.yaml` is that kind's section
 * of the document the API's exportConfig answers (same use case, same scope: read:config, and
 * read:sla for contracts), as a file to download. It applies back with `vigil config apply` and
 * changes nothing; `?include_unmanaged=true` adds the items made outside config as code (with their
 * `id`, so applying adopts them), as the API's parameter of that name does.
 */
export const configExportPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  app.get<{ Params: { file: string }; Querystring: { include_unmanaged?: string } }>(
    '/export/:file',
    async (request, reply) => {
      const m = /^([a-z_]+)\.yaml$/.exec(request.params.file);
      const kind = m?.[1];
      if (!kind || !isKind(kind))
        throw new ProblemError(
          'not_found',
          `There is no export "${request.params.file}": the kinds are ${CONFIG_KINDS.map((k) => `${k}.yaml`).join(', ')}.`,
        );
      const v = requireScope(request, 'read:config');
      if (kind === 'contract' && !v.can('read:sla'))
        throw new ProblemError(
          'forbidden',
          `Your role (${v.role}) cannot do this: exporting contracts needs read:sla.`,
        );
      const includeContracts = kind === 'contract' && v.ctx.org.plan.features.has('sla_ledger');
      const doc = await exportConfig(v.ctx, {
        includeUnmanaged: request.query.include_unmanaged === 'true',
        includeContracts,
      });
      const section = SECTION_OF[kind];
      const schemaUrl = `${deps.publicBaseUrl}/v1/config/schema.json`;
      const text = `# Vigil configuration: ${section} of ${v.session.organization.name}, exported ${v.ctx.now.toISOString()}.
# Plan with \`vigil config plan --file F\`, apply with \`vigil config apply --file F\`.
# yaml-language-server: $schema=${schemaUrl}
${stringify({ version: 1, [section]: doc[section] ?? [] }, { lineWidth: 0 })}`;
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="vigil-${section.replace(/_/g, '-')}.yaml"`)
        .type('application/yaml; charset=utf-8')
        .send(text);
    },
  );
};
