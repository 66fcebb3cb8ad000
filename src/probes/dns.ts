import { isIP } from 'node:net';
import { Resolver } from 'node:dns/promises';
import type { SourceConfigOf } from '../domain/source-config';
import { answersInclude, queryAnswers } from './dns-answers';
import { checkedResolver, parseResolver, resolverServer } from './dns-resolver';
import { sourceAddressFor } from './source-address';
import { elapsedMs } from './errors';
import { failureOutcome } from './failure-outcome';
import { probeDeadline } from './probe-deadline';
import { type Probe, measured, noValue } from './types';

/**
 * DNS resolve time in ms: one query of `record_type` (default A) for `name`, sent to `resolver`
 * (ip or ip:port) or else the host's resolvers (/etc/resolv.conf), one try, no retries. With
 * `expected_value`, the value must be among the answers (see answersInclude), else
 * expected_value_mismatch. Failures: ENOTFOUND (NXDOMAIN), ENODATA, ESERVFAIL, EREFUSED,
 * ETIMEDOUT, ECONNREFUSED (nothing on the resolver's port), else dns_error. In cloud mode the
 * resolver must be a public IP on port 53 (invalid_resolver, resolver_not_public), the name gets
 * the hosted-check name rules (host_internal, host_not_fqdn, invalid_host: run-probe.ts) and,
 * without a configured resolver, the prober's own resolver answers when CLOUD_PROBE_RESOLVER is set.
 */
export const dnsProbe: Probe<SourceConfigOf<'dns'>> = async (config, ctx) => {
  const timeoutMs = config.timeout_ms ?? ctx.defaultTimeoutMs;
  const type = config.record_type ?? 'A';
  const deadline = probeDeadline(ctx, timeoutMs);
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  try {
    if (config.resolver !== undefined) {
      const server = checkedResolver(config.resolver, ctx);
      resolver.setServers([resolverServer(server)]);
      bindResolver(resolver, server.ip, ctx.localAddress);
    }
    // In the cloud, a check without its own resolver asks the prober's (CLOUD_PROBE_RESOLVER), as http does.
    else if (ctx.mode === 'cloud' && ctx.resolverServer) {
      resolver.setServers([ctx.resolverServer]);
      const server = parseResolver(ctx.resolverServer);
      if (server) bindResolver(resolver, server.ip, ctx.localAddress);
    }
    const startedAt = performance.now();
    const answers = await deadline.race(queryAnswers(resolver, config.name, type));
    const ms = elapsedMs(startedAt);
    if (config.expected_value !== undefined && !answersInclude(answers, config.expected_value, type)) {
      return noValue('expected_value_mismatch', { record_type: type, answers: answers.length });
    }
    return measured(ms, 'ms', `DNS ${type} resolve time`);
  } catch (err) {
    return failureOutcome(err, 'dns_error');
  } finally {
    resolver.cancel(); // a query the deadline cut short
    deadline.done();
  }
};

/** The location's source address (VIGIL_PROBE_SOURCE_ADDRESS) for queries to `server`; the system's resolver is asked from the system's choice. */
function bindResolver(resolver: Resolver, server: string, source: string | undefined): void {
  const local = sourceAddressFor(server, source);
  if (!local) return;
  if (isIP(local) === 4) resolver.setLocalAddress(local);
  else resolver.setLocalAddress('0.0.0.0', local);
}
