import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { type ApiHarness, startApi } from '../support/api-harness';
import { compiledBuildEnv, testDatabaseUrl } from '../support/env';
import { eventually } from '../support/eventually';

const BIN = path.join(__dirname, '..', '..', 'bin', 'vigil.js');

function vigil(...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...compiledBuildEnv(), DATABASE_URL: testDatabaseUrl() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr, json: () => JSON.parse(run.stdout) };
}

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('vigil command-line tool', () => {
  it('creates an organization whose key works against the API, mints scoped keys and revokes them', async () => {
    const created = vigil('org', 'create', '--name', 'Acme', '--plan', 'team', '--json');
    expect([created.code, created.err]).toEqual([0, '']);
    const { organization_id, api_key } = created.json();
    expect(organization_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(api_key).toMatch(/^vgl_pub_[0-9A-Za-z]{40}$/);
    expect(
      (await api.request('POST', '/v1/services', { key: api_key, body: { name: 'made with the CLI key' } })).status,
    ).toBe(201);

    const scoped = vigil('key', 'create', '--org', organization_id, '--scopes', 'read:metrics', '--json');
    expect(scoped.code).toBe(0);
    const { api_key: readKey, api_key_id } = scoped.json();
    expect((await api.request('GET', '/v1/services', { key: readKey })).status).toBe(200);
    expect((await api.request('POST', '/v1/services', { key: readKey, body: { name: 'x' } })).body.title).toBe(
      'forbidden',
    );

    const listed = vigil('key', 'list', '--org', organization_id, '--json').json();
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(readKey);

    expect(vigil('key', 'revoke', api_key_id, '--json').code).toBe(0);
    await eventually(async () => {
      const revoked = await api.request('GET', '/v1/services', { key: readKey });
      expect([revoked.status, revoked.body.detail]).toEqual([401, expect.stringMatching(/revoked/)]);
    }, 1000);
  });

  it('mints a key that expires (--expires in days or as an instant), lists when, and the API refuses it afterwards', async () => {
    const { organization_id } = vigil('org', 'create', '--name', 'Expiring', '--plan', 'team', '--json').json();
    const before = Date.now();
    const quarter = vigil('key', 'create', '--org', organization_id, '--name', 'ci', '--expires', '90d', '--json');
    expect([quarter.code, quarter.err]).toEqual([0, '']);
    const in90 = Date.parse(quarter.json().expires_at) - before;
    expect(in90).toBeGreaterThanOrEqual(90 * 86_400_000);
    expect(in90).toBeLessThan(90 * 86_400_000 + 60_000);

    // Long enough for three CLI processes to start on a loaded machine before it expires.
    const soon = new Date(Date.now() + 20_000).toISOString();
    const short = vigil(
      'key',
      'create',
      '--org',
      organization_id,
      '--scopes',
      'read:metrics',
      '--expires',
      soon,
      '--json',
    );
    expect(short.json()).toMatchObject({ expires_at: soon });
    const { api_key, api_key_id } = short.json();
    expect((await api.request('GET', '/v1/services', { key: api_key })).status).toBe(200);
    const human = vigil('key', 'list', '--org', organization_id);
    expect(human.out).toContain(`${api_key_id}  ${api_key.slice(0, 12)}…  active until ${soon}`);
    const listed = vigil('key', 'list', '--org', organization_id, '--json').json() as {
      api_key_id: string;
      expires_at: string | null;
    }[];
    expect(listed.find((k) => k.api_key_id === api_key_id)?.expires_at).toBe(soon);
    expect(listed.filter((k) => k.expires_at === null)).toHaveLength(1); // the organization's first key never expires

    await eventually(
      async () => {
        const refused = await api.request('GET', '/v1/services', { key: api_key });
        expect([refused.status, refused.body.detail]).toEqual([401, `The API key expired at ${soon}.`]);
      },
      30_000,
      500,
    );
    expect(vigil('key', 'list', '--org', organization_id).out).toContain(
      `${api_key_id}  ${api_key.slice(0, 12)}…  expired`,
    );

    for (const [value, message] of [
      ['2020-01-01T00:00:00Z', /--expires must be in the future \(2020-01-01T00:00:00.000Z is not\)/],
      ['0d', /--expires must be in the future/],
      ['tomorrow', /--expires takes days from now \(90d\) or an instant with its offset/],
      ['2027-01-31T00:00:00', /--expires takes days from now/], // no offset: which zone is meant?
    ] as const) {
      const bad = vigil('key', 'create', '--org', organization_id, '--expires', value);
      expect([value, bad.code, bad.err]).toEqual([value, 2, expect.stringMatching(message)]);
    }
    expect(vigil('key', 'list', '--org', organization_id, '--json').json()).toHaveLength(3);
  }, 60_000);

  it('changes an organization plan: a downgrade to free closes the API', async () => {
    const { organization_id, api_key } = vigil(
      'org',
      'create',
      '--name',
      'Shrinking',
      '--plan',
      'business',
      '--json',
    ).json();
    const updated = vigil('org', 'update', '--org', organization_id, '--plan', 'free', '--json');
    expect(updated.json()).toMatchObject({ plan: 'free' });
    await eventually(
      async () =>
        expect((await api.request('GET', '/v1/services', { key: api_key })).body.title).toBe(
          'plan_does_not_permit_api',
        ),
      1000,
    );
  });

  it('refuses bad input with a message and a non-zero exit code', () => {
    const badPlan = vigil('org', 'create', '--name', 'X', '--plan', 'platinum', '--json');
    expect(badPlan.code).toBe(1);
    expect(badPlan.err).toMatch(/Unknown plan "platinum"/);
    const missing = vigil('org', 'create', '--plan', 'team');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--name is required/);
    const badScope = vigil('key', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--scopes', 'admin:all');
    expect(badScope.code).toBe(2);
    expect(badScope.err).toMatch(/Unknown scope/);
    expect(vigil('frobnicate').code).toBe(2);
    expect(vigil('key', 'revoke', '00000000-0000-4000-8000-000000000000').code).toBe(1);
    const notUuid = vigil('key', 'revoke', 'nope');
    expect([notUuid.code, notUuid.err.trim()]).toEqual([1, 'No API key nope.']);
  });
});
