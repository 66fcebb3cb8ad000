import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ProbeTestDeps, pollProbeTest, runProbeTest } from '../../usecases/probe-tests/run';
import { CLOUD_TESTABLE_SOURCE_TYPES, sourceTypeRow } from '../../domain/source-types';
import { routeDoc } from '../route-doc';
import {
  JobIdParams,
  ProbeTestPendingSchema,
  ProbeTestRequestSchema,
  ProbeTestResultSchema,
} from '../schemas/probe-tests';

const tag = 'Probe tests';

/** The types a probe test runs from the cloud, named as the source-type table says. */
const cloudTypes = CLOUD_TESTABLE_SOURCE_TYPES.map((t) =>
  sourceTypeRow(t)?.runsAs ? `\`${t}\`, a deprecated alias of \`${sourceTypeRow(t)!.runsAs}\`` : `\`${t}\``,
).join(', ');

export const probeTestRoutes: FastifyPluginAsyncZod<{ deps: ProbeTestDeps }> = async (app, opts) => {
  {
    const { errorResponses, ...doc } = routeDoc('testProbe', {
      summary: 'Run a probe once, storing nothing',
      tag,
      description: [
        `Runs the probe on an agent (\`agent_id\`) or, for a public HTTP check (${cloudTypes}), from the cloud. Nothing is stored: no metric, no sample, no status change, no event. Agent tests wait up to \`wait_seconds\` and answer 202 with \`poll\` if the agent has not answered yet; the agent must answer within 2 minutes.`,
        "Checks run in one order and the first that fails answers. After the API key, its scope and the organization's API rate limit (`rate_limited`), the body: " +
          '`invalid_json` → `invalid_agent_id` → `invalid_source_type` / `unsupported_source_type` → `invalid_probe_config` → `invalid_thresholds` → `invalid_wait_seconds`; ' +
          'then whether the test can run: `agent_not_found` / `agent_unavailable` (without `agent_id`, `reason` `no_agent` for every type the cloud does not test), `queue_full` (agent tests), and last the probe-test limit, `rate_limited` (counted last, so a refused test never uses up the minute). ' +
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
      {
        attachValidation: true,
        config: { unreadableBody: 'invalid_json' },
        schema: {
          ...doc,
          body: ProbeTestRequestSchema,
          response: { 200: ProbeTestResultSchema, 202: ProbeTestPendingSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const answer = await runProbeTest(request.orgContext(), opts.deps, request.body);
        reply.code(answer.status);
        return answer.body;
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getProbeTest', {
      summary: 'Poll a probe test',
      tag,
      errors: ['not_found', 'agent_unavailable', 'probe_test_failed', 'probe_test_expired'],
    });
    app.get(
      '/metrics/test/:job_id',
      {
        schema: {
          ...doc,
          params: JobIdParams,
          response: { 200: ProbeTestResultSchema, 202: ProbeTestPendingSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const answer = await pollProbeTest(request.orgContext(), request.params.job_id);
        reply.code(answer.status);
        return answer.body;
      },
    );
  }
};
