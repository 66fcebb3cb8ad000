import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { compiledBuildEnv } from '../support/env';

/**
 * `vigil config plan|apply|export` (src/cli/config-command.ts) as a user runs it: bin/vigil.js in
 * a child process against the real API on loopback. The children are spawned asynchronously: the
 * API they call runs in this very process.
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'vigil.js');

interface Run {
  code: number | null;
  out: string;
  err: string;
  json: () => any;
}

function vigil(args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  const { VIGIL_URL: _url, VIGIL_API_KEY: _key, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...inherited, ...compiledBuildEnv(), ...opts.env },
    stdio: 'pipe',
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.stdin.end(opts.input ?? '');
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, json: () => JSON.parse(out) });
    });
  });
}

let api: ApiHarness;
let dir: string;

/** Runs `vigil config …` as `org`, through VIGIL_URL and VIGIL_API_KEY. */
function config(org: TestOrg, args: string[], input?: string): Promise<Run> {
  return vigil(['config', ...args], { env: { VIGIL_URL: api.baseUrl, VIGIL_API_KEY: org.key }, input });
}

function writeDoc(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const SERVICES = `services:
  - config_key: checkout
    name: Checkout
  - config_key: legacy
    name: Legacy
`;

const METRICS = `metrics:
  - config_key: orders
    service: checkout
    name: Orders
    source_type: manual
    source_config: {}
  - config_key: nightly-job
    service: checkout
    name: Nightly job
    source_type: heartbeat
    source_config: {}
    thresholds: { healthy_operation: under, healthy_value: 3600, unhealthy_operation: over, unhealthy_value: 7200 }
`;

const SLOS = `slos:
  - config_key: orders-availability
    name: Orders availability
    metric: orders
    objective: "99.9"
    window: { kind: rolling, days: 30 }
`;

const WEBHOOKS = `webhooks:
  - config_key: ops-hook
    url: https://hooks.example.com/vigil
    event_types: [incident.created, metric.status_changed]
  - config_key: plain-hook
    url: http://hooks.example.com/plain
    event_types: [incident.resolved]
`;

const DOCUMENT = `version: 1\n${SERVICES}${METRICS}${SLOS}`;

beforeAll(async () => {
  api = await startApi();
  dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-config-cli-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await api.close();
});

describe('vigil config', () => {
  it('plans (exit 2, a diff), applies (exit 0), then plans nothing (exit 0)', async () => {
    const org = await api.createOrg('business');
    const file = writeDoc('first.yaml', DOCUMENT);

    const plan = await config(org, ['plan', '--file', file]);
    expect([plan.code, plan.err]).toEqual([2, '']);
    expect(plan.out).toContain('+ service checkout\n    name: "Checkout"');
    expect(plan.out).toContain('+ metric nightly-job');
    expect(plan.out).toContain('    thresholds: {"healthy_operation":"under","healthy_value":3600,');
    expect(plan.out).toContain('+ slo orders-availability');
    expect(plan.out).toContain('Plan: 5 to create, 0 to update, 0 to delete, 0 unchanged.');
    expect(plan.out).not.toMatch(/\u001b\[/);
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(0);

    const apply = await config(org, ['apply', '--file', file]);
    expect([apply.code, apply.err]).toEqual([0, '']);
    expect(apply.out).toContain('Applied: 5 created, 0 updated, 0 deleted, 0 unchanged.');
    // The heartbeat's ping URL holds its token: shown once, like a webhook secret.
    expect(apply.out).toMatch(/shown once/);
    expect(apply.out).toMatch(/^ {2}nightly-job \(metric [0-9a-f-]{36}\): http\S+$/m);
    expect((await api.request('GET', '/v1/services', { key: org.key })).body.items).toHaveLength(2);

    const again = await config(org, ['plan', '--file', file]);
    expect([again.code, again.out.trim(), again.err]).toEqual([
      0,
      'No changes. The configuration matches the document.',
      '',
    ]);
    const reapply = await config(org, ['apply', '--file', file]);
    expect([reapply.code, reapply.out.trim()]).toEqual([0, 'No changes. The configuration matches the document.']);
    expect(reapply.out).not.toMatch(/shown once/);
  });

  it('shows an update as before → after and counts the unchanged items', async () => {
    const org = await api.createOrg('business');
    expect((await config(org, ['apply', '--file', writeDoc('base.yaml', DOCUMENT)])).code).toBe(0);
    const renamed = writeDoc('renamed.yaml', DOCUMENT.replace('name: Checkout', 'name: Checkout API'));
    const plan = await config(org, ['plan', '--file', renamed]);
    expect(plan.code).toBe(2);
    expect(plan.out).toContain('~ service checkout\n    name: "Checkout" → "Checkout API"');
    expect(plan.out).toContain('Plan: 0 to create, 1 to update, 0 to delete, 4 unchanged.');
    expect(plan.out).not.toContain('orders-availability');
  });

  it('exports to a YAML file that plans with no changes', async () => {
    const org = await api.createOrg('business');
    expect((await config(org, ['apply', '--file', writeDoc('to-export.yaml', DOCUMENT)])).code).toBe(0);
    const exported = path.join(dir, 'exported.yaml');
    const run = await config(org, ['export', '--file', exported]);
    expect([run.code, run.err]).toEqual([0, '']);
    const document = parseYaml(readFileSync(exported, 'utf8'));
    expect(document).toMatchObject({
      version: 1,
      services: expect.arrayContaining([expect.objectContaining({ config_key: 'checkout', name: 'Checkout' })]),
    });
    const plan = await config(org, ['plan', '--file', exported]);
    expect([plan.code, plan.out.trim()]).toEqual([0, 'No changes. The configuration matches the document.']);

    const json = await config(org, ['export', '--json']);
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      version: 1,
      metrics: expect.arrayContaining([expect.objectContaining({ config_key: 'orders' })]),
    });
  });

  it('refuses an invalid document (exit 1), listing every problem path', async () => {
    const org = await api.createOrg('business');
    const broken = writeDoc(
      'broken.yaml',
      `version: 1
services:
  - config_key: Not A Key
    name: Bad
metrics:
  - config_key: beat
    service: nowhere
    name: Beat
    source_type: heartbeat
    source_config: {}
`,
    );
    const run = await config(org, ['plan', '--file', broken]);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toMatch(/^error: config_invalid: /);
    expect(run.err).toMatch(/^ {2}services\[0\]\.config_key: /m);
    expect(run.err).toMatch(/^ {2}metrics\[0\]\.service: /m);
    expect(run.err).toMatch(/^ {2}metrics\[0\]\.thresholds/m);

    const json = await config(org, ['apply', '--file', broken, '--json']);
    expect(json.code).toBe(1);
    const problem = json.json();
    expect(problem.title).toBe('config_invalid');
    expect(problem.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['services[0].config_key', 'metrics[0].service']),
    );

    const yamlSyntax = await config(org, [
      'plan',
      '--file',
      writeDoc('syntax.yaml', 'version: 1\nservices: [unclosed\n'),
    ]);
    expect(yamlSyntax.code).toBe(1);
    expect(yamlSyntax.err).toMatch(/^error: config_invalid: /);
  });

  it('needs a URL and a key (usage, exit 2), and reports a wrong key or an unreachable API (exit 1)', async () => {
    const file = writeDoc('small.yaml', `version: 1\n${SERVICES}`);
    const noKey = await vigil(['config', 'plan', '--file', file], { env: { VIGIL_URL: api.baseUrl } });
    expect(noKey.code).toBe(2);
    expect(noKey.err).toMatch(/API key.*--api-key.*VIGIL_API_KEY/);
    const noUrl = await vigil(['config', 'plan', '--file', file, '--api-key', 'vgl_pub_x']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.err).toMatch(/--url.*VIGIL_URL/);
    const noFile = await vigil(['config', 'apply', '--url', api.baseUrl, '--api-key', 'k']);
    expect([noFile.code, noFile.err]).toEqual([2, expect.stringMatching(/--file is required/)]);

    const wrongKey = await vigil([
      'config',
      'plan',
      '--file',
      file,
      '--url',
      api.baseUrl,
      '--api-key',
      `vgl_pub_${'0'.repeat(40)}`,
    ]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.err).toMatch(/^error: unauthenticated/);

    const deadUrl = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = await vigil(['config', 'plan', '--file', file, '--url', deadUrl, '--api-key', 'k']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain(`cannot reach the Vigil API at ${deadUrl}`);
    const exportUnreachable = await vigil(['config', 'export', '--url', deadUrl, '--api-key', 'k']);
    expect([exportUnreachable.code, exportUnreachable.err]).toEqual([1, expect.stringContaining(deadUrl)]);
  });

  it('prints the answer as JSON with --json (exit codes unchanged), and reads a JSON document from stdin', async () => {
    const org = await api.createOrg('business');
    const json = JSON.stringify({ version: 1, services: [{ config_key: 'stdin-svc', name: 'From stdin' }] });
    const plan = await config(org, ['plan', '--file', '-', '--json'], json);
    expect(plan.code).toBe(2);
    expect(plan.json()).toMatchObject({
      dry_run: true,
      applied: false,
      changed: true,
      summary: { create: 1 },
      changes: [{ kind: 'service', config_key: 'stdin-svc', action: 'create', id: null }],
    });
    const apply = await config(org, ['apply', '--file', '-', '--json'], json);
    expect(apply.code).toBe(0);
    expect(apply.json()).toMatchObject({
      dry_run: false,
      applied: true,
      changed: true,
      changes: [{ action: 'create', id: expect.any(String) }],
    });
    const same = await config(org, ['plan', '--file', '-', '--json'], json);
    expect(same.code).toBe(0);
    expect(same.json()).toMatchObject({ changed: false, summary: { unchanged: 1 } });
  });

  it('with --prune deletes a service the document no longer lists', async () => {
    const org = await api.createOrg('business');
    expect((await config(org, ['apply', '--file', writeDoc('with-legacy.yaml', DOCUMENT)])).code).toBe(0);
    const without = writeDoc('without-legacy.yaml', DOCUMENT.replace('  - config_key: legacy\n    name: Legacy\n', ''));

    const kept = await config(org, ['plan', '--file', without]);
    expect([kept.code, kept.out.trim()]).toEqual([0, 'No changes. The configuration matches the document.']);

    const plan = await config(org, ['plan', '--file', without, '--prune']);
    expect(plan.code).toBe(2);
    expect(plan.out).toMatch(/^- service legacy$/m);
    expect(plan.out).toContain('Plan: 0 to create, 0 to update, 1 to delete, 4 unchanged.');
    const apply = await config(org, ['apply', '--file', without, '--prune']);
    expect(apply.code).toBe(0);
    expect(apply.out).toContain('Applied: 0 created, 0 updated, 1 deleted, 4 unchanged.');
    const names = (await api.request('GET', '/v1/services', { key: org.key })).body.items.map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(['Checkout']);
  });

  it("prints each created webhook's signing secret once, labelled, and warnings on stderr", async () => {
    const org = await api.createOrg('business');
    const file = writeDoc('hooks.yaml', `version: 1\n${WEBHOOKS}`);
    const plan = await config(org, ['plan', '--file', file]);
    expect(plan.code).toBe(2);
    expect(plan.out).not.toMatch(/whsec_/);
    expect(plan.err).toMatch(/^warning: webhooks\[1\]\.url: .*plain http/m);

    const apply = await config(org, ['apply', '--file', file]);
    expect(apply.code).toBe(0);
    expect(apply.err).toMatch(/^warning: webhooks\[1\]\.url: /m);
    expect(apply.out).toMatch(/shown once/);
    const secretLines = apply.out.split('\n').filter((line) => line.includes('whsec_'));
    expect(secretLines).toHaveLength(2);
    expect(secretLines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ {2}ops-hook \(webhook [0-9a-f-]{36}\): whsec_[A-Za-z0-9+/=]{32,}$/),
        expect.stringMatching(/^ {2}plain-hook \(webhook [0-9a-f-]{36}\): whsec_[A-Za-z0-9+/=]{32,}$/),
      ]),
    );

    const again = await config(org, ['apply', '--file', file]);
    expect(again.out).not.toMatch(/whsec_/);
  });
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
