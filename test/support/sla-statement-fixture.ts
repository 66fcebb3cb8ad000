/**
 * A realistic signed-statement fixture for the renderers: Europe/Berlin 2025-03 (44,580 minutes),
 * three covered services, an excluded maintenance, a maintenance announced too late, a manual
 * exclusion whose justification holds commas, quotes and a line break, and five incidents
 * (counted, inside maintenance, degraded only, inside the late maintenance, still open).
 *
 * Totals with the default terms: 180 excluded, 44,400 eligible, 50 down → 99.8873 %; tiered
 * (<99.99 → 10 %, <99 → 30 %) gives 10 % of the fee; proportional ×10 gives 50/44,400 × 10.
 */
import { randomBytes } from 'node:crypto';
import { type CreditTermsInput, creditTermsSchema } from '../../src/domain/sla/credit-terms';
import { periodBounds } from '../../src/domain/sla/period';
import { type StatementDocument, buildStatementDocument } from '../../src/domain/sla/statement';
import { canonicalStatement } from '../../src/crypto/statement-signing';
import type { StatementRenderInput } from '../../src/render/sla/statement-html';

export const uuid = (n: number) => `0195b3c4-0000-7000-8000-${String(n).padStart(12, '0')}`;
const d = (iso: string) => new Date(iso);

export const IDS = {
  statement: uuid(1),
  api: uuid(11),
  dashboard: uuid(12),
  billing: uuid(13),
  maintenanceOk: uuid(21),
  maintenanceLate: uuid(22),
  manual: uuid(23),
  incidentCounted: uuid(31),
  incidentInMaintenance: uuid(32),
  incidentDegraded: uuid(33),
  incidentLateMaintenance: uuid(34),
  incidentOpen: uuid(35),
};

export const MANUAL_JUSTIFICATION =
  'Customer-requested freeze, "ticket 4711", agreed by phone\nsee mail from ops, 2025-03-27';
export const FORMULA_TITLE = '=HYPERLINK("http://evil.example","click")';

export const TIERED_TERMS: CreditTermsInput = {
  type: 'tiered',
  steps: [
    { below_pct: '99.99', credit_pct: '10' },
    { below_pct: '99', credit_pct: '30' },
  ],
  maintenance_notice_hours: 72,
};

export interface StatementFixtureOptions {
  customerName?: string;
  currency?: string;
  monthlyFeeMinor?: number;
  creditTerms?: CreditTermsInput;
  revision?: number;
  supersedes?: StatementDocument['supersedes'];
}

export function statementFixture(o: StatementFixtureOptions = {}): StatementDocument {
  const period = periodBounds('2025-03', 'Europe/Berlin');
  const down = (from: string, to: string, status: 'unhealthy' | 'degraded' = 'unhealthy') => [
    { at: d(from), status },
    { at: d(to), status: 'healthy' as const },
  ];
  return buildStatementDocument({
    statementId: IDS.statement,
    revision: o.revision ?? 1,
    supersedes: o.supersedes ?? null,
    generatedAt: d('2025-04-01T06:00:00.000Z'),
    organization: { id: uuid(2), name: 'Vigil Hosting GmbH' },
    customer: { id: uuid(3), name: o.customerName ?? 'Acme Corp', externalId: 'CUST-0042' },
    contract: {
      id: uuid(4),
      name: 'Enterprise SLA 2025',
      slaTargetPct: '99.9',
      currency: o.currency ?? 'EUR',
      monthlyFeeMinor: o.monthlyFeeMinor ?? 50_000,
      creditTerms: creditTermsSchema.parse(o.creditTerms ?? TIERED_TERMS),
    },
    period,
    window: { start: period.start, end: period.end },
    tzDataVersion: '2025b',
    tzDataSource: 'intl-icu',
    services: [
      {
        id: IDS.api,
        name: 'Public API',
        metrics: [
          // 10:00:00–10:04:30 → 5 down minutes; 12:10–12:20 on 03-28 falls in the manual exclusion.
          {
            initial: 'healthy',
            changes: [
              ...down('2025-03-20T10:00:00Z', '2025-03-20T10:04:30Z'),
              ...down('2025-03-28T12:10:00Z', '2025-03-28T12:20:00Z'),
            ],
          },
          // 45 minutes inside the maintenance announced too late: they count.
          { initial: 'healthy', changes: down('2025-03-25T08:00:00Z', '2025-03-25T08:45:00Z') },
        ],
      },
      {
        id: IDS.dashboard,
        name: 'Dashboard',
        metrics: [
          {
            initial: 'healthy',
            changes: [
              ...down('2025-03-15T01:30:00Z', '2025-03-15T02:00:00Z'),
              ...down('2025-03-22T14:00:00Z', '2025-03-22T14:30:00Z', 'degraded'),
            ],
          },
        ],
      },
      { id: IDS.billing, name: 'Billing <beta> & "invoices"', metrics: [] },
    ],
    maintenances: [
      // 02:00–04:00 CET, announced five days ahead: excluded (120 minutes).
      {
        id: IDS.maintenanceOk,
        title: 'Database upgrade',
        start: d('2025-03-15T01:00:00Z'),
        end: d('2025-03-15T03:00:00Z'),
        announcedAt: d('2025-03-10T09:00:00Z'),
      },
      // Announced 12 h ahead of a 72 h notice: stays eligible.
      {
        id: IDS.maintenanceLate,
        title: 'Emergency network work',
        start: d('2025-03-25T08:00:00Z'),
        end: d('2025-03-25T09:00:00Z'),
        announcedAt: d('2025-03-24T20:00:00Z'),
      },
    ],
    exclusions: [
      {
        id: IDS.manual,
        justification: MANUAL_JUSTIFICATION,
        start: d('2025-03-28T12:00:00Z'),
        end: d('2025-03-28T13:00:00Z'),
      },
    ],
    incidents: [
      {
        id: IDS.incidentCounted,
        title: 'API 5xx errors',
        severity: 'major',
        start: d('2025-03-20T09:58:00Z'),
        end: d('2025-03-20T10:10:00Z'),
      },
      {
        id: IDS.incidentInMaintenance,
        title: FORMULA_TITLE,
        severity: 'minor',
        start: d('2025-03-15T01:20:00Z'),
        end: d('2025-03-15T02:10:00Z'),
      },
      {
        id: IDS.incidentDegraded,
        title: 'Slow dashboard',
        severity: null,
        start: d('2025-03-22T13:55:00Z'),
        end: d('2025-03-22T14:40:00Z'),
      },
      {
        id: IDS.incidentLateMaintenance,
        title: 'Network outage',
        severity: 'critical',
        start: d('2025-03-25T08:00:00Z'),
        end: d('2025-03-25T09:00:00Z'),
      },
      {
        id: IDS.incidentOpen,
        title: 'Database latency',
        severity: 'minor',
        start: d('2025-03-31T20:00:00Z'),
        end: null,
      },
    ],
  });
}

/** A detached-JWS-shaped signature (not a real one: the renderers do not verify). */
export function fakeJws(kid: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', b64: false, crit: ['b64'], kid })).toString('base64url');
  return `${header}..${randomBytes(64).toString('base64url')}`;
}

export function renderInputFixture(
  document: StatementDocument,
  o: Partial<Omit<StatementRenderInput, 'document'>> = {},
): StatementRenderInput {
  const { sha256 } = canonicalStatement(document);
  const kid = 'k7Qp2XHh3yWcY0a9Zr1n6bTt8uVw4sEfGjKlMnOpQrs';
  return {
    document,
    sha256,
    signature: fakeJws(kid),
    signingKeyId: kid,
    state: 'approved',
    creditState: 'approved',
    audit: [
      {
        action: 'submit',
        from_state: 'draft',
        to_state: 'in_review',
        revision: document.revision,
        sha256,
        actor: uuid(91),
        actor_name: 'Finance bot',
        note: null,
        at: '2025-04-01T07:00:00.000Z',
      },
      {
        action: 'approve',
        from_state: 'in_review',
        to_state: 'approved',
        revision: document.revision,
        sha256,
        actor: uuid(92),
        actor_name: 'Dana Controller',
        note: 'Checked against ticket 4711.',
        at: '2025-04-02T09:30:00.000Z',
      },
    ],
    revisions: [
      {
        id: document.statement_id,
        revision: document.revision,
        state: o.state ?? 'approved',
        sha256,
        generated_at: document.generated_at,
      },
    ],
    jwksUrl: 'https://vigil.example.com/.well-known/jwks.json',
    verifyDocsUrl: 'https://vigil.example.com/docs/sla-verification',
    ...o,
  };
}
