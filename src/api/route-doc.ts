import type { ErrorToken } from '../domain/error-catalog';
import { ROUTE_SCOPES } from './route-scopes';
import { AUTHENTICATED_ERRORS, problemResponses } from './schemas/common';

const AGENT_ERRORS: ErrorToken[] = ['unauthenticated', 'internal_error'];

/**
 * The documentation half of a route schema: operationId, summary, its scope (from the one scope
 * table) as an OpenAPI 3.1 security requirement, and every problem it can answer.
 */
export function routeDoc(operationId: string, opts: { summary: string; tag: string; description?: string; errors?: ErrorToken[] }) {
  const need = ROUTE_SCOPES[operationId];
  if (need === undefined) throw new Error(`${operationId} is missing from ROUTE_SCOPES`);
  const isPublic = need === 'public';
  const isAgent = need === 'agent';
  const scopeLine = isPublic ? 'Public: no API key.' : isAgent ? 'For the Vigil agent: authenticated with its agent token (`vgl_agt_…`), not an API key.' : `Scope: ${need.map((s) => `\`${s}\``).join(' or ')}.`;
  return {
    operationId,
    summary: opts.summary,
    tags: [opts.tag],
    description: [opts.description, scopeLine].filter(Boolean).join('\n\n'),
    security: isPublic ? [] : isAgent ? [{ agentToken: [] }] : [{ bearerAuth: [...need] }],
    errorResponses: problemResponses(...(isPublic ? [] : isAgent ? AGENT_ERRORS : AUTHENTICATED_ERRORS), ...(opts.errors ?? [])),
  };
}
