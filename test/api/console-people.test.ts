import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { ConsoleClient, type PageResult, csrfOf, signInPathFromMail, signedInClient } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/**
 * Users and API keys in the console, owners only: over real HTTP against the API, the
 * suite's PostgreSQL and a real SMTP sink that receives the invitations.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let other: TestOrg;
let owner: ConsoleClient;
let operator: ConsoleClient;

const tag = `${process.pid}-${Date.now().toString(36)}`;
const mail = (name: string) => `${name}-${tag}@people.test`;
/** The text of a page without tags (what a reader sees). */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  [org, other] = await Promise.all([
    api.createOrg('business', 'People org'),
    api.createOrg('business', 'Other people org'),
  ]);
  [owner, operator] = await Promise.all([
    signedInClient(api, smtp, org.id, mail('owner'), 'owner'),
    signedInClient(api, smtp, org.id, mail('ops'), 'operator'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The id of the users-table row of `email` (from its role form's action). */
function userIdOf(html: string, email: string): string {
  const row = html
    .split('<tr>')
    .slice(1)
    .find((r) => r.includes(email));
  const m = row && /action="\/console\/users\/([0-9a-f-]{36})\/role"/.exec(row);
  if (!m) throw new Error(`no row for ${email}`);
  return m[1]!;
}

async function ownerPost(path: string, form: Record<string, string | string[]>): Promise<PageResult> {
  return owner.submit('/console/users', path, form);
}

describe('console users', () => {
  it('lets an owner invite someone who gets the emailed link and signs in with the role given', async () => {
    const page = await owner.get('/console/users');
    expect(page.status).toBe(200);
    expect(page.text).toContain(mail('ops'));
    expect(page.text).toMatch(/<th scope="col">Last sign-in<\/th>/);

    const invited = await ownerPost('/console/users', { email: mail('Invited').toUpperCase(), role: 'operator' });
    expect(invited.status).toBe(303);
    expect(invited.headers.get('location')).toBe('/console/users');
    const after = await owner.get('/console/users');
    expect(after.text).toContain(`Invited ${mail('invited')} as operator`);
    expect(after.text).toContain(mail('invited'));

    const guest = new ConsoleClient(api.baseUrl);
    const link = await signInPathFromMail(smtp, mail('invited'));
    const mailed = smtp.messages.find((m) => JSON.stringify(m.to).includes(mail('invited')))!;
    expect(mailed.subject).toBe('You are invited to the Vigil console of People org');
    expect((await guest.post(link, {})).status).toBe(303);
    const home = await guest.get('/console/incidents/new');
    expect(home.status).toBe(200);
    expect(home.text).toContain(`${mail('invited')} (operator)`);
    // An operator is not an owner: no Users entry, and the page itself answers 403.
    expect(home.text).not.toContain('href="/console/users"');
    expect((await guest.get('/console/users')).status).toBe(403);
    const row = (await owner.get('/console/users')).text
      .split('<tr>')
      .slice(1)
      .find((r) => r.includes(mail('invited')))!;
    expect(row).not.toContain('never');
    expect(row).toMatch(/<time datetime=/);
  });

  it('refuses a bad address, an unknown role and a second invitation of the same address, next to the field', async () => {
    const bad = await ownerPost('/console/users', { email: 'not an address', role: 'admin' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-email"[^>]*aria-invalid="true"/);
    expect(bad.text).toContain('&#34;not an address&#34; is not an email address');
    expect(bad.text).toMatch(/id="f-role"[^>]*aria-invalid="true"/);
    expect(bad.text).toContain('value="not an address"');
    await ownerPost('/console/users', { email: mail('twice'), role: 'viewer' });
    const again = await ownerPost('/console/users', { email: mail('twice'), role: 'finance' });
    expect(again.status).toBe(400);
    expect(textOf(again.text)).toContain(`${mail('twice')} is already a console user of this organization`);
  });

  it("changes a user's role, effective on their next request", async () => {
    const client = await signedInClient(api, smtp, org.id, mail('promoted'), 'viewer');
    expect((await client.get('/console/incidents/new')).status).toBe(403);
    const id = userIdOf((await owner.get('/console/users')).text, mail('promoted'));
    const changed = await ownerPost(`/console/users/${id}/role`, { role: 'operator' });
    expect(changed.status).toBe(303);
    expect((await owner.get('/console/users')).text).toContain(`${mail('promoted')} is now operator`);
    const next = await client.get('/console/incidents/new');
    expect(next.status).toBe(200);
    expect(next.text).toContain(`${mail('promoted')} (operator)`);
    expect((await ownerPost(`/console/users/${id}/role`, { role: 'superuser' })).status).toBe(400);
  });

  it("ends a disabled user's sessions at once; enabling them again does not revive a session", async () => {
    const client = await signedInClient(api, smtp, org.id, mail('leaving'), 'finance');
    expect((await client.get('/console/sla')).status).toBe(200);
    const id = userIdOf((await owner.get('/console/users')).text, mail('leaving'));
    expect((await ownerPost(`/console/users/${id}/disable`, {})).status).toBe(303);
    const listed = await owner.get('/console/users');
    expect(listed.text).toContain(`Disabled ${mail('leaving')}: their sessions have ended.`);
    const gone = await client.get('/console/sla');
    expect(gone.status).toBe(303);
    expect(gone.headers.get('location')).toMatch(/^\/console\/sign-in/);
    // A sign-in request sends a disabled user nothing.
    const before = smtp.messages.length;
    await new ConsoleClient(api.baseUrl).post('/console/sign-in', { email: mail('leaving') });
    expect((await ownerPost(`/console/users/${id}/enable`, {})).status).toBe(303);
    expect(smtp.messages.length).toBe(before);
    expect((await client.get('/console/sla')).status).toBe(303);
  });

  it('never lets the last enabled owner disable or demote themselves, and says why', async () => {
    const page = await owner.get('/console/users');
    const me = userIdOf(page.text, mail('owner'));
    for (const [path, form] of [
      [`/console/users/${me}/disable`, {}],
      [`/console/users/${me}/role`, { role: 'viewer' }],
    ] as const) {
      const refused = await ownerPost(path, form);
      expect(refused.status).toBe(400);
      expect(textOf(refused.text)).toContain(
        "You are the organization's last enabled owner. Make another user an owner first",
      );
    }
    expect((await owner.get('/console/api-keys')).status).toBe(200);
    // With a second owner, the first may step down; the second then is the last one.
    const second = await signedInClient(api, smtp, org.id, mail('second-owner'), 'owner');
    const other2 = userIdOf((await second.get('/console/users')).text, mail('second-owner'));
    const disabled = await owner.submit('/console/users', `/console/users/${other2}/disable`, {});
    expect(disabled.status).toBe(303);
    expect((await second.get('/console/users')).status).toBe(303);
    expect((await ownerPost(`/console/users/${me}/role`, { role: 'viewer' })).status).toBe(400);
  });

  it('counts only owners who have signed in: an invited owner who never did cannot stand in for the last one', async () => {
    const lone = await api.createOrg('business', 'Lone owner org');
    const first = await signedInClient(api, smtp, lone.id, mail('lone-owner'), 'owner');
    const post = (path: string, form: Record<string, string>) => first.submit('/console/users', path, form);
    // The owner invites a second owner, who never follows the emailed link.
    expect((await post('/console/users', { email: mail('invited-owner'), role: 'owner' })).status).toBe(303);
    const page = await first.get('/console/users');
    const me = userIdOf(page.text, mail('lone-owner'));
    for (const [path, form] of [
      [`/console/users/${me}/disable`, {}],
      [`/console/users/${me}/role`, { role: 'operator' }],
    ] as const) {
      const refused = await post(path, form);
      expect([path, refused.status]).toEqual([path, 400]);
      expect(textOf(refused.text)).toContain(
        `You are the organization's last owner who has signed in; ${mail('invited-owner')} is an owner too but has not signed in yet, and might never.`,
      );
    }
    // Still an owner, still signed in.
    expect((await first.get('/console/api-keys')).status).toBe(200);
    // Once the invited owner has signed in, the first may step down.
    const invited = new ConsoleClient(api.baseUrl);
    expect((await invited.post(await signInPathFromMail(smtp, mail('invited-owner')), {})).status).toBe(303);
    expect((await post(`/console/users/${me}/role`, { role: 'operator' })).status).toBe(303);
    expect((await first.get('/console/api-keys')).status).toBe(403);
  });

  it('answers 403 to every role but owner, on every page and form', async () => {
    for (const role of ['operator', 'finance', 'viewer'] as const) {
      const client = role === 'operator' ? operator : await signedInClient(api, smtp, org.id, mail(`no-${role}`), role);
      const home = await client.get('/console');
      expect(home.text).not.toContain('href="/console/users"');
      expect(home.text).not.toContain('href="/console/api-keys"');
      for (const path of ['/console/users', '/console/api-keys', '/console/api-keys/new'])
        expect((await client.get(path)).status).toBe(403);
      const csrf = csrfOf(home.text);
      expect(
        (await client.post('/console/users', { _csrf: csrf, email: mail(`sneaky-${role}`), role: 'owner' })).status,
      ).toBe(403);
      expect(
        (await client.post('/console/api-keys/new', { _csrf: csrf, name: 'sneaky', scopes: ['read:config'] })).status,
      ).toBe(403);
    }
  });

  it("answers 404 for another organization's users", async () => {
    const stranger = await signedInClient(api, smtp, other.id, mail('stranger'), 'owner');
    const strangerId = userIdOf((await stranger.get('/console/users')).text, mail('stranger'));
    expect((await owner.get('/console/users')).text).not.toContain(mail('stranger'));
    expect((await ownerPost(`/console/users/${strangerId}/disable`, {})).status).toBe(404);
    expect((await stranger.get('/console/users')).status).toBe(200);
  });
});

/** Creates a key through the form; answers the redirect's path and the key's id. */
async function createKey(form: Record<string, string | string[]>): Promise<{ res: PageResult; id: string }> {
  const res = await owner.submit('/console/api-keys/new', '/console/api-keys/new', form);
  const m = /^\/console\/api-keys\/([0-9a-f-]{36})\/created$/.exec(res.headers.get('location') ?? '');
  if (res.status !== 303 || !m) throw new Error(`create answered ${res.status}: ${textOf(res.text).slice(0, 400)}`);
  return { res, id: m[1]! };
}

const secretOf = (html: string) =>
  /id="new-key" class="secret" readonly value="(vgl_pub_[A-Za-z0-9]+)"/.exec(html)?.[1] ?? null;

describe('console API keys', () => {
  it('shows the secret once; the key works against the API with exactly its scopes; its last use shows; revoked it answers 401', async () => {
    const form = await owner.get('/console/api-keys/new');
    expect(form.text).toContain('<legend>Scopes (what the key may do)</legend>');
    expect(form.text).toContain('value="write:sla"');
    const { id } = await createKey({ name: 'Grafana <reader>', scopes: ['read:metrics'] });
    const shown = await owner.get(`/console/api-keys/${id}/created`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('cache-control')).toBe('no-store');
    const secret = secretOf(shown.text);
    expect(secret).not.toBeNull();
    // Reloading the page (or any later visit) does not show it again.
    const reloaded = await owner.get(`/console/api-keys/${id}/created`);
    expect(reloaded.status).toBe(200);
    expect(secretOf(reloaded.text)).toBeNull();
    expect(reloaded.text).not.toContain(secret!);
    expect(reloaded.text).toContain('The secret is no longer shown');

    let list = await owner.get('/console/api-keys');
    expect(list.text).not.toContain(secret!);
    const row = () =>
      list.text
        .split('<tr>')
        .slice(1)
        .find((r) => r.includes('Grafana &#60;reader&#62;'))!;
    expect(row()).toContain(`<code>${secret!.slice(0, 12)}…</code>`);
    expect(row()).toContain('<code>read:metrics</code>');
    expect(row()).toContain('never used');
    expect(row()).toContain('>active<');

    expect((await api.request('GET', '/v1/services', { key: secret! })).status).toBe(200);
    const write = await api.request('POST', '/v1/services', { key: secret!, body: { name: 'Nope' } });
    expect(write.status).toBe(403);
    expect(write.body.detail).toContain('write:config');
    expect((await api.request('GET', '/v1/config/export', { key: secret! })).status).toBe(403);

    list = await owner.get('/console/api-keys');
    expect(row()).not.toContain('never used');
    expect(row()).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+"/);

    const confirm = await owner.get(`/console/api-keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(textOf(confirm.text)).toContain('Every request with it answers 401 from now on. This cannot be undone.');
    const revoked = await owner.post(`/console/api-keys/${id}/revoke`, { _csrf: csrfOf(confirm.text) });
    expect(revoked.status).toBe(303);
    list = await owner.get('/console/api-keys');
    expect(list.text).toContain('Revoked Grafana &#60;reader&#62;');
    expect(row()).toContain('>revoked<');
    const refused = await api.request('GET', '/v1/services', { key: secret! });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('The API key has been revoked.');
  });

  it('shows the secret only to the browser that made the key, and only once', async () => {
    const { id } = await createKey({ name: 'Bound', scopes: ['read:config'] });
    const stolen = new ConsoleClient(api.baseUrl);
    stolen.cookie = owner.cookie; // the same session, but without the one-time cookie
    const page = await stolen.get(`/console/api-keys/${id}/created`);
    expect(page.status).toBe(200);
    expect(secretOf(page.text)).toBeNull();
    expect(secretOf((await owner.get(`/console/api-keys/${id}/created`)).text)).not.toBeNull();
  });

  it('honours the expiry: refused in the past, shown in the list, and the key answers 401 once it has passed', async () => {
    const past = await owner.submit('/console/api-keys/new', '/console/api-keys/new', {
      name: 'Too late',
      scopes: ['read:metrics'],
      expires_at: '2020-01-01T00:00',
    });
    expect(past.status).toBe(400);
    expect(past.text).toMatch(/id="f-expires_at"[^>]*aria-invalid="true"/);
    expect(textOf(past.text)).toContain('The expiry must be in the future');
    expect(past.text).toContain('value="Too late"');
    expect(past.text).toMatch(/value="read:metrics" checked/);

    const none = await owner.submit('/console/api-keys/new', '/console/api-keys/new', { name: '', scopes: [] });
    expect(none.status).toBe(400);
    expect(textOf(none.text)).toContain('Pick at least one scope');
    expect(textOf(none.text)).toContain('Give the key a name');

    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    const { id } = await createKey({ name: 'Short-lived', scopes: ['read:metrics'], expires_at: inAnHour });
    const secret = secretOf((await owner.get(`/console/api-keys/${id}/created`)).text)!;
    const row = (await owner.get('/console/api-keys')).text
      .split('<tr>')
      .slice(1)
      .find((r) => r.includes('Short-lived'))!;
    expect(row).toContain(`datetime="${inAnHour}:00.000Z"`);
    expect((await api.request('GET', '/v1/services', { key: secret })).status).toBe(200);
    // The clock moves past the expiry (the key is not cached yet: a fresh API instance reads it).
    await api.orm.em
      .fork()
      .getConnection()
      .execute(`update api_keys set expires_at = now() - interval '1 second' where id = ?`, [id]);
    const later = await startApi();
    try {
      const refused = await later.request('GET', '/v1/services', { key: secret });
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toMatch(/^The API key expired at /);
    } finally {
      await later.close();
    }
    expect(
      (await owner.get('/console/api-keys')).text
        .split('<tr>')
        .slice(1)
        .find((r) => r.includes('Short-lived')),
    ).toContain('>expired<');
  });

  it("answers 404 for another organization's key", async () => {
    const stranger = await signedInClient(api, smtp, other.id, mail('key-stranger'), 'owner');
    const made = await stranger.submit('/console/api-keys/new', '/console/api-keys/new', {
      name: 'Theirs',
      scopes: ['read:config'],
    });
    const id = /api-keys\/([0-9a-f-]{36})\/created/.exec(made.headers.get('location') ?? '')![1]!;
    expect((await owner.get(`/console/api-keys/${id}/revoke`)).status).toBe(404);
    expect((await owner.submit('/console/api-keys', `/console/api-keys/${id}/revoke`, {})).status).toBe(404);
    expect((await owner.get('/console/api-keys')).text).not.toContain('Theirs');
    expect((await stranger.get('/console/api-keys')).text).toContain('Theirs');
  });
});
