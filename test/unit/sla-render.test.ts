import { parse } from 'csv-parse/sync';
import type { StatementDocument } from '../../src/domain/sla/statement';
import { esc } from '../../src/render/html';
import { EVIDENCE_CSV_COLUMNS, renderEvidenceCsv } from '../../src/render/sla/evidence-csv';
import { formatCount, formatMoney, formatMoneyFraction } from '../../src/render/sla/money';
import { renderStatementHtml } from '../../src/render/sla/statement-html';
import {
  FORMULA_TITLE,
  IDS,
  MANUAL_JUSTIFICATION,
  renderInputFixture,
  statementFixture,
  uuid,
} from '../support/sla-statement-fixture';

const html = (doc: StatementDocument, o: Parameters<typeof renderInputFixture>[1] = {}) =>
  renderStatementHtml(renderInputFixture(doc, o));
/** The page's visible text: tags dropped, whitespace collapsed, character references decoded. */
const textOf = (page: string) =>
  page
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,;:])/g, '$1')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));

describe('money and counts from integers', () => {
  it.each([
    [5_000, 'EUR', 2, 'EUR 50.00'],
    [5, 'EUR', 2, 'EUR 0.05'],
    [0, 'EUR', 2, 'EUR 0.00'],
    [123_457, 'JPY', 0, 'JPY 123,457'],
    [0, 'JPY', 0, 'JPY 0'],
    [1_234_567, 'KWD', 3, 'KWD 1,234.567'],
    [7, 'KWD', 3, 'KWD 0.007'],
    [Number.MAX_SAFE_INTEGER, 'EUR', 2, 'EUR 90,071,992,547,409.91'],
    [10n ** 20n + 1n, 'EUR', 2, 'EUR 1,000,000,000,000,000,000.01'],
  ])('%p minor units of %s (exponent %p) → %s', (minor, currency, exponent, shown) => {
    expect(formatMoney(minor, currency, exponent)).toBe(shown);
  });

  it('refuses non-integers rather than rounding them', () => {
    expect(() => formatMoney(1.5, 'EUR', 2)).toThrow(RangeError);
  });

  it('shows an exact amount before rounding, with … when cut short', () => {
    expect(formatMoneyFraction(50_000n * 10n, 100n, 'EUR', 2)).toBe('EUR 50.00');
    expect(formatMoneyFraction(12_345n, 10n, 'KWD', 3)).toBe('KWD 1.2345');
    expect(formatMoneyFraction(1n, 3n, 'JPY', 0)).toBe('JPY 0.333333…');
    expect(formatCount(44_580)).toBe('44,580');
  });
});

describe('renderStatementHtml', () => {
  const doc = statementFixture();

  it('is a complete, self-contained, accessible page', () => {
    const page = html(doc);
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page).toMatch(/<title>SLA statement 2025-03: Acme Corp, Enterprise SLA 2025 \(revision 1\)<\/title>/);
    expect(page).not.toMatch(/<script|<link|<img|<iframe|src=|url\(|@import/i);
    expect(page).toMatch(/<th scope="col">Service<\/th>/);
    expect(page).toMatch(/<th scope="row">Public API<\/th>/);
    // Every table has a caption and column headers.
    const tables = page.match(/<table>/g)?.length ?? 0;
    expect(tables).toBeGreaterThanOrEqual(6);
    expect(page.match(/<caption>/g)).toHaveLength(tables);
  });

  it('escapes every string, starting with the customer name', () => {
    const page = html(statementFixture({ customerName: '<script>&"' }));
    expect(page).not.toContain('<script>');
    expect(page).toContain('&#60;script&#62;&#38;&#34;');
    expect(page).toContain(`<title>SLA statement 2025-03: &#60;script&#62;&#38;&#34;, Enterprise SLA 2025`);
    expect(page).toContain('Billing &#60;beta&#62; &#38; &#34;invoices&#34;');
    expect(page).not.toContain('Billing <beta>');
  });

  it('shows the period in its time zone with the UTC bounds', () => {
    const page = html(doc);
    expect(page).toContain('2025-03, time zone Europe/Berlin');
    expect(page).toContain('<time datetime="2025-02-28T23:00:00.000Z">1 Mar 2025, 00:00 CET</time>');
    expect(page).toContain('= 2025-02-28T23:00:00.000Z');
    expect(page).toContain('<time datetime="2025-03-31T22:00:00.000Z">1 Apr 2025, 00:00 CEST</time>');
    expect(page).toContain('2025-03-31T22:00:00.000Z, exclusive');
    expect(page).toContain('revision 1');
  });

  it.each([
    ['EUR', 50_000, 'EUR 500.00', 'EUR 50.00', 'EUR 50.00'],
    // 10 % of 1,234,567 minor units is 123,456.7 → half up → 123,457.
    ['JPY', 1_234_567, 'JPY 1,234,567', 'JPY 123,456.7', 'JPY 123,457'],
    ['KWD', 1_234_567, 'KWD 1,234.567', 'KWD 123.4567', 'KWD 123.457'],
  ])(
    'formats %s with its own exponent (fee %p → %s, 10 %% = %s → %s)',
    (currency, fee, shownFee, exact, shownCredit) => {
      const d = statementFixture({ currency, monthlyFeeMinor: fee });
      expect(d.contract.currency_exponent).toBe({ EUR: 2, JPY: 0, KWD: 3 }[currency]);
      const text = textOf(html(d));
      expect(text).toContain(`Service credit ${shownCredit}`);
      expect(text).toContain(`Monthly fee ${shownFee}`);
      expect(text).toContain(`${shownFee} × 10 % = ${exact} before the minimum and the rounding`);
      expect(text).toContain(`half up: half a unit or more goes up, less goes down: ${exact} → ${shownCredit}.`);
    },
  );

  it.each([
    ['draft', 'DRAFT'],
    ['in_review', 'DRAFT'],
    ['superseded', 'SUPERSEDED'],
    ['void', 'VOID'],
  ])('marks a %s statement with a %s banner and watermark', (state, mark) => {
    const page = html(doc, { state });
    expect(page).toContain(`<div class="watermark" aria-hidden="true">${mark}</div>`);
    expect(page).toMatch(new RegExp(`<p class="banner" role="note"><strong>${mark}</strong>`));
  });

  it.each(['approved', 'delivered'])('shows no banner on an %s statement', (state) => {
    const page = html(doc, { state, creditState: state === 'delivered' ? 'issued' : 'approved' });
    expect(page).not.toContain('class="watermark"');
    expect(page).not.toContain('class="banner"');
    expect(textOf(page)).toContain(`State ${state}; credit ${state === 'delivered' ? 'issued' : 'approved'}`);
  });

  it("keeps the evidence warning on any state, with coverage per item and each metric's evidence", () => {
    // The fixture covers "Billing" with no metric: nothing measured for it, so the contract's coverage is 0 %.
    expect(doc.coverage).toMatchObject({ coverage_pct: '0.0000', sufficient: false });
    for (const state of ['draft', 'approved']) {
      const page = html(doc, { state });
      expect(page).toContain(
        '<p class="banner evidence-warning" role="note"><strong>Warning</strong> Insufficient evidence',
      );
      expect(page).toContain('<h2 id="evidence">Evidence and coverage</h2>');
    }
  });

  it('lists every service, exclusion and incident with why', () => {
    const page = html(doc);
    for (const s of doc.services) expect(page).toContain(`<th scope="row">${esc(s.name)}</th>`);
    for (const e of doc.exclusions) {
      expect(page).toContain(`<th scope="row">${esc(e.title)}</th>`);
      expect(page).toContain(esc(e.why));
    }
    for (const i of doc.incidents) {
      expect(page).toContain(`<th scope="row">${esc(i.title)}</th>`);
      expect(page).toContain(esc(i.why));
    }
    const text = textOf(page);
    expect(text).toContain('Public API 2 44,580 180 44,400 50');
    expect(text).toContain('Contract (down when any service is down) 44,580 180 44,400 50');
    // The maintenance announced 12 h ahead of a 72 h notice stays eligible; the manual one is excluded.
    expect(text).toMatch(/Emergency network work Maintenance .* No Announced only 12 h/);
    expect(text).toMatch(/Database upgrade Maintenance .* Yes Announced 112 h/);
    expect(text).toMatch(/Network outage critical .* 45 Included 45 down minutes counted\./);
    expect(text).toMatch(/Database latency minor .* ongoing 0 Excluded The covered services were not down/);
  });

  it('explains tiered terms step by step, strict "<", half-up rounding', () => {
    const text = textOf(html(doc));
    expect(text).toContain('Minutes covered. 44,580 minutes');
    expect(text).toContain(
      'Excluded minutes. 180 minutes lie entirely inside an excluded window: scheduled maintenance announced at least 72 h',
    );
    expect(text).toContain('Eligible minutes. 44,580 − 180 = 44,400.');
    expect(text).toContain(
      'Down minutes. 50: an eligible minute is down when any covered service was unhealthy (degraded does not count)',
    );
    expect(text).toContain('(44,400 − 50) ÷ 44,400 = 44350 ÷ 44400 = 99.8873 %');
    expect(text).toContain('Target. 99.9 %: missed');
    expect(text).toContain('strictly below its threshold (exactly at the threshold does not)');
    expect(text).toContain('below 99.99 % 10 %');
    expect(text).toContain('below 99 % 30 %');
    expect(text).toContain('The availability 99.8873 % is below 99.99 %: 10 % of the fee.');
    expect(text).toContain('The share 10 % is within the cap.');
    expect(text).toContain('The contract sets no minimum credit.');
    expect(text).toContain(
      "Rounded once, to the currency's minor unit (0.01 EUR), half up: half a unit or more goes up, less goes down: EUR 50.00 → EUR 50.00.",
    );
  });

  it('says when no tier applies', () => {
    const d = statementFixture({
      creditTerms: { type: 'tiered', steps: [{ below_pct: '99.5', credit_pct: '25' }], maintenance_notice_hours: 72 },
    });
    expect(d.credit.amount_minor).toBe(0);
    const text = textOf(html(d));
    expect(text).toContain('The availability 99.8873 % is below no step: 0 % of the fee.');
    expect(text).toContain('Service credit. EUR 0.00.');
  });

  it("explains proportional terms, rounding up in the customer's favour", () => {
    const d = statementFixture({
      creditTerms: { type: 'proportional', multiplier: '10', rounding: 'up', maintenance_notice_hours: 72 },
    });
    // 50,000 × 50 / 44,400 × 10 = 563.063… cents → up → 564.
    expect(d.credit).toMatchObject({ credit_pct: '1.126126', amount_minor: 564, rounding: 'up' });
    const text = textOf(html(d));
    expect(text).toContain(
      'down ÷ eligible × multiplier = 50 ÷ 44,400 × 10 = 1.126126 % of the fee (shown cut at 6 decimal places; the exact fraction is used).',
    );
    expect(text).toContain('EUR 500.00 × 1.126126 % = EUR 5.63063063… before the minimum and the rounding.');
    expect(text).toContain("up: any fraction of a unit goes up, in the customer's favour: EUR 5.63063063… → EUR 5.64.");
  });

  it('explains the cap and the minimum', () => {
    const capped = statementFixture({
      creditTerms: { type: 'proportional', multiplier: '1000', cap_pct: '50', maintenance_notice_hours: 72 },
    });
    expect(capped.credit).toMatchObject({ capped: true, credit_pct: '50', amount_minor: 25_000 });
    const cappedText = textOf(html(capped));
    expect(cappedText).toContain('Cap. The credit is at most 50 % of the fee. The share was higher, so 50 % applies.');
    expect(cappedText).toContain('EUR 500.00 × 50 % = EUR 250.00 before the minimum');

    const raised = statementFixture({
      creditTerms: {
        type: 'proportional',
        multiplier: '10',
        minimum_credit_minor: 1_000,
        maintenance_notice_hours: 72,
      },
    });
    expect(raised.credit).toMatchObject({ minimum_applied: true, amount_minor: 1_000 });
    const raisedText = textOf(html(raised));
    expect(raisedText).toContain(
      'A credit above zero but below EUR 10.00 is raised to that minimum (never above the fee); a zero credit stays zero. Applied',
    );
    expect(raisedText).toContain('is not needed: the minimum is a whole amount.');
    expect(raisedText).toContain('Service credit. EUR 10.00.');
  });

  it('shows approvals, revisions, what this revision replaces and how to verify it', () => {
    const d = statementFixture({
      revision: 2,
      supersedes: { statement_id: uuid(7), revision: 1, sha256: 'a'.repeat(64) },
    });
    const input = renderInputFixture(d, {
      revisions: [
        {
          id: uuid(7),
          revision: 1,
          state: 'superseded',
          sha256: 'a'.repeat(64),
          generated_at: '2025-04-01T06:00:00.000Z',
        },
        { id: d.statement_id, revision: 2, state: 'approved', sha256: 'b'.repeat(64), generated_at: d.generated_at },
      ],
    });
    const page = renderStatementHtml(input);
    const text = textOf(page);
    expect(text).toMatch(/submit draft → in review 2 Finance bot/);
    expect(text).toMatch(/approve in review → approved 2 Dana Controller .* Checked against ticket 4711\./);
    expect(text).toContain(`1 superseded 1 Apr 2025, 08:00 CEST ${'a'.repeat(64)}`);
    expect(text).toContain(`2 (this one) approved`);
    expect(text).toContain(`Replaces revision 1 of ${uuid(7)}, SHA-256 ${'a'.repeat(64)}`);

    expect(page).toContain(`<code>${input.sha256}</code>`);
    expect(page).toContain(`<code>${input.signingKeyId}</code>`);
    expect(page).toContain(`<code>${input.signature}</code>`);
    expect(page).toContain(
      `vigil sla verify statement.json statement.jws --jwks ${input.jwksUrl} --sha256 ${input.sha256}`,
    );
    expect(page).toContain(`<a href="${input.jwksUrl}">`);
    expect(page).toContain(`<a href="${input.verifyDocsUrl}">`);
  });

  it('never links a non-http URL', () => {
    const page = html(doc, { verifyDocsUrl: 'javascript:alert(1)' });
    expect(page).not.toContain('href="javascript');
    expect(page).toContain('<code>javascript:alert(1)</code>');
  });
});

describe('renderEvidenceCsv', () => {
  const doc = statementFixture();
  const csv = renderEvidenceCsv(doc);
  const records = parse(csv, { record_delimiter: '\r\n' }) as string[][];
  const rows = parse(csv, { columns: true }) as Record<(typeof EVIDENCE_CSV_COLUMNS)[number], string>[];
  const byId = (id: string) => rows.find((r) => r.id === id);

  it('has the header and one row per service, exclusion, incident and the totals, CRLF-terminated', () => {
    expect(records[0]).toEqual([...EVIDENCE_CSV_COLUMNS]);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(rows.map((r) => r.kind)).toEqual([
      'service',
      'service',
      'service',
      'maintenance_exclusion',
      'maintenance_exclusion',
      'manual_exclusion',
      'incident',
      'incident',
      'incident',
      'incident',
      'incident',
      'totals',
    ]);
    expect(records.every((r) => r.length === EVIDENCE_CSV_COLUMNS.length)).toBe(true);
  });

  it('labels an SLO row `slo`, as statement.json does', () => {
    const withSlo = { ...doc, services: doc.services.map((s, i) => (i === 0 ? { ...s, kind: 'slo' as const } : s)) };
    const sloRows = parse(renderEvidenceCsv(withSlo), { columns: true }) as Record<string, string>[];
    expect(sloRows.find((r) => r.id === withSlo.services[0]!.id)?.kind).toBe('slo');
    expect(sloRows.find((r) => r.id === withSlo.services[1]!.id)?.kind).toBe(withSlo.services[1]!.kind);
  });

  it('carries the minutes, flags and why, with empty cells where they do not apply', () => {
    expect(byId(IDS.api)).toEqual({
      kind: 'service',
      id: IDS.api,
      name: 'Public API',
      start: '',
      end: '',
      total_minutes: '44580',
      excluded_minutes: '180',
      eligible_minutes: '44400',
      down_minutes: '50',
      counted: '',
      why: '',
    });
    expect(byId(IDS.maintenanceLate)).toMatchObject({
      start: '2025-03-25T08:00:00.000Z',
      end: '2025-03-25T09:00:00.000Z',
      total_minutes: '',
      counted: 'true',
    });
    expect(byId(IDS.maintenanceOk)).toMatchObject({ counted: 'false' });
    expect(byId(IDS.incidentLateMaintenance)).toMatchObject({
      down_minutes: '45',
      counted: 'true',
      why: '45 down minutes counted.',
      eligible_minutes: '',
    });
    expect(byId(IDS.incidentOpen)).toMatchObject({ end: '', counted: 'false' });
    expect(rows.at(-1)).toMatchObject({
      kind: 'totals',
      id: doc.statement_id,
      total_minutes: '44580',
      excluded_minutes: '180',
      eligible_minutes: '44400',
      down_minutes: '50',
    });
  });

  it('quotes a justification with commas, quotes and a line break, and reads it back unchanged', () => {
    expect(csv).toContain(`"${MANUAL_JUSTIFICATION.replace(/"/g, '""')}"`);
    expect(byId(IDS.manual)).toMatchObject({
      name: MANUAL_JUSTIFICATION,
      why: `Excluded by finance: ${MANUAL_JUSTIFICATION}`,
    });
  });

  it('defuses cells a spreadsheet would run as formulas, but not numbers', () => {
    expect(byId(IDS.incidentInMaintenance)?.name).toBe(`'${FORMULA_TITLE}`);
    const [first, ...others] = doc.services;
    if (!first) throw new Error('fixture without services');
    const names = ['=1+1', '+1', '-1', '@SUM(A1)', '\tTAB', '\rCR', 'plain -1'];
    const hostile: StatementDocument = {
      ...doc,
      services: [...names.map((name, i) => ({ ...first, id: uuid(100 + i), name })), ...others],
    };
    const parsed = parse(renderEvidenceCsv(hostile), { columns: true }) as Record<string, string>[];
    expect(parsed.slice(0, names.length).map((r) => r.name)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tTAB",
      "'\rCR",
      'plain -1',
    ]);
    expect(parsed[0]?.down_minutes).toBe('50');
  });
});
