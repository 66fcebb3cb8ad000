import http from 'node:http';
import { eventually } from '../support/eventually';
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

const signIn = (email: string, role: 'owner' | 'operator' | 'finance' | 'viewer') =>
  signedInClient(api, smtp, org.id, email, role);

describe('console sign-in, sessions, CSRF and roles', () => {
  it('sends a one-time link by email; the link signs in once and then is spent', async () => {
    await createConsoleUser(
      api.orm.em.fork(),
      { organizationId: org.id, email: 'Ops@Example.com', role: 'operator' },
      new Date(),
    );
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
    expect(overview.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect([overview.headers.get('x-frame-options'), overview.headers.get('cache-control')]).toEqual([
      'DENY',
      'no-store',
    ]);
    expect(overview.text).toContain('ops@example.com (operator)');
    const again = new ConsoleClient(api.baseUrl);
    expect((await again.post(path, {})).status).toBe(410);
    expect((await again.get(path)).text).toContain('has been used or has expired');
  });

  it('answers the same for unknown addresses, and expired links do nothing', async () => {
    const b = new ConsoleClient(api.baseUrl);
    // Post/redirect/get: the answer is a redirect, so refreshing the page it leads to sends nothing again.
    const res = await b.post('/console/sign-in', { email: 'nobody@example.com' });
    expect([res.status, res.headers.get('location'), res.text]).toEqual([303, '/console/sign-in/sent', '']);
    const sent = await b.get('/console/sign-in/sent');
    expect([sent.status, sent.headers.get('cache-control')]).toEqual([200, 'no-store']);
    expect(sent.text).toContain(
      'If <strong>nobody@example.com</strong> may use the console, a sign-in link is on its way',
    );
    expect((await b.get('/console/sign-in/sent')).text).toContain('<strong>nobody@example.com</strong>');
    // Without the form's cookie (another browser, or one altered) the page says it without an address.
    const other = await new ConsoleClient(api.baseUrl).get('/console/sign-in/sent');
    expect([other.status, other.text]).toEqual([200, expect.stringContaining('If that address may use the console')]);
    await createConsoleUser(
      api.orm.em.fork(),
      { organizationId: org.id, email: 'late@example.com', role: 'viewer' },
      new Date(),
    );
    await b.post('/console/sign-in', { email: 'late@example.com' });
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('late@example.com'));
    const path = new URL(/(http\S+\/console\/sign-in\/\S+)/.exec(mail.text!)![1]!).pathname;
    await api.orm.em
      .fork()
      .nativeUpdate(
        ConsoleSignInTokenSchema,
        { usedAt: null, expiresAt: { $gt: new Date() } },
        { expiresAt: new Date(Date.now() - 1000) },
      );
    expect((await b.post(path, {})).status).toBe(410);
  });

  it("refuses a form without the session's CSRF token, or from another origin", async () => {
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

describe('console notices travel in the session, not the URL', () => {
  it("shows nothing for ?flash= in a link, and a real action's notice once", async () => {
    const b = await signIn('flash@example.com', 'operator');
    const forged = await b.get(`/console?flash=${encodeURIComponent('Your account is locked: call +1 555 0100')}`);
    expect(forged.status).toBe(200);
    expect(forged.text).not.toContain('class="flash"');
    expect(forged.text).not.toContain('call +1 555 0100');
    const res = await b.submit('/console/change-events', '/console/change-events', {
      kind: 'deploy',
      title: 'Shipped the flash fix',
      occurred_at: '2026-01-05T10:00',
    });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/change-events']);
    const shown = await b.get('/console/change-events');
    expect(shown.text).toMatch(/<div class="flash" role="status">[^<]+<\/div>/);
    // Once: a reload shows it no more.
    expect((await b.get('/console/change-events')).text).not.toContain('class="flash"');
    // A notice cookie from another session (or made up) shows nothing.
    const other = await signIn('flash-other@example.com', 'operator');
    await other.submit('/console/change-events', '/console/change-events', {
      kind: 'deploy',
      title: 'Another session',
      occurred_at: '2026-01-05T11:00',
    });
    const stolen = (other as unknown as { jar: Map<string, string> }).jar.get('vigil_flash');
    expect(stolen).toEqual(expect.any(String));
    (b as unknown as { jar: Map<string, string> }).jar.set('vigil_flash', stolen!);
    expect((await b.get('/console/change-events')).text).not.toContain('class="flash"');
  });
});

describe('console sign-in is limited per address and per client, and answers known and unknown alike', () => {
  let limitedApi: ApiHarness;
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  // Each test speaks from its own loopback address, so counters other suites leave on 127.0.0.1 do not count.
  const clientIp = () =>
    `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  /** A form post over a connection from `ip` (node:http binds the local address; the API sees it as the client). */
  const postFrom = (harness: ApiHarness, ip: string, email: string) =>
    new Promise<{ status: number; retryAfter: string | undefined; text: string }>((resolve, reject) => {
      const url = new URL(`${harness.baseUrl}/console/sign-in`);
      const body = new URLSearchParams({ email }).toString();
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          localAddress: ip,
          agent: false,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              retryAfter: res.headers['retry-after'] as string | undefined,
              text,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const mailsTo = (email: string) => smtp.messages.filter((m) => JSON.stringify(m.to).includes(email)).length;

  beforeAll(async () => {
    limitedApi = await startApi({ console: { mail: mailer }, signInLimits: { perAddress: 3, perClient: 5 } });
  });
  afterAll(async () => {
    await limitedApi.close();
  });

  it('limits the 4th request for one address in a window, and sends it no email', async () => {
    const email = `limited-${run}@example.com`;
    await createConsoleUser(limitedApi.orm.em.fork(), { organizationId: org.id, email, role: 'viewer' }, new Date());
    const ip = clientIp();
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await postFrom(limitedApi, ip, email));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 429]);
    expect(answers[3]!.text).toContain('Too many sign-in requests');
    expect(answers[3]!.text).toMatch(/Wait \d+ minutes?/);
    expect(Number(answers[3]!.retryAfter)).toBeGreaterThan(0);
    await eventually(async () => expect(mailsTo(email)).toBe(3), 5_000);
    // A fixed wait that proves a negative: no 4th email follows the limited request.
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(email)).toBe(3);
  });

  it('limits the 6th request from one client in a window, whatever the addresses', async () => {
    const ip = clientIp();
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const email = `client-${run}-${i}@example.com`;
      await createConsoleUser(limitedApi.orm.em.fork(), { organizationId: org.id, email, role: 'viewer' }, new Date());
      statuses.push((await postFrom(limitedApi, ip, email)).status);
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    await eventually(async () => expect(mailsTo(`client-${run}-4@example.com`)).toBe(1), 5_000);
    // A fixed wait that proves a negative: the limited 6th request sends no email.
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(`client-${run}-5@example.com`)).toBe(0);
    // Another client is not limited by it.
    expect((await postFrom(limitedApi, clientIp(), `other-${run}@example.com`)).status).toBe(303);
  });

  it('answers a known address in the same time as an unknown one, however slow the mail server', async () => {
    // A mail server that takes 300 ms per message: a sign-in that waited for it (or did more work
    // for a known address at all) would tell known from unknown addresses by its answer time.
    const slowMail = {
      send: async (m: Parameters<Mailer['send']>[0]) => (await new Promise((r) => setTimeout(r, 300)), mailer.send(m)),
    };
    const slowApi = await startApi({ console: { mail: slowMail } });
    try {
      const known = `timing-${run}@example.com`;
      await createConsoleUser(
        slowApi.orm.em.fork(),
        { organizationId: org.id, email: known, role: 'viewer' },
        new Date(),
      );
      const ip = clientIp();
      const timed = async (email: string) => {
        const started = performance.now();
        expect((await postFrom(slowApi, ip, email)).status).toBe(303);
        return performance.now() - started;
      };
      await timed(`warm-${run}@example.com`);
      const knownMs: number[] = [];
      const unknownMs: number[] = [];
      for (let i = 0; i < 10; i++) {
        knownMs.push(await timed(known));
        unknownMs.push(await timed(`nobody-${run}-${i}@example.com`));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      // Medians of interleaved runs, with a bound far above this machine's noise and far below the mail's 300 ms.
      expect([Math.abs(median(knownMs) - median(unknownMs)) < 100, knownMs, unknownMs]).toEqual([
        true,
        knownMs,
        unknownMs,
      ]);
      await eventually(async () => expect(mailsTo(known)).toBe(10), 15_000);
    } finally {
      await slowApi.close();
    }
  });
});
