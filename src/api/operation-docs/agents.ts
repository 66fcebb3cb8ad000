import { prose } from './prose';

/** What the operations of src/api/routes/agents.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listAgents: prose('Newest first, each with its status (online, offline, never_connected, revoked) and version.'),
  registerAgent: prose(
    'Answers the agent token once (`vgl_agt_…`); only its hash is stored. Run `vigil-agent` inside ',
    'your network with VIGIL_AGENT_TOKEN set to it.',
  ),
  revokeAgent: prose('Its token stops working at once; it stays listed as revoked.'),
};
