import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CATALOG } from '../../domain/error-catalog';
import { reasonCatalog } from '../../domain/reason-catalog';
import { markdownToHtml } from '../../render/markdown';
import { documentCsp } from '../document-csp';
import { routeDoc } from '../route-doc';
import { renderPricing } from './pricing';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page problem `type` URLs point to, rendered from the error catalog. */
export function renderErrorCatalog(): string {
  const rows = Object.entries(ERROR_CATALOG)
    .map(
      ([token, e]) =>
        `<tr id="${token}"><td><a href="#${token}"><code>${token}</code></a></td><td>${e.status}</td><td>${escapeHtml(e.summary).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vigil API errors</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}td,th{padding:.4rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}tr:target{background:#fff6cc}</style></head>
<body><h1>Errors</h1><p>Every error is <code>application/problem+json</code> (RFC 7807). Branch on <code>title</code>, the stable token; <code>detail</code> is for people.</p>
<table><thead><tr><th>title</th><th>status</th><th>meaning</th></tr></thead><tbody>
${rows}
</tbody></table></body></html>`;
}

/** The reasons catalog as a page: every code a `no_data` reading may carry, with its class, label and hint. */
export function renderReasonCatalog(): string {
  const catalog = reasonCatalog();
  const code = (c: string) => `<code>${escapeHtml(c)}</code>`;
  const rows = Object.entries(catalog.codes)
    .map(
      ([c, e]) =>
        `<tr id="${escapeHtml(c)}"><td>${code(c)}</td><td>${e.reason_class}</td><td>${escapeHtml(e.reason_label)}</td><td>${escapeHtml(e.reason_hint).replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
    )
    .join('\n');
  const variable = Object.entries(catalog.variable)
    .map(
      ([p, e]) =>
        `<tr id="${escapeHtml(p)}"><td>${code(`${p}:…`)}</td><td>${e.reason_class}</td><td colspan="2">e.g. ${code(e.example)}: ${escapeHtml(e.reason_label)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vigil reason codes</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}td,th{padding:.4rem .6rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}tr:target{background:#fff6cc}</style></head>
<body><h1>Reason codes</h1><p>Why a metric is <code>no_data</code>. Class <code>target</code>: the target did not answer as configured, which counts as down for availability; class <code>measurement</code>: Vigil could not measure, a gap in the evidence (never up, never down). Machine-readable: <a href="/docs/reasons.json">/docs/reasons.json</a>.</p>
<table><thead><tr><th>reason</th><th>reason_class</th><th>reason_label</th><th>reason_hint</th></tr></thead><tbody>
${rows}
${variable}
</tbody></table></body></html>`;
}

/** docs/sla-verification.md from src/api/routes (development) or dist/src/api/routes (a build; the image copies docs/ beside dist/). */
function guideFile(): string {
  const candidates = [
    path.join(__dirname, '..', '..', '..', 'docs', 'sla-verification.md'),
    path.join(__dirname, '..', '..', '..', '..', 'docs', 'sla-verification.md'),
  ];
  return candidates.find((f) => existsSync(f)) ?? candidates[0]!;
}

/**
 * docs/sla-verification.md as a page: the guide every SLA statement links to, for customers and
 * auditors (public, no key). Read once at start.
 */
export function renderSlaVerificationGuide(file = guideFile()): string {
  const body = markdownToHtml(readFileSync(file, 'utf8'));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Verifying an SLA statement</title>
<style>body{font:15px/1.55 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328}pre{background:#f6f8fa;padding:.75rem;overflow-x:auto}code{font:13px/1.4 ui-monospace,monospace}table{border-collapse:collapse}td,th{padding:.4rem .6rem;border-bottom:1px solid #d0d7de;text-align:left;vertical-align:top}a{color:#0550ae}</style></head>
<body><main>
${body}
</main></body></html>`;
}

export const docsRoutes: FastifyPluginAsyncZod<{ openapi: () => unknown }> = async (app, opts) => {
  {
    const { errorResponses: _e, ...doc } = routeDoc('getOpenApi', {
      summary: 'This OpenAPI 3.1 document',
      tag: 'Docs',
    });
    const OpenApiDocument = z.looseObject({ openapi: z.literal('3.1.0') }).describe('This document');
    app.get('/v1/openapi.json', { schema: { ...doc, response: { 200: OpenApiDocument } } }, async (_request, reply) =>
      reply.type('application/json').send(opts.openapi() as z.infer<typeof OpenApiDocument>),
    );
  }
  {
    const { errorResponses: _e, ...doc } = routeDoc('getErrorCatalog', {
      summary: 'The error catalog problem types point to',
      tag: 'Docs',
    });
    const html = renderErrorCatalog();
    app.get(
      '/docs/api/getting-started/errors',
      { schema: { ...doc, response: { 200: z.string() } } },
      async (_request, reply) => reply.type('text/html; charset=utf-8').send(html),
    );
  }
  {
    const { errorResponses: _e, ...doc } = routeDoc('getSlaVerificationGuide', {
      summary: 'How to verify an SLA statement (the guide statements link to)',
      tag: 'Docs',
    });
    const html = renderSlaVerificationGuide();
    const csp = documentCsp(html);
    app.get('/docs/sla-verification', { schema: { ...doc, response: { 200: z.string() } } }, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', csp)
        .header('cache-control', 'public, max-age=300')
        .send(html),
    );
  }
  {
    const { errorResponses: _e, ...doc } = routeDoc('getReasonCatalog', {
      summary: 'The reason codes of a no_data reading, with their class',
      tag: 'Docs',
    });
    const ReasonCatalog = z
      .object({
        codes: z.record(
          z.string(),
          z.object({
            reason_label: z.string(),
            reason_hint: z.string(),
            reason_class: z.enum(['target', 'measurement']),
          }),
        ),
        variable: z.record(
          z.string(),
          z.object({
            reason_class: z.enum(['target', 'measurement']),
            example: z.string(),
            reason_label: z.string(),
            reason_hint: z.string(),
          }),
        ),
        legacy: z.record(z.string(), z.string()),
      })
      .describe('The reasons catalog');
    const catalog = reasonCatalog();
    const html = renderReasonCatalog();
    app.get('/docs/reasons.json', { schema: { ...doc, response: { 200: ReasonCatalog } } }, async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send(catalog),
    );
    app.get('/docs/reasons', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=300').send(html),
    );
  }
  {
    const { errorResponses: _e, ...doc } = routeDoc('getPricing', {
      summary: 'The plans page upgrade links point to',
      tag: 'Docs',
    });
    const html = renderPricing();
    app.get('/docs/pricing', { schema: { ...doc, response: { 200: z.string() } } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(html),
    );
  }
};
