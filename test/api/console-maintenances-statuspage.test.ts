import { OutboxEventSchema } from '../../src/db/entities';
import { formatInZone } from '../../src/render/format-time';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { type ApiHarness, type TestOrg, startApi } from '../support/api-harness';
import { type ConsoleClient, type PageResult, csrfOf, signedInClient } from '../support/console-browser';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { pageRequest } from '../support/status-host';

let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let org: TestOrg;
let other: TestOrg;
let operator: ConsoleClient;
let viewer: ConsoleClient;
let berliner: ConsoleClient;
let service: string;

const HOUR = 3_600_000;
/** datetime-local text (UTC) `ms` from now, to the minute. */
const local = (ms: number) => new Date(Date.now() + ms).toISOString().slice(0, 16);
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
const v1 = (method: string, path: string, body?: unknown) =>
  api.request(method, path, { key: org.key, ...(body ? { body } : {}) });

function redirectedTo(res: PageResult, path: string): void {
  expect([res.status, res.headers.get('location')]).toEqual([303, path]);
}

async function scheduled(title: string): Promise<string> {
  const res = await v1('POST', '/v1/maintenances', {
    title,
    affected_services: [service],
    scheduled_start_at: `${local(24 * HOUR)}:00.000Z`,
    scheduled_end_at: `${local(26 * HOUR)}:00.000Z`,
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  api = await startApi({ console: { mail: mailer } });
  [org, other] = await Promise.all([
    api.createOrg('enterprise', 'Maint console org'),
    api.createOrg('enterprise', 'Someone else'),
  ]);
  service = (await v1('POST', '/v1/services', { name: 'Database' })).body.id;
  const page = await v1('POST', '/v1/status-pages', {
    subdomain: 'maint-console',
    title: 'Maint Console Status',
    groups: [{ name: null, components: [{ kind: 'service', id: service }] }],
  });
  expect(page.status).toBe(201);
  [operator, viewer, berliner] = await Promise.all([
    signedInClient(api, smtp, org.id, 'ops@maint.test', 'operator'),
    signedInClient(api, smtp, org.id, 'eyes@maint.test', 'viewer'),
    signedInClient(api, smtp, org.id, 'berlin@maint.test', 'operator'),
  ]);
  const settings = await berliner.get('/console/settings');
  expect(
    (await berliner.post('/console/settings', { _csrf: csrfOf(settings.text), time_zone: 'Europe/Berlin' })).status,
  ).toBe(303);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await mailer?.close();
  await smtp?.close();
});

describe('console maintenance updates', () => {
  it('posts an update with "Notify subscribers" ticked: on the timeline, on the status page, and an event that owes email', async () => {
    const id = await scheduled('Database upgrade');
    const page = await operator.get(`/console/maintenances/${id}`);
    expect(page.text).toContain(`action="/console/maintenances/${id}/messages"`);
    expect(page.text).toMatch(
      /<input type="checkbox" name="notify_subscribers" value="true" checked> Notify subscribers/,
    );

    redirectedTo(
      await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/messages`, {
        body: 'Replica promoted.',
        notify_subscribers: 'true',
      }),
      `/console/maintenances/${id}`,
    );
    const after = await operator.get(`/console/maintenances/${id}`);
    expect(textOf(after.text)).toContain('Update posted; subscribers are being emailed.');
    expect(textOf(after.text)).toMatch(/Timeline .*Scheduled .*Update \(emailed to subscribers\) .*Replica promoted\./);

    const api1 = await v1('GET', `/v1/maintenances/${id}`);
    expect(api1.body.messages).toEqual([
      expect.objectContaining({ kind: 'update', type: 'Update', body: 'Replica promoted.', notify_subscribers: true }),
    ]);
    const events = await api.orm.em
      .fork()
      .find(OutboxEventSchema, { resourceId: id, type: 'maintenance.message_added' });
    expect(
      events.map((e) => (e.payload as { message: { notify_subscribers: boolean } }).message.notify_subscribers),
    ).toEqual([true]);

    const publicPage = await pageRequest(api.baseUrl, 'maint-console', '/');
    expect(publicPage.status).toBe(200);
    expect(publicPage.text).toContain('Replica promoted.');
  });

  it('posts an update without email when the box is unticked, and keeps the text next to the field when it is empty', async () => {
    const id = await scheduled('Quiet work');
    redirectedTo(
      await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/messages`, {
        body: 'Only for the page.',
      }),
      `/console/maintenances/${id}`,
    );
    const page = await operator.get(`/console/maintenances/${id}`);
    expect(textOf(page.text)).toContain('Update posted (no email).');
    expect(textOf(page.text)).toContain('Update (not emailed) ');
    expect((await v1('GET', `/v1/maintenances/${id}`)).body.messages[0]).toMatchObject({ notify_subscribers: false });

    const empty = await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/messages`, {
      body: '   ',
    });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/<textarea id="f-body" name="body" required aria-invalid="true"/);
    expect(empty.text).toContain('validation_failed');
    // The box stays as the user left it (unticked).
    expect(empty.text).toMatch(/<input type="checkbox" name="notify_subscribers" value="true"> Notify subscribers/);
    expect((await v1('GET', `/v1/maintenances/${id}`)).body.messages).toHaveLength(1);
  });
});

describe('console maintenance cancel confirmation', () => {
  it("asks on its own page before canceling; only that page's button cancels", async () => {
    const id = await scheduled('Network swap');
    const detail = await operator.get(`/console/maintenances/${id}`);
    // The detail page links to the question; it carries no form that cancels at once.
    expect(detail.text).toContain(
      `<a class="button danger" href="/console/maintenances/${id}/cancel">Cancel maintenance…</a>`,
    );
    expect(detail.text).not.toContain(`action="/console/maintenances/${id}/cancel"`);

    const ask = await operator.get(`/console/maintenances/${id}/cancel`);
    expect(ask.status).toBe(200);
    expect(textOf(ask.text)).toMatch(
      /Cancel Network swap \? It is scheduled from .* UTC to .* UTC ; canceling means it will not happen\./,
    );
    expect(ask.text).toContain(`action="/console/maintenances/${id}/cancel"`);
    expect(ask.text).toContain(`<a href="/console/maintenances/${id}">No, keep it</a>`);
    expect((await v1('GET', `/v1/maintenances/${id}`)).body.state).toBe('scheduled');

    redirectedTo(
      await operator.submit(`/console/maintenances/${id}/cancel`, `/console/maintenances/${id}/cancel`, {}),
      `/console/maintenances/${id}`,
    );
    expect((await v1('GET', `/v1/maintenances/${id}`)).body.state).toBe('canceled');
    // Asking again about a canceled one goes back to it.
    redirectedTo(await operator.get(`/console/maintenances/${id}/cancel`), `/console/maintenances/${id}`);
  });

  it('offers no cancel for a window that is over', async () => {
    const id = await scheduled('Disk swap');
    expect((await v1('POST', `/v1/maintenances/${id}/start`)).status).toBe(200);
    expect((await operator.get(`/console/maintenances/${id}`)).text).toContain('Cancel maintenance…');
    expect((await v1('POST', `/v1/maintenances/${id}/complete`)).status).toBe(200);
    const done = await operator.get(`/console/maintenances/${id}`);
    expect(done.status).toBe(200);
    expect(done.text).not.toContain('Cancel maintenance');
    expect(done.text).not.toContain('id="actions"');
  });

  it("answers 403 to a viewer and 404 for another organization's maintenance", async () => {
    const id = await scheduled('Viewer cannot');
    expect((await viewer.get(`/console/maintenances/${id}/cancel`)).status).toBe(403);
    expect((await viewer.get(`/console/maintenances/${id}`)).text).not.toContain(`/console/maintenances/${id}/cancel`);
    expect(
      (await viewer.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/messages`, { body: 'x' }))
        .status,
    ).toBe(403);

    const theirs = (
      await api.request('POST', '/v1/maintenances', {
        key: other.key,
        body: {
          title: 'Not yours',
          scheduled_start_at: `${local(30 * HOUR)}:00.000Z`,
          scheduled_end_at: `${local(31 * HOUR)}:00.000Z`,
        },
      })
    ).body.id;
    expect((await operator.get(`/console/maintenances/${theirs}/cancel`)).status).toBe(404);
    expect(
      (
        await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${theirs}/messages`, {
          body: 'stolen',
        })
      ).status,
    ).toBe(404);
    expect((await api.request('GET', `/v1/maintenances/${theirs}`, { key: other.key })).body.messages).toEqual([]);
  });
});

describe('console maintenance reschedule and time zones', () => {
  it("labels the time fields with the viewer's zone, reads them in it, and shows the reschedule on the timeline", async () => {
    const form = await operator.get('/console/maintenances/new');
    expect(form.text).toContain('<label for="f-scheduled_start_at">Starts at (UTC)</label>');
    expect(form.text).toContain('<label for="f-scheduled_end_at">Ends at (UTC)</label>');

    const id = await scheduled('Move me');
    const before = (await v1('GET', `/v1/maintenances/${id}`)).body;
    const [newStart, newEnd] = [local(48 * HOUR), local(50 * HOUR)];
    redirectedTo(
      await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/reschedule`, {
        scheduled_start_at: newStart,
        scheduled_end_at: newEnd,
      }),
      `/console/maintenances/${id}`,
    );
    const after = (await v1('GET', `/v1/maintenances/${id}`)).body;
    expect([after.scheduled_start_at, after.scheduled_end_at]).toEqual([`${newStart}:00.000Z`, `${newEnd}:00.000Z`]);
    const note = after.messages.find((m: { kind: string }) => m.kind === 'reschedule');
    expect(note.body).toContain(
      `Rescheduled from ${before.scheduled_start_at.slice(0, 10)} ${before.scheduled_start_at.slice(11, 16)}`,
    );
    const page = await operator.get(`/console/maintenances/${id}`);
    expect(textOf(page.text)).toContain(`Rescheduled · `);
    expect(textOf(page.text)).toContain(note.body);
    expect(page.text).toContain(`value="${newStart}"`);

    const unreadable = await operator.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/reschedule`, {
      scheduled_start_at: 'tomorrow',
      scheduled_end_at: newEnd,
    });
    expect(unreadable.status).toBe(400);
    expect(unreadable.text).toMatch(/id="f-scheduled_start_at" name="scheduled_start_at" required aria-invalid="true"/);
    expect(unreadable.text).toContain('value="tomorrow"');
    expect(textOf(unreadable.text)).toContain('Starts at must be a date and time');
  });

  it("labels, fills and reads the fields in a Berlin viewer's zone, and notes a time the clocks skip", async () => {
    const form = await berliner.get('/console/maintenances/new');
    expect(form.text).toContain('<label for="f-scheduled_start_at">Starts at (Europe/Berlin)</label>');
    expect(form.text).toContain('<label for="f-scheduled_end_at">Ends at (Europe/Berlin)</label>');

    // 10:00–12:00 in Berlin in December is 09:00–11:00 UTC.
    const made = await berliner.submit('/console/maintenances/new', '/console/maintenances/new', {
      title: 'Winter window',
      scheduled_start_at: '2099-12-01T10:00',
      scheduled_end_at: '2099-12-01T12:00',
      affected_services: [service],
    });
    expect(made.status).toBe(303);
    const id = /\/console\/maintenances\/([0-9a-f-]{36})$/.exec(made.headers.get('location') ?? '')![1]!;
    const stored = (await v1('GET', `/v1/maintenances/${id}`)).body;
    expect([stored.scheduled_start_at, stored.scheduled_end_at]).toEqual([
      '2099-12-01T09:00:00.000Z',
      '2099-12-01T11:00:00.000Z',
    ]);
    const page = await berliner.get(`/console/maintenances/${id}`);
    expect(page.text).toContain('value="2099-12-01T10:00"');
    expect(page.text).toContain(
      `<time datetime="2099-12-01T09:00:00.000Z">${formatInZone('2099-12-01T09:00:00.000Z', 'Europe/Berlin')}</time>`,
    );
    expect(textOf(page.text)).toContain('times in Europe/Berlin');
    // The UTC viewer sees the same instant as 09:00 in their fields.
    expect((await operator.get(`/console/maintenances/${id}`)).text).toContain('value="2099-12-01T09:00"');

    // 02:30 on 29 March 2099 does not exist in Berlin: read as 03:30 CEST (01:30 UTC), and the notice says so.
    const moved = await berliner.submit(`/console/maintenances/${id}`, `/console/maintenances/${id}/reschedule`, {
      scheduled_start_at: '2099-03-29T02:30',
      scheduled_end_at: '2099-03-29T05:00',
    });
    redirectedTo(moved, `/console/maintenances/${id}`);
    const after = (await v1('GET', `/v1/maintenances/${id}`)).body;
    expect([after.scheduled_start_at, after.scheduled_end_at]).toEqual([
      '2099-03-29T01:30:00.000Z',
      '2099-03-29T03:00:00.000Z',
    ]);
    expect(textOf((await berliner.get(`/console/maintenances/${id}`)).text)).toContain(
      'New times saved. 02:30 does not exist on 2099-03-29 in Europe/Berlin (the clocks move forward); read as 03:30.',
    );
    expect(after.messages.at(-1).body).toBe(
      'Rescheduled from 2099-12-01 09:00–11:00 UTC to 2099-03-29 01:30–03:00 UTC.',
    );
  });
});
