import net from 'node:net';
import { type TestableSourceType, type SourceConfigOf, validateSourceConfig } from '../../src/domain/source-config';
import { type ProbeContext, ProbeFailure } from '../../src/probes/types';

/** Shared bits of the tcp, tls_cert, dns and icmp probe tests. */

/** `raw` through the real source_config schema, so defaults are filled in as in production. */
export function probeConfig<T extends TestableSourceType>(type: T, raw: Record<string, unknown>): SourceConfigOf<T> {
  const parsed = validateSourceConfig(type, raw);
  if (!parsed.ok) throw new Error(`invalid test config: ${JSON.stringify(parsed.errors)}`);
  return parsed.config;
}

/** Success paths get 20 s: on the loaded 2-core CI machine a loopback TLS handshake once took over 10 s. */
export function agentContext(over: Partial<ProbeContext> = {}): ProbeContext {
  return {
    env: () => undefined,
    mode: 'agent',
    signal: new AbortController().signal,
    defaultTimeoutMs: 20_000,
    ...over,
  };
}

/**
 * A cloud context whose checkAddress refuses loopback (127.0.0.0/8, ::1) like the prober does —
 * unless `allowLoopback`, for the tests that must reach a local target in cloud mode. `checked`
 * records every (host, address) pair it saw.
 */
export function cloudContext(
  opts: { allowLoopback?: boolean } = {},
): ProbeContext & { checked: Array<[string, string]> } {
  const checked: Array<[string, string]> = [];
  return {
    ...agentContext(),
    mode: 'cloud',
    checked,
    checkAddress(host, address) {
      checked.push([host, address]);
      if (opts.allowLoopback) return;
      if (address === '::1' || (net.isIPv4(address) && address.startsWith('127.')))
        throw new ProbeFailure('target_not_public:loopback', { host, address });
    },
  };
}

/** Listens on 127.0.0.1, a free port; answers the port. */
export async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}

/** Closes a server (dropping keep-alive connections of an HTTP one); a server that is not listening is left as it is. */
export async function close(server: net.Server | undefined): Promise<void> {
  if (!server?.listening) return;
  (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A 127.0.0.1 TCP port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await close(server);
  return port;
}
