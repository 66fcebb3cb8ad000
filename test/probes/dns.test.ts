import dgram from 'node:dgram';
import { dnsProbe } from '../../src/probes/dns';
import { agentContext, cloudContext, probeConfig } from '../support/probe-net-kit';
import { type Dnsmasq, freeUdpPort, startDnsmasq } from '../support/probe-dnsmasq';

/**
 * A real dnsmasq (see probe-dnsmasq.ts for its zone). Not covered: ESERVFAIL (dnsmasq never
 * answers SERVFAIL for local data, and a fake upstream is not allowed here), dns_error, and the
 * host's own resolver (its answers depend on the machine's network).
 */
const config = (raw: Record<string, unknown>) => probeConfig('dns', raw);

let dnsmasq: Dnsmasq;
let silent: dgram.Socket;
let silentResolver: string;

beforeAll(async () => {
  dnsmasq = await startDnsmasq();
  // A UDP socket that reads queries and never answers: a resolver lost on the way.
  silent = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  silentResolver = `127.0.0.1:${silent.address().port}`;
});

afterAll(async () => {
  silent?.close();
  await dnsmasq?.stop();
});

describe('dns probe', () => {
  it('measures the resolve time in ms of an A record', async () => {
    const outcome = await dnsProbe(config({ name: 'probe.test', resolver: dnsmasq.resolver }), agentContext());
    expect(outcome).toMatchObject({ unit: 'ms', reason: null, value_description: 'DNS A resolve time' });
    expect(outcome.value).toBeGreaterThanOrEqual(0);
    expect(outcome.value).toBeLessThan(1000);
  });

  it.each([
    ['A', 'probe.test', '127.0.0.9'],
    ['AAAA', 'www.probe.test', '0:0::10'],
    ['CNAME', 'alias.probe.test', 'WWW.probe.test.'],
    ['MX', 'probe.test', 'mail.probe.test'],
    ['MX', 'probe.test', '10 mail.probe.test.'],
    ['TXT', 'probe.test', 'v=vigil1'],
    ['NS', 'probe.test', 'ns1.probe.test'],
    ['SRV', '_sip._tcp.probe.test', '10 20 5060 sip.probe.test'],
    ['SRV', '_sip._tcp.probe.test', 'sip.probe.test'],
    ['CAA', 'probe.test', 'letsencrypt.org'],
    ['CAA', 'probe.test', '0 issue "letsencrypt.org"'],
  ])('finds expected_value among the %s answers for %s (%s)', async (record_type, name, expected_value) => {
    const outcome = await dnsProbe(
      config({ name, record_type, expected_value, resolver: dnsmasq.resolver }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ unit: 'ms', reason: null, value_description: `DNS ${record_type} resolve time` });
  });

  it('answers expected_value_mismatch when the value is not among the answers', async () => {
    const outcome = await dnsProbe(
      config({ name: 'probe.test', expected_value: '127.0.0.1', resolver: dnsmasq.resolver }),
      agentContext(),
    );
    expect(outcome).toEqual({
      value: null,
      unit: null,
      value_description: null,
      reason: 'expected_value_mismatch',
      metadata: { record_type: 'A', answers: 1 },
    });
  });

  it('compares TXT values exactly', async () => {
    const outcome = await dnsProbe(
      config({ name: 'probe.test', record_type: 'TXT', expected_value: 'V=VIGIL1', resolver: dnsmasq.resolver }),
      agentContext(),
    );
    expect(outcome.reason).toBe('expected_value_mismatch');
  });

  it('answers ENOTFOUND for a name that does not exist (NXDOMAIN)', async () => {
    const outcome = await dnsProbe(config({ name: 'gone.nx.test', resolver: dnsmasq.resolver }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'ENOTFOUND' });
  });

  it('answers ENODATA for a name without records of the type', async () => {
    const outcome = await dnsProbe(
      config({ name: 'v4.local.test', record_type: 'AAAA', resolver: dnsmasq.resolver }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ENODATA' });
  });

  it('answers EREFUSED when the resolver refuses the query', async () => {
    // dnsmasq with --no-resolv has nowhere to forward names it does not hold: it answers REFUSED.
    const outcome = await dnsProbe(config({ name: 'example.com', resolver: dnsmasq.resolver }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'EREFUSED' });
  });

  it('answers ETIMEDOUT when the resolver never answers', async () => {
    // The resolver never answers: only the timeout can end the query, so the reason is the proof.
    const outcome = await dnsProbe(
      config({ name: 'probe.test', resolver: silentResolver, timeout_ms: 300 }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
  });

  it('answers ETIMEDOUT when the runner aborts ctx.signal', async () => {
    const outcome = await dnsProbe(
      config({ name: 'probe.test', resolver: silentResolver }),
      agentContext({ signal: AbortSignal.timeout(200) }),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ETIMEDOUT' });
  });

  it('answers ECONNREFUSED when nothing listens on the resolver port', async () => {
    // On 127.0.0.1 the kernel answers ICMP port unreachable at once, so this is not a timeout.
    const outcome = await dnsProbe(
      config({ name: 'probe.test', resolver: `127.0.0.1:${await freeUdpPort()}`, timeout_ms: 1000 }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: null, reason: 'ECONNREFUSED' });
  });

  describe('in cloud mode', () => {
    it('answers resolver_not_public for a loopback resolver, checked through checkAddress', async () => {
      const ctx = cloudContext();
      const outcome = await dnsProbe(config({ name: 'probe.test', resolver: '127.0.0.1' }), ctx);
      expect(outcome).toMatchObject({ value: null, reason: 'resolver_not_public', metadata: { block: 'loopback' } });
      expect(ctx.checked).toEqual([['127.0.0.1', '127.0.0.1']]);
    });

    it('answers invalid_resolver for a resolver on a port other than 53', async () => {
      const outcome = await dnsProbe(
        config({ name: 'probe.test', resolver: dnsmasq.resolver }),
        cloudContext({ allowLoopback: true }),
      );
      expect(outcome).toMatchObject({ value: null, reason: 'invalid_resolver', metadata: { port: dnsmasq.port } });
    });
  });
});
