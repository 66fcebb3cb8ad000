import ipaddr from 'ipaddr.js';

/**
 * Why an address is not a public target for the cloud prober, or null when it is public. The
 * reason becomes `target_not_public:<reason>` (spec §7.3). IPv6 forms that embed an IPv4
 * address (mapped, 6to4, NAT64, Teredo) are judged by the address they carry.
 */
export function nonPublicReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return 'invalid_address';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const embedded = embeddedIPv4(v6);
    if (embedded) return ipv4Reason(embedded);
    return ipv6Reason(v6);
  }
  return ipv4Reason(parsed as ipaddr.IPv4);
}

/** Cloud metadata services answer on link-local and a few well-known private addresses. */
const METADATA_V4 = ['169.254.169.254', '169.254.170.2', '100.100.100.200', '192.0.0.192'];
const METADATA_V6 = ['fd00:ec2::254'];

function ipv4Reason(ip: ipaddr.IPv4): string | null {
  if (METADATA_V4.includes(ip.toString())) return 'cloud_metadata';
  switch (ip.range()) {
    case 'unicast':
      return null;
    case 'loopback':
      return 'loopback';
    case 'private':
      return 'private';
    case 'linkLocal':
      return 'link_local';
    case 'carrierGradeNat':
      return 'cgnat';
    case 'multicast':
      return 'multicast';
    case 'unspecified':
      return 'unspecified';
    case 'broadcast':
      return 'broadcast';
    default:
      // reserved, benchmarking, documentation ranges, 0.0.0.0/8, 240.0.0.0/4…
      return 'reserved';
  }
}

function ipv6Reason(ip: ipaddr.IPv6): string | null {
  if (METADATA_V6.some((m) => ipaddr.parse(m).toNormalizedString() === ip.toNormalizedString())) return 'cloud_metadata';
  switch (ip.range()) {
    case 'unicast':
      return null;
    case 'loopback':
      return 'loopback';
    case 'uniqueLocal':
      return 'private';
    case 'linkLocal':
      return 'link_local';
    case 'multicast':
      return 'multicast';
    case 'unspecified':
      return 'unspecified';
    default:
      return 'reserved';
  }
}

function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  const p = ip.parts;
  const range = ip.range();
  if (range === '6to4') return ipaddr.fromByteArray([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]) as ipaddr.IPv4;
  if (range === 'rfc6052' || range === 'rfc6145') return ipaddr.fromByteArray([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]) as ipaddr.IPv4;
  if (range === 'teredo') {
    // The client's address is stored inverted in the last 32 bits.
    return ipaddr.fromByteArray([(~p[6]! >> 8) & 0xff, ~p[6]! & 0xff, (~p[7]! >> 8) & 0xff, ~p[7]! & 0xff]) as ipaddr.IPv4;
  }
  return null;
}

/** A list of CIDRs (`127.0.0.0/8,::1/128`); throws on a malformed entry. */
export function parseCidrList(text: string | undefined): [ipaddr.IPv4 | ipaddr.IPv6, number][] {
  if (!text?.trim()) return [];
  return text.split(',').map((c) => ipaddr.parseCIDR(c.trim()));
}

export function inCidrs(address: string, cidrs: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][]): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.process(address);
  } catch {
    return false;
  }
  return cidrs.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits));
}
