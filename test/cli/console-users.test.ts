import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { ConsoleClient } from '../support/console-browser';
import { compiledBuildEnv, testDatabaseUrl } from '../support/env';

/** `vigil user …`: console users made, invited (a real .eml in the outbox folder), listed and disabled. */
const BIN = path.join(__dirname, '..', '..', 'bin', 'vigil.js');
const outbox = mkdtempSync(path.join(os.tmpdir(), 'vigil-console-mail-'));
const vigil = (...args: string[]) => {
  const { SMTP_URL: _smtp, ...env } = process.env;
  const run = spawnSync(process.execPath, [BIN, ...args], {
    env: {
      ...env,
      ...compiledBuildEnv(),
      DATABASE_URL: testDatabaseUrl(),
      MAIL_OUTBOX_DIR: outbox,
      PUBLIC_BASE_URL: api.baseUrl,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr, json: () => JSON.parse(run.stdout) };
};

let api: ApiHarness;
let org: TestOrg;
beforeAll(async () => {
  api = await startApi();
  org = await api.createOrg('business', 'CLI console org');
});
afterAll(async () => api.close());

describe('vigil user', () => {
  it('creates a user and invites them by email with a link that signs in once', async () => {
    const created = vigil(
      'user',
      'create',
      '--org',
      org.id,
      '--email',
      'Ana@Example.com',
      '--role',
      'finance',
      '--json',
    );
    expect([created.code, created.err]).toEqual([0, '']);
    const user = created.json();
    expect(user).toMatchObject({
      email: 'ana@example.com',
      role: 'finance',
      sign_in_url: expect.stringMatching(new RegExp(`^${api.baseUrl}/console/sign-in/`)),
    });
    const mails = await Promise.all(readdirSync(outbox).map((f) => simpleParser(readFileSync(path.join(outbox, f)))));
    const mail = mails.find((m) => JSON.stringify(m.to).includes('ana@example.com'))!;
    expect(mail.subject).toBe('You are invited to the Vigil console of CLI console org');
    expect(mail.text).toContain(user.sign_in_url);

    const browser = new ConsoleClient(api.baseUrl);
    expect((await browser.post(new URL(user.sign_in_url).pathname, {})).status).toBe(303);
    expect((await browser.get('/console/sla')).status).toBe(200);

    const listed = vigil('user', 'list', '--org', org.id, '--json').json();
    expect(listed).toEqual([
      expect.objectContaining({
        user_id: user.user_id,
        email: 'ana@example.com',
        role: 'finance',
        last_sign_in_at: expect.any(String),
        disabled_at: null,
      }),
    ]);

    expect(vigil('user', 'disable', user.user_id, '--json').code).toBe(0);
    expect((await browser.get('/console/sla')).status).toBe(303);
    const again = vigil('user', 'invite', user.user_id, '--json');
    expect(again.code).toBe(0);
    expect((await new ConsoleClient(api.baseUrl).post(new URL(again.json().sign_in_url).pathname, {})).status).toBe(
      410,
    );
  });

  it('refuses unknown roles, bad addresses, duplicates and unknown organizations', () => {
    expect(vigil('user', 'create', '--org', org.id, '--email', 'x@example.com', '--role', 'admin').err).toMatch(
      /Unknown role "admin"; roles: owner, operator, finance, viewer/,
    );
    expect(vigil('user', 'create', '--org', org.id, '--email', 'not-an-email', '--role', 'viewer').code).toBe(1);
    expect(vigil('user', 'create', '--org', org.id, '--email', 'dup@example.com', '--role', 'viewer').code).toBe(0);
    expect(vigil('user', 'create', '--org', org.id, '--email', 'DUP@example.com', '--role', 'owner').err).toMatch(
      /already a console user/,
    );
    expect(
      vigil(
        'user',
        'create',
        '--org',
        '00000000-0000-4000-8000-000000000000',
        '--email',
        'y@example.com',
        '--role',
        'viewer',
      ).err,
    ).toMatch(/No organization/);
    expect(vigil('user', 'create', '--org', org.id, '--role', 'viewer').code).toBe(2);
  });
});
