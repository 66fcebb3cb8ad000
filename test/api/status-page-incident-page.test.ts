/**
 * One incident's own page on a public status page, as a reader reaches it in headless Chromium:
 * by clicking an incident's title on the page or in the history. The page is about that incident
 * alone (title, state, severity, services, whole timeline); an edited message shows its current
 * body with an "edited" mark, never the body it replaced, and the page's ETag moves with the edit
 * so a browser that asks again gets the new text.
 */
import type { Browser, Page } from 'playwright-core';
import { type ApiHarness, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { NARROW_WIDTH, hasHorizontalScroll } from '../support/console-page-checks';
import { eventually } from '../support/eventually';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';
import { pageRequest } from '../support/status-host';

const SUBDOMAIN = 'incident-pages';
const PAGE_TITLE = 'Incident Pages Status';

let api: ApiHarness;
let org: OrgFixture<never, 'Checkout' | 'Search'>;
let browser: Browser;
let base: string;
const ids = { active: '', resolved: '', secret: '', maintenance: '', activeFirstMessage: '' };

const call = async (method: string, url: string, body?: unknown) => {
  const r = await org.call(method, url, body);
  if (r.status >= 300) throw new Error(`${method} ${url} answered ${r.status}: ${r.text}`);
  return r.body;
};

async function open(path: string): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(5_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  const res = await page.goto(`${base}${path}`, { waitUntil: 'load' });
  expect(res?.status()).toBe(200);
  return { page, errors, close: () => context.close() };
}

beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { name: 'incident pages', services: ['Checkout', 'Search'] });
  base = `http://${SUBDOMAIN}.status.localhost:${new URL(api.baseUrl).port}`;

  const active = await call('POST', '/v1/incidents', {
    title: 'Checkout payments failing',
    severity: 'major',
    affected_services: [org.services.Checkout],
    publish: true,
    initial_message: { type: 'Investigating', body: 'Card payments time out at the provider.' },
  });
  ids.active = active.id;
  await call('POST', `/v1/incidents/${active.id}/messages`, {
    type: 'Identified',
    body: 'The payment provider is degraded; we are switching to the backup.',
  });
  ids.activeFirstMessage = (await call('GET', `/v1/incidents/${active.id}`)).messages.find((m: { body: string }) =>
    m.body.startsWith('Card payments'),
  ).id;

  const resolved = await call('POST', '/v1/incidents', {
    title: 'Search results stale',
    severity: 'minor',
    affected_services: [org.services.Search],
    publish: true,
    initial_message: { type: 'Investigating', body: 'The search index stopped updating.' },
  });
  ids.resolved = resolved.id;
  await call('POST', `/v1/incidents/${resolved.id}/resolve`, { message: 'The indexer is running again.' });

  const customer = (await call('POST', '/v1/customers', { name: 'Only Them Ltd' })).id;
  ids.secret = (
    await call('POST', '/v1/incidents', {
      title: 'Private checkout trouble',
      severity: 'minor',
      affected_services: [org.services.Checkout],
      publish: true,
      visible_to_customer_ids: [customer],
      initial_message: { type: 'Investigating', body: 'Only this customer may read this.' },
    })
  ).id;

  const start = new Date(Date.now() + 86_400_000);
  const maintenance = await call('POST', '/v1/maintenances', {
    title: 'Search cluster upgrade',
    description: 'Rolling upgrade of the search nodes.',
    affected_services: [org.services.Search],
    scheduled_start_at: start.toISOString(),
    scheduled_end_at: new Date(start.getTime() + 3_600_000).toISOString(),
  });
  ids.maintenance = maintenance.id;
  await call('POST', `/v1/maintenances/${maintenance.id}/start`);
  await call('POST', `/v1/maintenances/${maintenance.id}/complete`);

  await call('POST', '/v1/status-pages', {
    subdomain: SUBDOMAIN,
    title: PAGE_TITLE,
    time_zone: 'Europe/Berlin',
    groups: [
      {
        name: 'Shop',
        components: [
          { kind: 'service', id: org.services.Checkout },
          { kind: 'service', id: org.services.Search },
        ],
      },
    ],
  });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** What a reader of the incident's own page sees, checked in the browser that followed a link there. */
async function expectActiveIncidentPage(page: Page) {
  expect(new URL(page.url()).pathname).toBe(`/incidents/${ids.active}`);
  expect(await page.title()).toBe(`Checkout payments failing: ${PAGE_TITLE}`);
  expect(await page.locator('h1').innerText()).toBe('Checkout payments failing');
  const main = await page.locator('main').innerText();
  expect(main).toContain('Major severity');
  expect(main).toContain('Ongoing');
  expect(main).toContain('Checkout (');
  // The whole timeline, oldest message included.
  expect(main).toContain('Card payments time out at the provider.');
  expect(main).toContain('The payment provider is degraded; we are switching to the backup.');
  // Nothing of any other incident.
  for (const other of [
    'Search results stale',
    'The search index stopped updating.',
    'Private checkout trouble',
    'Search cluster upgrade',
  ])
    expect([other, main.includes(other)]).toEqual([other, false]);
  expect(await page.locator('main a[href="/"]').innerText()).toBe('Back to current status');
  expect(await page.locator('main a[href="/history"]').count()).toBe(1);
}

describe('an incident’s own page', () => {
  it('is reached by clicking the incident’s title on the status page, and is about that incident only', async () => {
    const { page, errors, close } = await open('/');
    try {
      expect(await page.locator(`a[href="/incidents/${ids.secret}"]`).count()).toBe(0);
      await page
        .locator('section[aria-labelledby="active-incidents"]')
        .getByRole('link', { name: 'Checkout payments failing' })
        .click();
      await page.waitForURL(`**/incidents/${ids.active}`);
      await expectActiveIncidentPage(page);
      // It reads on a phone too.
      await page.setViewportSize({ width: NARROW_WIDTH, height: 800 });
      expect(await hasHorizontalScroll(page)).toBe(false);
      await page.setViewportSize({ width: 1280, height: 900 });

      // Back to the page, then to the resolved one from "Recent incidents".
      await page.locator('main').getByRole('link', { name: 'Back to current status' }).click();
      await page.waitForURL(`${base}/`);
      await page
        .locator('section[aria-labelledby="recent-incidents"]')
        .getByRole('link', { name: 'Search results stale' })
        .click();
      await page.waitForURL(`**/incidents/${ids.resolved}`);
      expect(await page.locator('h1').innerText()).toBe('Search results stale');
      const main = await page.locator('main').innerText();
      expect(main).toContain('Resolved');
      expect(main).toContain('The indexer is running again.');
      expect(main).not.toContain('Checkout payments failing');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('is reached from the history by clicking, for incidents and maintenance alike', async () => {
    const { page, errors, close } = await open('/history');
    try {
      expect(await page.locator(`a[href="/incidents/${ids.secret}"]`).count()).toBe(0);
      await page.locator('main').getByRole('link', { name: 'Checkout payments failing' }).click();
      await page.waitForURL(`**/incidents/${ids.active}`);
      await expectActiveIncidentPage(page);

      await page.locator('main').getByRole('link', { name: 'Incident history' }).click();
      await page.waitForURL(`${base}/history`);
      await page.locator('main').getByRole('link', { name: 'Search cluster upgrade' }).click();
      await page.waitForURL(`**/maintenances/${ids.maintenance}`);
      expect(await page.title()).toBe(`Search cluster upgrade: ${PAGE_TITLE}`);
      expect(await page.locator('h1').innerText()).toBe('Search cluster upgrade');
      const main = await page.locator('main').innerText();
      expect(main).toContain('Maintenance: Completed');
      expect(main).toContain('Rolling upgrade of the search nodes.');
      expect(main).not.toContain('Checkout payments failing');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('stays hidden from readers who may not see a customer’s private incident', async () => {
    expect((await pageRequest(api.baseUrl, SUBDOMAIN, `/incidents/${ids.secret}`)).status).toBe(404);
    const token = (
      await call(
        'POST',
        `/v1/status-pages/${(await call('GET', '/v1/status-pages')).items.find((p: { subdomain: string }) => p.subdomain === SUBDOMAIN).id}/viewer-tokens`,
        {
          customer_id: (await call('GET', `/v1/incidents/${ids.secret}`)).visible_to_customer_ids[0],
        },
      )
    ).token;
    const theirs = await pageRequest(api.baseUrl, SUBDOMAIN, `/incidents/${ids.secret}`, {
      headers: { cookie: `vigil_viewer=${token}` },
    });
    expect(theirs.status).toBe(200);
    expect(theirs.text).toContain('<h1>Private checkout trouble</h1>');
    expect(theirs.headers['cache-control']).toBe('private, no-store');
  });
});

describe('an edited message on the public page', () => {
  it('shows the new body with an "edited" mark in the page’s zone, never the replaced body, and changes the ETag', async () => {
    const before = {
      home: await pageRequest(api.baseUrl, SUBDOMAIN, '/'),
      incident: await pageRequest(api.baseUrl, SUBDOMAIN, `/incidents/${ids.active}`),
    };
    for (const r of Object.values(before)) {
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('public, no-cache');
      expect(r.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(r.text).toContain('Card payments time out at the provider.');
      expect(r.text).not.toContain('data-edited');
    }
    // A reader's browser revalidates: unchanged, the page is a 304.
    expect(
      (
        await pageRequest(api.baseUrl, SUBDOMAIN, `/incidents/${ids.active}`, {
          headers: { 'if-none-match': before.incident.headers.etag! },
        })
      ).status,
    ).toBe(304);

    const edited = await org.call('PATCH', `/v1/incidents/${ids.active}/messages/${ids.activeFirstMessage}`, {
      body: 'Card payments time out at our payment provider (corrected).',
    });
    expect(edited.status).toBe(200);
    const editedAt: string = edited.body.messages.find(
      (m: { id: string }) => m.id === ids.activeFirstMessage,
    ).edited_at;
    expect(editedAt).toMatch(/^\d{4}-/);

    for (const [name, path] of [
      ['home', '/'],
      ['incident', `/incidents/${ids.active}`],
    ] as const) {
      const after = await eventually(async () => {
        const r = await pageRequest(api.baseUrl, SUBDOMAIN, path, {
          headers: { 'if-none-match': before[name].headers.etag! },
        });
        expect([name, r.status]).toEqual([name, 200]);
        return r;
      }, 5_000);
      expect(after.headers.etag).not.toBe(before[name].headers.etag);
      expect(after.text).toContain('Card payments time out at our payment provider (corrected).');
      expect(after.text).not.toContain('Card payments time out at the provider.');
      // Rendered in the page's zone (Europe/Berlin), as every time on the page.
      expect(after.text).toMatch(
        new RegExp(`data-edited>edited <time datetime="${editedAt.replace(/[.]/g, '\\.')}">[^<]+ CE(S)?T</time>`),
      );
    }
    const summary = JSON.parse((await pageRequest(api.baseUrl, SUBDOMAIN, '/summary.json')).text);
    const messages = summary.active_incidents.find((i: { id: string }) => i.id === ids.active).messages;
    expect(messages.map((m: { body: string; edited_at: string | null }) => [m.body, m.edited_at])).toEqual([
      ['The payment provider is degraded; we are switching to the backup.', null],
      ['Card payments time out at our payment provider (corrected).', editedAt],
    ]);
    expect(JSON.stringify(summary)).not.toContain('previous_bodies');

    // In Chromium: the home page and the incident's own page show the new body and the mark.
    const { page, errors, close } = await open('/');
    try {
      for (const step of ['home', 'incident'] as const) {
        if (step === 'incident') {
          await page
            .locator('section[aria-labelledby="active-incidents"]')
            .getByRole('link', { name: 'Checkout payments failing' })
            .click();
          await page.waitForURL(`**/incidents/${ids.active}`);
        }
        const entry = page.locator('li.entry', {
          hasText: 'Card payments time out at our payment provider (corrected).',
        });
        expect([step, await entry.count()]).toEqual([step, 1]);
        expect(await entry.locator('[data-edited]').innerText()).toMatch(
          /^edited \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+$/,
        );
        expect(await entry.locator('[data-edited] time').getAttribute('datetime')).toBe(editedAt);
        expect(await page.locator('main').innerText()).not.toContain('Card payments time out at the provider.');
        // The untouched message has no mark.
        expect(
          await page.locator('li.entry', { hasText: 'switching to the backup' }).locator('[data-edited]').count(),
        ).toBe(0);
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
