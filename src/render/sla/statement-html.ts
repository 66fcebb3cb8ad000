/**
 * An SLA statement as one self-contained, print-ready HTML page for finance and the customer
 * (the PDF is Chromium's print of it): inline CSS, no scripts, no external resources, every
 * string escaped. Times are shown in the statement's time zone; statement.json keeps the UTC
 * instants. The calculation section retells src/domain/sla/credit.ts in the contract's terms:
 * share of the fee → cap → minimum → one rounding.
 */
import { describeConfirmation } from '../../domain/sla/outages';
import type { StatementDocument } from '../../domain/sla/statement';
import { selectTier } from '../../domain/sla/credit';
import { type Fraction, decimalToFraction, formatFractionFloorTrimmed } from '../../domain/sla/decimal';
import { formatInZone, monthInZone } from '../format-time';
import { esc, join, lines, safeHttpUrl, timeTag } from '../html';
import { formatCount, formatMoney, formatMoneyFraction, minorUnit } from './money';

export interface StatementRenderInput {
  document: StatementDocument;
  sha256: string;
  signature: string;
  signingKeyId: string;
  /** draft | in_review | approved | delivered | superseded | void */
  state: string;
  creditState: string;
  audit: {
    action: string;
    from_state: string | null;
    to_state: string;
    revision: number;
    sha256: string;
    actor: string;
    actor_name: string | null;
    note: string | null;
    at: string;
  }[];
  revisions: { id: string; revision: number; state: string; sha256: string; generated_at: string }[];
  /** Where the public keys are published. */
  jwksUrl: string;
  verifyDocsUrl: string;
}

type Doc = StatementDocument;

/** Print-first: A4, tables whose header repeats on each page and whose rows do not split. */
const STATEMENT_CSS = `
@page { size: A4; margin: 16mm 14mm 18mm; }
* { box-sizing: border-box; }
html { color: #1f2328; background: #fff; font: 10pt/1.45 "Helvetica Neue", Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif; }
body { margin: 0 auto; max-width: 190mm; padding: 0 4mm; }
h1 { font-size: 18pt; margin: 0 0 3mm; }
h2 { font-size: 12.5pt; margin: 7mm 0 2mm; padding-bottom: 1mm; border-bottom: 1px solid #d0d7de; break-after: avoid; }
p { margin: 1.5mm 0; }
code, pre { font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace; font-size: 8.5pt; overflow-wrap: anywhere; word-break: break-all; }
pre { white-space: pre-wrap; background: #f6f8fa; border: 1px solid #d0d7de; padding: 2mm; margin: 1mm 0; }
a { color: #0b5cad; overflow-wrap: anywhere; }
.muted { color: #57606a; }
.issuer { font-weight: 600; color: #57606a; margin: 4mm 0 1mm; }
.banner { border: 2px solid #b42318; background: #fef3f2; color: #7a1a12; padding: 2mm 3mm; margin: 3mm 0; font-size: 11pt; }
.watermark { position: fixed; top: 42%; left: 0; right: 0; text-align: center; font-size: 96pt; font-weight: 800; letter-spacing: 6mm; color: rgba(180, 35, 24, 0.10); transform: rotate(-30deg); z-index: -1; pointer-events: none; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 1mm 5mm; margin: 2mm 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
dl.summary { display: grid; grid-template-columns: repeat(5, 1fr); gap: 2mm; margin: 2mm 0; break-inside: avoid; }
.figure { border: 1px solid #d0d7de; border-radius: 2mm; padding: 2mm 3mm; }
.figure dt { font-size: 8.5pt; color: #57606a; }
.figure dd { margin: 0.5mm 0 0; font-size: 12pt; font-weight: 700; }
.figure dd .muted { font-size: 8.5pt; font-weight: 400; }
.figure.met dd { color: #1a7f37; }
.figure.missed dd { color: #b42318; }
table { width: 100%; table-layout: fixed; border-collapse: collapse; margin: 2mm 0; font-size: 8.5pt; }
caption { text-align: left; font-weight: 600; padding-bottom: 1mm; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { text-align: left; vertical-align: top; padding: 1mm 1.5mm; border-bottom: 1px solid #d0d7de; overflow-wrap: anywhere; }
thead th { background: #f6f8fa; border-bottom: 1.5px solid #8c959f; overflow-wrap: normal; }
tbody th { font-weight: 600; }
tfoot th, tfoot td { font-weight: 700; border-top: 1.5px solid #8c959f; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
td.yes { color: #1a7f37; }
td.no { color: #b42318; }
td.why { white-space: pre-line; }
td.hash code { font-size: 7.5pt; }
tr.current th, tr.current td { background: #f6f8fa; }
ol.steps li { margin: 1.5mm 0; }
ol.steps table { width: 80mm; }
.note { font-size: 8.5pt; color: #57606a; }
footer { margin-top: 8mm; padding-top: 2mm; border-top: 1px solid #d0d7de; font-size: 8pt; color: #57606a; overflow-wrap: anywhere; }
@media print { body { max-width: none; padding: 0; } a { color: inherit; text-decoration: none; } }
`;

/** The banner of a statement that is not (or no longer) the customer's final one; null when final. */
const BANNERS: Readonly<Record<string, { mark: string; text: string }>> = {
  draft: { mark: 'DRAFT', text: 'Draft: not approved. The figures may still change.' },
  in_review: { mark: 'DRAFT', text: 'In review: not approved yet. The figures may still change.' },
  superseded: { mark: 'SUPERSEDED', text: 'Superseded: a later revision of this statement replaces this one.' },
  void: { mark: 'VOID', text: 'Void: this statement was withdrawn and is not valid.' },
};
const FINAL_STATES = new Set(['approved', 'delivered']);

function bannerFor(state: string): { mark: string; text: string } | null {
  if (FINAL_STATES.has(state)) return null;
  return BANNERS[state] ?? { mark: state.toUpperCase(), text: `State "${state}": not an approved statement.` };
}

const humanize = (token: string) => token.replace(/_/g, ' ');
const pct = (decimal: string) => `${decimal} %`;
const money = (doc: Doc, minor: number) => formatMoney(minor, doc.contract.currency, doc.contract.currency_exponent);
const code = (s: string) => `<code>${esc(s)}</code>`;
const when = (doc: Doc, iso: string | null, none = '—') => (iso ? timeTag(iso, doc.period.timezone) : esc(none));
const th = (label: string, scope: 'col' | 'row' = 'col', cls = '') =>
  `<th scope="${scope}"${cls ? ` class="${cls}"` : ''}>${label}</th>`;
const td = (html: string, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${html}</td>`;
const num = (n: number) => td(esc(formatCount(n)), 'num');

/** `widths`: each column's share of the page width in %, so long names wrap instead of overflowing. */
function table(caption: string, widths: number[], head: string[], body: string[], foot = ''): string {
  return lines(
    '<table>',
    `<caption>${esc(caption)}</caption>`,
    `<colgroup>${widths.map((w) => `<col style="width: ${w}%">`).join('')}</colgroup>`,
    `<thead><tr>${head.join('')}</tr></thead>`,
    `<tbody>\n${body.join('\n')}\n</tbody>`,
    foot ? `<tfoot>${foot}</tfoot>` : '',
    '</table>',
  );
}

function link(url: string): string {
  const safe = safeHttpUrl(url);
  return safe ? `<a href="${esc(safe)}">${esc(safe)}</a>` : code(url);
}

function header(i: StatementRenderInput): string {
  const d = i.document;
  const tz = d.period.timezone;
  const customer = d.customer.external_id
    ? `${esc(d.customer.name)} <span class="muted">(ref. ${esc(d.customer.external_id)})</span>`
    : esc(d.customer.name);
  const supersedes = d.supersedes
    ? `<dt>Replaces</dt><dd>revision ${d.supersedes.revision} of ${code(d.supersedes.statement_id)}, SHA-256 ${code(d.supersedes.sha256)}</dd>`
    : '';
  return lines(
    '<header class="statement-header">',
    `<p class="issuer">${esc(d.organization.name)}</p>`,
    `<h1>SLA statement: ${esc(monthInZone(d.period.start, tz))}</h1>`,
    '<dl class="facts">',
    `<dt>Customer</dt><dd>${customer}</dd>`,
    `<dt>Contract</dt><dd>${esc(d.contract.name)}</dd>`,
    `<dt>Period</dt><dd>${esc(d.period.label)}, time zone ${esc(tz)} <span class="muted">(tz data ${esc(d.period.tz_data_version)})</span></dd>`,
    `<dt>From</dt><dd>${timeTag(d.period.start, tz)} <span class="muted">= ${esc(d.period.start)}</span></dd>`,
    `<dt>Until</dt><dd>${timeTag(d.period.end, tz)} <span class="muted">= ${esc(d.period.end)}, exclusive</span></dd>`,
    `<dt>Statement</dt><dd>${code(d.statement_id)}, revision ${d.revision}, generated ${timeTag(d.generated_at, tz)}</dd>`,
    supersedes,
    `<dt>State</dt><dd><strong>${esc(humanize(i.state))}</strong>; credit ${esc(humanize(i.creditState))}</dd>`,
    '</dl>',
    '</header>',
  );
}

function summary(i: StatementRenderInput): string {
  const d = i.document;
  const item = (label: string, value: string, cls = '') =>
    `<div class="figure${cls ? ` ${cls}` : ''}"><dt>${esc(label)}</dt><dd>${value}</dd></div>`;
  return lines(
    '<section aria-labelledby="summary">',
    '<h2 id="summary">Summary</h2>',
    '<dl class="summary">',
    item('Availability', esc(pct(d.attainment.percent))),
    item('Target', esc(pct(d.contract.sla_target_pct))),
    item('Result', d.target_met ? 'Target met' : 'Target missed', d.target_met ? 'met' : 'missed'),
    item(
      'Service credit',
      `${esc(money(d, d.credit.amount_minor))}<br><span class="muted">${esc(pct(d.credit.credit_pct))} of the monthly fee</span>`,
    ),
    item('Monthly fee', esc(money(d, d.contract.monthly_fee_minor))),
    '</dl>',
    '</section>',
  );
}

function services(d: Doc): string {
  const row = (name: string, metrics: string, m: Doc['totals']) =>
    `<tr>${th(esc(name), 'row')}${td(metrics, 'num')}${num(m.total_minutes)}${num(m.excluded_minutes)}${num(m.eligible_minutes)}${num(m.down_minutes)}</tr>`;
  return lines(
    '<section aria-labelledby="services">',
    '<h2 id="services">Covered services</h2>',
    table(
      'Minutes per covered service',
      [40, 10, 12.5, 12.5, 12.5, 12.5],
      [
        th('Service'),
        th('Metrics', 'col', 'num'),
        th('Total', 'col', 'num'),
        th('Excluded', 'col', 'num'),
        th('Eligible', 'col', 'num'),
        th('Down', 'col', 'num'),
      ],
      d.services.map((s) => row(s.name, esc(formatCount(s.metrics)), s)),
      row('Contract (down when any service is down)', '', d.totals),
    ),
    '<p class="note">The contract is down in a minute when any covered service is, so its down minutes are not the sum of the services\' minutes.</p>',
    '</section>',
  );
}

/** The insufficient-evidence warning, shown at the top (as the document states it). */
function coverageWarning(d: Doc): string {
  return d.coverage?.warning
    ? `<p class="banner evidence-warning" role="note"><strong>Warning</strong> ${esc(d.coverage.warning)}</p>`
    : '';
}

/** Coverage per covered item, where each metric's evidence came from, and what a correction changed. */
function evidence(d: Doc): string {
  if (!d.coverage) return '';
  const c = d.coverage;
  const items = d.services.map(
    (s) => `<tr>${th(esc(s.name), 'row')}${num(s.measured_minutes ?? 0)}${num(s.unmeasured_minutes ?? 0)}</tr>`,
  );
  const metrics = d.services.flatMap((s) =>
    (s.metric_evidence ?? []).map(
      (m) =>
        `<tr>${th(esc(`${s.name} / ${m.name}`), 'row')}${td(when(d, m.counted_from))}${num(m.samples)}${num(m.imported_samples)}${num(m.imported_minutes)}${num(m.late_samples)}</tr>`,
    ),
  );
  return lines(
    '<section aria-labelledby="evidence">',
    '<h2 id="evidence">Evidence and coverage</h2>',
    `<p>A status was measured in ${esc(pct(c.coverage_pct))} of the minutes (${esc(formatCount(c.measured_minutes))} measured, ${esc(formatCount(c.unmeasured_minutes))} without a measured status: a measurement gap, or no metric yet). The contract asks for at least ${esc(pct(c.min_coverage_pct))}; minutes without a measured status count as ${esc(c.no_data_counts_as)}.</p>`,
    table(
      'Measured minutes per covered item',
      [60, 20, 20],
      [th('Covered item'), th('Measured', 'col', 'num'), th('Unmeasured', 'col', 'num')],
      items,
    ),
    metrics.length
      ? table(
          "Where each metric's evidence came from",
          [34, 22, 11, 11, 11, 11],
          [
            th('Metric'),
            th('Counted from'),
            th('Samples', 'col', 'num'),
            th('Imported', 'col', 'num'),
            th('Imported minutes', 'col', 'num'),
            th('After the period', 'col', 'num'),
          ],
          metrics,
        )
      : '',
    d.correction ? `<p><strong>Correction.</strong> ${esc(d.correction.summary)}</p>` : '',
    d.correction && d.correction.changes.length
      ? table(
          'What changed',
          [50, 25, 25],
          [th('Field'), th('Before'), th('After')],
          d.correction.changes.map(
            (x) => `<tr>${th(code(x.field), 'row')}${td(esc(x.before))}${td(esc(x.after))}</tr>`,
          ),
        )
      : '',
    '</section>',
  );
}

function exclusions(d: Doc): string {
  const rows = d.exclusions.map((e) =>
    lines(
      '<tr>',
      th(esc(e.title), 'row'),
      td(e.kind === 'maintenance' ? 'Maintenance' : 'Manual'),
      td(`${when(d, e.start)} – ${when(d, e.end)}`),
      td(when(d, e.announced_at)),
      td(e.excluded ? 'Yes' : 'No', e.excluded ? 'yes' : 'no'),
      td(esc(e.why), 'why'),
      '</tr>',
    ),
  );
  const body = rows.length
    ? table(
        'Maintenance windows and manual exclusions',
        [19, 13, 21, 14, 11, 22],
        [th('Exclusion'), th('Kind'), th('Window'), th('Announced'), th('Excluded'), th('Why')],
        rows,
      )
    : '<p>No maintenance or manual exclusions in this period.</p>';
  return lines('<section aria-labelledby="exclusions">', '<h2 id="exclusions">Exclusions</h2>', body, '</section>');
}

function incidents(d: Doc): string {
  const rows = d.incidents.map((x) =>
    lines(
      '<tr>',
      th(esc(x.title), 'row'),
      td(esc(x.severity ?? '—')),
      td(when(d, x.start)),
      td(when(d, x.end, 'ongoing')),
      num(x.down_minutes),
      td(x.counted ? 'Included' : 'Excluded', x.counted ? 'no' : 'yes'),
      td(esc(x.why), 'why'),
      '</tr>',
    ),
  );
  const body = rows.length
    ? table(
        'Incidents on the covered services',
        [18, 11, 14, 14, 10, 12, 21],
        [
          th('Incident'),
          th('Severity'),
          th('Start'),
          th('End'),
          th('Down minutes', 'col', 'num'),
          th('Counted'),
          th('Why'),
        ],
        rows,
      )
    : '<p>No incidents on the covered services in this period.</p>';
  return lines('<section aria-labelledby="incidents">', '<h2 id="incidents">Incident ledger</h2>', body, '</section>');
}

/** At most this many outage rows in the page; statement.json lists every one. */
export const OUTAGE_ROWS_SHOWN = 500;

const clocks = new Map<string, Intl.DateTimeFormat>();
/** A time of day to the second in the statement's zone (confirmation rounds may be seconds apart), e.g. "10:10:30 UTC". */
function clock(d: Doc, iso: string): string {
  const zone = d.period.timezone;
  let f = clocks.get(zone);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = {
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    };
    try {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
    }
    clocks.set(zone, f);
  }
  return `<time datetime="${esc(iso)}">${esc(f.format(new Date(iso)))}</time>`;
}

/**
 * Each metric's outages with how they were confirmed. Shown only for documents that
 * list outages (drafted since confirmation across locations); older documents are rendered as they were.
 */
function outages(d: Doc): string {
  const listed = d.services.flatMap((s) =>
    (s.metric_evidence ?? []).filter((m) => m.outages !== undefined).map((m) => ({ s, m })),
  );
  if (!listed.length) return '';
  const all = listed.flatMap(({ s, m }) => (m.outages ?? []).map((o) => ({ s, m, o })));
  const rows = all.slice(0, OUTAGE_ROWS_SHOWN).map(({ s, m, o }) => {
    const c = o.confirmed_by;
    const confirmation = c
      ? `${esc(describeConfirmation(c).replace(/^c/, 'C'))}: first failing round ${clock(d, c.first_failing_at)}, confirmed ${clock(d, c.confirmed_at)}${
          c.failing_locations.length
            ? `<br><span class="muted">failing: ${esc(c.failing_locations.join(', '))}</span>`
            : ''
        }`
      : esc('Counted at once: the flip recorded no confirmation.');
    return lines(
      '<tr>',
      th(esc(`${s.name} / ${m.name}`), 'row'),
      td(
        `${when(d, o.from)} – ${when(d, o.to)}<br><span class="muted">${esc(o.status)}${o.reason ? ` (${esc(o.reason)})` : ''}</span>`,
      ),
      num(o.minutes),
      num(o.counted_minutes),
      td(confirmation, 'why'),
      '</tr>',
    );
  });
  const body = all.length
    ? table(
        'Outages of the covered metrics',
        [20, 26, 10, 10, 34],
        [th('Metric'), th('Outage'), th('Minutes', 'col', 'num'), th('Counted', 'col', 'num'), th('Confirmation')],
        rows,
      )
    : '<p>No covered metric was down in this period.</p>';
  return lines(
    '<section aria-labelledby="outages">',
    '<h2 id="outages">Outage ledger</h2>',
    '<p>Each outage of a covered metric, from the status flip that began it. A flip measured from several locations is confirmed over consecutive failing rounds; the outage is counted from the <strong>first</strong> failing round, so the minutes spent confirming it are down minutes too. <em>Minutes</em> are the minutes the outage touches; <em>Counted</em> those outside excluded windows (a minute two outages share shows in both).</p>',
    body,
    all.length > OUTAGE_ROWS_SHOWN
      ? `<p class="note">${esc(`The first ${formatCount(OUTAGE_ROWS_SHOWN)} of ${formatCount(all.length)} outages are shown; statement.json lists every one.`)}</p>`
      : '',
    '</section>',
  );
}

const fractionOf = (decimal: string): Fraction => decimalToFraction(decimal);
const percentOfShare = (share: Fraction) =>
  formatFractionFloorTrimmed({ numerator: share.numerator * 100n, denominator: share.denominator }, 6);

/** The share of the fee the terms give before the cap (step 1 of credit.ts), with its explanation. */
function shareStep(d: Doc): { share: Fraction; html: string } {
  const terms = d.contract.credit_terms;
  const { eligible_minutes: eligible, down_minutes: down } = d.totals;
  if (terms.type === 'tiered') {
    const attained: Fraction = {
      numerator: BigInt(d.attainment.numerator),
      denominator: BigInt(d.attainment.denominator),
    };
    const step = selectTier(terms.steps, attained);
    const steps = terms.steps.map(
      (s) => `<tr>${th(`below ${esc(pct(s.below_pct))}`, 'row')}${td(esc(pct(s.credit_pct)), 'num')}</tr>`,
    );
    const outcome = step
      ? `The availability ${esc(pct(d.attainment.percent))} is below ${esc(pct(step.below_pct))}: <strong>${esc(pct(step.credit_pct))}</strong> of the fee.`
      : `The availability ${esc(pct(d.attainment.percent))} is below no step: <strong>0 %</strong> of the fee.`;
    return {
      share: step
        ? {
            numerator: fractionOf(step.credit_pct).numerator,
            denominator: fractionOf(step.credit_pct).denominator * 100n,
          }
        : { numerator: 0n, denominator: 1n },
      html: lines(
        '<strong>Share of the fee (tiered).</strong> A step applies when the availability is strictly below its threshold (exactly at the threshold does not); of the steps that apply, the highest credit wins.',
        table('Credit steps', [60, 40], [th('Availability'), th('Credit', 'col', 'num')], steps),
        outcome,
      ),
    };
  }
  const m = fractionOf(terms.multiplier);
  const share: Fraction =
    eligible === 0
      ? { numerator: 0n, denominator: 1n }
      : { numerator: BigInt(down) * m.numerator, denominator: BigInt(eligible) * m.denominator };
  const formula =
    eligible === 0
      ? 'There are no eligible minutes, so the share is <strong>0 %</strong>.'
      : `down ÷ eligible × multiplier = ${esc(formatCount(down))} ÷ ${esc(formatCount(eligible))} × ${esc(terms.multiplier)} = <strong>${esc(pct(percentOfShare(share)))}</strong> of the fee${(share.numerator * 10n ** 8n) % share.denominator === 0n ? '' : ' (shown cut at 6 decimal places; the exact fraction is used)'}.`;
  return { share, html: `<strong>Share of the fee (proportional).</strong> ${formula}` };
}

function calculation(d: Doc): string {
  const terms = d.contract.credit_terms;
  const t = d.totals;
  const cur = d.contract.currency;
  const exp = d.contract.currency_exponent;
  const fee = BigInt(d.contract.monthly_fee_minor);
  const { share: uncapped, html: shareHtml } = shareStep(d);
  const capFraction: Fraction = {
    numerator: fractionOf(terms.cap_pct).numerator,
    denominator: fractionOf(terms.cap_pct).denominator * 100n,
  };
  const share = d.credit.capped ? capFraction : uncapped;
  const exact = formatMoneyFraction(fee * share.numerator, share.denominator, cur, exp);
  const downRule = terms.count_degraded_as_down ? 'unhealthy or degraded' : 'unhealthy (degraded does not count)';
  const attainmentText =
    t.eligible_minutes === 0
      ? 'No minute is eligible, so nothing could be missed: <strong>100 %</strong>.'
      : `(eligible − down) ÷ eligible = (${esc(formatCount(t.eligible_minutes))} − ${esc(formatCount(t.down_minutes))}) ÷ ${esc(formatCount(t.eligible_minutes))} = ${esc(d.attainment.numerator)} ÷ ${esc(d.attainment.denominator)} = <strong>${esc(pct(d.attainment.percent))}</strong> (shown rounded down at 4 decimal places; the thresholds are compared with the exact fraction).`;
  const minimum =
    terms.minimum_credit_minor === 0
      ? 'The contract sets no minimum credit.'
      : `A credit above zero but below ${esc(money(d, terms.minimum_credit_minor))} is raised to that minimum (never above the fee); a zero credit stays zero. ${d.credit.minimum_applied ? '<strong>Applied</strong>: the credit is raised to the minimum.' : 'Not applied.'}`;
  const roundingRule =
    d.credit.rounding === 'up'
      ? "up: any fraction of a unit goes up, in the customer's favour"
      : 'half up: half a unit or more goes up, less goes down';
  const rounding = d.credit.minimum_applied
    ? `Rounding (${roundingRule}) is not needed: the minimum is a whole amount.`
    : `Rounded once, to the currency's minor unit (${esc(minorUnit(exp))} ${esc(cur)}), ${esc(roundingRule)}: ${esc(exact)} → <strong>${esc(money(d, d.credit.amount_minor))}</strong>.`;

  const steps = [
    `<strong>Minutes covered.</strong> ${esc(formatCount(t.total_minutes))} minutes of the period.`,
    `<strong>Excluded minutes.</strong> ${esc(formatCount(t.excluded_minutes))} minutes lie entirely inside an excluded window: scheduled maintenance announced at least ${esc(formatCount(terms.maintenance_notice_hours))} h before it started, and exclusions added by finance. A minute only partly inside stays eligible.`,
    `<strong>Eligible minutes.</strong> ${esc(formatCount(t.total_minutes))} − ${esc(formatCount(t.excluded_minutes))} = ${esc(formatCount(t.eligible_minutes))}.`,
    `<strong>Down minutes.</strong> ${esc(formatCount(t.down_minutes))}: an eligible minute is down when any covered service was ${esc(downRule)} for at least part of it, outside the excluded windows.`,
    `<strong>Availability (attainment).</strong> ${attainmentText}`,
    `<strong>Target.</strong> ${esc(pct(d.contract.sla_target_pct))}: ${d.target_met ? 'met (the availability is at or above it)' : 'missed (the availability is below it)'}.`,
    shareHtml,
    `<strong>Cap.</strong> The credit is at most ${esc(pct(terms.cap_pct))} of the fee. ${d.credit.capped ? `The share was higher, so <strong>${esc(pct(d.credit.credit_pct))}</strong> applies.` : `The share ${esc(pct(d.credit.credit_pct))} is within the cap.`}`,
    `<strong>Amount.</strong> ${esc(money(d, d.contract.monthly_fee_minor))} × ${esc(pct(d.credit.credit_pct))} = ${esc(exact)} before the minimum and the rounding.`,
    `<strong>Minimum.</strong> ${minimum}`,
    `<strong>Rounding.</strong> ${rounding}`,
    `<strong>Service credit.</strong> ${esc(money(d, d.credit.amount_minor))}.`,
  ];
  return lines(
    '<section aria-labelledby="calculation">',
    '<h2 id="calculation">How the credit was calculated</h2>',
    '<ol class="steps">',
    join(steps, (s) => `<li>${s}</li>`),
    '</ol>',
    '</section>',
  );
}

function approvals(i: StatementRenderInput): string {
  const d = i.document;
  const rows = i.audit.map((a) =>
    lines(
      '<tr>',
      th(when(d, a.at), 'row'),
      td(esc(humanize(a.action))),
      td(`${esc(a.from_state ? humanize(a.from_state) : 'new')} → ${esc(humanize(a.to_state))}`),
      td(esc(String(a.revision)), 'num'),
      td(`${esc(a.actor_name ?? a.actor)}${a.actor_name ? `<br><span class="muted">${esc(a.actor)}</span>` : ''}`),
      td(esc(a.note ?? ''), 'why'),
      '</tr>',
    ),
  );
  const body = rows.length
    ? table(
        'Review and approval trail',
        [16, 12, 18, 11, 19, 24],
        [th('When'), th('Action'), th('State'), th('Revision', 'col', 'num'), th('By'), th('Note')],
        rows,
      )
    : '<p>No review actions recorded yet.</p>';
  return lines('<section aria-labelledby="approvals">', '<h2 id="approvals">Approvals</h2>', body, '</section>');
}

function revisions(i: StatementRenderInput): string {
  const d = i.document;
  const rows = [...i.revisions]
    .sort((a, b) => a.revision - b.revision)
    .map((r) =>
      lines(
        `<tr${r.revision === d.revision ? ' class="current"' : ''}>`,
        th(`${r.revision}${r.revision === d.revision ? ' (this one)' : ''}`, 'row'),
        td(esc(humanize(r.state))),
        td(when(d, r.generated_at)),
        td(code(r.sha256), 'hash'),
        '</tr>',
      ),
    );
  const body = rows.length
    ? table(
        'Revisions of this statement',
        [14, 12, 20, 54],
        [th('Revision'), th('State'), th('Generated'), th('SHA-256')],
        rows,
      )
    : '<p>This is the only revision.</p>';
  return lines('<section aria-labelledby="revisions">', '<h2 id="revisions">Revision history</h2>', body, '</section>');
}

function verification(i: StatementRenderInput): string {
  const command = `vigil sla verify statement.json statement.jws --jwks ${i.jwksUrl} --sha256 ${i.sha256}`;
  return lines(
    '<section aria-labelledby="verification">',
    '<h2 id="verification">Verifying this statement</h2>',
    "<p>The figures above come from <code>statement.json</code>, signed in <code>statement.jws</code> (both attached to the PDF and available from the API). Anyone can check that they are authentic and unchanged, without access to this service's data:</p>",
    '<dl class="facts verify">',
    `<dt>SHA-256</dt><dd>${code(i.sha256)}</dd>`,
    `<dt>Signing key</dt><dd>${code(i.signingKeyId)}</dd>`,
    `<dt>Signature</dt><dd>${code(i.signature)}</dd>`,
    `<dt>Public keys</dt><dd>${link(i.jwksUrl)}</dd>`,
    '</dl>',
    '<ol>',
    '<li>Save <code>statement.json</code> and <code>statement.jws</code> as they are: opening and saving the JSON in an editor changes its bytes.</li>',
    `<li>Run <pre><code>${esc(command)}</code></pre></li>`,
    '<li>It prints <code>OK</code> when the signature is valid for a key of the set and the SHA-256 matches the one above.</li>',
    '</ol>',
    `<p>Details and checks without the <code>vigil</code> tool: ${link(i.verifyDocsUrl)}.</p>`,
    '</section>',
  );
}

export function renderStatementHtml(input: StatementRenderInput): string {
  const d = input.document;
  const banner = bannerFor(input.state);
  const title = `SLA statement ${d.period.label}: ${d.customer.name}, ${d.contract.name} (revision ${d.revision})`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${esc(title)}</title>
<style>
${STATEMENT_CSS}
</style>
</head>
<body>
${lines(
  banner ? `<div class="watermark" aria-hidden="true">${esc(banner.mark)}</div>` : '',
  banner ? `<p class="banner" role="note"><strong>${esc(banner.mark)}</strong> ${esc(banner.text)}</p>` : '',
  header(input),
  coverageWarning(d),
  '<main>',
  summary(input),
  services(d),
  evidence(d),
  exclusions(d),
  incidents(d),
  outages(d),
  calculation(d),
  approvals(input),
  revisions(input),
  verification(input),
  '</main>',
  `<footer><p>Statement ${esc(d.statement_id)}, revision ${d.revision} · SHA-256 ${esc(input.sha256)} · times in ${esc(d.period.timezone)} unless marked UTC · generated ${esc(formatInZone(d.generated_at, d.period.timezone))}</p></footer>`,
)}
</body>
</html>
`;
}
