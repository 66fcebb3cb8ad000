import { checkCloudHost, cloudAddressCheck } from '../../src/probes/cloud-guard';
import { nonPublicReason } from '../../src/probes/public-address';
import { ProbeFailure } from '../../src/probes/types';

describe('nonPublicReason: what the cloud prober refuses to probe', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud_metadata'],
    ['169.254.10.10', 'link_local'],
    ['100.100.100.200', 'cloud_metadata'],
    ['100.64.0.1', 'cgnat'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'cloud_metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.1.1', 'private'],
    ['::ffff:169.254.169.254', 'cloud_metadata'],
    ['2002:7f00:0001::', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['not-an-ip', 'invalid_address'],
  ])('%s is refused as %s', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '2002:0808:0808::',
  ])('%s is public', (address) => {
    expect(nonPublicReason(address)).toBeNull();
  });
});

describe('nonPublicReason: IPv6 forms that embed an IPv4 address are judged by it', () => {
  it.each([
    ['::7f00:1', 'loopback', 'IPv4-compatible ::/96 (ipaddr.js calls it unicast)'],
    ['::127.0.0.1', 'loopback', 'IPv4-compatible, dotted'],
    ['::a9fe:a9fe', 'cloud_metadata', 'IPv4-compatible metadata address'],
    ['::a00:1', 'private', 'IPv4-compatible private'],
    ['::ffff:7f00:1', 'loopback', 'IPv4-mapped, hex'],
    ['::ffff:0:7f00:1', 'loopback', 'IPv4-translated ::ffff:0:0:0/96'],
    ['64:ff9b::7f00:1', 'loopback', 'NAT64 64:ff9b::/96'],
    ['64:ff9b:1::7f00:1', 'loopback', 'local-use NAT64 64:ff9b:1::/48, /96 layout'],
    ['64:ff9b:1:808:8:800::', 'private', 'local-use NAT64 (never public, whatever it carries)'],
    ['64:ff9b:1::808:808', 'private', 'local-use NAT64 carrying a public address'],
    ['2002:a9fe:a9fe::1', 'cloud_metadata', '6to4 2002::/16'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', 'Teredo (client 127.0.0.1, inverted)'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private', 'Teredo (client 10.0.0.1, inverted)'],
    ['2a00:1450:4001:82b:0:5efe:a00:1', 'private', 'ISATAP interface id'],
    ['2a00:1450:4001:82b:200:5efe:7f00:1', 'loopback', 'ISATAP interface id, global bit'],
  ])('%s is refused as %s (%s)', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
  });

  it.each(['::808:808', '64:ff9b::808:808', '2002:808:808::', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '::1', '::'])(
    '%s is judged by what it carries',
    (address) => {
      // Embedding a public IPv4 address is public; ::1 and :: keep their own meaning.
      expect(nonPublicReason(address)).toBe(address === '::1' ? 'loopback' : address === '::' ? 'unspecified' : null);
    },
  );
});

describe('cloudAddressCheck', () => {
  const reasonOf = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(ProbeFailure);
      return (err as ProbeFailure).reason;
    }
  };

  it('throws target_not_public:<reason> for a non-public address, naming host and address', () => {
    const check = cloudAddressCheck(undefined);
    expect(reasonOf(() => check('evil.example.com', '127.0.0.1'))).toBe('target_not_public:loopback');
    expect(reasonOf(() => check('meta.example.com', '169.254.169.254'))).toBe('target_not_public:cloud_metadata');
    expect(reasonOf(() => check('ok.example.com', '8.8.8.8'))).toBeNull();
  });

  it('lets addresses of the explicit allow-list through (tests, development), and nothing else', () => {
    const check = cloudAddressCheck('127.0.0.0/8, ::1/128');
    expect(reasonOf(() => check('localhost', '127.0.0.1'))).toBeNull();
    expect(reasonOf(() => check('localhost', '::1'))).toBeNull();
    expect(reasonOf(() => check('localhost', '::ffff:127.0.0.1'))).toBeNull();
    expect(reasonOf(() => check('lan', '10.0.0.1'))).toBe('target_not_public:private');
  });

  it('refuses a malformed allow-list entry at start rather than allowing everything', () => {
    expect(() => cloudAddressCheck('127.0.0.0/99')).toThrow();
  });
});

describe('checkCloudHost', () => {
  const reasonOf = (host: string) => {
    try {
      checkCloudHost(host);
      return null;
    } catch (err) {
      return (err as ProbeFailure).reason;
    }
  };
  it.each([
    ['status.example.com', null],
    ['example.com.', null],
    ['93.184.215.14', null],
    ['[2606:4700::1111]', null],
    ['localhost', 'host_internal'],
    ['api.localhost', 'host_internal'],
    ['printer.local', 'host_internal'],
    ['metadata.google.internal', 'host_internal'],
    ['intranet', 'host_not_fqdn'],
    ['bad host.example.com', 'invalid_host'],
    ['-x.example.com', 'invalid_host'],
    ['', 'invalid_host'],
  ])('%s → %s', (host, reason) => {
    expect(reasonOf(host)).toBe(reason);
  });
});
