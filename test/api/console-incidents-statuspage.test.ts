import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type ConsoleClient, type PageResult, csrfOf, signedInClient } from '../support/console-browser';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let other: TestOrg;
let operator: ConsoleClient;
let finance: ConsoleClient;
let services: { checkout: string; search: string };

const v1 = (method: string, path: string, body?: unknown, key = org.key) => api.request(method, path, { key, body });

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer, temporalUiUrl: null } });
  [org, other] = await Promise.all([
    api.createOrg('enterprise', 'Statuspage habits'),
    api.createOrg('enterprise', 'Someone else'),
  ]);
  const checkout = (await v1('POST', '/v1/services', { name: 'Checkout' })).body.id;
  const search = (await v1('POST', '/v1/services', { name: 'Search' })).body.id;
  services = { checkout, search };
  [operator, finance] = await Promise.all([
    signedInClient(api, smtp, org.id, 'ops@habits.test', 'operator'),
    signedInClient(api, smtp, org.id, 'money@habits.test', 'finance'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

const unescape = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** What a browser would post from the form with this action: text and hidden inputs, checked boxes, selected options, textareas. */
function formFields(html: string, action: string): Record<string, string[]> {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const out: Record<string, string[]> = {};
  const add = (name: string, value: string) => (out[unescape(name)] ??= []).push(unescape(value));
  for (const m of form.matchAll(/<input ([^>]*)>/g)) {
    const attrs = m[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    const value = /value="([^"]*)"/.exec(attrs)?.[1] ?? '';
    if (!name) continue;
    if (/type="checkbox"/.test(attrs) && !/ checked/.test(attrs)) continue;
    add(name, value);
  }
  for (const m of form.matchAll(/<select [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const chosen = /<option value="([^"]*)" selected>/.exec(m[2]!) ?? /<option value="([^"]*)"/.exec(m[2]!);
    add(m[1]!, chosen?.[1] ?? '');
  }
  for (const m of form.matchAll(/<textarea [^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) add(m[1]!, m[2]!);
  return out;
}

function redirectedTo(res: PageResult, pattern: RegExp): RegExpExecArray {
  expect(res.status).toBe(303);
  const m = pattern.exec(res.headers.get('location') ?? '');
  if (!m) throw new Error(`unexpected redirect ${res.headers.get('location')} (${res.text.slice(0, 300)})`);
  return m;
}

describe('console: incidents the way Statuspage users work', () => {
  let templateId: string;

  it('keeps a template, and starts an incident from it in two clicks: "Start incident", then "Create incident"', async () => {
    const made = await operator.submit('/console/incident-templates/new', '/console/incident-templates/new', {
      name: 'Payment provider down',
      title: 'Card payments failing',
      severity: 'major',
      affected_services: [services.search],
      [`impact.${services.checkout}`]: 'major_outage',
      message_type: 'Identified',
      body: 'Our payment provider has an outage.',
    });
    redirectedTo(made, /^\/console\/incident-templates$/);
    const list = await operator.get('/console/incident-templates');
    expect(list.text).toContain('Template &#34;Payment provider down&#34; created.');
    const start = /href="\/console\/incidents\/new\?template=([0-9a-f-]{36})"/.exec(list.text);
    expect(start).not.toBeNull();
    templateId = start![1]!;
    const template = (await v1('GET', `/v1/incident-templates/${templateId}`)).body;
    expect(template).toMatchObject({
      severity: 'major',
      message_type: 'Identified',
      affected_services: [services.search, services.checkout],
    });
    expect(template.service_impacts).toEqual([
      { service_id: services.search, impact: 'partial_outage' },
      { service_id: services.checkout, impact: 'major_outage' },
    ]);

    // Click one: the new-incident form, filled from the template.
    const form = await operator.get(`/console/incidents/new?template=${templateId}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Filled from the template');
    const fields = formFields(form.text, '/console/incidents/new');
    expect(fields).toMatchObject({
      title: ['Card payments failing'],
      severity: ['major'],
      affected_services: [services.checkout, services.search].sort(
        (a, b) => form.text.indexOf(a) - form.text.indexOf(b),
      ),
      [`impact.${services.checkout}`]: ['major_outage'],
      [`impact.${services.search}`]: [''],
      'initial_message.type': ['Identified'],
      'initial_message.body': ['Our payment provider has an outage.'],
      'initial_message.notify_subscribers': ['true'],
    });
    expect(fields.publish).toBeUndefined();

    // Click two: create it as the browser would post the form (publish ticked).
    const created = await operator.post('/console/incidents/new', { ...fields, publish: ['true'] });
    const id = redirectedTo(created, /^\/console\/incidents\/([0-9a-f-]{36})$/)[1]!;
    const incident = (await v1('GET', `/v1/incidents/${id}`)).body;
    expect(incident).toMatchObject({
      title: 'Card payments failing',
      severity: 'major',
      state: 'published',
      messages: [{ type: 'Identified', body: 'Our payment provider has an outage.', notify_subscribers: true }],
    });
    expect(
      [...incident.service_impacts].sort((a: { service_id: string }, b: { service_id: string }) =>
        a.service_id.localeCompare(b.service_id),
      ),
    ).toEqual(
      [
        { service_id: services.checkout, impact: 'major_outage' },
        { service_id: services.search, impact: 'partial_outage' },
      ].sort((a, b) => a.service_id.localeCompare(b.service_id)),
    );

    // The detail page shows each service's impact in words.
    const page = await operator.get(`/console/incidents/${id}`);
    expect(page.text).toContain('<dt>Impact per service</dt>');
    expect(page.text).toMatch(
      new RegExp(
        `<li data-service-id="${services.checkout}" data-impact="major_outage">Checkout: <span[^>]*>Major outage</span></li>`,
      ),
    );
    expect(page.text).toMatch(
      new RegExp(
        `<li data-service-id="${services.search}" data-impact="partial_outage">Search: <span[^>]*>Partial outage</span></li>`,
      ),
    );
  });

  it('edits title, severity, services and impacts of a published incident, and keeps the input on a problem', async () => {
    const inc = (
      await v1('POST', '/v1/incidents', {
        title: 'Search slow',
        severity: 'minor',
        affected_services: [services.search],
        publish: true,
      })
    ).body;
    const page = await operator.get(`/console/incidents/${inc.id}`);
    expect(page.text).toContain('Edit title, severity and services');
    const fields = formFields(page.text, `/console/incidents/${inc.id}/edit`);
    expect(fields).toMatchObject({ title: ['Search slow'], severity: ['minor'], affected_services: [services.search] });

    const bad = await operator.post(`/console/incidents/${inc.id}/edit`, {
      ...fields,
      title: [''],
      [`impact.${services.checkout}`]: ['partial_outage'],
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('<details open>');
    expect(bad.text).toContain('Title cannot be empty');
    expect(bad.text).toMatch(
      new RegExp(
        `name="impact.${services.checkout}"[^>]*><option value="">From the severity</option><option value="degraded_performance">Degraded performance</option><option value="partial_outage" selected>`,
      ),
    );
    expect((await v1('GET', `/v1/incidents/${inc.id}`)).body).toMatchObject({
      title: 'Search slow',
      updated_at: inc.updated_at,
    });

    const saved = await operator.post(`/console/incidents/${inc.id}/edit`, {
      ...fields,
      title: ['Search and checkout slow'],
      severity: ['critical'],
      affected_services: [services.search],
      [`impact.${services.checkout}`]: ['partial_outage'],
    });
    redirectedTo(saved, new RegExp(`^/console/incidents/${inc.id}$`));
    const after = (await v1('GET', `/v1/incidents/${inc.id}`)).body;
    expect(after).toMatchObject({
      state: 'published',
      title: 'Search and checkout slow',
      severity: 'critical',
      affected_services: [services.search, services.checkout],
      service_impacts: [
        { service_id: services.search, impact: 'major_outage' },
        { service_id: services.checkout, impact: 'partial_outage' },
      ],
    });
    expect((await operator.get(`/console/incidents/${inc.id}`)).text).toContain('Incident updated.');
  });

  it('posts an update with a status word and an explicit "Notify subscribers" checkbox, ticked by default', async () => {
    const inc = (
      await v1('POST', '/v1/incidents', {
        title: 'Logins failing',
        severity: 'major',
        affected_services: [services.checkout],
        publish: true,
      })
    ).body;
    const page = await operator.get(`/console/incidents/${inc.id}`);
    const fields = formFields(page.text, `/console/incidents/${inc.id}/message`);
    expect(fields.notify_subscribers).toEqual(['true']);
    expect(page.text).toContain(
      '<label><input type="checkbox" name="notify_subscribers" value="true" checked> Notify subscribers',
    );
    for (const word of ['Investigating', 'Identified', 'Monitoring', 'Resolved'])
      expect(page.text).toContain(`<option value="${word}"`);

    // Unticked: the browser sends no notify_subscribers.
    const { notify_subscribers: _, ...quiet } = fields;
    redirectedTo(
      await operator.post(`/console/incidents/${inc.id}/message`, {
        ...quiet,
        type: ['Identified'],
        body: ['A bad deploy, quietly.'],
      }),
      /^\/console\/incidents\//,
    );
    redirectedTo(
      await operator.post(`/console/incidents/${inc.id}/message`, {
        ...fields,
        type: ['Monitoring'],
        body: ['Rolled back.'],
      }),
      /^\/console\/incidents\//,
    );
    const messages = (await v1('GET', `/v1/incidents/${inc.id}`)).body.messages;
    expect(messages.map((m: { type: string; notify_subscribers: boolean }) => [m.type, m.notify_subscribers])).toEqual([
      ['Identified', false],
      ['Monitoring', true],
    ]);
    const after = await operator.get(`/console/incidents/${inc.id}`);
    expect(after.text).toContain('Message: Identified (subscribers not emailed)');
    expect(after.text).toContain('<strong>Message: Monitoring</strong>');

    // A problem keeps the box as it was posted.
    const bad = await operator.post(`/console/incidents/${inc.id}/message`, {
      ...quiet,
      type: ['Identified'],
      body: [''],
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(
      '<label><input type="checkbox" name="notify_subscribers" value="true"> Notify subscribers',
    );
  });

  it('edits and deletes a template; readers see it without forms; other organizations get 404', async () => {
    const page = await operator.get(`/console/incident-templates/${templateId}`);
    expect(page.text).toContain('Start incident from this template');
    const fields = formFields(page.text, `/console/incident-templates/${templateId}`);
    expect(fields[`impact.${services.checkout}`]).toEqual(['major_outage']);
    expect(fields[`impact.${services.search}`]).toEqual(['']);
    const bad = await operator.post(`/console/incident-templates/${templateId}`, { ...fields, name: [''] });
    expect([bad.status, bad.text.includes('Template name cannot be empty')]).toEqual([400, true]);
    redirectedTo(
      await operator.post(`/console/incident-templates/${templateId}`, {
        ...fields,
        name: ['Payments down'],
        severity: ['critical'],
      }),
      new RegExp(`^/console/incident-templates/${templateId}$`),
    );
    expect((await v1('GET', `/v1/incident-templates/${templateId}`)).body).toMatchObject({
      name: 'Payments down',
      severity: 'critical',
    });

    const read = await finance.get(`/console/incident-templates/${templateId}`);
    expect([read.status, read.text.includes('<form class="stack"'), read.text.includes('Payments down')]).toEqual([
      200,
      false,
      true,
    ]);
    const list = await finance.get('/console/incident-templates');
    expect(list.text).not.toContain('/console/incidents/new?template=');
    expect(list.text).toContain('Payments down');
    expect(
      (await finance.post('/console/incident-templates/new', { _csrf: csrfOf(list.text), name: 'x', title: 'y' }))
        .status,
    ).toBe(403);
    expect((await finance.get(`/console/incidents/new?template=${templateId}`)).status).toBe(403);

    const theirs = (await v1('POST', '/v1/incident-templates', { name: 'Not yours', title: 'Not yours' }, other.key))
      .body.id;
    const csrf = csrfOf((await operator.get('/console/incident-templates')).text);
    expect((await operator.get(`/console/incident-templates/${theirs}`)).status).toBe(404);
    expect((await operator.get(`/console/incidents/new?template=${theirs}`)).status).toBe(404);
    expect(
      (await operator.post(`/console/incident-templates/${theirs}`, { _csrf: csrf, name: 'stolen', title: 'stolen' }))
        .status,
    ).toBe(404);
    expect((await operator.post(`/console/incident-templates/${theirs}/delete`, { _csrf: csrf })).status).toBe(404);
    expect((await v1('GET', `/v1/incident-templates/${theirs}`, undefined, other.key)).body).toMatchObject({
      name: 'Not yours',
      deleted_at: null,
    });

    redirectedTo(
      await operator.post(`/console/incident-templates/${templateId}/delete`, { _csrf: csrf }),
      /^\/console\/incident-templates$/,
    );
    expect((await v1('GET', `/v1/incident-templates/${templateId}`)).status).toBe(404);
    expect((await operator.get('/console/incident-templates')).text).toContain(
      'Template &#34;Payments down&#34; deleted.',
    );
  });
});
