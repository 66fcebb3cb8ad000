import { isDatabaseUnavailable } from '../../src/db/unavailable';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { ConsoleClient, type PageResult, csrfOf, signedInClient } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/**
 * What the console's forms do with input the database cannot store: U+0000 (`%00` in a posted
 * form) is refused next to the field that carries it, as the JSON API refuses it, and never
 * reaches PostgreSQL (which would answer a protocol violation, once shown as "database
 * unavailable"). Over real HTTP against the suite's PostgreSQL, signed in through an emailed link.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let operator: ConsoleClient;

const tag = `${process.pid}-${Date.now().toString(36)}`;
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
  org = await api.createOrg('business', 'Form input org');
  operator = await signedInClient(api, smtp, org.id, `ops-${tag}@input.test`, 'operator');
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The refusal a form with a NUL in `field` must get: 400 validation_failed linking to the field, not a database problem. */
function expectFieldRefused(res: PageResult, field: string): string {
  expect([field, res.status]).toEqual([field, 400]);
  expect(res.text).toContain(`href="#f-${field.replace(/[^A-Za-z0-9_-]/g, '-')}"`);
  const text = textOf(res.text);
  expect(text).toContain('Holds U+0000 (NUL)');
  expect(text).toContain('Error code: validation_failed');
  expect(text).not.toMatch(/database_unavailable|internal_error/);
  return text;
}

describe('console forms refuse a NUL byte in a field', () => {
  it('names the field on the new service form, and stores nothing', async () => {
    const name = `Pay\u0000ments ${tag}`;
    const text = expectFieldRefused(
      await operator.submit('/console/services/new', '/console/services/new', {
        name,
        description: 'Card payments',
        config_key: '',
      }),
      'name',
    );
    // Shown in the operator's own console, not as a signed-out page.
    expect(text).toContain(`ops-${tag}@input.test (operator)`);
    expect(text).toContain('Name: Holds U+0000 (NUL)');
    expectFieldRefused(
      await operator.submit('/console/services/new', '/console/services/new', {
        name: `Payments ${tag}`,
        description: 'Card\u0000payments',
        config_key: '',
      }),
      'description',
    );
    const listed = await api.request('GET', '/v1/services', { key: org.key });
    expect(listed.body.items.filter((s: { name: string }) => s.name.includes(tag))).toEqual([]);
  });

  it('names the field on the new incident form, nested field names included', async () => {
    const service = (await api.request('POST', '/v1/services', { key: org.key, body: { name: `Checkout ${tag}` } }))
      .body.id as string;
    const fields = {
      title: 'Card payments failing',
      severity: 'major',
      affected_services: [service],
      'initial_message.type': 'Identified',
      'initial_message.body': 'Our provider\u0000 is down.',
    };
    expect(
      expectFieldRefused(
        await operator.submit('/console/incidents/new', '/console/incidents/new', fields),
        'initial_message.body',
      ),
    ).toContain('Message: Holds U+0000 (NUL)');
    expectFieldRefused(
      await operator.submit('/console/incidents/new', '/console/incidents/new', {
        ...fields,
        'initial_message.body': 'Down.',
        title: '\u0000',
      }),
      'title',
    );
  });

  it('refuses it on the sign-in form too, which needs no session', async () => {
    const guest = new ConsoleClient(api.baseUrl);
    const page = await guest.get('/console/sign-in');
    expect(page.status).toBe(200);
    expectFieldRefused(await guest.post('/console/sign-in', { email: `ops-${tag}@input.test\u0000` }), 'email');
  });

  it('names a field whose name holds the NUL, and a query parameter of a page', async () => {
    const csrf = csrfOf((await operator.get('/console/services/new')).text);
    expectFieldRefused(
      await operator.post('/console/services/new', { _csrf: csrf, name: 'x', 'na\u0000me': 'y' }),
      'na\\u0000me',
    );
    expectFieldRefused(await operator.get('/console/incidents?state=open%00'), 'state');
  });
});

describe('a protocol violation from a statement is not the database being unavailable', () => {
  it('is what PostgreSQL answers to a query text holding U+0000, and the connection carries on', async () => {
    const em = api.orm.em.fork();
    const err = await em
      .getConnection()
      .execute(`select 'a\u0000b' as t`)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ code: '08P01' });
    expect(isDatabaseUnavailable(err)).toBe(false);
    expect(await em.getConnection().execute('select 1 as one')).toEqual([{ one: 1 }]);
  });
});
