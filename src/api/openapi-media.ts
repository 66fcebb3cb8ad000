/**
 * Operations whose 200 answer is not JSON: the zod provider documents every response as
 * application/json, so the document is corrected here to the media type the route sends.
 */
const RESPONSE_MEDIA: Readonly<Record<string, { mediaType: string; schema: Record<string, unknown> }>> = {
  getErrorCatalog: { mediaType: 'text/html', schema: { type: 'string' } },
  getPricing: { mediaType: 'text/html', schema: { type: 'string' } },
  getSlaVerificationGuide: { mediaType: 'text/html', schema: { type: 'string' } },
  getSlaStatementSignature: {
    mediaType: 'application/jose',
    schema: { type: 'string', description: 'Compact detached JWS: <header>..<signature>' },
  },
  getSlaStatementHtml: { mediaType: 'text/html', schema: { type: 'string' } },
  getSlaStatementPdf: { mediaType: 'application/pdf', schema: { type: 'string', format: 'binary' } },
  getSlaStatementEvidence: { mediaType: 'text/csv', schema: { type: 'string' } },
  getConfigSchema: {
    mediaType: 'application/schema+json',
    schema: { type: 'object', description: 'JSON Schema (draft 2020-12) of configuration documents' },
  },
};

/**
 * Pages for people under /v1 (the one-click alert links, src/api/human-page.ts): a success is the
 * page; an error is the page for a client that asks for HTML, a problem for any other.
 */
const HUMAN_PAGES: ReadonlySet<string> = new Set(['getAlertActionLink', 'useAlertActionLink']);
const PROBLEM = { $ref: '#/components/schemas/Problem' };

/** Operations that read or answer YAML too, beside JSON (the document schema is the same). */
const YAML_TOO: Readonly<Record<string, 'request' | 'response'>> = {
  applyConfig: 'request',
  exportConfig: 'response',
};

type Content = Record<string, unknown>;
type Operation = {
  operationId?: string;
  requestBody?: { content?: Content };
  responses?: Record<string, { content?: Content }>;
};

function addYaml(content: Content | undefined, description: string): void {
  const json = content?.['application/json'] as { schema?: unknown } | undefined;
  if (content && json) content['application/yaml'] = { schema: { type: 'string', description } };
}

export function declareResponseMediaTypes<T extends object>(input: T): T {
  const paths = (input as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const yaml = op.operationId ? YAML_TOO[op.operationId] : undefined;
      if (yaml === 'request') addYaml(op.requestBody?.content, 'The same document as YAML');
      if (yaml === 'response') addYaml(op.responses?.['200']?.content, 'The same document as YAML');
      if (op.operationId && HUMAN_PAGES.has(op.operationId)) {
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          const html = { 'text/html': { schema: { type: 'string' } } };
          r.content = status.startsWith('2')
            ? html
            : { 'application/problem+json': r.content?.['application/problem+json'] ?? { schema: PROBLEM }, ...html };
        }
        continue;
      }
      const media = op.operationId ? RESPONSE_MEDIA[op.operationId] : undefined;
      const ok = op.responses?.['200'];
      if (!media || !ok) continue;
      ok.content = { [media.mediaType]: { schema: media.schema } };
    }
  }
  return input;
}
