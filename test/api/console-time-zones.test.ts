/**
 * One zone on one screen: a console user who chose Europe/Berlin reads every time, timeline and
 * date field in Berlin time, named, and what they type there lands as the right instant; zone
 * fields are picked from the list of IANA zones.
 */
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture;
let berlin: ConsoleClient;
let serviceId: string;
let incidentId: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  org = await orgWithKeys(api, { name: 'Berlin org' });
  serviceId = (await org.call('POST', '/v1/services', { name: 'Checkout' })).body.id;
  incidentId = (await org.call('POST', '/v1/incidents', { title: 'Slow checkout', severity: 'major', publish: true }))
    .body.id;
  berlin = await signedInClient(api, smtp, org.id, 'bea@berlin.test', 'owner');
  const settings = await berlin.get('/console/settings');
  expect(
    (await berlin.post('/console/settings', { _csrf: csrfOf(settings.text), time_zone: 'Europe/Berlin' })).status,
  ).toBe(303);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

describe("console times in the viewer's zone", () => {
  it("labels a Berlin user's maintenance form with Europe/Berlin and stores 14:00 there as 12:00 UTC in summer", async () => {
    const form = await berlin.get('/console/maintenances/new');
    expect(form.text).toContain('<label for="f-scheduled_start_at">Starts at (Europe/Berlin)</label>');
    expect(form.text).not.toContain('(UTC)');
    const res = await berlin.post('/console/maintenances/new', {
      _csrf: csrfOf(form.text),
      title: 'Database upgrade',
      service_ids: [serviceId],
      scheduled_start_at: '2099-07-01T14:00',
      scheduled_end_at: '2099-07-01T15:30',
    });
    expect(res.status).toBe(303);
    const list = await org.call('GET', '/v1/maintenances');
    const stored = list.body.items.find((m: { title: string }) => m.title === 'Database upgrade');
    expect(stored).toMatchObject({
      scheduled_start_at: '2099-07-01T12:00:00.000Z',
      scheduled_end_at: '2099-07-01T13:30:00.000Z',
    });
  });

  it('labels the silence form with Europe/Berlin and reads a time typed there in Berlin (CET in winter)', async () => {
    const form = await berlin.get('/console/alerts/silences/new');
    expect(form.text).toContain('<label for="f-ends_at">Until (Europe/Berlin)</label>');
    expect(form.text).not.toContain('(UTC');
    const res = await berlin.post('/console/alerts/silences/new', {
      _csrf: csrfOf(form.text),
      service_ids: [serviceId],
      starts_at: '2099-01-10T09:00',
      ends_at: '2099-01-10T18:30',
      reason: 'Winter migration',
    });
    expect(res.status).toBe(303);
    const list = await berlin.get('/console/alerts/silences');
    // 18:30 in Berlin in January is 17:30 UTC; the list shows it back in Berlin time, named.
    expect(list.text).toContain('<time datetime="2099-01-10T17:30:00.000Z">10 Jan 2099, 18:30 CET</time>');
    expect(list.text).toContain('<time datetime="2099-01-10T08:00:00.000Z">10 Jan 2099, 09:00 CET</time>');
  });

  it('labels on-call override fields with Europe/Berlin and shows a stored override back in Berlin wall time', async () => {
    const form = await berlin.get('/console/on-call/schedules/new');
    expect(form.text).toContain('<label for="f-overrides-0-start_at">From (Europe/Berlin)</label>');
    const res = await berlin.post('/console/on-call/schedules/new', {
      _csrf: csrfOf(form.text),
      schedule_name: 'Payments',
      timezone: 'Europe/Berlin',
      'layers.0.name': 'Primary',
      'layers.0.rotation.kind': 'weekly',
      'layers.0.rotation.handoff_time': '09:00',
      'layers.0.rotation.handoff_weekday': '1',
      'layers.0.rotation.starts_on': '2099-01-05',
      'layers.0.rotation.participants': 'bea@berlin.test',
      'overrides.0.user': 'bea@berlin.test',
      'overrides.0.start_at': '2099-07-01T08:00',
      'overrides.0.end_at': '2099-07-01T20:00',
    });
    expect(res.status).toBe(303);
    const schedules = await org.call('GET', '/v1/on-call/schedules');
    const payments = schedules.body.items.find((s: { name: string }) => s.name === 'Payments');
    expect(payments.overrides[0]).toMatchObject({
      start_at: '2099-07-01T06:00:00.000Z',
      end_at: '2099-07-01T18:00:00.000Z',
    });
    const edit = await berlin.get(`/console/on-call/schedules/${payments.id}/edit`);
    expect(edit.text).toContain('value="2099-07-01T08:00"');
  });

  it("shows an incident's timeline in Berlin time and says so", async () => {
    const page = await berlin.get(`/console/incidents/${incidentId}`);
    expect(page.text).toContain('Oldest first, times in <span data-zone-name>Europe/Berlin</span>.');
    expect(page.text).not.toContain('times in UTC');
    const timeline = page.text.slice(page.text.indexOf('<ol class="timeline">'));
    expect(timeline).toMatch(/<time datetime="[^"]+">[^<]+ (CET|CEST)<\/time>/);
    expect(timeline.slice(0, timeline.indexOf('</ol>'))).not.toMatch(/UTC<\/time>/);
  });

  it('offers every zone field as a select of IANA zones grouped by region', async () => {
    for (const [path, name] of [
      ['/console/settings', 'time_zone'],
      ['/console/status-pages/new', 'time_zone'],
      ['/console/on-call/schedules/new', 'timezone'],
      ['/console/slos/new', 'window.timezone'],
      ['/console/contracts/new', 'timezone'],
    ] as const) {
      const page = await berlin.get(path);
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      const select = new RegExp(
        `<select id="f-${name.replace('.', '-')}" name="${name.replace('.', '\\.')}"[^>]*>([\\s\\S]*?)</select>`,
      ).exec(page.text);
      expect({ path, select: select !== null }).toEqual({ path, select: true });
      expect(select![1]).toContain('<option value="UTC"');
      expect(select![1]).toContain('<optgroup label="Europe">');
      expect(select![1]).toContain('<option value="America/New_York"');
      expect(page.text).not.toMatch(new RegExp(`<input type="text" id="f-${name.replace('.', '-')}"`));
    }
  });
});
