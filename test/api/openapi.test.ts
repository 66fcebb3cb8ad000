import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROUTE_SCOPES } from '../../src/api/route-scopes';
import { type ApiHarness, startApi } from '../support/api-harness';
import { routeCollector } from '../support/routes';

let api: ApiHarness;
let doc: any;
const collected = routeCollector();
beforeAll(async () => {
  api = await startApi({ onRoute: collected.onRoute });
  doc = (await api.request('GET', '/v1/openapi.json')).body;
});
afterAll(async () => api.close());

function operations(): { method: string; path: string; op: any }[] {
  return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path: p, op })),
  );
}

describe('OpenAPI document at /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document with info.version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const run = spawnSync(process.execPath, [path.join(__dirname, '..', 'support', 'validate-openapi.mjs')], {
      input: JSON.stringify(doc),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout);
    expect(result.errors).toBeNull();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
    const broken = spawnSync(process.execPath, [path.join(__dirname, '..', 'support', 'validate-openapi.mjs')], {
      input: JSON.stringify({ ...doc, info: undefined }),
      encoding: 'utf8',
    });
    expect(JSON.parse(broken.stdout).valid).toBe(false);
  });

  it('lists every route the API serves, and the scope table lists every operation', () => {
    const documented = new Set(operations().map((o) => `${o.method} ${o.path}`));
    const served = collected.routes.filter((r) => !r.hidden);
    expect(served.length).toBeGreaterThan(10);
    for (const r of served)
      expect([`${r.method} ${r.path}`, documented.has(`${r.method} ${r.path}`)]).toEqual([
        `${r.method} ${r.path}`,
        true,
      ]);
    const ids = operations().map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Object.keys(ROUTE_SCOPES).sort());
  });

  it('gives every operation an operationId, a summary, its scope and its problem responses', () => {
    for (const { method, path: p, op } of operations()) {
      const where = `${method} ${p}`;
      expect([where, typeof op.operationId]).toEqual([where, 'string']);
      expect([where, typeof op.summary]).toEqual([where, 'string']);
      const need = ROUTE_SCOPES[op.operationId];
      if (need === 'public') {
        expect([where, op.security]).toEqual([where, []]);
      } else if (need === 'agent') {
        expect([where, op.security]).toEqual([where, [{ agentToken: [] }]]);
        for (const status of ['401', '500']) {
          expect([where, status, Object.keys(op.responses[status]?.content ?? {})]).toEqual([
            where,
            status,
            ['application/problem+json'],
          ]);
        }
      } else {
        expect([where, op.security]).toEqual([where, [{ bearerAuth: need }]]);
        for (const status of ['401', '403', '429', '500']) {
          expect([where, status, Object.keys(op.responses[status]?.content ?? {})]).toEqual([
            where,
            status,
            ['application/problem+json'],
          ]);
        }
      }
    }
  });

  it('names the shared schemas as components', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Problem', 'Service', 'ServiceCreate', 'Customer']),
    );
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('says a maintenance window that has already ended is refused, and when a create answer warns', () => {
    const op = (id: string) => operations().find((o) => o.op.operationId === id)!.op;
    expect(op('createMaintenance').description).toMatch(
      /`scheduled_end_at` is in the future: a window that has already ended is refused/,
    );
    expect(op('updateMaintenance').description).toMatch(
      /`scheduled_end_at` is in the future \(a window cannot be moved into the past\)/,
    );
    for (const id of ['createMaintenance', 'createIncident']) {
      expect([id, op(id).description]).toEqual([id, expect.stringContaining('`shown_on_every_status_page`')]);
      const created = op(id).responses['201'].content['application/json'].schema;
      const schema = created.$ref ? doc.components.schemas[created.$ref.split('/').pop()] : created;
      expect([id, Object.keys(schema.properties)]).toEqual([id, expect.arrayContaining(['warnings'])]);
    }
  });

  it('documents the one-click alert links as public pages for people: the page on success, an error as a problem or, for a browser, the page', () => {
    const op = (id: string) => operations().find((o) => o.op.operationId === id)!;
    const expected = { getAlertActionLink: ['200', '400', '410'], useAlertActionLink: ['200', '400', '409', '410'] };
    for (const [id, statuses] of Object.entries(expected)) {
      const { path: p, op: o } = op(id);
      expect([id, p, o.security]).toEqual([id, '/v1/alert-actions/{token}', []]);
      expect([id, Object.keys(o.responses)]).toEqual([id, expect.arrayContaining(statuses)]);
      for (const [status, r] of Object.entries(o.responses as Record<string, { content?: object }>)) {
        expect([id, status, Object.keys(r.content ?? {}).sort()]).toEqual([
          id,
          status,
          status === '200' ? ['text/html'] : ['application/problem+json', 'text/html'],
        ]);
      }
    }
    expect(op('useAlertActionLink').op.responses['410'].description).toMatch(/`link_used`.*`link_expired`/s);
  });

  it('renders the API reference page', async () => {
    const page = await api.request('GET', '/v1/reference/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    const errors = await api.request('GET', '/docs/api/getting-started/errors');
    expect(errors.status).toBe(200);
    expect(errors.text).toContain('id="rate_limited"');
    const pricing = await api.request('GET', '/docs/pricing');
    expect(pricing.status).toBe(200);
    for (const plan of ['free', 'team', 'business', 'enterprise']) expect(pricing.text).toContain(`id="${plan}"`);
  });
});
