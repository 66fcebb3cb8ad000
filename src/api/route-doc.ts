import type { ErrorToken } from '../domain/error-catalog';
import { OPERATION_DESCRIPTIONS } from './operation-docs';
import { ROUTE_SCOPES } from './route-scopes';
import { AUTHENTICATED_ERRORS, problemResponses } from './schemas/common';

const AGENT_ERRORS: ErrorToken[] = ['unauthenticated', 'internal_error', 'database_unavailable', 'shutting_down'];

/** Rules the runtime checks that a JSON Schema cannot say (across fields, against stored data). */
function checksLine(checks: string[] | undefined): string | undefined {
  if (!checks?.length) return undefined;
  return `Checked beyond the schema (400 \`validation_failed\`, \`errors\` naming each field):\n${checks.map((c) => `- ${c}`).join('\n')}`;
}

/**
 * The documentation half of a route schema: operationId, summary, its description (given here, or
 * from the prose table in src/api/operation-docs), the checks the runtime makes
 * beyond the schema, its scope (from the one scope table) as an OpenAPI 3.1 security requirement,
 * and every problem it can answer.
 */
export function routeDoc(
  operationId: string,
  opts: { summary: string; tag: string; description?: string; errors?: ErrorToken[]; checks?: string[] },
) {
  const need = ROUTE_SCOPES[operationId];
  if (need === undefined) throw new Error(`${operationId} is missing from ROUTE_SCOPES`);
  const isPublic = need === 'public';
  const isAgent = need === 'agent';
  const scopeLine = isPublic
    ? 'Public: no API key.'
    : isAgent
      ? 'For the Vigil agent: authenticated with its agent token (`vgl_agt_…`), not an API key.'
      : `Scope: ${need.map((s) => `\`${s}\``).join(' or ')}.`;
  return {
    operationId,
    summary: opts.summary,
    tags: [opts.tag],
    description: [opts.description ?? OPERATION_DESCRIPTIONS[operationId], checksLine(opts.checks), scopeLine]
      .filter(Boolean)
      .join('\n\n'),
    security: isPublic ? [] : isAgent ? [{ agentToken: [] }] : [{ bearerAuth: [...need] }],
    errorResponses: problemResponses(
      ...(isPublic ? [] : isAgent ? AGENT_ERRORS : AUTHENTICATED_ERRORS),
      ...(opts.errors ?? []),
    ),
  };
}
