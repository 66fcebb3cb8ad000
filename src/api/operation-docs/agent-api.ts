import { prose } from './prose';

/** What the operations of src/api/routes/agent-api.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  agentHeartbeat: prose(
    'Reports the agent version and host; every 15 s. The answer’s `server_time` lets the agent stamp ',
    'samples in server time. A heartbeat with a new `session` (a new agent process) puts the jobs ',
    'the previous process took and never answered back in the queue.',
  ),
  pollAgentJobs: prose(
    'Answers at once with the jobs waiting for this agent (now running), or waits up to ',
    '`wait_seconds` for one.',
  ),
  getAgentConfig: prose(
    'Each with its source_config and interval; refetch when a long poll answers `config_changed: ',
    'true`.',
  ),
  postAgentSamples: prose(
    'A batch of the agent’s measurements (up to 5,000). Samples of metrics the agent does not run ',
    '(`unknown_metric`), samples stamped more than 60 s ahead of the server’s clock ',
    '(`sampled_in_future`) and samples older than `SAMPLE_MAX_AGE` (7 days by default: ',
    '`sampled_too_old`; older history comes in through POST /v1/metrics/{id}/samples/import) are ',
    'rejected one by one (listed in the answer with their reason); the others are stored.',
  ),
  postAgentJobResult: prose(
    'The probe outcome (value, unit, reason, duration) or the error that kept the agent from running ',
    'it. Repeats and late results are accepted and ignored.',
  ),
};
