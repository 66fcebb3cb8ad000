import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ProblemError } from '../../src/domain/error-catalog';
import { MAX_JSON_DEPTH, jsonBodyPlugin, jsonDepth } from '../../src/api/plugins/json-body';

describe('jsonDepth', () => {
  it('counts the deepest nesting of arrays and objects, ignoring brackets inside strings', () => {
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[","b":[]}')).toBe(2);
    expect(jsonDepth('[[],[[]],[]]')).toBe(3);
    expect(jsonDepth('"x"')).toBe(0);
  });
});

describe('the JSON body parser at the nesting limit', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    // The API's own body parser on a bare Fastify: what a route receives, or the problem it never sees.
    app = Fastify();
    await app.register(jsonBodyPlugin);
    app.setErrorHandler((err, _req, reply) => {
      if (err instanceof ProblemError) return reply.code(err.status).send({ title: err.token, detail: err.message });
      return reply.code(500).send({ title: 'unexpected', detail: String(err) });
    });
    app.post('/echo', async (req) => ({ received: req.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/echo`;
  });
  afterAll(async () => app.close());

  /** An object whose value is nested `depth` levels deep in all (the outer object counts as one). */
  const nested = (depth: number) => `{"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  const post = async (body: string) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { statusCode: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('passes a body nested exactly as deep as the limit through to the route, parsed', async () => {
    expect(jsonDepth(nested(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
    const res = await post(nested(MAX_JSON_DEPTH));
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.body.received)).toBe(nested(MAX_JSON_DEPTH));
  });

  it('refuses a body one level deeper with 400 invalid_json naming the limit, before the route runs', async () => {
    const res = await post(nested(MAX_JSON_DEPTH + 1));
    expect([res.statusCode, res.body]).toEqual([
      400,
      { title: 'invalid_json', detail: `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.` },
    ]);
  });

  it('refuses hostile nesting far past the limit', async () => {
    const res = await post(nested(200_000));
    expect([res.statusCode, res.body.title]).toEqual([400, 'invalid_json']);
  });
});
