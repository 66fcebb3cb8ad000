import { PROBES } from '../probes/registry';
import { VigilAgent } from './agent';
import { AgentClock } from './clock';
import { loadCustomProbesFromEnv } from './custom-probes';
import { OtlpReceiver } from './otlp-receiver';
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
  // Push sources live on the agent: the OTLP/HTTP JSON receiver (off with VIGIL_OTLP_DISABLE=true)
  // and custom probe functions (VIGIL_CUSTOM_PROBES_MODULE). otlp and custom metrics read them.
  const otlp = new OtlpReceiver({ log });
  const otlpPort = await otlp.start().then(
    (r) => r.port,
    (err) => {
      log('error', 'the OTLP receiver could not start; otlp metrics answer push_source_init_failed', {
        error: String(err),
      });
      return null;
    },
  );
  const customProbes = await loadCustomProbesFromEnv();
  // Test only: VIGIL_AGENT_CLOCK_OFFSET_MS pretends this host's clock is that far off (ms, negative: behind),
  // so tests can run the real agent on a "wrong" clock. Never set it in production: the agent corrects
  // for a wrong host clock on its own (see AgentClock).
  const skewMs = Number(process.env.VIGIL_AGENT_CLOCK_OFFSET_MS ?? 0);
  const clock = new AgentClock(Number.isFinite(skewMs) ? skewMs : 0);
  const agent = new VigilAgent({
    apiUrl,
    token,
    registry: PROBES,
    log,
    otlp: otlpPort === null && otlp.disabled ? null : otlp,
    customProbes,
    clock,
    onFatal: () => process.exit(1),
  });
  const { agentId } = await agent.start();
  log('info', `vigil-agent ${AGENT_VERSION} running`, {
    agent_id: agentId,
    otlp_port: otlpPort,
    custom_probes: [...customProbes.keys()],
  });
  const stop = () => {
    Promise.all([agent.stop(), otlp.stop()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
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
