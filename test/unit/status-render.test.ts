import type { HealthStatus } from '../../src/domain/thresholds';
import { formatInZone, monthInZone } from '../../src/render/format-time';
import type {
  HistoryView,
  PageComponentView,
  PageHeader,
  PageIncidentView,
  PageMaintenanceView,
  PageView,
  UptimeDay,
} from '../../src/domain/status-page/model';
import { type LoadedPageView, withPageState } from '../../src/domain/status-page/page-state';
import { uptimeLevel, uptimeTotalText } from '../../src/render/components';
import {
  renderHistoryPage,
  renderItemPage,
  renderMessagePage,
  renderNotFoundPage,
  renderStatusPage,
} from '../../src/render/status-page';

const EVIL = `<script>alert("x")</script>&'`;
/** The status page's one script: the optional live update, served by the page's own host. */
const LIVE_SCRIPT = '<script src="/live.js" defer></script>';
const EVIL_ESCAPED = '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;&#39;';

function header(over: Partial<PageHeader> = {}): PageHeader {
  return {
    subdomain: 'acme',
    title: 'Acme status',
    description: 'Live status of Acme',
    time_zone: 'Europe/Berlin',
    branding: { logo_url: null, accent_color: null, header_color: null },
    links: [{ label: 'Home', url: 'https://acme.example/' }],
    ...over,
  };
}

/** 90 days ending 2026-11-20; the first is unmeasured, the last at 99.950%. */
function days(): UptimeDay[] {
  return Array.from({ length: 90 }, (_, i) => {
    const date = new Date(Date.UTC(2026, 10, 20 - 89 + i)).toISOString().slice(0, 10);
    return { date, uptime_pct: i === 0 ? null : i === 89 ? '99.950' : '100.000' };
  });
}

type LoadedComponent = Omit<PageComponentView, 'state'>;

function service(over: Partial<LoadedComponent> = {}): LoadedComponent {
  return {
    kind: 'service',
    id: 'svc_1',
    name: 'API',
    description: null,
    status: 'healthy',
    service_id: null,
    in_maintenance: false,
    uptime: days(),
    uptime_pct: '99.990',
    uptime_since: '2026-08-23T00:00:00.000Z',
    slo: null,
    ...over,
  };
}

function incident(over: Partial<PageIncidentView> = {}): PageIncidentView {
  return {
    id: 'inc_1',
    title: 'Elevated errors',
    severity: 'major',
    state: 'published',
    published_at: '2026-11-22T14:04:00.000Z',
    resolved_at: null,
    affected_services: [{ id: 'svc_1', name: 'API', impact: 'partial_outage' }],
    customer_scoped: false,
    messages: [{ type: 'Investigating', body: 'Looking into it.\nMore soon.', posted_at: '2026-11-22T14:04:00.000Z' }],
    ...over,
  };
}

function maintenance(over: Partial<PageMaintenanceView> = {}): PageMaintenanceView {
  return {
    id: 'mnt_1',
    title: 'Database upgrade',
    description: 'Short read-only window.',
    state: 'scheduled',
    scheduled_start_at: '2026-11-25T02:00:00.000Z',
    scheduled_end_at: '2026-11-25T03:00:00.000Z',
    actual_start_at: null,
    actual_end_at: null,
    affected_services: [],
    messages: [],
    ...over,
  };
}

/** A loaded view through the page's one derivation (page-state.ts), as loadPageView hands it over. */
function pageView(over: Partial<LoadedPageView> = {}): PageView {
  return withPageState({
    page: header(),
    status: 'healthy',
    groups: [{ name: 'Core', status: 'healthy', components: [service()] }],
    active_incidents: [],
    maintenance_in_progress: [],
    maintenance_upcoming: [],
    recent_incidents: [],
    viewer: null,
    generated_at: '2026-11-22T15:00:00.000Z',
    ...over,
  });
}

function historyView(over: Partial<HistoryView> = {}): HistoryView {
  return {
    page: header(),
    incidents: [],
    maintenances: [],
    next_cursor: null,
    viewer: null,
    generated_at: '2026-11-22T15:00:00.000Z',
    ...over,
  };
}

const headOf = (html: string) => html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
const count = (html: string, re: RegExp) => (html.match(re) ?? []).length;
const occurrences = (html: string, s: string) => html.split(s).length - 1;

describe('renderStatusPage: document', () => {
  const html = renderStatusPage(pageView());

  it('is an HTML5 document in English with charset, viewport and a title carrying the overall status', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>Acme status: All systems operational</title>');
  });

  it('links the Atom and RSS feeds from the head exactly', () => {
    const head = headOf(html);
    expect(head).toContain(
      '<link rel="alternate" type="application/atom+xml" href="/feed.atom" title="Acme status (Atom)">',
    );
    expect(head).toContain(
      '<link rel="alternate" type="application/rss+xml" href="/feed.rss" title="Acme status (RSS)">',
    );
  });

  it('has no script but the optional live update from its own host, one inline style and no external resources but the logo', () => {
    const withLogo = renderStatusPage(
      pageView({
        page: header({
          branding: { logo_url: 'https://cdn.acme.example/logo.png', accent_color: null, header_color: null },
        }),
      }),
    );
    for (const doc of [html, withLogo]) {
      expect(doc.match(/<script[^>]*>[^<]*<\/script>/gi)).toEqual([LIVE_SCRIPT]);
      expect(count(doc, /<style>/g)).toBe(1);
      expect(doc).not.toMatch(/rel="stylesheet"|@import|url\(/);
      expect(count(doc, /\ssrc="/g)).toBe(doc === withLogo ? 2 : 1);
    }
    expect(withLogo).toContain(
      '<img class="logo" src="https://cdn.acme.example/logo.png" alt="Acme status logo" height="40">',
    );
  });

  it('has header, main and footer landmarks, one h1 and no skipped heading levels', () => {
    const full = renderStatusPage(
      pageView({
        active_incidents: [incident()],
        maintenance_upcoming: [maintenance()],
        recent_incidents: [incident({ id: 'inc_2', state: 'resolved', resolved_at: '2026-11-22T16:00:00.000Z' })],
      }),
    );
    for (const doc of [
      full,
      renderHistoryPage(historyView({ incidents: [incident()] })),
      renderMessagePage(header(), 'Subscribed', 'ok'),
      renderNotFoundPage(),
    ]) {
      expect(doc).toMatch(/<header[\s>][\s\S]*<main[\s>][\s\S]*<footer[\s>]/);
      const levels = [...doc.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
      expect(levels.filter((l) => l === 1)).toHaveLength(1);
      expect(levels[0]).toBe(1);
      levels.forEach((l, i) => i > 0 && expect(l).toBeLessThanOrEqual(levels[i - 1]! + 1));
    }
  });

  it('has a labelled subscribe form posting an email to /subscribe, plus history and feed links', () => {
    expect(html).toContain('<form class="subscribe" method="post" action="/subscribe">');
    expect(html).toContain('<label for="subscribe-email">');
    expect(html).toMatch(/<input id="subscribe-email" type="email" name="email"[^>]*>/);
    expect(html).toContain('<button type="submit">Subscribe</button>');
    for (const href of ['/history', '/feed.atom', '/feed.rss', 'https://acme.example/'])
      expect(html).toContain(`href="${href}"`);
  });

  it('says Powered by Vigil in the footer', () => {
    expect(html).toMatch(/<footer[\s\S]*Powered by Vigil[\s\S]*<\/footer>/);
  });
});

describe('renderStatusPage: operator input', () => {
  it('escapes everything operator-typed', () => {
    const html = renderStatusPage(
      pageView({
        page: header({
          title: EVIL,
          description: EVIL,
          links: [{ label: EVIL, url: 'https://acme.example/?a=1&b="2"' }],
        }),
        groups: [
          { name: EVIL, status: 'degraded', components: [service({ id: EVIL, name: EVIL, description: EVIL })] },
        ],
        active_incidents: [
          incident({
            title: EVIL,
            affected_services: [{ id: 'x', name: EVIL, impact: 'major_outage' }],
            messages: [{ type: 'Update', body: EVIL, posted_at: '2026-11-22T14:04:00.000Z' }],
          }),
        ],
        maintenance_upcoming: [maintenance({ title: EVIL, description: EVIL })],
        viewer: { customer_id: 'cus_1', customer_name: EVIL },
      }),
    );
    expect(html.replace(LIVE_SCRIPT, '')).not.toMatch(/<script/i);
    expect(html).not.toContain('alert("x")');
    expect(occurrences(html, EVIL_ESCAPED)).toBeGreaterThanOrEqual(12);
    expect(html).toContain('href="https://acme.example/?a=1&#38;b=%222%22"');
  });

  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:x',
    '/relative',
    'not a url',
  ])('drops the link %j', (url) => {
    const html = renderStatusPage(
      pageView({
        page: header({
          links: [{ label: 'Bad link', url }],
          branding: { logo_url: url, accent_color: null, header_color: null },
        }),
      }),
    );
    expect(html).not.toContain('Bad link');
    expect(html).not.toMatch(/javascript:|data:text|vbscript:/i);
    expect(html).not.toContain('<img');
  });

  it("keeps http links but loads the logo over https only (the pages' CSP allows no other image source)", () => {
    const html = renderStatusPage(
      pageView({
        page: header({
          links: [{ label: 'Plain', url: 'http://acme.example/' }],
          branding: { logo_url: 'http://acme.example/logo.png', accent_color: null, header_color: null },
        }),
      }),
    );
    expect(html).toContain('<a href="http://acme.example/">Plain</a>');
    expect(html).not.toContain('<img');
  });

  it('keeps line breaks of plain-text bodies without turning them into markup', () => {
    const html = renderStatusPage(
      pageView({
        active_incidents: [
          incident({
            messages: [
              { type: 'Identified', body: '  Line one\r\nLine <two>  ', posted_at: '2026-11-22T14:04:00.000Z' },
            ],
          }),
        ],
      }),
    );
    expect(html).toContain('<div class="text">Line one\nLine &#60;two&#62;</div>');
    expect(html).toMatch(/\.text\{white-space:pre-line\}/);
  });

  it('falls back to the default colours when branding is not a hex colour', () => {
    const html = renderStatusPage(
      pageView({
        page: header({ branding: { logo_url: null, accent_color: 'red;}body{display:none', header_color: 'url(x)' } }),
      }),
    );
    expect(html).not.toContain('red;}');
    expect(html).not.toContain('url(x)');
    expect(html).toContain('.site-header{background:#1f2328;');
  });
});

describe('renderStatusPage: statuses', () => {
  it.each([
    ['healthy', 'operational', 'healthy', 'All systems operational'],
    ['degraded', 'degraded_performance', 'degraded', 'Degraded performance'],
    ['unhealthy', 'major_outage', 'unhealthy', 'Major outage'],
    ['no_data', 'no_data', 'no_data', 'No data yet'],
  ] as const)('shows a %s page as %s ("%s") with an icon', (status: HealthStatus, state, cls, text) => {
    const html = renderStatusPage(
      pageView({ status, groups: [{ name: 'Core', status, components: [service({ status })] }] }),
    );
    expect(html).toMatch(
      new RegExp(
        `<div id="overall-status" class="banner s-${cls}" data-state="${state}"><svg class="icon"[^]*?</svg><p>${text}</p></div>`,
      ),
    );
    expect(html).toContain(`<title>Acme status: ${text}</title>`);
  });

  it('marks each component with its id and status, and groups with theirs', () => {
    const html = renderStatusPage(
      pageView({
        groups: [
          {
            name: 'Core',
            status: 'unhealthy',
            components: [
              service({ id: 'svc_a', status: 'unhealthy' }),
              service({ id: 'svc_b', status: 'degraded', in_maintenance: true }),
            ],
          },
          {
            name: null,
            status: 'no_data',
            components: [service({ id: 'met_c', kind: 'metric', status: 'no_data', uptime_pct: null })],
          },
        ],
      }),
    );
    expect(html).toMatch(
      /<li class="component" data-component-id="svc_a" data-kind="service" data-status="unhealthy" data-state="major_outage">[^]*?Major outage/,
    );
    // Degraded metrics inside a maintenance window: the page says maintenance, never the metrics' words.
    expect(html).toMatch(
      /data-component-id="svc_b"[^>]*data-status="degraded" data-state="under_maintenance">[^]*?badge-maintenance">Under maintenance[^]*?s-maintenance" data-state="under_maintenance">[^]*?Under maintenance</,
    );
    expect(html).toMatch(
      /data-component-id="met_c"[^>]*data-status="no_data" data-state="no_data">[^]*?No uptime data yet/,
    );
    expect(count(html, />Under maintenance</g)).toBe(2);
    expect(html).toMatch(/<h3>Core<\/h3><span class="status-text s-unhealthy" data-state="major_outage">/);
  });

  it('draws 90 labelled uptime days, oldest first, with the 90-day percentage', () => {
    const html = renderStatusPage(pageView());
    const bar = html.match(/<ol class="uptime-bar"[^]*?<\/ol>/)![0];
    expect(count(bar, /data-date="/g)).toBe(90);
    expect(bar.indexOf('data-date="2026-08-23"')).toBeLessThan(bar.indexOf('data-date="2026-11-20"'));
    expect(bar).toContain('<li class="day-none" data-date="2026-08-23" title="2026-08-23: no data"></li>');
    expect(bar).toContain('<li class="day-good" data-date="2026-11-20" title="2026-11-20: 99.95% uptime">');
    expect(html).toContain('99.99% uptime over 90 days');
  });

  it('says since when a young service was measured instead of "over 90 days"', () => {
    const young = (since: string) =>
      renderStatusPage(
        pageView({
          groups: [
            { name: null, status: 'healthy', components: [service({ uptime_pct: '75.000', uptime_since: since })] },
          ],
        }),
      );
    let html = young('2026-11-18T09:30:00.000Z');
    expect(html).toContain('<p class="uptime-total">75% uptime since 18 Nov</p>');
    expect(html).not.toContain('uptime over 90 days');
    expect(html).toContain('oldest first; 75% uptime since 18 Nov"');
    html = young('2026-11-20T14:05:09.000Z');
    // Measured since today: the instant in the page's zone (Europe/Berlin), named, as every time on the page.
    expect(html).toContain(
      '<p class="uptime-total">75% uptime since <time datetime="2026-11-20T14:05:09.000Z">20 Nov 2026, 15:05 CET</time></p>',
    );
    expect(html).not.toMatch(/uptime since [^<]*UTC/);
    // Measured from the bar's first day on: the whole span.
    expect(young('2026-08-23T17:00:00.000Z')).toContain('<p class="uptime-total">75% uptime over 90 days</p>');
    const newYear = Array.from({ length: 90 }, (_, i) => ({
      date: new Date(Date.UTC(2027, 0, 10 - 89 + i)).toISOString().slice(0, 10),
      uptime_pct: '100.000',
    }));
    expect(uptimeTotalText('99.000', '2026-12-30T00:10:00.000Z', newYear)).toBe('99% uptime since 30 Dec 2026');
    expect(uptimeTotalText('99.000', '2027-01-02T00:10:00.000Z', newYear)).toBe('99% uptime since 2 Jan');
    expect(uptimeTotalText(null, null, newYear)).toBe('No uptime data yet');
  });

  it.each([
    ['100.000', 'good'],
    ['99.900', 'good'],
    ['99.899', 'minor'],
    ['99.000', 'minor'],
    ['98.999', 'degraded'],
    ['95.000', 'degraded'],
    ['94.999', 'bad'],
    [null, 'none'],
  ])('colours a %s%% day as %s', (pct, level) => expect(uptimeLevel(pct)).toBe(level));

  it('shows objective, attainment and outcome for SLOs instead of a bar', () => {
    const slo = (met: boolean | null, attainment: string | null) =>
      service({
        kind: 'slo',
        id: `slo_${String(met)}`,
        uptime: [],
        uptime_pct: null,
        uptime_since: null,
        slo: { objective: '99.9', attainment, met, period_label: 'Last 30 days' },
      });
    const html = renderStatusPage(
      pageView({
        groups: [
          { name: 'SLOs', status: 'healthy', components: [slo(true, '99.950'), slo(false, '98.000'), slo(null, null)] },
        ],
      }),
    );
    expect(html).not.toContain('<ol class="uptime-bar"');
    expect(html).toContain(
      'Objective 99.9%, attainment 99.950% (Last 30 days): <strong class="slo-outcome" data-met="true">Met</strong>',
    );
    expect(html).toContain(
      'attainment 98.000% (Last 30 days): <strong class="slo-outcome" data-met="false">Missed</strong>',
    );
    expect(html).toContain(
      'attainment not measurable yet (Last 30 days): <strong class="slo-outcome" data-met="null">Not measurable yet</strong>',
    );
  });
});

describe('renderStatusPage: incidents and maintenance', () => {
  it('shows active incidents with severity, state and a timeline in the page time zone', () => {
    const html = renderStatusPage(pageView({ active_incidents: [incident()] }));
    expect(html).toMatch(
      /<section aria-labelledby="active-incidents">\n<h2 id="active-incidents">Active incidents<\/h2>\n<article class="card incident" data-incident-id="inc_1"/,
    );
    expect(html).toContain('Major severity');
    expect(html).toContain('Ongoing');
    expect(html).toContain(
      '<strong>Investigating</strong> <span class="muted"><time datetime="2026-11-22T14:04:00.000Z">22 Nov 2026, 15:04 CET</time></span>',
    );
    expect(html).toContain(
      'Affects: <span class="impact" data-service-id="svc_1" data-impact="partial_outage">API (Partial outage)</span>',
    );
  });

  it('shows maintenance in progress and upcoming with their windows', () => {
    const html = renderStatusPage(
      pageView({
        maintenance_in_progress: [
          maintenance({ id: 'mnt_now', state: 'in_progress', actual_start_at: '2026-11-22T14:00:00.000Z' }),
        ],
        maintenance_upcoming: [maintenance()],
      }),
    );
    expect(html).toMatch(
      /Maintenance in progress<\/h2>\n<article class="card maintenance" data-maintenance-id="mnt_now" data-state="in_progress">/,
    );
    expect(html).toMatch(
      /Scheduled maintenance<\/h2>\n<article class="card maintenance" data-maintenance-id="mnt_1" data-state="scheduled">/,
    );
    expect(html).toContain(
      'Scheduled <time datetime="2026-11-25T02:00:00.000Z">25 Nov 2026, 03:00 CET</time> to <time datetime="2026-11-25T03:00:00.000Z">25 Nov 2026, 04:00 CET</time>',
    );
    expect(html).toContain('Started <time datetime="2026-11-22T14:00:00.000Z">');
  });

  it('lists recent incidents, or says there were none', () => {
    expect(renderStatusPage(pageView())).toContain('No incidents in the last 7 days.');
    const html = renderStatusPage(
      pageView({
        recent_incidents: [incident({ id: 'inc_old', state: 'resolved', resolved_at: '2026-11-22T16:00:00.000Z' })],
      }),
    );
    expect(html).toMatch(
      /Recent incidents<\/h2>\n<article class="card incident" data-incident-id="inc_old"[^]*?Resolved/,
    );
  });

  it('notes the signed-in customer and badges their private incidents only then', () => {
    const scoped = incident({ customer_scoped: true });
    const signedIn = renderStatusPage(
      pageView({ active_incidents: [scoped], viewer: { customer_id: 'cus_1', customer_name: 'Globex' } }),
    );
    expect(signedIn).toContain('Signed in as <strong>Globex</strong>');
    expect(signedIn).toContain('Private to your organization');
    const anonymous = renderStatusPage(pageView({ active_incidents: [scoped] }));
    expect(anonymous).not.toContain('Signed in as');
    expect(anonymous).not.toContain('Private to your organization');
  });
});

describe('renderHistoryPage', () => {
  it('groups incidents and maintenances by month in the page time zone, newest first', () => {
    const html = renderHistoryPage(
      historyView({
        // 23:30 UTC on 30 Nov is already December in Berlin.
        incidents: [
          incident({ id: 'inc_dec', published_at: '2026-11-30T23:30:00.000Z' }),
          incident({ id: 'inc_oct', published_at: '2026-10-05T10:00:00.000Z' }),
        ],
        maintenances: [
          maintenance({
            id: 'mnt_nov',
            state: 'completed',
            actual_start_at: '2026-11-10T02:00:00.000Z',
            actual_end_at: '2026-11-10T02:30:00.000Z',
          }),
        ],
      }),
    );
    const order = ['December 2026', 'inc_dec', 'November 2026', 'mnt_nov', 'October 2026', 'inc_oct'].map((s) =>
      html.indexOf(s),
    );
    expect(order.every((p) => p > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('<h1>Incident history</h1>');
    expect(html).toContain('<a href="/">Back to current status</a>');
  });

  it('links to older history with the cursor, only when there is more', () => {
    expect(renderHistoryPage(historyView({ next_cursor: 'abc_123' }))).toContain(
      '<a href="?cursor=abc_123" rel="next">Older</a>',
    );
    expect(renderHistoryPage(historyView({ next_cursor: 'a+b/c="<x>' }))).toContain(
      'href="?cursor=a%2Bb%2Fc%3D%22%3Cx%3E"',
    );
    const last = renderHistoryPage(historyView());
    expect(last).not.toContain('Older');
    expect(last).toContain('No past incidents or maintenance.');
  });

  it('escapes operator input and has no script', () => {
    const html = renderHistoryPage(
      historyView({ page: header({ title: EVIL }), incidents: [incident({ title: EVIL })] }),
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(EVIL_ESCAPED);
  });
});

describe('renderItemPage', () => {
  const item = (over: Partial<PageIncidentView> = {}) => ({
    kind: 'incident' as const,
    page: header(),
    incident: incident(over),
    viewer: null,
    generated_at: '2026-11-20T15:00:00.000Z',
  });

  it('escapes operator input in the title, heading and timeline, and loads no script but /live.js', () => {
    const html = renderItemPage(
      item({
        title: EVIL,
        messages: [
          { type: EVIL, body: EVIL, posted_at: '2026-11-20T14:00:00.000Z', edited_at: '2026-11-20T14:30:00.000Z' },
        ],
      }),
    );
    expect(html).toContain(`<title>${EVIL_ESCAPED}: `);
    expect(html).toContain(`<h1>${EVIL_ESCAPED}</h1>`);
    expect(html).not.toMatch(/<script(?! src="\/live\.js" defer><\/script>)/i);
    expect(html).toContain('data-edited>edited <time datetime="2026-11-20T14:30:00.000Z">');
  });

  it('links every incident and maintenance title of the page and the history to its own page', () => {
    const i = incident({ id: '11111111-1111-4111-8111-111111111111' });
    const html = renderHistoryPage(
      historyView({ incidents: [i], maintenances: [maintenance({ id: '22222222-2222-4222-8222-222222222222' })] }),
    );
    expect(html).toContain('<a href="/incidents/11111111-1111-4111-8111-111111111111">');
    expect(html).toContain('<a href="/maintenances/22222222-2222-4222-8222-222222222222">');
  });
});

describe('shownPct', () => {
  it('shows at most two decimals, cut rather than rounded up, without trailing zeros', async () => {
    const { shownPct } = await import('../../src/render/components');
    expect(['100.000', '99.999', '99.305', '99.950', '95.000', '0.004', 'x'].map(shownPct)).toEqual([
      '100',
      '99.99',
      '99.3',
      '99.95',
      '95',
      '0',
      'x',
    ]);
  });
});

describe('renderNotFoundPage and renderMessagePage', () => {
  it('renders a not-found page without any page branding', () => {
    const html = renderNotFoundPage();
    expect(html).toContain('<title>Status page not found</title>');
    expect(html).toContain('<h1>Status page not found</h1>');
    expect(html).not.toContain('feed.atom');
  });

  it('renders a message with the page header, escaped', () => {
    const html = renderMessagePage(header(), EVIL, `${EVIL}\nsecond line`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`<h1>${EVIL_ESCAPED}</h1>`);
    expect(html).toContain(`<p class="text">${EVIL_ESCAPED}\nsecond line</p>`);
    expect(html).toContain('<p class="site-title"><a href="/">Acme status</a></p>');
    expect(renderMessagePage(null, 'Link expired', 'Ask for a new one.')).toContain('<title>Link expired</title>');
  });

  it('can carry a button that posts the token back', () => {
    const html = renderMessagePage(header(), 'Confirm your subscription', 'Send updates?', {
      path: '/confirm',
      token: 'a.b"<c>',
      label: 'Confirm subscription',
    });
    expect(html).toContain(
      '<form method="post" action="/confirm"><input type="hidden" name="token" value="a.b&#34;&#60;c&#62;"><button type="submit">Confirm subscription</button></form>',
    );
    expect(renderMessagePage(header(), 'Done', 'ok')).not.toContain('<form');
  });
});

describe('formatInZone', () => {
  it('formats in the page time zone with its short name', () => {
    expect(formatInZone('2026-11-22T14:04:00.000Z', 'Europe/Berlin')).toBe('22 Nov 2026, 15:04 CET');
    expect(formatInZone('2026-07-01T09:05:00.000Z', 'Europe/Berlin')).toBe('1 Jul 2026, 11:05 CEST');
    expect(formatInZone('2026-11-22T14:04:00.000Z', 'UTC')).toBe('22 Nov 2026, 14:04 UTC');
  });

  it('falls back to UTC for an unknown zone', () => {
    expect(formatInZone('2026-11-22T14:04:00.000Z', 'Mars/Olympus_Mons')).toBe('22 Nov 2026, 14:04 UTC');
    expect(monthInZone('2026-11-30T23:30:00.000Z', 'Not/AZone')).toBe('November 2026');
  });
});
