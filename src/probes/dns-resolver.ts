import { isIP } from 'node:net';
import type { ProbeContext } from './types';
import { ProbeFailure } from './types';

export interface ResolverAddress {
  ip: string;
  port: number;
}

/** `192.0.2.53`, `192.0.2.53:5353`, `2001:db8::53` or `[2001:db8::53]:5353`; null otherwise. */
export function parseResolver(text: string): ResolverAddress | null {
  if (isIP(text)) return { ip: text, port: 53 };
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (!m) return null;
  const ip = m[1] ?? m[2]!;
  const port = Number(m[3]);
  const family = isIP(ip);
  if (port < 1 || port > 65_535 || family === 0 || (family === 6) !== (m[1] !== undefined)) return null;
  return { ip, port };
}

/** The server string node:dns `setServers` takes. */
export function resolverServer({ ip, port }: ResolverAddress): string {
  if (port === 53) return ip;
  return isIP(ip) === 6 ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/**
 * The configured resolver, checked: `dns_resolver_invalid` when it does not parse; in cloud
 * mode `invalid_resolver` unless it is an IP on port 53, and `resolver_not_public` when
 * ctx.checkAddress refuses its IP (metadata `block` names why).
 */
export function checkedResolver(text: string, ctx: ProbeContext): ResolverAddress {
  const resolver = parseResolver(text);
  if (ctx.mode !== 'cloud') {
    if (!resolver) throw new ProbeFailure('dns_resolver_invalid');
    return resolver;
  }
  if (!resolver || resolver.port !== 53)
    throw new ProbeFailure('invalid_resolver', resolver ? { port: resolver.port } : undefined);
  if (!ctx.checkAddress) throw new Error('Cloud probes need ctx.checkAddress');
  try {
    ctx.checkAddress(resolver.ip, resolver.ip);
  } catch (err) {
    if (!(err instanceof ProbeFailure)) throw err;
    const block = err.reason.startsWith('target_not_public:')
      ? err.reason.slice('target_not_public:'.length)
      : err.reason;
    throw new ProbeFailure('resolver_not_public', { block });
  }
  return resolver;
}
