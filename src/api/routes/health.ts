import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeDoc } from '../route-doc';

export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

const CheckResult = z.object({ status: z.enum(['ok', 'failing']), error: z.string().optional() });
const Readiness = z.object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), CheckResult) });

async function run(probe: ReadinessProbe, timeoutMs: number): Promise<z.infer<typeof CheckResult>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe.check(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]);
    return { status: 'ok' };
  } catch (err) {
    return { status: 'failing', error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncZod<{ probes: ReadinessProbe[] }> = async (app, opts) => {
  {
    const { errorResponses: _e, ...doc } = routeDoc('getHealth', {
      summary: 'Liveness: the process is up',
      tag: 'Health',
    });
    app.get('/healthz', { schema: { ...doc, response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({
      status: 'ok' as const,
    }));
  }
  {
    const { errorResponses: _e, ...doc } = routeDoc('getReadiness', {
      summary: 'Readiness: the database and Temporal answer',
      tag: 'Health',
    });
    app.get(
      '/readyz',
      { schema: { ...doc, response: { 200: Readiness, 503: Readiness } } },
      async (_request, reply) => {
        const results = await Promise.all(opts.probes.map(async (p) => [p.name, await run(p, 2000)] as const));
        const checks = Object.fromEntries(results);
        const ready = results.every(([, r]) => r.status === 'ok');
        return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
      },
    );
  }
};
