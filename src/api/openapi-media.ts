/**
 * Operations whose 200 answer is not JSON: the zod provider documents every response as
 * application/json, so the document is corrected here to the media type the route sends.
 */
const RESPONSE_MEDIA: Readonly<Record<string, { mediaType: string; schema: Record<string, unknown> }>> = {
  getErrorCatalog: { mediaType: 'text/html', schema: { type: 'string' } },
  getPricing: { mediaType: 'text/html', schema: { type: 'string' } },
  getSlaStatementSignature: { mediaType: 'application/jose', schema: { type: 'string', description: 'Compact detached JWS: <header>..<signature>' } },
  getSlaStatementHtml: { mediaType: 'text/html', schema: { type: 'string' } },
  getSlaStatementPdf: { mediaType: 'application/pdf', schema: { type: 'string', format: 'binary' } },
  getSlaStatementEvidence: { mediaType: 'text/csv', schema: { type: 'string' } },
};

type Operation = { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> };

export function declareResponseMediaTypes<T extends object>(input: T): T {
  const paths = (input as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const media = op.operationId ? RESPONSE_MEDIA[op.operationId] : undefined;
      const ok = op.responses?.['200'];
      if (!media || !ok) continue;
      ok.content = { [media.mediaType]: { schema: media.schema } };
    }
  }
  return input;
}
