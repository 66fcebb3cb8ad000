import { icmpProbe, pingWith } from '../../src/probes/icmp';
import { agentContext, cloudContext, probeConfig } from '../support/probe-net-kit';
import { BLACKHOLE_IP, type PingWrappers, makePingWrappers } from '../support/probe-ping-wrappers';

/**
 * The real system ping against 127.0.0.1, and the same binary run unprivileged or inside network
 * namespaces (see probe-ping-wrappers.ts) for the failures.
 */
const config = (raw: Record<string, unknown>) => probeConfig('icmp', raw);

let wrappers: PingWrappers;

beforeAll(() => {
  wrappers = makePingWrappers();
});

afterAll(() => wrappers?.cleanup());

describe('icmp probe', () => {
  it('measures the average round trip in ms by default (count 3)', async () => {
    const outcome = await icmpProbe(config({ host: '127.0.0.1' }), agentContext());
    expect(outcome).toMatchObject({ unit: 'ms', reason: null, value_description: 'Ping average round trip' });
    expect(outcome.value).toBeGreaterThan(0);
    expect(outcome.value).toBeLessThan(100);
  });

  it('measures packet_loss in % (0 on loopback)', async () => {
    const outcome = await icmpProbe(
      config({ host: '127.0.0.1', count: 2, interpretation: 'packet_loss' }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: 0, unit: '%', reason: null });
  });

  it('measures reachability as 1 when a reply came', async () => {
    const outcome = await icmpProbe(
      config({ host: 'localhost', count: 1, interpretation: 'reachability' }),
      agentContext(),
    );
    expect(outcome).toMatchObject({ value: 1, unit: null, reason: null });
  });

  it('answers icmp_dns_failed for a name that does not resolve', async () => {
    const outcome = await icmpProbe(config({ host: 'no-such-host.invalid', count: 1 }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'icmp_dns_failed' });
  });

  it('answers icmp_unavailable when there is no ping binary', async () => {
    const outcome = await pingWith(wrappers.missing)(config({ host: '127.0.0.1', count: 1 }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'icmp_unavailable', metadata: { code: 'ENOENT' } });
  });

  it('answers icmp_privilege_denied when ping lacks the raw-socket capability', async () => {
    const outcome = await pingWith(wrappers.unprivileged)(config({ host: '127.0.0.1', count: 1 }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'icmp_privilege_denied' });
  });

  describe('when every echo request is lost', () => {
    const lost = { host: BLACKHOLE_IP, count: 1, timeout_ms: 1000 };

    it('answers icmp_all_timeout for latency', async () => {
      const outcome = await pingWith(wrappers.isolated)(config(lost), agentContext());
      expect(outcome).toMatchObject({ value: null, reason: 'icmp_all_timeout', metadata: { transmitted: 1 } });
    });

    it('measures packet_loss 100', async () => {
      const outcome = await pingWith(wrappers.isolated)(
        config({ ...lost, interpretation: 'packet_loss' }),
        agentContext(),
      );
      expect(outcome).toMatchObject({ value: 100, unit: '%', reason: null });
    });

    it('measures reachability 0', async () => {
      const outcome = await pingWith(wrappers.isolated)(
        config({ ...lost, interpretation: 'reachability' }),
        agentContext(),
      );
      expect(outcome).toMatchObject({ value: 0, unit: null, reason: null });
    });

    it('stops ping when ctx.signal aborts and reads the statistics so far', async () => {
      const started = performance.now();
      const outcome = await pingWith(wrappers.isolated)(
        config({ host: BLACKHOLE_IP, count: 5, interpretation: 'packet_loss' }),
        agentContext({ signal: AbortSignal.timeout(300) }),
      );
      expect(outcome).toMatchObject({ value: 100, unit: '%', reason: null });
      // The bound is the feature: 5 pings a second apart to a blackhole take over 4 s unless the abort stops ping;
      // kept, generous below that (was 2 s).
      expect(performance.now() - started).toBeLessThan(3_500);
    });
  });

  it("answers icmp_error with ping's message for any other failure (network unreachable)", async () => {
    const outcome = await pingWith(wrappers.offline)(config({ host: '127.0.0.1', count: 1 }), agentContext());
    expect(outcome).toMatchObject({ value: null, reason: 'icmp_error', metadata: { exit_code: 2 } });
    expect(outcome.metadata?.message).toMatch(/Network is unreachable/);
  });

  describe('in cloud mode', () => {
    it('refuses a loopback IP through checkAddress', async () => {
      const outcome = await icmpProbe(config({ host: '127.0.0.1', count: 1 }), cloudContext());
      expect(outcome).toMatchObject({ value: null, reason: 'target_not_public:loopback' });
    });

    it('refuses a hostname that resolves to loopback', async () => {
      const ctx = cloudContext();
      const outcome = await icmpProbe(config({ host: 'localhost', count: 1 }), ctx);
      expect(outcome).toMatchObject({ value: null, reason: 'target_not_public:loopback' });
      expect(ctx.checked[0]?.[0]).toBe('localhost');
    });

    it('pings the checked address when checkAddress lets it pass', async () => {
      const ctx = cloudContext({ allowLoopback: true });
      const outcome = await icmpProbe(config({ host: '127.0.0.1', count: 1, interpretation: 'reachability' }), ctx);
      expect(outcome).toMatchObject({ value: 1, reason: null });
      expect(ctx.checked).toEqual([['127.0.0.1', '127.0.0.1']]);
    });

    it('answers icmp_dns_failed when the name does not resolve', async () => {
      const outcome = await icmpProbe(config({ host: 'no-such-host.invalid', count: 1 }), cloudContext());
      expect(outcome).toMatchObject({ value: null, reason: 'icmp_dns_failed' });
    });

    it('answers icmp_unavailable_on_prober without a usable ping', async () => {
      const ctx = cloudContext({ allowLoopback: true });
      expect(await pingWith(wrappers.missing)(config({ host: '127.0.0.1', count: 1 }), ctx)).toMatchObject({
        reason: 'icmp_unavailable_on_prober',
      });
      expect(await pingWith(wrappers.unprivileged)(config({ host: '127.0.0.1', count: 1 }), ctx)).toMatchObject({
        reason: 'icmp_unavailable_on_prober',
      });
    });
  });
});
