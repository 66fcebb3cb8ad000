import { randomUUID } from 'node:crypto';
import { AlertSchema, AlertTimelineEntrySchema, ConsoleUserSchema } from '../../src/db/entities';
import { type Mailer, createMailer } from '../../src/infra/mailer';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, type PageResult, csrfOf, signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

/**
 * The alerting side of the console over the real API and PostgreSQL: channels,
 * escalation policies, on-call schedules, alert rules and silences through the forms; alerts with
 * their timelines; who is on call on the overview; what readers may not do. This API runs without
 * alert workflows (no Temporal), so acknowledging and "send test" answer 503 alert_busy.
 */
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture<never, 'Checkout'>;
let other: OrgFixture;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let finance: ConsoleClient;

const run = randomUUID().slice(0, 8);
const emails = {
  operator: `ops-${run}@alerting.test`,
  viewer: `viewer-${run}@alerting.test`,
  finance: `money-${run}@alerting.test`,
};
const HOUR = 3_600_000;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer, temporalUiUrl: 'http://temporal-ui.test' } });
  org = await orgWithKeys(api, { name: 'Alerting org', services: ['Checkout'] });
  other = await orgWithKeys(api, { name: 'Other alerting org' });
  [operator, viewer, finance] = await Promise.all([
    signedInClient(api, smtp, org.id, emails.operator, 'operator'),
    signedInClient(api, smtp, org.id, emails.viewer, 'viewer'),
    signedInClient(api, smtp, org.id, emails.finance, 'finance'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The text of a page without tags, entities decoded, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/\s+/g, ' ');

/** Follows a 303 (post/redirect/get) and answers the page with its notice. */
async function followed(client: ConsoleClient, res: PageResult): Promise<PageResult & { location: string }> {
  if (res.status !== 303) throw new Error(`expected 303, got ${res.status}: ${textOf(res.text).slice(0, 600)}`);
  const location = res.headers.get('location')!;
  return { ...(await client.get(location)), location };
}

/** The error paragraph shown under field `name` (its id is f-<name with dots as dashes>-error). */
function fieldError(html: string, name: string): string | null {
  const id = `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}-error`;
  const m = new RegExp(`<p class="field-error" id="${id}">([^<]*)</p>`).exec(html);
  return m ? textOf(m[1]!) : null;
}

const ids: {
  channel?: string;
  webhookChannel?: string;
  policy?: string;
  schedule?: string;
  rule?: string;
  alert?: string;
  resolvedAlert?: string;
} = {};

describe('console alerting: configuration through the forms', () => {
  it('shows Alerts and On call in the navigation of every role', async () => {
    for (const client of [operator, viewer, finance]) {
      const page = await client.get('/console');
      expect(page.text).toContain('<a href="/console/alerts">Alerts</a>');
      expect(page.text).toContain('<a href="/console/on-call">On call</a>');
    }
    // Nothing set up yet: the Alerts page says where to start, in order, with links.
    const alerts = textOf((await operator.get('/console/alerts')).text);
    expect(alerts).toMatch(
      /Set up alerting in three steps to do 1\. A notification channel .* 0 so far · Add one to do 2\. An escalation policy .* 0 so far · Add one to do 3\. An alert rule .* 0 so far · Add one/,
    );
    expect(textOf((await viewer.get('/console/alerts')).text)).not.toContain('Add one');
  });

  it('creates a Slack channel, never shows its URL again, edits it, and answers "send test" with a readable 503 without alert workflows', async () => {
    const form = await operator.get('/console/alerts/channels/new');
    expect(form.status).toBe(200);
    const created = await followed(
      operator,
      await operator.post('/console/alerts/channels/new', {
        _csrf: csrfOf(form.text),
        name: '#ops <alerts>',
        type: 'slack',
        url: 'https://hooks.slack.test/services/T000/B000/secret-token',
        enabled: 'true',
      }),
    );
    ids.channel = /\/console\/alerts\/channels\/([0-9a-f-]{36})$/.exec(created.location)![1];
    expect(created.text).toContain('Channel created.');
    expect(created.text).toContain('#ops &#60;alerts&#62;');
    expect(created.text).toContain('hooks.slack.test');
    expect(created.text).not.toContain('secret-token');

    const list = await operator.get('/console/alerts/channels');
    expect(textOf(list.text)).toMatch(/#ops <alerts> Slack \(incoming webhook\) hooks\.slack\.test enabled/);
    expect(list.text).not.toContain('secret-token');

    // Edit: a new name; the URL left empty keeps the sealed one.
    const edit = await operator.get(`/console/alerts/channels/${ids.channel}/edit`);
    expect(edit.text).not.toContain('secret-token');
    const saved = await followed(
      operator,
      await operator.post(`/console/alerts/channels/${ids.channel}/edit`, {
        _csrf: csrfOf(edit.text),
        name: '#ops-alerts',
        url: '',
        enabled: 'true',
      }),
    );
    expect(saved.text).toContain('Channel saved.');
    const fromApi = await org.call('GET', `/v1/notification-channels/${ids.channel}`);
    expect(fromApi.body).toMatchObject({
      name: '#ops-alerts',
      type: 'slack',
      secret_hint: 'hooks.slack.test',
      enabled: true,
    });

    const test = await operator.post(`/console/alerts/channels/${ids.channel}/test`, { _csrf: csrfOf(saved.text) });
    expect(test.status).toBe(503);
    expect(test.headers.get('retry-after')).toBe('5');
    expect(test.text).toContain('<div class="problem" role="alert"');
    expect(textOf(test.text)).toContain('alert_busy');
    expect(textOf(test.text)).toMatch(/started without alert workflows \(Temporal\)/);
    // Still the channel's page, with its buttons.
    expect(test.text).toContain('<h1>Channel: #ops-alerts</h1>');
  });

  it("shows the signing secret of a webhook channel once, and the API's errors next to their fields", async () => {
    const form = await operator.get('/console/alerts/channels/new');
    const created = await followed(
      operator,
      await operator.post('/console/alerts/channels/new', {
        _csrf: csrfOf(form.text),
        name: 'Bridge',
        type: 'webhook',
        url: 'https://bridge.example.com/vigil',
        enabled: 'true',
      }),
    );
    ids.webhookChannel = /\/channels\/([0-9a-f-]{36})$/.exec(created.location)![1];
    const secret = /signing secret, shown only now: (whsec_[A-Za-z0-9+/=]+)/.exec(textOf(created.text))?.[1];
    expect(secret).toMatch(/^whsec_/);
    expect((await operator.get(created.location)).text).not.toContain(secret!);

    const bad = await operator.post('/console/alerts/channels/new', {
      _csrf: csrfOf(form.text),
      name: '  ',
      type: 'pagerduty',
      routing_key: 'too-short',
      url: 'ignored',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('validation_failed');
    expect(fieldError(bad.text, 'routing_key')).toBeTruthy();
    expect(fieldError(bad.text, 'name')).toBeTruthy();
    expect(bad.text).toMatch(/<input type="text" id="f-routing_key" name="routing_key" aria-invalid="true"/);
    // What was typed is kept (but a secret is typed again).
    expect(bad.text).toContain('<option value="pagerduty" selected>');
    expect(bad.text).not.toContain('too-short');

    const email = await operator.post('/console/alerts/channels/new', {
      _csrf: csrfOf(form.text),
      name: 'Mail',
      type: 'email',
      addresses: 'ops@example.com\nnot-an-address',
    });
    expect(email.status).toBe(400);
    expect(fieldError(email.text, 'addresses')).toBeTruthy();
    expect(email.text).toContain('not-an-address</textarea>');
  });

  it('creates an escalation policy (channel, then a console user), leaving the blank level out, and edits it', async () => {
    const form = await operator.get('/console/on-call/policies/new');
    expect(form.text).toContain(`value="${ids.channel}"`);
    expect(form.text).toContain(`value="${emails.operator}"`);
    // No target at all: the API's "at least one level", as a readable summary.
    const empty = await operator.post('/console/on-call/policies/new', {
      _csrf: csrfOf(form.text),
      name: 'Nobody',
      'levels.0.delay_minutes': '15',
      repeat: '0',
    });
    expect(empty.status).toBe(400);
    expect(textOf(empty.text)).toMatch(/Levels: must hold at least one level/);

    const created = await followed(
      operator,
      await operator.post('/console/on-call/policies/new', {
        _csrf: csrfOf(form.text),
        name: 'Checkout escalation',
        'levels.0.channels': ids.channel!,
        'levels.0.delay_minutes': '10',
        'levels.1.delay_minutes': '15',
        'levels.2.users': emails.operator,
        'levels.2.delay_minutes': '30',
        repeat: '1',
      }),
    );
    expect(created.location).toBe('/console/on-call/policies');
    expect(created.text).toContain('Escalation policy &#34;Checkout escalation&#34; created.');
    expect(textOf(created.text)).toMatch(
      /Checkout escalation channel #ops-alerts; then 10 min [^ ]+@alerting\.test; then 30 min 1 more time/,
    );
    const policies = await org.call('GET', '/v1/escalation-policies');
    const policy = policies.body.items.find((p: { name: string }) => p.name === 'Checkout escalation');
    ids.policy = policy.id;
    expect(policy).toMatchObject({
      repeat: 1,
      levels: [
        { delay_minutes: 10, targets: [{ type: 'channel', id: ids.channel }] },
        { delay_minutes: 30, targets: [{ type: 'user', email: emails.operator }] },
      ],
    });

    // A delay out of range in the second slot shows next to that slot's field.
    const edit = await operator.get(`/console/on-call/policies/${ids.policy}/edit`);
    expect(edit.text).toMatch(new RegExp(`name="levels\\.0\\.channels" value="${ids.channel}" checked`));
    const refused = await operator.post(`/console/on-call/policies/${ids.policy}/edit`, {
      _csrf: csrfOf(edit.text),
      name: 'Checkout escalation',
      'levels.0.channels': ids.channel!,
      'levels.0.delay_minutes': '10',
      'levels.1.users': emails.operator,
      'levels.1.delay_minutes': '9999',
      repeat: '1',
    });
    expect(refused.status).toBe(400);
    expect(fieldError(refused.text, 'levels.1.delay_minutes')).toMatch(/1 to 1440|1440/);
    const saved = await followed(
      operator,
      await operator.post(`/console/on-call/policies/${ids.policy}/edit`, {
        _csrf: csrfOf(edit.text),
        name: 'Checkout: page then lead',
        'levels.0.channels': ids.channel!,
        'levels.0.delay_minutes': '5',
        repeat: '0',
      }),
    );
    expect(saved.text).toContain('saved.');
    expect((await org.call('GET', `/v1/escalation-policies/${ids.policy}`)).body).toMatchObject({
      name: 'Checkout: page then lead',
      repeat: 0,
      levels: [{ delay_minutes: 5 }],
    });
  });

  it('creates an on-call schedule with a console user, shows 14 days of shifts, and names an unknown participant next to the field', async () => {
    const form = await operator.get('/console/on-call/schedules/new');
    expect(form.text).toContain(emails.operator);
    const base = {
      _csrf: csrfOf(form.text),
      schedule_name: 'Checkout primary',
      timezone: 'Europe/Berlin',
      'layers.0.name': 'Primary',
      'layers.0.rotation.kind': 'weekly',
      'layers.0.rotation.handoff_time': '09:00',
      'layers.0.rotation.handoff_weekday': '1',
      'layers.0.rotation.shift_hours': '',
      'layers.0.rotation.starts_on': '2026-01-05',
      // A blank second layer and override are left out.
      'layers.1.name': '',
      'layers.1.rotation.kind': 'weekly',
      'layers.1.rotation.handoff_time': '09:00',
      'layers.1.rotation.starts_on': '2026-01-05',
      'layers.1.rotation.participants': '',
      'overrides.0.user': '',
      'overrides.0.start_at': '',
      'overrides.0.end_at': '',
    };
    const unknown = await operator.post('/console/on-call/schedules/new', {
      ...base,
      'layers.0.rotation.participants': `${emails.operator}\nstranger@nowhere.test`,
    });
    expect(unknown.status).toBe(400);
    expect(fieldError(unknown.text, 'layers.0.rotation.participants')).toBe('Not a console user of this organization');
    expect(unknown.text).toContain('stranger@nowhere.test</textarea>');

    const badZone = await operator.post('/console/on-call/schedules/new', {
      ...base,
      timezone: 'Mars/Olympus',
      'layers.0.rotation.participants': emails.operator,
    });
    expect(badZone.status).toBe(400);
    expect(fieldError(badZone.text, 'timezone')).toMatch(/IANA time zone/);

    const created = await followed(
      operator,
      await operator.post('/console/on-call/schedules/new', {
        ...base,
        'layers.0.rotation.participants': emails.operator,
      }),
    );
    ids.schedule = /\/schedules\/([0-9a-f-]{36})$/.exec(created.location)![1];
    expect(created.text).toContain('Schedule created.');
    expect(created.text).toContain('<h2 id="shifts">Next 14 days</h2>');
    const shifts = await org.call('GET', `/v1/on-call/schedules/${ids.schedule}/shifts`);
    expect(shifts.body.items.length).toBeGreaterThan(0);
    // One person on one layer is one shift over the window: the same rows as the API's (the window starts at each one's now).
    const section = created.text.split('<h2 id="shifts">')[1]!;
    expect(section.split('<tbody>')[1]!.split('<tr>').length - 1).toBe(shifts.body.items.length);
    expect(textOf(section)).toContain(`${emails.operator} `);
    const [from, to] = [...section.matchAll(/<time datetime="([^"]+)">/g)].map((m) => Date.parse(m[1]!));
    expect(to! - from!).toBe(14 * 24 * HOUR);
    expect(textOf(created.text)).toContain(`On call now ${emails.operator}`);
    expect((await org.call('GET', `/v1/on-call/schedules/${ids.schedule}`)).body.layers).toEqual([
      {
        name: 'Primary',
        rotation: {
          kind: 'weekly',
          handoff_time: '09:00',
          handoff_weekday: 1,
          starts_on: '2026-01-05',
          participants: [emails.operator],
        },
      },
    ]);
  });

  it('shows who is on call now on the overview and the On call page; an override added by editing takes over', async () => {
    let overview = await viewer.get('/console');
    expect(overview.text).toContain('<h2 id="on-call-now">Who is on call now</h2>');
    expect(textOf(overview.text)).toContain(`Checkout primary ${emails.operator} (Primary)`);

    const edit = await operator.get(`/console/on-call/schedules/${ids.schedule}/edit`);
    expect(edit.text).toContain('value="Checkout primary"');
    const now = Date.now();
    const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);
    const form: Record<string, string> = { _csrf: csrfOf(edit.text) };
    for (const m of edit.text.matchAll(
      /<input type="(?:text|number|email|datetime-local)" id="[^"]+" name="([^"]+)"[^>]*value="([^"]*)">/g,
    ))
      form[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    for (const m of edit.text.matchAll(/<select id="[^"]+" name="([^"]+)"[^>]*>(.*?)<\/select>/g))
      form[m[1]!] = /<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? '';
    for (const m of edit.text.matchAll(/<textarea id="[^"]+" name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g))
      form[m[1]!] = m[2]!;
    Object.assign(form, {
      'overrides.0.user': emails.viewer,
      'overrides.0.start_at': local(now - HOUR),
      'overrides.0.end_at': local(now + 2 * HOUR),
    });
    const saved = await followed(
      operator,
      await operator.post(`/console/on-call/schedules/${ids.schedule}/edit`, form),
    );
    expect(saved.text).toContain('Schedule saved.');
    expect(textOf(saved.text)).toContain(`On call now ${emails.viewer}`);

    overview = await viewer.get('/console');
    expect(textOf(overview.text)).toContain(`Checkout primary ${emails.viewer} (override)`);
    const onCall = await viewer.get('/console/on-call');
    expect(textOf(onCall.text)).toContain(`Checkout primary Europe/Berlin Primary ${emails.viewer} (override)`);
  });

  it('creates an alert rule and a silence, lists them, ends the silence, and refuses a metric rule without its metric next to the field', async () => {
    const form = await operator.get('/console/alerts/rules/new');
    expect(form.text).toContain(`<option value="${org.services.Checkout}">Service: Checkout</option>`);
    const noMetric = await operator.post('/console/alerts/rules/new', {
      _csrf: csrfOf(form.text),
      name: 'Latency',
      kind: 'metric_status',
      subject_id: '',
      severity: 'warning',
      escalation_policy_id: ids.policy!,
      enabled: 'true',
      auto_resolve: 'true',
    });
    expect(noMetric.status).toBe(400);
    expect(fieldError(noMetric.text, 'subject_id')).toMatch(/required for kind metric_status/);

    const created = await followed(
      operator,
      await operator.post('/console/alerts/rules/new', {
        _csrf: csrfOf(form.text),
        name: 'Checkout down',
        kind: 'service_status',
        subject_id: org.services.Checkout,
        include_degraded: 'true',
        severity: 'critical',
        escalation_policy_id: ids.policy!,
        enabled: 'true',
        auto_resolve: 'true',
      }),
    );
    expect(created.location).toBe('/console/alerts/rules');
    expect(textOf(created.text)).toMatch(
      /Checkout down A service \(or any service\) becomes unhealthy \(degraded too\) Service: Checkout critical Checkout: page then lead enabled/,
    );
    const rules = await org.call('GET', '/v1/alert-rules');
    ids.rule = rules.body.items.find((r: { name: string }) => r.name === 'Checkout down').id;

    const silenceForm = await operator.get('/console/alerts/silences/new');
    const noEnd = await operator.post('/console/alerts/silences/new', {
      _csrf: csrfOf(silenceForm.text),
      rule_ids: [ids.rule!],
      ends_at: '',
      reason: 'Deploy',
    });
    expect(noEnd.status).toBe(400);
    expect(fieldError(noEnd.text, 'ends_at')).toBe('Until must be a date and time');
    const nothing = await operator.post('/console/alerts/silences/new', {
      _csrf: csrfOf(silenceForm.text),
      ends_at: new Date(Date.now() + HOUR).toISOString().slice(0, 16),
      reason: 'Deploy',
    });
    expect(nothing.status).toBe(400);
    expect(nothing.text).toMatch(/<fieldset id="f-rule_ids" aria-describedby="f-rule_ids-error">/);

    const silenced = await followed(
      operator,
      await operator.post('/console/alerts/silences/new', {
        _csrf: csrfOf(silenceForm.text),
        rule_ids: [ids.rule!],
        ends_at: new Date(Date.now() + 2 * HOUR).toISOString().slice(0, 16),
        reason: 'Database <migration>',
      }),
    );
    expect(silenced.text).toContain('Silence active');
    expect(textOf(silenced.text)).toMatch(/Database <migration> active Checkout down none/);
    const silences = await org.call('GET', '/v1/silences');
    const silence = silences.body.items.find((s: { reason: string }) => s.reason === 'Database <migration>');
    const user = await api.orm.em
      .fork()
      .findOneOrFail(ConsoleUserSchema, { organization: org.id, email: emails.operator });
    expect(silence.created_by).toBe(`console:${user.id}`);

    const ended = await followed(
      operator,
      await operator.post(`/console/alerts/silences/${silence.id}/delete`, { _csrf: csrfOf(silenced.text) }),
    );
    expect(ended.text).toContain('Silence ended.');
    expect(ended.text).not.toContain('Database &#60;migration&#62;');
  });

  it('offers only what the chosen kind can watch, edits, disables and enables a rule, and asks before every delete', async () => {
    // The kind is chosen first; a metric rule is offered metrics, never a service.
    const metricForm = await operator.get('/console/alerts/rules/new?kind=metric_status');
    expect(metricForm.text).not.toContain(`<option value="${org.services.Checkout}">Service: Checkout</option>`);
    expect(metricForm.text).toContain('<input type="hidden" name="kind" value="metric_status">');
    const serviceForm = await operator.get('/console/alerts/rules/new?kind=service_status');
    expect(serviceForm.text).toContain(`<option value="${org.services.Checkout}">Service: Checkout</option>`);
    expect(serviceForm.text).not.toMatch(/<option value="[^"]+">Metric: /);

    // Edit: the form comes back filled; the kind stays.
    const edit = await operator.get(`/console/alerts/rules/${ids.rule}/edit`);
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('value="Checkout down"');
    expect(edit.text).toContain("a rule's kind cannot change");
    const saved = await followed(
      operator,
      await operator.post(`/console/alerts/rules/${ids.rule}/edit`, {
        _csrf: csrfOf(edit.text),
        name: 'Checkout is down',
        subject_id: org.services.Checkout,
        severity: 'warning',
        escalation_policy_id: ids.policy!,
        enabled: 'true',
        auto_resolve: 'true',
      }),
    );
    expect(saved.text).toContain('Alert rule &#34;Checkout is down&#34; saved.');
    expect((await org.call('GET', `/v1/alert-rules/${ids.rule}`)).body).toMatchObject({
      name: 'Checkout is down',
      severity: 'warning',
      kind: 'service_status',
      include_degraded: false,
    });
    const blank = await operator.post(`/console/alerts/rules/${ids.rule}/edit`, {
      _csrf: csrfOf(edit.text),
      name: '',
      subject_id: org.services.Checkout,
      severity: 'warning',
      escalation_policy_id: ids.policy!,
      enabled: 'true',
    });
    expect(blank.status).toBe(400);
    expect(fieldError(blank.text, 'name')).toBeTruthy();

    // Disable and enable from the list.
    const list = await operator.get('/console/alerts/rules');
    const off = await followed(
      operator,
      await operator.post(`/console/alerts/rules/${ids.rule}/enabled`, { _csrf: csrfOf(list.text), enabled: 'false' }),
    );
    expect(off.text).toContain('disabled: it raises no alert until enabled again');
    expect((await org.call('GET', `/v1/alert-rules/${ids.rule}`)).body.enabled).toBe(false);
    await followed(
      operator,
      await operator.post(`/console/alerts/rules/${ids.rule}/enabled`, { _csrf: csrfOf(list.text), enabled: 'true' }),
    );
    expect((await org.call('GET', `/v1/alert-rules/${ids.rule}`)).body.enabled).toBe(true);
    // As it was, for the tests after this one.
    await followed(
      operator,
      await operator.post(`/console/alerts/rules/${ids.rule}/edit`, {
        _csrf: csrfOf(edit.text),
        name: 'Checkout down',
        subject_id: org.services.Checkout,
        include_degraded: 'true',
        severity: 'critical',
        escalation_policy_id: ids.policy!,
        enabled: 'true',
        auto_resolve: 'true',
      }),
    );

    // No delete is one click: the lists link to a page that names what goes, and only its button deletes.
    for (const [listPath, confirmPath, noun] of [
      ['/console/alerts/rules', `/console/alerts/rules/${ids.rule}/delete`, 'alert rule'],
      ['/console/on-call/policies', `/console/on-call/policies/${ids.policy}/delete`, 'escalation policy'],
      [
        `/console/on-call/schedules/${ids.schedule}`,
        `/console/on-call/schedules/${ids.schedule}/delete`,
        'on-call schedule',
      ],
      [
        `/console/alerts/channels/${ids.channel}`,
        `/console/alerts/channels/${ids.channel}/delete`,
        'notification channel',
      ],
    ] as const) {
      const page = await operator.get(listPath);
      expect([listPath, page.text.includes(`href="${confirmPath}"`)]).toEqual([listPath, true]);
      expect([listPath, page.text.includes(`action="${confirmPath}"`)]).toEqual([listPath, false]);
      const confirm = await operator.get(confirmPath);
      expect([confirmPath, confirm.status]).toEqual([confirmPath, 200]);
      expect(confirm.text).toContain(`<button type="submit" class="danger">Delete ${noun}</button>`);
      expect(confirm.text).toContain(`action="${confirmPath}"`);
    }
    expect((await org.call('GET', `/v1/alert-rules/${ids.rule}`)).status).toBe(200);
    // Channel, policy and rule exist: the checklist is gone.
    expect((await operator.get('/console/alerts')).text).not.toContain('Set up alerting');
    expect((await viewer.get(`/console/alerts/rules/${ids.rule}/delete`)).status).toBe(403);
    expect((await operator.get('/console/alerts/rules/00000000-0000-0000-0000-000000000000/delete')).status).toBe(404);
  });

  it('refuses to delete a channel a policy targets, saying why on its page', async () => {
    const page = await operator.get(`/console/alerts/channels/${ids.channel}`);
    const res = await operator.post(`/console/alerts/channels/${ids.channel}/delete`, { _csrf: csrfOf(page.text) });
    expect(res.status).toBe(409);
    expect(textOf(res.text)).toMatch(/The notification channel is a target of 1 escalation policy.*Error code: in_use/);
    const gone = await followed(
      operator,
      await operator.post(`/console/alerts/channels/${ids.webhookChannel}/delete`, { _csrf: csrfOf(page.text) }),
    );
    expect(gone.text).toContain('Channel &#34;Bridge&#34; deleted.');
  });
});

describe('console alerting: alerts', () => {
  beforeAll(async () => {
    // Raising an alert needs the Temporal worker; the rows it writes are made here as it would make them.
    const em = api.orm.em.fork();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const alert = (state: string, minutesAgo: number, extra: Record<string, unknown> = {}) =>
      em.create(AlertSchema, {
        id: randomUUID(),
        organization: org.id,
        rule: ids.rule!,
        subjectKind: 'service',
        subjectId: state === 'resolved' ? randomUUID() : org.services.Checkout,
        subjectName: 'Checkout',
        workflowId: `alert:${ids.rule}:${org.services.Checkout}`,
        state,
        severity: 'critical',
        title: state === 'resolved' ? 'Checkout was down' : 'Checkout is unhealthy',
        summary: 'Checkout (service) is unhealthy.',
        level: 1,
        triggerCount: 1,
        suppressedBy: null,
        snoozedUntil: null,
        triggeredAt: at(minutesAgo),
        lastTriggeredAt: at(minutesAgo),
        acknowledgedAt: null,
        acknowledgedBy: null,
        resolvedAt: null,
        resolvedBy: null,
        createdAt: at(minutesAgo),
        updatedAt: at(minutesAgo),
        ...extra,
      });
    const open = alert('triggered', 12);
    const done = alert('resolved', 300, { resolvedAt: at(240), resolvedBy: 'vigil (recovered)' });
    const entry = (
      a: { id: string },
      kind: string,
      minutesAgo: number,
      actor: string | null,
      detail: Record<string, unknown>,
    ) =>
      em.create(AlertTimelineEntrySchema, {
        id: randomUUID(),
        organization: org.id,
        alert: a.id,
        key: `${kind}:${minutesAgo}`,
        at: at(minutesAgo),
        kind,
        actor,
        detail,
      });
    entry(open, 'triggered', 12, null, { status: 'unhealthy', severity: 'critical' });
    entry(open, 'notified_level', 11.9, null, { level: 1, pass: 0 });
    entry(open, 'escalated', 2, null, { level: 2, pass: 0 });
    entry(done, 'triggered', 300, null, { status: 'unhealthy', severity: 'critical' });
    entry(done, 'acknowledged', 280, `console user ${emails.operator}`, {});
    entry(done, 'resolved', 240, 'vigil (recovered)', { auto: true });
    await em.flush();
    ids.alert = open.id;
    ids.resolvedAlert = done.id;
  });

  it('lists open alerts first with acknowledge and resolve buttons, the resolved below without', async () => {
    const page = await operator.get('/console/alerts');
    expect(page.status).toBe(200);
    const text = textOf(page.text);
    expect(text).toMatch(
      /Open .*Checkout is unhealthy .*triggered critical Checkout down .*Recently resolved .*Checkout was down .*resolved/,
    );
    expect(page.text).toContain(`action="/console/alerts/${ids.alert}/acknowledge"`);
    expect(page.text).toContain(`action="/console/alerts/${ids.alert}/resolve"`);
    expect(page.text).not.toContain(`action="/console/alerts/${ids.resolvedAlert}/resolve"`);

    const resolvedOnly = await operator.get('/console/alerts?state=resolved');
    expect(resolvedOnly.text).toContain('Checkout was down');
    expect(resolvedOnly.text).not.toContain('Checkout is unhealthy');
    expect((await operator.get('/console/alerts?state=sleeping')).status).toBe(400);
  });

  it("shows each alert's timeline in words, with a link to its workflow", async () => {
    const open = await operator.get(`/console/alerts/${ids.alert}`);
    expect(textOf(open.text)).toMatch(
      /Triggered .*Status: unhealthy, severity critical .*Notified level 1 .*Escalated to level 2/,
    );
    expect(open.text).toContain(
      `http://temporal-ui.test/namespaces/default/workflows/${encodeURIComponent(`alert:${ids.rule}:${org.services.Checkout}`)}`,
    );
    expect(open.text).toContain('name="minutes"');
    const done = await operator.get(`/console/alerts/${ids.resolvedAlert}`);
    expect(textOf(done.text)).toMatch(
      new RegExp(
        `Acknowledged by console user ${emails.operator.replace(/\./g, '\\.')} .*Resolved automatically: the subject recovered`,
      ),
    );
    expect(done.text).not.toContain('/acknowledge"');
  });

  it('answers acknowledge, resolve and snooze without alert workflows with a readable 503 on the alert page, changing nothing', async () => {
    for (const [action, form] of [
      ['acknowledge', {}],
      ['resolve', {}],
      ['snooze', { minutes: '60' }],
    ] as const) {
      const page = await operator.get(`/console/alerts/${ids.alert}`);
      const res = await operator.post(`/console/alerts/${ids.alert}/${action}`, { ...form, _csrf: csrfOf(page.text) });
      expect([action, res.status]).toEqual([action, 503]);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('<div class="problem" role="alert"');
      expect(textOf(res.text)).toMatch(/without alert workflows \(Temporal\).*Error code: alert_busy/);
      expect(res.text).toContain('<h1>Alert: Checkout is unhealthy</h1>');
    }
    const snoozeTooLong = await operator.post(`/console/alerts/${ids.alert}/snooze`, {
      minutes: '5000',
      _csrf: csrfOf((await operator.get('/console')).text),
    });
    expect(snoozeTooLong.status).toBe(400);
    // A resolved alert is the API's 409 alert_closed, on its page.
    const closed = await operator.post(`/console/alerts/${ids.resolvedAlert}/acknowledge`, {
      _csrf: csrfOf((await operator.get('/console')).text),
    });
    expect(closed.status).toBe(409);
    expect(textOf(closed.text)).toContain('alert_closed');
    expect((await org.call('GET', `/v1/alerts/${ids.alert}`)).body.state).toBe('triggered');
  });

  it('counts the open alerts on the overview', async () => {
    const overview = await operator.get('/console');
    expect(textOf(overview.text)).toContain('1 open alert');
  });

  it("does not show another organization's alert", async () => {
    const res = await operator.get(`/console/alerts/${ids.alert}`);
    expect(res.status).toBe(200);
    const stranger = await signedInClient(api, smtp, other.id, `stranger-${run}@alerting.test`, 'owner');
    expect((await stranger.get(`/console/alerts/${ids.alert}`)).status).toBe(404);
    expect((await stranger.get(`/console/alerts/channels/${ids.channel}`)).status).toBe(404);
    expect((await stranger.get(`/console/on-call/schedules/${ids.schedule}`)).status).toBe(404);
  });
});

describe('console alerting: readers', () => {
  it('shows viewers and finance every alerting page without a write button or link', async () => {
    for (const client of [viewer, finance]) {
      const pages = [
        '/console/alerts',
        `/console/alerts/${ids.alert}`,
        '/console/alerts/channels',
        `/console/alerts/channels/${ids.channel}`,
        '/console/alerts/rules',
        '/console/alerts/silences',
        '/console/on-call',
        `/console/on-call/schedules/${ids.schedule}`,
        '/console/on-call/policies',
      ];
      for (const path of pages) {
        const page = await client.get(path);
        expect([path, page.status]).toEqual([path, 200]);
        // The only form a reader gets is sign-out (and the state filter, a GET).
        const posts = [...page.text.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"/g)].map((m) => m[1]);
        expect([path, posts]).toEqual([path, ['/console/sign-out']]);
        expect(page.text).not.toMatch(/href="[^"]*\/(new|edit)"/);
      }
      expect(textOf((await client.get('/console/alerts')).text)).toContain('Checkout is unhealthy');
    }
  });

  it('answers 403 to every write of a viewer and finance, with a valid CSRF token', async () => {
    const writes = [
      `/console/alerts/${ids.alert}/acknowledge`,
      `/console/alerts/${ids.alert}/resolve`,
      `/console/alerts/${ids.alert}/snooze`,
      '/console/alerts/channels/new',
      `/console/alerts/channels/${ids.channel}/edit`,
      `/console/alerts/channels/${ids.channel}/test`,
      `/console/alerts/channels/${ids.channel}/delete`,
      '/console/on-call/policies/new',
      `/console/on-call/policies/${ids.policy}/edit`,
      `/console/on-call/policies/${ids.policy}/delete`,
      '/console/on-call/schedules/new',
      `/console/on-call/schedules/${ids.schedule}/edit`,
      `/console/on-call/schedules/${ids.schedule}/delete`,
      '/console/alerts/rules/new',
      `/console/alerts/rules/${ids.rule}/delete`,
      `/console/alerts/rules/${ids.rule}/edit`,
      `/console/alerts/rules/${ids.rule}/enabled`,
      '/console/alerts/silences/new',
    ];
    for (const client of [viewer, finance]) {
      const csrf = csrfOf((await client.get('/console')).text);
      for (const path of writes) {
        const res = await client.post(path, { _csrf: csrf, name: 'x' });
        expect([path, res.status]).toEqual([path, 403]);
        expect(res.text).toContain('it needs write:alerts');
      }
      for (const path of [
        '/console/alerts/channels/new',
        '/console/on-call/schedules/new',
        '/console/on-call/policies/new',
        '/console/alerts/rules/new',
        '/console/alerts/silences/new',
      ]) {
        expect([path, (await client.get(path)).status]).toEqual([path, 403]);
      }
    }
    // Nothing changed.
    expect((await org.call('GET', `/v1/notification-channels/${ids.channel}`)).body.name).toBe('#ops-alerts');
    expect((await org.call('GET', `/v1/alert-rules/${ids.rule}`)).status).toBe(200);
  });
});
