import { PLANS, PLAN_IDS } from '../../domain/plans';

const FEATURE_LABELS: Record<string, string> = {
  public_api: 'Public API',
  customers: 'Customers and customer-scoped incidents',
  sla_ledger: 'SLA Ledger',
};

const cap = (n: number | null) => (n === null ? 'unlimited' : n.toLocaleString('en'));

/** The plans page that `upgrade.url` of plan-limit problems points to (…/pricing#<plan>), rendered from the plans table. */
export function renderPricing(): string {
  const features = Object.keys(FEATURE_LABELS);
  const cols = PLAN_IDS.map((id) => PLANS[id]);
  const row = (label: string, cells: string[]) =>
    `<tr><th scope="row">${label}</th>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vigil plans</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}td,th{padding:.4rem .6rem;border-bottom:1px solid #ddd;text-align:left}th[id]:target{background:#fff6cc}</style></head>
<body><h1>Plans</h1><table><thead><tr><th></th>${cols.map((p) => `<th id="${p.id}" scope="col">${p.label}</th>`).join('')}</tr></thead><tbody>
${features
  .map((f) =>
    row(
      FEATURE_LABELS[f]!,
      cols.map((p) => (p.features.has(f as never) ? 'yes' : '—')),
    ),
  )
  .join('\n')}
${row(
  'Services',
  cols.map((p) => cap(p.quotas.services)),
)}
${row(
  'Customers',
  cols.map((p) => (p.features.has('customers') ? cap(p.quotas.customers) : '—')),
)}
${row(
  'Active API keys',
  cols.map((p) => cap(p.quotas.api_keys)),
)}
${row(
  'API requests per minute',
  cols.map((p) => (p.features.has('public_api') ? cap(p.rateLimit.perMinute) : '—')),
)}
${row(
  'API requests per UTC day',
  cols.map((p) => (p.features.has('public_api') ? cap(p.rateLimit.perDay) : '—')),
)}
</tbody></table></body></html>`;
}
