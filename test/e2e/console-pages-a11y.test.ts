/**
 * Every console page in a real headless Chromium (Debian's, driven by playwright-core), issue 27:
 * an owner signs in by the emailed link, the organization has one of everything, and the test
 * crawls every page reachable from the navigation and from list pages (GET links under /console,
 * one page per route pattern). Each page, at 1280 and at 390 px: no horizontal scroll, no control
 * cut off, no serious or critical axe-core violation (every rule at 1280; at 390 the rules that
 * depend on layout, LAYOUT_RULES, or every rule when the narrow page renders other elements), no
 * console error; its server time
 * (Server-Timing) and size go to the log. And a refused form keeps what was typed and puts the
 * focus on its error summary. A missing Chromium fails this file; it is never skipped.
 *
 * Behind the browser: the real API on PostgreSQL, a real Temporal server (maintenance and metric
 * workflows) and a real SMTP sink for the sign-in link.
 */
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AlertSchema, AlertTimelineEntrySchema } from '../../src/db/entities';
import { createConsoleUser } from '../../src/usecases/console/users';
import { createMailer, type Mailer } from '../../src/infra/mailer';
import { temporalMaintenanceScheduler } from '../../src/temporal/maintenance-scheduler';
import { temporalMetricScheduler } from '../../src/temporal/metric-schedules';
import { type ApiHarness, type HttpResult, type TestOrg, startApi } from '../support/api-harness';
import { launchBrowser } from '../support/browser';
import { signInPathFromMail } from '../support/console-browser';
import {
  LAYOUT_RULES,
  NARROW_WIDTH,
  type Violation,
  collectConsoleErrors,
  findClippedControls,
  hasHorizontalScroll,
  hiddenElements,
  logPageTiming,
  runAxe,
} from '../support/console-page-checks';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { type TemporalHarness, startTemporalHarness } from '../support/temporal-harness';

declare const document: { activeElement: { id: string; tagName: string } | null };

const WIDE = { width: 1280, height: 900 };
const NARROW = { width: NARROW_WIDTH, height: 800 };
const HOUR = 3_600_000;
const run = randomUUID().slice(0, 8);
const OWNER = `owner-${run}@a11y.example`;
/** Links the crawl does not follow: downloads (YAML exports, statement documents), assets, sign-in. */
const NOT_PAGES = /\.(ya?ml|pdf|json|jws|csv|css|txt)$|^\/console\/(assets|sign-in|sign-out)\b/;

let h: TemporalHarness;
let api: ApiHarness;
let smtp: SmtpSink;
let mailer: Mailer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let org: TestOrg;
let consoleErrors: string[];

async function ok<T = any>(res: Promise<HttpResult<T>>): Promise<HttpResult<T>> {
  const r = await res;
  if (r.status >= 300) throw new Error(`expected success, got ${r.status}: ${r.text}`);
  return r;
}
const call = (method: string, path: string, body?: unknown) => ok(api.request(method, path, { key: org.key, body }));

/** One of everything the console lists, made through the API (as a client would), and an open alert as its workflow writes it. */
async function seed(): Promise<void> {
  const checkout = (await call('POST', '/v1/services', { name: 'Checkout API' })).body.id;
  const search = (await call('POST', '/v1/services', { name: 'Search' })).body.id;
  const metric = (
    await call('POST', '/v1/metrics', {
      service_id: checkout,
      name: 'availability',
      source_type: 'manual',
      source_config: {},
    })
  ).body.id;
  await call('POST', '/v1/slos', {
    name: 'Checkout availability',
    metric_id: metric,
    objective: '99.9',
    window: { kind: 'rolling', days: 30 },
    no_data: 'excluded',
    maintenance: 'counted',
  });
  const incident = (await call('POST', '/v1/incidents', { title: 'Checkout errors', affected_services: [checkout] }))
    .body.id;
  await call('POST', `/v1/incidents/${incident}/publish`);
  await call('POST', '/v1/maintenances', {
    title: 'Database upgrade',
    affected_services: [search],
    scheduled_start_at: new Date(Date.now() + 24 * HOUR).toISOString(),
    scheduled_end_at: new Date(Date.now() + 26 * HOUR).toISOString(),
  });
  await call('POST', '/v1/change-events', {
    kind: 'deploy',
    title: 'Checkout API 4.2.0',
    service_ids: [checkout],
    actor: 'github-actions[bot]',
    links: [{ label: 'Pipeline', url: 'https://ci.example.com/run/1' }],
  });
  await call('POST', '/v1/status-pages', {
    subdomain: `a11y-${run}`,
    title: 'Acme status',
    groups: [{ name: null, components: [{ kind: 'service', id: checkout }] }],
  });
  await call('POST', '/v1/webhooks', {
    url: 'https://hooks.example.com/vigil',
    event_types: ['incident.created'],
    description: 'Pager bridge',
  });
  await call('POST', '/v1/agents', { name: `edge-${run}` });
  const customer = (await call('POST', '/v1/customers', { name: 'Globex', contact_email: 'ops@globex.test' })).body.id;
  await call('POST', '/v1/contracts', {
    customer_id: customer,
    name: 'Globex Gold',
    service_ids: [checkout],
    sla_target_pct: '99.95',
    timezone: 'Europe/Berlin',
    currency: 'EUR',
    monthly_fee_minor: 100_000,
    effective_from: '2026-01-01',
    credit_terms: { type: 'tiered', steps: [{ below_pct: '99.99', credit_pct: '10' }], maintenance_notice_hours: 48 },
    billing_email: 'billing@globex.test',
  });
  const channel = (
    await call('POST', '/v1/notification-channels', {
      name: '#ops-alerts',
      type: 'slack',
      url: 'https://hooks.slack.example/services/T0/B0/x',
    })
  ).body.id;
  const schedule = (
    await call('POST', '/v1/on-call/schedules', {
      name: 'Checkout primary',
      timezone: 'Europe/Berlin',
      layers: [
        {
          name: 'Primary',
          rotation: { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-01-05', participants: [OWNER] },
        },
      ],
    })
  ).body.id;
  const policy = (
    await call('POST', '/v1/escalation-policies', {
      name: 'Checkout escalation',
      levels: [
        { delay_minutes: 10, targets: [{ type: 'channel', id: channel }] },
        { delay_minutes: 30, targets: [{ type: 'schedule', id: schedule }] },
      ],
    })
  ).body.id;
  const rule = (
    await call('POST', '/v1/alert-rules', {
      name: 'Checkout down',
      kind: 'service_status',
      subject_id: checkout,
      severity: 'critical',
      escalation_policy_id: policy,
    })
  ).body.id;
  await call('POST', '/v1/silences', {
    rule_ids: [rule],
    ends_at: new Date(Date.now() + HOUR).toISOString(),
    reason: 'Database migration',
  });
  const em = api.orm.em.fork();
  const now = new Date();
  const alert = em.create(AlertSchema, {
    id: randomUUID(),
    organization: org.id,
    rule,
    subjectKind: 'service',
    subjectId: checkout,
    subjectName: 'Checkout API',
    workflowId: `alert:${rule}:${checkout}`,
    state: 'triggered',
    severity: 'critical',
    title: 'Checkout API is unhealthy',
    summary: 'Checkout API (service) is unhealthy.',
    level: 1,
    triggerCount: 1,
    suppressedBy: null,
    snoozedUntil: null,
    triggeredAt: now,
    lastTriggeredAt: now,
    acknowledgedAt: null,
    acknowledgedBy: null,
    resolvedAt: null,
    resolvedBy: null,
    createdAt: now,
    updatedAt: now,
  });
  em.create(AlertTimelineEntrySchema, {
    id: randomUUID(),
    organization: org.id,
    alert: alert.id,
    key: 'triggered',
    at: now,
    kind: 'triggered',
    actor: null,
    detail: { status: 'unhealthy', severity: 'critical' },
  });
  await em.flush();
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  mailer = createMailer({ smtpUrl: smtp.url, from: 'Vigil <console@vigil.test>', outboxDir: '/nonexistent' });
  h = await startTemporalHarness();
  api = await startApi({
    console: { mail: mailer },
    maintenanceScheduler: temporalMaintenanceScheduler(h.temporal),
    metricScheduler: temporalMetricScheduler(h.temporal),
  });
  org = await api.createOrg('enterprise', 'Acme Accessible');
  await createConsoleUser(api.orm.em.fork(), { organizationId: org.id, email: OWNER, role: 'owner' }, new Date());
  await seed();
  browser = await launchBrowser();
  // axe-core is injected as a script, which the console's CSP forbids: only this check bypasses it.
  context = await browser.newContext({ viewport: WIDE, bypassCSP: true });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  consoleErrors = collectConsoleErrors(page, (text) => expectedRefusal.test(text) && refusalExpected);
  await page.goto(`${api.baseUrl}/console`);
  await page.getByLabel('Email address').fill(OWNER);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('a sign-in link is on its way').waitFor();
  await page.goto(`${api.baseUrl}${await signInPathFromMail(smtp, OWNER)}`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await h?.close();
  await mailer?.close();
  await smtp?.close();
});

/** A refused form answers 400 by design; Chromium logs that document's status, which only the form check sets aside. */
const expectedRefusal = /^Failed to load resource: the server responded with a status of 400 /;
let refusalExpected = false;

/** A console path as its route pattern: ids (UUIDs, and long tokens) become `:id`; the query is dropped. */
function routePattern(pathname: string): string {
  return pathname
    .split('/')
    .map((s) =>
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) || /^[A-Za-z0-9_-]{24,}$/.test(s)
        ? ':id'
        : s,
    )
    .join('/');
}

/** The console links (GET, same origin) of the page as it is now. */
async function consoleLinks(): Promise<string[]> {
  const hrefs = await page.$$eval('a[href]', (as) => as.map((a) => (a as unknown as { href: string }).href));
  return hrefs
    .map((href) => new URL(href))
    .filter((u) => u.origin === api.baseUrl && u.pathname.startsWith('/console') && !NOT_PAGES.test(u.pathname))
    .map((u) => u.pathname + u.search);
}

/** What is wrong with the page at the viewport it has now (axe: every rule, or only `rules`). */
async function problemsAt(label: string, rules?: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  if (await hasHorizontalScroll(page)) out.push(`${label}: scrolls sideways`);
  for (const c of await findClippedControls(page)) out.push(`${label}: clipped control ${c}`);
  const violations: Violation[] = await runAxe(page, rules);
  for (const v of violations)
    out.push(`${label}: axe ${v.impact} ${v.rule} (${v.help}) on ${v.elements.slice(0, 4).join(' | ')}`);
  return out;
}

describe('every console page', () => {
  it('fits 1280 and 390 px without sideways scroll or clipped controls, has no serious axe violation and no console error; logs server time and size', async () => {
    const queue: string[] = ['/console'];
    const seen = new Set<string>();
    const visited: string[] = [];
    const narrowFull: string[] = [];
    const problems: string[] = [];
    while (queue.length) {
      const path = queue.shift()!;
      const pattern = routePattern(path.split('?')[0]!);
      if (seen.has(pattern)) continue;
      seen.add(pattern);
      const errorsBefore = consoleErrors.length;
      await page.setViewportSize(WIDE);
      const response = await page.goto(`${api.baseUrl}${path}`);
      if (!response) throw new Error(`no response for ${path}`);
      const { serverMs } = await logPageTiming(pattern, response);
      if (response.status() !== 200) {
        problems.push(`${pattern}: answered ${response.status()}`);
        continue;
      }
      if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
      if (serverMs === null) problems.push(`${pattern}: no Server-Timing header`);
      visited.push(pattern);
      for (const link of await consoleLinks()) if (!seen.has(routePattern(link.split('?')[0]!))) queue.push(link);
      const hiddenWide = await hiddenElements(page);
      problems.push(...(await problemsAt(`${pattern} @1280`)));
      await page.setViewportSize(NARROW);
      // Every axe rule ran at 1280; at 390 the rules that depend on layout run again, and all of
      // them when the narrow page renders other elements than the wide one.
      const sameElements = (await hiddenElements(page)) === hiddenWide;
      if (!sameElements) narrowFull.push(pattern);
      problems.push(...(await problemsAt(`${pattern} @${NARROW_WIDTH}`, sameElements ? LAYOUT_RULES : undefined)));
      problems.push(...consoleErrors.slice(errorsBefore).map((e) => `${pattern}: ${e}`));
    }
    process.stderr.write(
      `[console-page] crawled ${visited.length} pages: ${visited.join(' ')}; every axe rule again at ${NARROW_WIDTH} px on ${narrowFull.length} (other elements rendered there): ${narrowFull.join(' ') || '-'}\n`,
    );
    // The crawl reached the areas of the navigation and the detail pages of what was seeded.
    for (const area of [
      '/console/incidents/:id',
      '/console/maintenances/:id',
      '/console/metrics/:id',
      '/console/status-pages',
      '/console/webhooks',
      '/console/alerts/:id',
      '/console/change-events',
      '/console/agents',
      '/console/customers',
      '/console/contracts',
    ]) {
      expect(visited).toContain(area);
    }
    expect(problems).toEqual([]);
  }, 900_000);
});

describe('the checks themselves', () => {
  it('find an image without a text alternative, a control past the edge, a clipped control and sideways scroll', async () => {
    await page.setViewportSize(NARROW);
    await page.goto(`${api.baseUrl}/console/change-events`);
    expect(await problemsAt('clean')).toEqual([]);
    await page.evaluate(`(() => {
      const main = document.querySelector('main');
      main.insertAdjacentHTML('beforeend', '<img src="data:," width="10" height="10"><div class="x-wide"><button type="button">Far away</button></div><div class="x-clip"><button type="button">Half hidden</button></div>');
      const wide = main.querySelector('.x-wide'); wide.style.width = '900px'; wide.style.paddingLeft = '800px';
      const clip = main.querySelector('.x-clip'); clip.style.width = '20px'; clip.style.overflow = 'hidden';
    })()`);
    const found = await problemsAt('broken');
    expect(found).toEqual(
      expect.arrayContaining([
        'broken: scrolls sideways',
        expect.stringMatching(/^broken: clipped control button "Far away" spans/),
        expect.stringMatching(/^broken: clipped control button "Half hidden" is cut by div\.x-clip$/),
        expect.stringMatching(/^broken: axe critical image-alt /),
      ]),
    );
  }, 60_000);
});

describe('the narrow pass', () => {
  it('runs the layout rules, which find a contrast problem only the narrow layout has, and tells when the narrow page renders other elements', async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${api.baseUrl}/console/change-events`);
    await page.evaluate(`(() => {
      document.head.insertAdjacentHTML('beforeend', '<style>.x-narrow{display:none}@media (max-width:40rem){main h1{color:#ccc!important;background:#fff!important}.x-narrow{display:block}}</style>');
      document.querySelector('main').insertAdjacentHTML('beforeend', '<p class="x-narrow">Only at 390 px</p>');
    })()`);
    const wide = await hiddenElements(page);
    expect(await runAxe(page, LAYOUT_RULES)).toEqual([]);
    await page.setViewportSize(NARROW);
    expect(await hiddenElements(page)).not.toBe(wide);
    expect((await runAxe(page, LAYOUT_RULES)).map((v) => v.rule)).toContain('color-contrast');
  }, 60_000);
});

describe('a refused form', () => {
  it('keeps what was typed, and the focus lands on the error summary, which links to the field', async () => {
    await page.setViewportSize(WIDE);
    await page.goto(`${api.baseUrl}/console/incidents/new`);
    const title = page.getByLabel('Title', { exact: true });
    // A blank title passes the browser's `required` but not the API's schema.
    await title.fill('   ');
    refusalExpected = true;
    const errorsBefore = consoleErrors.length;
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      title.press('Enter'),
    ]);
    expect(answer.status()).toBe(400);
    const summary = page.getByRole('alert').filter({ hasText: 'Fix 1 problem to continue' });
    await summary.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'problem');
    refusalExpected = false;
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('problem');
    expect(await title.inputValue()).toBe('   ');
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#f-title-error').innerText()).toBe('Title cannot be empty');
    // The summary's line is a link to the field.
    await summary.getByRole('link', { name: 'Title cannot be empty' }).click();
    expect(page.url()).toMatch(/#f-title$/);
    expect(consoleErrors.slice(errorsBefore)).toEqual([]);
    expect(await runAxe(page)).toEqual([]);
  }, 60_000);
});
