/**
 * Each console user's time zone. Stored per user, validated as an IANA zone (refused in
 * words next to the field), used for the times pages render; without a choice the page is marked
 * for console.js to show the browser's zone (and stays in UTC, saying so, without script).
 */
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { formatInZone } from '../../src/render/format-time';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type ConsoleClient, csrfOf, signedInClient } from '../support/console-browser';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: OrgFixture;
let ana: ConsoleClient;
let incidentAt: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  org = await orgWithKeys(api, { name: 'Zones org' });
  const incident = await org.call('POST', '/v1/incidents', {
    title: 'Zoned incident',
    severity: 'major',
    publish: true,
  });
  incidentAt = incident.body.published_at;
  ana = await signedInClient(api, smtp, org.id, 'ana@zones.test', 'viewer');
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

describe('console settings: time zone', () => {
  it('without a chosen zone renders UTC, says so, and marks the page for the browser zone script', async () => {
    const page = await ana.get('/console/settings');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<body data-time-zone="browser">');
    expect(page.text).toContain('<script src="/console/assets/console.js" defer></script>');
    expect(page.text).toContain(
      "No zone chosen: times are shown in your browser's time zone (in UTC where scripts do not run).",
    );
    expect(page.text).toMatch(/<option value="">Your browser(&#39;|')s time zone<\/option>/);
    expect(page.text).toContain('<option value="Europe/Berlin">Europe/Berlin</option>');
    const overview = await ana.get('/console');
    expect(overview.text).toContain(`<time datetime="${incidentAt}">${formatInZone(incidentAt, 'UTC')}</time>`);
    expect(formatInZone(incidentAt, 'UTC')).toMatch(/ UTC$/);
  });

  it('refuses a zone that does not exist, in words next to the field', async () => {
    const form = await ana.get('/console/settings');
    const res = await ana.post('/console/settings', { _csrf: csrfOf(form.text), time_zone: 'Mars/Olympus_Mons' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('validation_failed');
    expect(
      /<p class="field-error" id="f-time_zone-error">(Time zone: )?&#34;Mars\/Olympus_Mons&#34; is not a time zone: choose one from the list, such as Europe\/Berlin or America\/New_York\.<\/p>/.test(
        res.text,
      ),
    ).toBe(true);
    expect(res.text).toContain('aria-invalid="true"');
    expect((await ana.get('/console/settings')).text).toContain('data-time-zone="browser"');
  });

  it('stores a chosen zone per user and renders times in it, named', async () => {
    const form = await ana.get('/console/settings');
    const saved = await ana.post('/console/settings', { _csrf: csrfOf(form.text), time_zone: 'America/New_York' });
    expect(saved.status).toBe(303);
    const page = await ana.get('/console/settings');
    expect(page.text).toContain('Times are now shown in America/New_York.');
    expect(page.text).toContain('<option value="America/New_York" selected>America/New York</option>');
    expect(page.text).not.toContain('data-time-zone="browser"');
    const overview = await ana.get('/console');
    const shown = formatInZone(incidentAt, 'America/New_York');
    expect(shown).toMatch(/ (EST|EDT|GMT-[45])$/);
    expect(overview.text).toContain(`<time datetime="${incidentAt}">${shown}</time>`);

    // Another user of the same organization keeps their own (none).
    const bo = await signedInClient(api, smtp, org.id, 'bo@zones.test', 'viewer');
    expect((await bo.get('/console')).text).toContain(
      `<time datetime="${incidentAt}">${formatInZone(incidentAt, 'UTC')}</time>`,
    );

    // Back to the browser's zone.
    const again = await ana.get('/console/settings');
    expect((await ana.post('/console/settings', { _csrf: csrfOf(again.text), time_zone: '' })).status).toBe(303);
    expect((await ana.get('/console/settings')).text).toContain('data-time-zone="browser"');
  });

  it('serves the zone script without a session, allowed by the CSP', async () => {
    const res = await fetch(`${api.baseUrl}/console/assets/console.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await res.text()).toContain('resolvedOptions().timeZone');
    expect((await ana.get('/console/settings')).headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
