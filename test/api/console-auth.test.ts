import { createMailer, type Mailer } from '../../src/infra/mailer';
import { ConsoleSignInTokenSchema } from '../../src/db/entities';
import { createConsoleUser } from '../../src/usecases/console/users';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer, temporalUiUrl: 'http://temporal-ui.test' } });
  org = await api.createOrg('enterprise', 'Console org');
});
afterAll(async () => {
  await api.close();
  await mailer.close();
  await smtp.close();
});

const signIn = (email: string, role: 'owner' | 'operator' | 'finance' | 'viewer') => signedInClient(api, smtp, org.id, email, role);

describe('console sign-in, sessions, CSRF and roles', () => {
  it('sends a one-time link by email; the link signs in once and then is spent', async () => {
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: 'Ops@Example.com', role: 'operator' }, new Date());
    const b = new ConsoleClient(api.baseUrl);
    expect((await b.get('/console')).headers.get('location')).toBe('/console/sign-in?next=%2Fconsole');
    await b.post('/console/sign-in', { email: 'ops@example.com' });
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('ops@example.com'));
    expect(mail.subject).toBe('Sign in to the Vigil console of Console org');
    const path = new URL(/(http\S+\/console\/sign-in\/\S+)/.exec(mail.text!)![1]!).pathname;
    // Opening the link (as a mail scanner would) does not spend it; the button does.
    expect((await b.get(path)).status).toBe(200);
    expect((await b.get(path)).status).toBe(200);
    expect((await b.post(path, {})).status).toBe(303);
    const overview = await b.get('/console');
    expect([overview.status, overview.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(overview.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect([overview.headers.get('x-frame-options'), overview.headers.get('cache-control')]).toEqual(['DENY', 'no-store']);
    expect(overview.text).toContain('ops@example.com (operator)');
    const again = new ConsoleClient(api.baseUrl);
    expect((await again.post(path, {})).status).toBe(410);
    expect((await again.get(path)).text).toContain('has been used or has expired');
  });

  it('answers the same for unknown addresses, and expired links do nothing', async () => {
    const b = new ConsoleClient(api.baseUrl);
    const res = await b.post('/console/sign-in', { email: 'nobody@example.com' });
    expect(res.text).toContain('If <strong>nobody@example.com</strong> may use the console');
    await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: 'late@example.com', role: 'viewer' }, new Date());
    await b.post('/console/sign-in', { email: 'late@example.com' });
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('late@example.com'));
    const path = new URL(/(http\S+\/console\/sign-in\/\S+)/.exec(mail.text!)![1]!).pathname;
    await api.orm.em.fork().nativeUpdate(ConsoleSignInTokenSchema, { usedAt: null, expiresAt: { $gt: new Date() } }, { expiresAt: new Date(Date.now() - 1000) });
    expect((await b.post(path, {})).status).toBe(410);
  });

  it('refuses a form without the session\'s CSRF token, or from another origin', async () => {
    const b = await signIn('csrf@example.com', 'owner');
    const page = await b.get('/console');
    const csrf = csrfOf(page.text);
    const forged = await b.post('/console/sign-out', {});
    expect([forged.status, forged.text]).toEqual([403, expect.stringContaining('CSRF')]);
    const wrong = await b.post('/console/sign-out', { _csrf: csrf.replace(/.$/, csrf.endsWith('A') ? 'B' : 'A') });
    expect(wrong.status).toBe(403);
    const foreign = await b.post('/console/sign-out', { _csrf: csrf }, { origin: 'https://evil.example' });
    expect([foreign.status, foreign.text]).toEqual([403, expect.stringContaining('not from this console')]);
    expect((await b.get('/console')).status).toBe(200);
    const out = await b.post('/console/sign-out', { _csrf: csrf });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/console/sign-in']);
    // The session is over: the old cookie no longer signs in.
    const stale = new ConsoleClient(api.baseUrl);
    stale.cookie = b.cookie || 'vigil_console=x';
    expect((await stale.get('/console')).status).toBe(303);
  });

  it('shows each role only what it may use', async () => {
    const finance = await signIn('finance@example.com', 'finance');
    const page = (await finance.get('/console')).text;
    expect(page).toContain('href="/console/sla"');
    expect(page).toContain('finance@example.com (finance)');
  });

  it('serves the stylesheet without a session and answers unknown pages 404', async () => {
    const css = await fetch(`${api.baseUrl}/console/assets/console.css`);
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    const b = await signIn('lost@example.com', 'viewer');
    expect((await b.get('/console/no-such-page')).status).toBe(404);
  });
});

describe('console notices travel in the session, not the URL (issue 24 §5.6)', () => {
  it('shows nothing for ?flash= in a link, and a real action\'s notice once', async () => {
    const b = await signIn('flash@example.com', 'operator');
    const forged = await b.get(`/console?flash=${encodeURIComponent('Your account is locked: call +1 555 0100')}`);
    expect(forged.status).toBe(200);
    expect(forged.text).not.toContain('class="flash"');
    expect(forged.text).not.toContain('call +1 555 0100');
    const res = await b.submit('/console/change-events', '/console/change-events', { kind: 'deploy', title: 'Shipped the flash fix', occurred_at: '2026-01-05T10:00' });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/change-events']);
    const shown = await b.get('/console/change-events');
    expect(shown.text).toMatch(/<div class="flash" role="status">[^<]+<\/div>/);
    // Once: a reload shows it no more.
    expect((await b.get('/console/change-events')).text).not.toContain('class="flash"');
    // A notice cookie from another session (or made up) shows nothing.
    const other = await signIn('flash-other@example.com', 'operator');
    await other.submit('/console/change-events', '/console/change-events', { kind: 'deploy', title: 'Another session', occurred_at: '2026-01-05T11:00' });
    const stolen = (other as unknown as { jar: Map<string, string> }).jar.get('vigil_flash');
    expect(stolen).toEqual(expect.any(String));
    (b as unknown as { jar: Map<string, string> }).jar.set('vigil_flash', stolen!);
    expect((await b.get('/console/change-events')).text).not.toContain('class="flash"');
  });
});
