import { PROBES } from '../probes/registry';
import { VigilAgent } from './agent';
import { AGENT_VERSION } from './version';

/** `vigil-agent`: VIGIL_API_URL (the API's base, e.g. https://vigil.example.com) and VIGIL_AGENT_TOKEN. */
export async function main(): Promise<void> {
  const apiUrl = process.env.VIGIL_API_URL;
  const token = process.env.VIGIL_AGENT_TOKEN;
  if (!apiUrl || !token) {
    console.error('vigil-agent: set VIGIL_API_URL (e.g. https://vigil.example.com) and VIGIL_AGENT_TOKEN (vgl_agt_…)');
    process.exit(2);
  }
  const log = (level: string, msg: string, extra?: Record<string, unknown>) =>
    process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...extra })}\n`);
  const agent = new VigilAgent({ apiUrl, token, registry: PROBES, log });
  const { agentId } = await agent.start();
  log('info', `vigil-agent ${AGENT_VERSION} running`, { agent_id: agentId });
  const stop = () => {
    agent.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`vigil-agent: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
