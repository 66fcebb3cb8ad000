import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCloudProbe } from '../../src/probes/cloud-run';
import { PROBES } from '../../src/probes/registry';
import { temporalProbeTestRunner } from '../../src/temporal/probe-test-runner';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type Dnsmasq, startDnsmasq } from '../support/probe-dnsmasq';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

/**
 * The cloud prober end to end, through POST /v1/metrics/test, with the real address guard: only
 * 127.0.0.1 is allow-listed (the target the tests need), and the prober resolves names with a real
 * dnsmasq in which probe.test is 127.0.0.9 — a public-looking name that points at loopback.
 */
let dns: Dnsmasq;
let h: TemporalHarness;
let api: ApiHarness;
let org: OrgFixture;
let target: http.Server;
let port: number;

beforeAll(async () => {
  dns = await startDnsmasq();
  h = await startTemporalHarness({ cloudAllowCidrs: '127.0.0.1/32', cloudResolver: dns.resolver });
  api = await startApi({ probeTestRunner: temporalProbeTestRunner(h.temporal) });
  org = await orgWithKeys(api);
  target = http.createServer((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) res.writeHead(302, { location: to }).end();
    else res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  target.closeAllConnections();
  await new Promise((r) => target.close(r));
  await api.close();
  await h.close();
  await dns.stop();
});

const cloudTest = (url: string) =>
  org.call('POST', '/v1/metrics/test', { source_type: 'http', source_config: { url } });

describe('cloud probe tests refuse non-public targets (SSRF)', () => {
  it('reaches the allow-listed target (the control)', async () => {
    const res = await cloudTest(`http://127.0.0.1:${port}/ok`);
    expect(res.body).toMatchObject({ mode: 'cloud', reason: null, unit: 'ms' });
  });

  it('refuses a DNS name that resolves to loopback', async () => {
    const res = await cloudTest(`http://probe.test:${port}/ok`);
    expect(res.body).toMatchObject({ status: 409, title: 'agent_unavailable', reason: 'no_agent', private_url: true });
    expect(res.body.detail).toContain('target_not_public:loopback');
  });

  it('refuses a redirect to a private address, and a redirect to a name that resolves to loopback', async () => {
    for (const to of [
      'http://10.9.8.7/admin',
      'http://[fd00::1]/',
      `http://probe.test:${port}/ok`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const res = await cloudTest(`http://127.0.0.1:${port}/r?to=${encodeURIComponent(to)}`);
      expect([to, res.status, res.body.title, res.body.private_url]).toEqual([to, 409, 'agent_unavailable', true]);
    }
  });

  it('refuses internal names before anything resolves; credentials and unknown names are measured failures', async () => {
    for (const url of [
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://intranet/',
      'http://printer.local/',
    ]) {
      const res = await cloudTest(url);
      expect([url, res.status, res.body.title, res.body.private_url]).toEqual([url, 409, 'agent_unavailable', true]);
    }
    const creds = await cloudTest(`http://127.0.0.1:${port}/r?to=${encodeURIComponent('http://user:pw@127.0.0.1/')}`);
    expect(creds.body).toMatchObject({ value: null, reason: 'url_credentials_not_allowed' });
    const nx = await cloudTest('http://nothing.nx.test/');
    expect(nx.body).toMatchObject({ value: null, reason: 'dns_failed' });
  });
});

describe('cloud dns metrics get the same host rules as http', () => {
  // The prober as the worker runs scheduled cloud metrics: the same settings as this file's harness.
  const cloudDns = (config: Record<string, unknown>) =>
    runCloudProbe(
      { registry: PROBES, allowCidrs: '127.0.0.1/32', resolver: dns.resolver, defaultTimeoutMs: 5_000 },
      'dns',
      config,
    );

  it('refuses internal and single-label names before anything resolves them', async () => {
    for (const name of [
      'metadata.google.internal',
      'metadata.google.internal.',
      'printer.local',
      'localhost',
      'metadata',
      'intranet',
    ]) {
      const o = await cloudDns({ name });
      expect([name, o.value, o.reason]).toEqual([name, null, name === 'intranet' ? 'host_not_fqdn' : 'host_internal']);
    }
  });

  it("asks the prober's own resolver (CLOUD_PROBE_RESOLVER), not the system's, when the check names none", async () => {
    // probe.test exists only in the prober's dnsmasq; the system resolver does not know it.
    const o = await cloudDns({ name: 'probe.test', expected_value: '127.0.0.9' });
    expect(o).toMatchObject({ reason: null, unit: 'ms' });
  });
});
