import { createMailer, type Mailer } from '../../src/infra/mailer';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type ConsoleClient, type PageResult, csrfOf, signedInClient } from '../support/console-browser';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

const TEMPORAL_UI = 'http://127.0.0.1:8233';

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let other: TestOrg;
let operator: ConsoleClient;
let finance: ConsoleClient;
let services: { checkout: string; search: string };

beforeAll(async () => {
  [h, smtp] = await Promise.all([startTemporalHarness(), startSmtpSink()]);
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    console: { mail: mailer, temporalUiUrl: TEMPORAL_UI },
  });
  [org, other] = await Promise.all([
    api.createOrg('enterprise', 'Operator org'),
    api.createOrg('enterprise', 'Someone else'),
  ]);
  const [checkout, search] = await Promise.all(
    ['Checkout', 'Search'].map((name) => api.request('POST', '/v1/services', { key: org.key, body: { name } })),
  );
  services = { checkout: checkout!.body.id, search: search!.body.id };
  [operator, finance] = await Promise.all([
    signedInClient(api, smtp, org.id, 'ops@operator.test', 'operator'),
    signedInClient(api, smtp, org.id, 'money@operator.test', 'finance'),
  ]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await h?.close();
  await mailer?.close();
  await smtp?.close();
});

/** The id in a redirect to `/console/<area>/<id>` (the notice travels in a cookie). */
function redirectedId(res: PageResult, area: string): string {
  expect(res.status).toBe(303);
  const m = new RegExp(`^/console/${area}/([0-9a-f-]{36})$`).exec(res.headers.get('location') ?? '');
  if (!m) throw new Error(`unexpected redirect ${res.headers.get('location')} (${res.text.slice(0, 300)})`);
  return m[1]!;
}

/** The text of a page without tags (for checking what a reader sees, in order). */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/\s+/g, ' ');

/** The "Next page" link of a list page, unescaped. */
function nextPage(html: string): string | null {
  const m = /<a href="([^"]+)">Next page →<\/a>/.exec(html);
  return m ? m[1]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))) : null;
}

/** datetime-local text (UTC) `ms` from now, to the minute. */
const local = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);
const HOUR = 3_600_000;

describe('console incidents', () => {
  it('takes an incident from draft to published to resolved through the forms, with each step on its timeline and the API agreeing', async () => {
    const list = await operator.get('/console/incidents');
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/console/incidents/new"');
    const form = await operator.get('/console/incidents/new');
    expect(form.text).toContain(`value="${services.checkout}"`);
    expect(form.text).toContain('Checkout');
    // The form says what leaving the services empty does.
    expect(form.text).toContain('Affected services (none selected: shown on every status page)');

    const created = await operator.submit('/console/incidents/new', '/console/incidents/new', {
      title: 'Card payments <failing>',
      severity: 'major',
      affected_services: [services.checkout],
      'initial_message.type': 'Investigating',
      'initial_message.body': 'Looking into failed card payments.',
    });
    const id = redirectedId(created, 'incidents');
    let page = await operator.get(created.headers.get('location')!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Draft incident created.');
    expect(page.text).toContain('Card payments &#60;failing&#62;');
    expect(page.text).not.toContain('<failing>');
    expect(page.text).toContain(`action="/console/incidents/${id}/publish"`);
    expect(page.text).toContain(`action="/console/incidents/${id}/delete"`);
    expect(textOf(page.text)).toMatch(/State draft/);

    expect((await operator.submit(`/console/incidents/${id}`, `/console/incidents/${id}/publish`, {})).status).toBe(
      303,
    );
    page = await operator.get(`/console/incidents/${id}`);
    expect(textOf(page.text)).toMatch(/State published/);
    expect(page.text).not.toContain(`action="/console/incidents/${id}/publish"`);
    expect(page.text).not.toContain(`action="/console/incidents/${id}/delete"`);

    // Publishing twice is the API's 409, shown on the incident's page.
    const again = await operator.post(`/console/incidents/${id}/publish`, { _csrf: csrfOf(page.text) });
    expect([again.status, again.text]).toEqual([409, expect.stringContaining('already_published')]);

    expect(
      (
        await operator.submit(`/console/incidents/${id}`, `/console/incidents/${id}/message`, {
          type: 'Identified',
          body: 'A certificate expired at the payment provider.',
        })
      ).status,
    ).toBe(303);
    expect(
      (
        await operator.submit(`/console/incidents/${id}`, `/console/incidents/${id}/resolve`, {
          message: 'Payments work again.',
        })
      ).status,
    ).toBe(303);
    page = await operator.get(`/console/incidents/${id}`);
    const text = textOf(page.text);
    expect(text).toMatch(/State resolved/);
    expect(text).toMatch(
      /Created as a draft .*Message: Investigating .*Looking into failed card payments\. .*Published .*Message: Identified .*A certificate expired at the payment provider\. .*Resolved .*Message: Resolved .*Payments work again\./,
    );
    expect(text).toMatch(/Affected services Checkout/);
    expect(page.text).not.toContain(`action="/console/incidents/${id}/resolve"`);

    const fromApi = await api.request('GET', `/v1/incidents/${id}`, { key: org.key });
    expect(fromApi.status).toBe(200);
    expect(fromApi.body).toMatchObject({
      title: 'Card payments <failing>',
      severity: 'major',
      state: 'resolved',
      affected_services: [services.checkout],
    });
    expect(fromApi.body.messages.map((m: { type: string; body: string }) => `${m.type}: ${m.body}`)).toEqual([
      'Investigating: Looking into failed card payments.',
      'Identified: A certificate expired at the payment provider.',
      'Resolved: Payments work again.',
    ]);
    for (const m of fromApi.body.messages) expect(page.text).toContain(`<time datetime="${m.posted_at}">`);
  });

  it('shows the problem next to its field: an empty title, an empty message, an unknown service', async () => {
    const res = await operator.submit('/console/incidents/new', '/console/incidents/new', {
      title: '   ',
      severity: 'critical',
      'initial_message.body': 'kept',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('validation_failed');
    expect(res.text).toMatch(
      /<input type="text" id="f-title" name="title" required aria-invalid="true" aria-describedby="f-title-hint f-title-error" value=" {3}">/,
    );
    expect(res.text).toMatch(/<p class="field-error" id="f-title-error">[^<]+<\/p>/);
    // What was typed is kept.
    expect(res.text).toContain('<option value="critical" selected>');
    expect(res.text).toContain('>kept</textarea>');

    const unknown = await operator.submit('/console/incidents/new', '/console/incidents/new', {
      title: 'Ghost',
      affected_services: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('unknown_services');
    expect(unknown.text).toMatch(/<fieldset id="f-affected_services" aria-describedby="f-affected_services-error">/);

    const draft = redirectedId(
      await operator.submit('/console/incidents/new', '/console/incidents/new', { title: 'Draft to drop' }),
      'incidents',
    );
    const empty = await operator.submit(`/console/incidents/${draft}`, `/console/incidents/${draft}/message`, {
      type: 'Update',
      body: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/<textarea id="f-body" name="body" required aria-invalid="true"/);
    // A draft cannot be resolved by a Resolved message: the API's 409, next to the message form.
    const early = await operator.submit(`/console/incidents/${draft}`, `/console/incidents/${draft}/message`, {
      type: 'Resolved',
      body: 'Never mind',
    });
    expect([early.status, early.text]).toEqual([409, expect.stringContaining('not_published')]);
    expect(early.text).toContain('>Never mind</textarea>');

    const deleted = await operator.submit(`/console/incidents/${draft}`, `/console/incidents/${draft}/delete`, {});
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, '/console/incidents']);
    expect((await operator.get(`/console/incidents/${draft}`)).status).toBe(404);
    expect((await api.request('GET', `/v1/incidents/${draft}`, { key: org.key })).status).toBe(404);
  });

  it('filters the list by state', async () => {
    const published = redirectedId(
      await operator.submit('/console/incidents/new', '/console/incidents/new', {
        title: 'Published at once',
        publish: 'true',
      }),
      'incidents',
    );
    const drafts = await operator.get('/console/incidents?state=draft');
    expect(drafts.text).not.toContain(`/console/incidents/${published}"`);
    expect((await operator.get('/console/incidents?state=published')).text).toContain(
      `/console/incidents/${published}"`,
    );
    expect((await operator.get('/console/incidents?state=bogus')).status).toBe(400);
  });
});

describe('console maintenance windows', () => {
  it('schedules, reschedules, starts and completes a maintenance through the forms, its workflow following', async () => {
    const form = await operator.get('/console/maintenances/new');
    expect(form.text).toContain('Starts at (UTC)');
    expect(form.text).toContain('Affected services (none selected: shown on every status page)');
    const start = local(2 * HOUR);
    const end = local(3 * HOUR);
    const created = await operator.submit('/console/maintenances/new', '/console/maintenances/new', {
      title: 'Database upgrade',
      description: 'PostgreSQL 17',
      scheduled_start_at: start,
      scheduled_end_at: end,
      affected_services: [services.search],
    });
    const id = redirectedId(created, 'maintenances');
    let page = await operator.get(`/console/maintenances/${id}`);
    expect(page.text).toContain(`<time datetime="${start}:00.000Z">`);
    expect(page.text).toContain(`href="${TEMPORAL_UI}/namespaces/default/workflows/maintenance%3A${id}"`);
    expect(page.text).toContain('Open in Temporal UI');
    expect(textOf(page.text)).toMatch(/State scheduled .*Affected services Search/);
    const handle = h.temporal.client.workflow.getHandle(`maintenance:${id}`);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    // An end before the start is the use case's validation_failed, next to the end field.
    const backwards = await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/reschedule`, {
      scheduled_start_at: local(5 * HOUR),
      scheduled_end_at: local(4 * HOUR),
    });
    expect(backwards.status).toBe(400);
    expect(backwards.text).toMatch(
      /<input type="datetime-local" id="f-scheduled_end_at" name="scheduled_end_at" required aria-invalid="true"/,
    );
    const unreadable = await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/reschedule`, {
      scheduled_start_at: 'soon',
      scheduled_end_at: local(4 * HOUR),
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.text).toMatch(/id="f-scheduled_start_at" name="scheduled_start_at" required aria-invalid="true"/);

    const newStart = local(5 * HOUR);
    const newEnd = local(7 * HOUR);
    expect(
      (
        await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/reschedule`, {
          scheduled_start_at: newStart,
          scheduled_end_at: newEnd,
        })
      ).status,
    ).toBe(303);
    page = await operator.get(`/console/maintenances/${id}`);
    expect(page.text).toContain(`<time datetime="${newStart}:00.000Z">`);
    expect(page.text).toContain(`<time datetime="${newEnd}:00.000Z">`);
    expect(page.text).toContain(`value="${newStart}"`);
    const rescheduled = await api.request('GET', `/v1/maintenances/${id}`, { key: org.key });
    expect(rescheduled.body).toMatchObject({
      state: 'scheduled',
      scheduled_start_at: `${newStart}:00.000Z`,
      scheduled_end_at: `${newEnd}:00.000Z`,
      description: 'PostgreSQL 17',
    });

    // Completing before it started is the API's 409 not_started.
    const early = await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/complete`, {});
    expect([early.status, early.text]).toEqual([409, expect.stringContaining('not_started')]);

    expect((await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/start`, {})).status).toBe(
      303,
    );
    page = await operator.get(`/console/maintenances/${id}`);
    expect(textOf(page.text)).toMatch(/State in progress/);
    // Once started, only the end can move.
    expect(page.text).not.toContain('name="scheduled_start_at"');
    expect(page.text).toContain(`action="/console/maintenances/${id}/complete"`);
    expect(
      (await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/complete`, {})).status,
    ).toBe(303);
    page = await operator.get(`/console/maintenances/${id}`);
    expect(textOf(page.text)).toMatch(/State completed/);
    expect(textOf(page.text)).toMatch(
      /Scheduled .*Information .*Maintenance started\. .*Resolved .*Maintenance completed\./,
    );
    expect(await handle.result()).toBe('completed');
    const done = await api.request('GET', `/v1/maintenances/${id}`, { key: org.key });
    expect(done.body.state).toBe('completed');
    expect(done.body.actual_start_at).not.toBeNull();
  }, 30_000);

  it('cancels a scheduled maintenance, and lists maintenance windows by state', async () => {
    const id = redirectedId(
      await operator.submit('/console/maintenances/new', '/console/maintenances/new', {
        title: 'Network swap',
        scheduled_start_at: local(10 * HOUR),
        scheduled_end_at: local(11 * HOUR),
      }),
      'maintenances',
    );
    expect(
      (await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/cancel`, {})).status,
    ).toBe(303);
    const page = await operator.get(`/console/maintenances/${id}`);
    expect(textOf(page.text)).toMatch(/State canceled .*Maintenance canceled\./);
    expect(page.text).not.toContain(`action="/console/maintenances/${id}/`);
    expect(await h.temporal.client.workflow.getHandle(`maintenance:${id}`).result()).toBe('canceled');
    expect((await api.request('GET', `/v1/maintenances/${id}`, { key: org.key })).body.state).toBe('canceled');
    expect((await operator.get('/console/maintenances?state=canceled')).text).toContain(`/console/maintenances/${id}"`);
    expect((await operator.get('/console/maintenances?state=scheduled')).text).not.toContain(
      `/console/maintenances/${id}"`,
    );

    const bad = await operator.submit('/console/maintenances/new', '/console/maintenances/new', {
      title: '',
      scheduled_start_at: '',
      scheduled_end_at: local(HOUR),
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-title" name="title" required aria-invalid="true"/);
    expect(bad.text).toMatch(/id="f-scheduled_start_at" name="scheduled_start_at" required aria-invalid="true"/);
  }, 30_000);
});

describe('console change events', () => {
  it('lists change events and records one by hand', async () => {
    const res = await operator.submit('/console/change-events', '/console/change-events', {
      kind: 'config_change',
      title: 'Raised the checkout timeout',
      service_ids: [services.checkout],
      actor: 'ops@operator.test',
      occurred_at: '2026-01-05T10:00',
      'links.0.label': 'Runbook',
      'links.0.url': 'https://runbooks.example/checkout',
    });
    expect([res.status, res.headers.get('location')]).toEqual([303, '/console/change-events']);
    const page = await operator.get('/console/change-events');
    expect(page.text).toContain('Raised the checkout timeout');
    expect(page.text).toContain('<time datetime="2026-01-05T10:00:00.000Z">');
    expect(page.text).toContain('href="https://runbooks.example/checkout"');
    const fromApi = await api.request('GET', '/v1/change-events?kind=config_change', { key: org.key });
    expect(fromApi.body.items[0]).toMatchObject({
      title: 'Raised the checkout timeout',
      service_ids: [services.checkout],
      occurred_at: '2026-01-05T10:00:00.000Z',
    });

    const bad = await operator.submit('/console/change-events', '/console/change-events', {
      kind: 'deploy',
      title: '',
      'links.0.label': 'x',
      'links.0.url': 'javascript:alert(1)',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-title" name="title" required aria-invalid="true"/);
    expect(bad.text).toMatch(/id="f-links-0-url" name="links.0.url" aria-invalid="true"/);
  });
});

describe('console operator pages: roles, CSRF, isolation, paging', () => {
  it('lets finance and viewers read but not write: no write buttons, 403 on every form', async () => {
    const id = (
      await api.request('POST', '/v1/incidents', {
        key: org.key,
        body: { title: 'Read only', affected_services: [services.search] },
      })
    ).body.id;
    const m = (
      await api.request('POST', '/v1/maintenances', {
        key: org.key,
        body: {
          title: 'Read only window',
          scheduled_start_at: new Date(Date.now() + 20 * HOUR).toISOString(),
          scheduled_end_at: new Date(Date.now() + 21 * HOUR).toISOString(),
        },
      })
    ).body.id;
    const viewer = await signedInClient(api, smtp, org.id, 'look@operator.test', 'viewer');
    for (const client of [finance, viewer]) {
      const list = await client.get('/console/incidents');
      expect(list.status).toBe(200);
      expect(list.text).not.toContain('/console/incidents/new');
      expect(list.text).not.toContain('New incident');
      const detail = await client.get(`/console/incidents/${id}`);
      expect(detail.status).toBe(200);
      expect(detail.text).not.toContain(`action="/console/incidents/${id}/`);
      const maintenance = await client.get(`/console/maintenances/${m}`);
      expect(maintenance.status).toBe(200);
      expect(maintenance.text).not.toContain(`action="/console/maintenances/${m}/`);
      expect((await client.get('/console/maintenances')).text).not.toContain('/console/maintenances/new');
      const changes = await client.get('/console/change-events');
      expect(changes.status).toBe(200);
      expect(changes.text).not.toContain('method="post" action="/console/change-events"');

      const csrf = csrfOf(list.text);
      expect((await client.get('/console/incidents/new')).status).toBe(403);
      expect((await client.get('/console/maintenances/new')).status).toBe(403);
      const posts: [string, Record<string, string>][] = [
        ['/console/incidents/new', { title: 'Not allowed' }],
        [`/console/incidents/${id}/publish`, {}],
        [`/console/incidents/${id}/message`, { type: 'Update', body: 'no' }],
        [`/console/incidents/${id}/delete`, {}],
        [
          '/console/maintenances/new',
          { title: 'No', scheduled_start_at: local(HOUR), scheduled_end_at: local(2 * HOUR) },
        ],
        [`/console/maintenances/${m}/start`, {}],
        [`/console/maintenances/${m}/cancel`, {}],
        [`/console/maintenances/${m}/reschedule`, { scheduled_end_at: local(30 * HOUR) }],
        ['/console/change-events', { kind: 'deploy', title: 'No' }],
      ];
      for (const [path, form] of posts) {
        const res = await client.post(path, { ...form, _csrf: csrf });
        expect([path, res.status, res.text]).toEqual([path, 403, expect.stringContaining('write:incidents')]);
      }
    }
    const still = await api.request('GET', `/v1/incidents/${id}`, { key: org.key });
    expect([still.body.state, still.body.messages]).toEqual(['draft', []]);
    expect((await api.request('GET', `/v1/maintenances/${m}`, { key: org.key })).body.state).toBe('scheduled');
  });

  it("refuses every form posted without the session's CSRF token", async () => {
    const id = (await api.request('POST', '/v1/incidents', { key: org.key, body: { title: 'CSRF target' } })).body.id;
    for (const path of [
      '/console/incidents/new',
      `/console/incidents/${id}/publish`,
      '/console/maintenances/new',
      '/console/change-events',
    ]) {
      const res = await operator.post(path, { title: 'Forged', kind: 'deploy' });
      expect([path, res.status, res.text]).toEqual([path, 403, expect.stringContaining('CSRF')]);
    }
    expect((await api.request('GET', `/v1/incidents/${id}`, { key: org.key })).body.state).toBe('draft');
  });

  it("answers 404 for another organization's incidents and maintenance windows, and changes nothing", async () => {
    const theirs = (await api.request('POST', '/v1/incidents', { key: other.key, body: { title: 'Not yours' } })).body
      .id;
    const theirWindow = (
      await api.request('POST', '/v1/maintenances', {
        key: other.key,
        body: {
          title: 'Not yours either',
          scheduled_start_at: new Date(Date.now() + 30 * HOUR).toISOString(),
          scheduled_end_at: new Date(Date.now() + 31 * HOUR).toISOString(),
        },
      })
    ).body.id;
    const csrf = csrfOf((await operator.get('/console/incidents')).text);
    expect((await operator.get(`/console/incidents/${theirs}`)).status).toBe(404);
    expect((await operator.post(`/console/incidents/${theirs}/publish`, { _csrf: csrf })).status).toBe(404);
    expect(
      (await operator.post(`/console/incidents/${theirs}/message`, { _csrf: csrf, type: 'Update', body: 'hello' }))
        .status,
    ).toBe(404);
    expect((await operator.get(`/console/maintenances/${theirWindow}`)).status).toBe(404);
    expect((await operator.post(`/console/maintenances/${theirWindow}/cancel`, { _csrf: csrf })).status).toBe(404);
    expect((await operator.get('/console/incidents/not-a-uuid')).status).toBe(404);
    expect((await api.request('GET', `/v1/incidents/${theirs}`, { key: other.key })).body).toMatchObject({
      state: 'draft',
      messages: [],
    });
    expect((await api.request('GET', `/v1/maintenances/${theirWindow}`, { key: other.key })).body.state).toBe(
      'scheduled',
    );
  });

  it('pages the incident and change-event lists 50 at a time through "Next page"', async () => {
    const paged = await api.createOrg('enterprise', 'Many things');
    const reader = await signedInClient(api, smtp, paged.id, 'reader@many.test', 'viewer');
    for (let batch = 0; batch < 6; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => {
          const n = batch * 10 + i;
          return Promise.all([
            api.request('POST', '/v1/incidents', {
              key: paged.key,
              body: { title: `Incident ${n}`, publish: n % 2 === 0 },
            }),
            api.request('POST', '/v1/change-events', {
              key: paged.key,
              body: {
                kind: 'deploy',
                title: `Deploy ${n}`,
                occurred_at: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
              },
            }),
          ]);
        }),
      );
    }
    const rowsOf = (html: string, area: string) =>
      new Set(html.match(new RegExp(`href="/console/${area}/[0-9a-f-]{36}"`, 'g')) ?? []).size;

    const first = await reader.get('/console/incidents');
    expect(rowsOf(first.text, 'incidents')).toBe(50);
    expect(first.text).toContain('Incident 59');
    const next = nextPage(first.text)!;
    expect(next).toMatch(/^\/console\/incidents\?cursor=/);
    const second = await reader.get(next);
    expect(rowsOf(second.text, 'incidents')).toBe(10);
    expect(nextPage(second.text)).toBeNull();
    expect(second.text).not.toContain('Incident 59');
    expect(second.text).toContain('>Incident 0<');

    const drafts = await reader.get('/console/incidents?state=draft');
    expect(rowsOf(drafts.text, 'incidents')).toBe(30);
    expect(nextPage(drafts.text)).toBeNull();

    const changes = await reader.get('/console/change-events');
    expect((changes.text.match(/>Deploy \d+</g) ?? []).length).toBe(50);
    expect(changes.text).toContain('>Deploy 59<');
    const more = nextPage(changes.text)!;
    expect(more).toMatch(/^\/console\/change-events\?cursor=/);
    const rest = await reader.get(more);
    expect((rest.text.match(/>Deploy \d+</g) ?? []).length).toBe(10);
    expect(rest.text).toContain('>Deploy 0<');
    expect(nextPage(rest.text)).toBeNull();
    // The filter stays on the next page.
    const filtered = nextPage((await reader.get('/console/change-events?kind=deploy')).text);
    expect(filtered).toMatch(/^\/console\/change-events\?kind=deploy&cursor=/);
  });
});
