import ipaddr from 'ipaddr.js';

const v4 = (hi: number, lo: number): ipaddr.IPv4 =>
  ipaddr.fromByteArray([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]) as ipaddr.IPv4;

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
    // Local-use NAT64 (RFC 8215) is never routed publicly: whatever it carries, it leads into
    // someone's own network. Its /96 layout still names the carried address's reason first.
    if (v6.parts[0] === 0x64 && v6.parts[1] === 0xff9b && v6.parts[2] === 1) {
      const [, , , a, b, c, d, e] = v6.parts;
      return (a === 0 && b === 0 && c === 0 ? ipv4Reason(v4(d!, e!)) : null) ?? 'private';
    }
    const embedded = embeddedIPv4s(v6);
    // An address that carries an IPv4 address reaches whatever that address reaches: any
    // non-public one refuses it; carrying only public ones, it is public.
    if (embedded.length > 0) return embedded.map(ipv4Reason).find((r) => r !== null) ?? null;
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
  if (METADATA_V6.some((m) => ipaddr.parse(m).toNormalizedString() === ip.toNormalizedString()))
    return 'cloud_metadata';
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

/**
 * The IPv4 addresses an IPv6 address embeds: IPv4-compatible `::/96` (ipaddr.js calls it unicast;
 * `::` and `::1` keep their own meaning), IPv4-mapped `::ffff:0:0/96`, IPv4-translated
 * `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96` (local-use `64:ff9b:1::/48` is refused in
 * nonPublicReason), 6to4 `2002::/16`, Teredo `2001::/32` (the
 * client, stored inverted) and ISATAP interface ids (`…:0:5efe:a.b.c.d`, `…:200:5efe:a.b.c.d`).
 */
function embeddedIPv4s(ip: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = ip.parts;
  const last = v4(p[6]!, p[7]!);
  if (ip.isIPv4MappedAddress()) return [ip.toIPv4Address()];
  const range = ip.range();
  if (range === 'loopback' || range === 'unspecified') return [];
  if (p.slice(0, 6).every((x) => x === 0)) return [last];
  if (range === '6to4') return [v4(p[1]!, p[2]!)];
  if (range === 'teredo') return [v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  if (range === 'rfc6052' || range === 'rfc6145') return [last];
  if ((p[4] === 0 || p[4] === 0x200) && p[5] === 0x5efe) return [last];
  return [];
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
