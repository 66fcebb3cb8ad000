import { isIP } from 'node:net';
import { inCidrs, nonPublicReason, parseCidrList } from './public-address';
import { ProbeFailure } from './types';

const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.lan', '.home.arpa', '.corp'];

/**
 * Refuses hostnames that cannot name a public target before anything resolves them: not a
 * valid name (`invalid_host`), a single label (`host_not_fqdn`), or an internal name
 * (`host_internal`). IP literals pass here and are judged by `checkAddress`.
 */
export function checkCloudHost(host: string): void {
  const h = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(h)) return;
  if (!/^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(h) || h.length > 253)
    throw new ProbeFailure('invalid_host', { host });
  if (h === 'localhost' || INTERNAL_SUFFIXES.some((s) => h.endsWith(s)) || h === 'metadata')
    throw new ProbeFailure('host_internal', { host });
  if (!h.includes('.')) throw new ProbeFailure('host_not_fqdn', { host });
}

/** One check per allow-list: a location runs it for every probe, and parsing the list (ipaddr throws on the way for IPv4 ranges) cost more than the check. */
const checks = new Map<string, (host: string, address: string) => void>();

/**
 * The cloud prober's address check (ProbeContext.checkAddress): every address a probe is about
 * to connect to must be public, unless it lies in `allowCidrs` — CLOUD_PROBE_ALLOW_CIDRS, empty
 * by default, set only by tests and development setups that probe loopback targets.
 */
export function cloudAddressCheck(allowCidrs: string | undefined): (host: string, address: string) => void {
  const key = allowCidrs ?? '';
  let check = checks.get(key);
  if (!check) {
    const allowed = parseCidrList(allowCidrs);
    check = (host, address) => {
      if (inCidrs(address, allowed)) return;
      const reason = nonPublicReason(address);
      if (reason) throw new ProbeFailure(`target_not_public:${reason}`, { host, address });
    };
    checks.set(key, check);
  }
  return check;
}
