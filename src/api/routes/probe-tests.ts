import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ProbeTestRunner } from '../../temporal/probe-test-runner';
import type { ProbeTestJob } from '../../db/entities';
import { createProbeTestJob, getProbeTestJob, isFinal, loadJob } from '../../usecases/probe-tests/jobs';
import type { LocalProbeJobs } from '../../usecases/probe-tests/local-jobs';
import { presentJob } from '../../usecases/probe-tests/present';
import { parseProbeTestRequest } from '../../usecases/probe-tests/request';
import type { JobWaiter } from '../job-waiter';
import { routeDoc } from '../route-doc';
import { JobIdParams, ProbeTestPendingSchema, ProbeTestRequestSchema, ProbeTestResultSchema } from '../schemas/probe-tests';

const tag = 'Probe tests';

/** How long a cloud test waits for its answer before also asking Temporal whether the workflow failed. */
const RESULT_WATCH_AFTER_MS = 250;

/** Calls `f` after `ms` unless canceled first (the promise then never settles). */
function later<T>(ms: number, f: () => Promise<T>): { promise: Promise<T>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => f().then(resolve, reject), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

export interface ProbeTestRouteOptions {
  runner: ProbeTestRunner;
  waiter: JobWaiter;
  /** How long an agent has to answer (spec: 2 minutes; shorter in tests). */
  expiryMs: number;
  /** When a worker runs in this process: cloud jobs handed to it, and their results handed back, directly. */
  localJobs?: LocalProbeJobs;
}

export const probeTestRoutes: FastifyPluginAsyncZod<ProbeTestRouteOptions> = async (app, opts) => {
  {
    const { errorResponses, ...doc } = routeDoc('testProbe', {
      summary: 'Run a probe once, storing nothing',
      tag,
      description: [
        'Runs the probe on an agent (`agent_id`) or, for a public HTTP check (`http`, or its deprecated alias `mtls_http`), from the cloud. Nothing is stored: no metric, no sample, no status change, no event. Agent tests wait up to `wait_seconds` and answer 202 with `poll` if the agent has not answered yet; the agent must answer within 2 minutes.',
        'Checks run in one order and the first that fails answers. After the API key, its scope and the organization\'s API rate limit (`rate_limited`), the body: ' +
          '`invalid_json` → `invalid_agent_id` → `invalid_source_type` / `unsupported_source_type` → `invalid_probe_config` → `invalid_thresholds` → `invalid_wait_seconds`; ' +
          'then whether the test can run: `agent_not_found` / `agent_unavailable` (without `agent_id`, `reason` `no_agent` for every type but `http` and `mtls_http`), `queue_full` (agent tests), and last the probe-test limit, `rate_limited` (counted last, so a refused test never uses up the minute). ' +
          'A cloud test of a non-public target is refused once the prober has checked it (`agent_unavailable`, `private_url` true).',
        'Unknown top-level fields are ignored (`source_config` keeps its own additional properties). A body that is not JSON, whatever its `Content-Type`, is `invalid_json`.',
      ].join('\n\n'),
      errors: [
        'invalid_json',
        'invalid_agent_id',
        'invalid_source_type',
        'unsupported_source_type',
        'invalid_probe_config',
        'invalid_thresholds',
        'invalid_wait_seconds',
        'agent_not_found',
        'agent_unavailable',
        'queue_full',
        'probe_test_failed',
        'probe_test_expired',
      ],
    });
    app.post(
      '/metrics/test',
      // The body is read by parseProbeTestRequest, which answers the spec's own tokens (§7.2): the
      // schema's verdict is attached, never answered, so this route cannot answer validation_failed.
      // A body Fastify cannot read as JSON is invalid_json here, not 415 (§4.1 has no 415).
      { attachValidation: true, config: { unreadableBody: 'invalid_json' }, schema: { ...doc, body: ProbeTestRequestSchema, response: { 200: ProbeTestResultSchema, 202: ProbeTestPendingSchema, ...errorResponses } } },
      async (request, reply) => {
        const ctx = request.orgContext();
        const req = parseProbeTestRequest(request.body);
        const job = await createProbeTestJob(ctx, req, opts.expiryMs);
        // A cloud test answers once its probe has run (bounded by the job's expiry); an agent
        // test waits up to wait_seconds, then answers 202 with `poll`.
        const deadline = job.mode === 'cloud' ? job.expiresAt.getTime() : Date.now() + req.waitSeconds * 1000;
        const watch = opts.waiter.watchJob(job.id);
        const local = job.mode === 'cloud' ? opts.localJobs?.offer(job) : undefined;
        let current = job;
        let cancelFailureWatch: (() => void) | undefined;
        try {
          const { completion } = await opts.runner.run(job);
          // A failed cloud workflow never finishes the job: its error is the answer (500). Asking
          // Temporal for the result is a long poll per test, so only a test still unanswered after
          // a moment asks; most have answered by then.
          const failureWatch = completion ? later(RESULT_WATCH_AFTER_MS, completion) : null;
          cancelFailureWatch = failureWatch?.cancel;
          let settled = failureWatch?.promise.then(
            () => ({ err: null }),
            (err: unknown) => ({ err }),
          );
          let handedBack = local?.finished.then((finished: ProbeTestJob) => ({ finished }));
          // wait_seconds 0 asks not to wait: the answer is the queued job (202 with `poll`), even when
          // a quick agent has already answered by now.
          const waits = job.mode === 'cloud' || req.waitSeconds > 0;
          // A cloud job was created running a moment ago, and the watch has seen every change since.
          let known = job.mode === 'cloud';
          while (waits) {
            if (!known) current = (await loadJob(request.em.fork(), job.id)) ?? current;
            known = false;
            if (isFinal(current, new Date()) || Date.now() >= deadline) break;
            const woke = await Promise.race([watch.next(deadline - Date.now()).then((kinds) => ({ kinds })), ...(settled ? [settled] : []), ...(handedBack ? [handedBack] : [])]);
            if ('kinds' in woke) {
              // The cloud job's own insert (state running) tells nothing new: no re-read for it.
              known = job.mode === 'cloud' && woke.kinds.length > 0 && woke.kinds.every((k) => k === 'running');
            } else if ('finished' in woke) {
              current = woke.finished;
              known = true;
              handedBack = undefined;
            } else {
              if (woke.err) throw woke.err;
              settled = undefined;
            }
          }
        } finally {
          watch.close();
          local?.withdraw();
          cancelFailureWatch?.();
        }
        const answer = presentJob(current, new Date());
        reply.code(answer.status);
        return answer.body;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getProbeTest', {
      summary: 'Poll a probe test',
      tag,
      description: '200 with the result; 202 while pending or running; 502 probe_test_failed; 504 probe_test_expired once 2 minutes have passed without an answer.',
      errors: ['not_found', 'agent_unavailable', 'probe_test_failed', 'probe_test_expired'],
    });
    app.get('/metrics/test/:job_id', { schema: { ...doc, params: JobIdParams, response: { 200: ProbeTestResultSchema, 202: ProbeTestPendingSchema, ...errorResponses } } }, async (request, reply) => {
      const answer = presentJob(await getProbeTestJob(request.orgContext(), request.params.job_id), new Date());
      reply.code(answer.status);
      return answer.body;
    });
  }
};
