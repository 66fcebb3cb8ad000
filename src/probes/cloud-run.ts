import { runsAs } from '../domain/source-types';
import { cloudAddressCheck } from './cloud-guard';
import { cloudResolver } from './cloud-resolver';
import { type ProbeRegistry, type RunOptions, runProbe } from './run-probe';

/** How the cloud prober runs (the worker's CLOUD_PROBE_* settings). */
export interface ProberDeps {
  registry: ProbeRegistry;
  /** CLOUD_PROBE_ALLOW_CIDRS: addresses the cloud prober may reach although not public (tests only). */
  allowCidrs?: string;
  /** CLOUD_PROBE_RESOLVER: the DNS server the cloud prober asks (ip or ip:port); the system's when empty. */
  resolver?: string;
  defaultTimeoutMs: number;
  /** VIGIL_PROBE_SOURCE_ADDRESS: the location's outgoing sockets bind to it (see sourceAddressFor). */
  localAddress?: string;
}

/**
 * One probe from the cloud, for probe tests and scheduled cloud metrics alike: no secrets (every
 * `*_ref` resolves to nothing), public addresses only, 30 s at most. A deprecated alias (spec §9)
 * runs as the type it aliases (`runsAs`: `mtls_http` is `http`, the same probe and config), so it
 * gets the same hosted-check rules (name checks, address guard).
 */
export function runCloudProbe(prober: ProberDeps, sourceType: string, config: unknown): ReturnType<typeof runProbe> {
  const options: RunOptions = {
    mode: 'cloud',
    env: () => undefined,
    defaultTimeoutMs: prober.defaultTimeoutMs,
    deadlineMs: 30_000,
    checkAddress: cloudAddressCheck(prober.allowCidrs),
    ...(prober.resolver ? { resolveHost: cloudResolver(prober.resolver), resolverServer: prober.resolver } : {}),
    ...(prober.localAddress ? { localAddress: prober.localAddress } : {}),
  };
  return runProbe(prober.registry, runsAs(sourceType), config, options);
}
