/**
 * The console's "Changes" page: a change recorded by hand is by the signed-in user
 * unless the form names someone, its source is "console" unless the form names one, and a refused
 * form answers in words next to its fields, keeping what was typed. Real API, PostgreSQL, SMTP.
 */
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type ConsoleClient, signedInClient } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let operator: ConsoleClient;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  org = await api.createOrg('enterprise', 'Changes org');
  operator = await signedInClient(api, smtp, org.id, 'dana@changes.test', 'operator');
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The table row of the Changes list that holds `title`. */
function rowWith(html: string, title: string): string {
  const row = html
    .split('<tr')
    .slice(1)
    .find((r) => r.includes(title));
  if (!row) throw new Error(`no row with ${title}`);
  return row;
}

describe('console changes', () => {
  it('records a change made in the console as by the signed-in user, from the console', async () => {
    const res = await operator.submit('/console/change-events', '/console/change-events', {
      kind: 'deploy',
      title: 'Hand deploy of checkout',
      actor: '',
      source: '',
    });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/change-events']);
    const api201 = await api.request('GET', '/v1/change-events', { key: org.key });
    expect(api201.body.items.find((e: { title: string }) => e.title === 'Hand deploy of checkout')).toMatchObject({
      actor: 'dana@changes.test',
      source: 'console',
    });
    const list = await operator.get('/console/change-events');
    expect(rowWith(list.text, 'Hand deploy of checkout')).toContain('dana@changes.test · console');
    expect(list.text).toContain('Left empty: you (dana@changes.test).');
  });

  it("keeps who the form names, and a pipeline's change shows its own actor", async () => {
    await operator.submit('/console/change-events', '/console/change-events', {
      kind: 'rollback',
      title: 'Rolled back search',
      actor: 'Sam (on call)',
      source: 'runbook',
    });
    await api.request('POST', '/v1/change-events', {
      key: org.key,
      body: { kind: 'deploy', title: 'CI deploy of search', actor: 'github-actions[bot]' },
    });
    const list = await operator.get('/console/change-events');
    expect(rowWith(list.text, 'Rolled back search')).toContain('Sam (on call) · runbook');
    expect(rowWith(list.text, 'CI deploy of search')).toContain('github-actions[bot]');
    expect(rowWith(list.text, 'CI deploy of search')).not.toContain('dana@changes.test');
  });

  it('answers a refused form in words, every problem at once, next to its field, keeping the input', async () => {
    const bad = await operator.submit('/console/change-events', '/console/change-events', {
      kind: 'deploy',
      title: '',
      occurred_at: 'yesterday',
      'links.0.label': 'PR',
      'links.0.url': 'not a url',
      description: 'kept text',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      '<div class="problem" role="alert" tabindex="-1" id="problem" autofocus><h2>Fix 3 problems to continue</h2>',
    );
    expect(bad.text).toContain('<a href="#f-title">What changed cannot be empty</a>');
    expect(bad.text).toContain('<a href="#f-occurred_at">When must be a date and time, or left empty for now</a>');
    expect(bad.text).toContain(
      '<a href="#f-links-0-url">URL must be a web address starting with http:// or https://</a>',
    );
    expect(bad.text).toContain('<p class="field-error" id="f-title-error">What changed cannot be empty</p>');
    expect(bad.text).toMatch(
      /id="f-title" name="title" required aria-invalid="true" aria-describedby="f-title-hint f-title-error"/,
    );
    expect(bad.text).toContain('>kept text</textarea>');
    expect(bad.text).toContain('value="yesterday"');
    // The API keeps its tokens and paths.
    const viaApi = await api.request('POST', '/v1/change-events', {
      key: org.key,
      body: { kind: 'deploy', title: '' },
    });
    expect(viaApi.status).toBe(400);
    expect(viaApi.body).toMatchObject({
      title: 'validation_failed',
      errors: [expect.objectContaining({ path: 'title' })],
    });
  });
});
