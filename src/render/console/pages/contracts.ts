import { esc } from '../../html';
import { exportLink, managedMarker, managedNotice } from '../config-as-code';
import { sentenceFor } from '../form-errors';
import {
  type FormProblem,
  checkboxField,
  choiceGroup,
  csrfField,
  inputField,
  problemBox,
  selectField,
  textareaField,
  zoneSelectField,
} from '../forms';
import { type Choice, facts, link, namesOf, pager, table } from '../parts';
import { type WorkedExample, formatMinor, workedExampleText } from './contracts-example';

/** A contract as the console shows it (the API's view). */
export interface ConsoleContract {
  id: string;
  config_key: string | null;
  customer_id: string;
  name: string;
  service_ids: string[];
  slo_ids: string[];
  sla_target_pct: string;
  timezone: string;
  currency: string;
  monthly_fee_minor: number;
  effective_from: string;
  effective_to: string | null;
  credit_terms: { type: string; [k: string]: unknown };
}

export interface ContractFormValues {
  customer_id: string;
  name: string;
  service_ids: string[];
  slo_ids: string[];
  sla_target_pct: string;
  timezone: string;
  currency: string;
  /** In the currency's major units ("10000.00"). */
  monthly_fee: string;
  effective_from: string;
  effective_to: string;
  billing_email: string;
  finance_contacts: string;
  escalation_contacts: string;
  grace_hours: string;
  terms_type: string;
  steps: { below_pct: string; credit_pct: string }[];
  multiplier: string;
  cap_pct: string;
  /** In the currency's major units. */
  minimum_credit: string;
  rounding: string;
  count_degraded_as_down: boolean;
  maintenance_notice_hours: string;
  no_data_counts_as: string;
  min_coverage_pct: string;
  /** The worked example's attainment. */
  example_attainment_pct: string;
}

export const DEFAULT_EXAMPLE_ATTAINMENT = '99.2';

export const EMPTY_CONTRACT_FORM: ContractFormValues = {
  customer_id: '',
  name: '',
  service_ids: [],
  slo_ids: [],
  sla_target_pct: '99.9',
  timezone: 'UTC',
  currency: 'USD',
  monthly_fee: '',
  effective_from: '',
  effective_to: '',
  billing_email: '',
  finance_contacts: '',
  escalation_contacts: '',
  grace_hours: '48',
  terms_type: 'tiered',
  steps: [
    { below_pct: '99.9', credit_pct: '10' },
    { below_pct: '99', credit_pct: '25' },
    { below_pct: '', credit_pct: '' },
  ],
  multiplier: '1',
  cap_pct: '100',
  minimum_credit: '0',
  rounding: 'half_up',
  count_degraded_as_down: false,
  maintenance_notice_hours: '48',
  no_data_counts_as: 'up',
  min_coverage_pct: '99',
  example_attainment_pct: DEFAULT_EXAMPLE_ATTAINMENT,
};

export const contractHref = (id: string) => `/console/contracts/${encodeURIComponent(id)}`;

/** The terms in a few words ("tiered: <99.9% → 10%, <99% → 25%; cap 100%"). */
export function termsSummary(t: ConsoleContract['credit_terms']): string {
  const steps = Array.isArray(t.steps) ? (t.steps as { below_pct: string; credit_pct: string }[]) : [];
  const main =
    t.type === 'tiered'
      ? steps.map((s) => `&lt;${esc(s.below_pct)}% → ${esc(s.credit_pct)}%`).join(', ')
      : `down share × ${esc(String(t.multiplier))}`;
  return `${esc(t.type)}: ${main}; cap ${esc(String(t.cap_pct ?? '100'))}%`;
}

export function contractListBody(o: {
  items: ConsoleContract[];
  customers: Choice[];
  nextCursor: string | null;
  canWrite: boolean;
}): string {
  const rows = o.items.map((c) => [
    `${link(contractHref(c.id), c.name)}${managedMarker(c.config_key)}`,
    namesOf([c.customer_id], o.customers),
    `${esc(c.sla_target_pct)}%`,
    esc(formatMinor(c.monthly_fee_minor, c.currency)),
    termsSummary(c.credit_terms),
    `${esc(c.effective_from)} – ${c.effective_to ? esc(c.effective_to) : 'open-ended'}`,
  ]);
  const create = o.canWrite
    ? '<p class="actions"><a class="button" href="/console/contracts/new">New contract</a></p>'
    : '';
  return `${create}${exportLink('contract')}
${table(['Name', 'Customer', 'Target', 'Monthly fee', 'Credit terms', 'In effect'], rows, 'No contracts yet.')}
${pager('/console/contracts', o.nextCursor)}`;
}

export interface ContractFormView {
  csrf: string;
  values: ContractFormValues;
  customers: Choice[];
  services: Choice[];
  slos: Choice[];
  example: WorkedExample | { error: string };
  problem?: FormProblem | null;
  existing?: { id: string; config_key: string | null } | null;
}

const opButton = (op: string, label: string) =>
  `<button type="submit" class="secondary" name="_op" value="${esc(op)}" formnovalidate>${esc(label)}</button>`;

const CONTRACT_FIELDS = [
  'customer_id',
  'name',
  'service_ids',
  'slo_ids',
  'sla_target_pct',
  'timezone',
  'currency',
  'monthly_fee',
  'effective_from',
  'effective_to',
  'billing_email',
  'finance_contacts',
  'escalation_contacts',
  'grace_hours',
  'credit_terms.type',
  'credit_terms.multiplier',
  'credit_terms.cap_pct',
  'credit_terms.minimum_credit',
  'credit_terms.rounding',
  'credit_terms.maintenance_notice_hours',
  'credit_terms.no_data_counts_as',
  'credit_terms.min_coverage_pct',
];

function termsFieldset(v: ContractFormView): string {
  const { values: x, problem: p } = v;
  const steps = x.steps.map(
    (s, i) => `<div class="step-row">
${inputField({ name: `credit_terms.steps.${i}.below_pct`, label: `Step ${i + 1}: attainment below (%)`, value: s.below_pct, problem: p })}
${inputField({ name: `credit_terms.steps.${i}.credit_pct`, label: `Step ${i + 1}: credit (% of the fee)`, value: s.credit_pct, problem: p })}
</div>`,
  );
  const stepErrors = (p?.errors ?? [])
    .filter((e) => e.path === 'credit_terms.steps')
    .map((e) => `<p class="field-error">${esc(sentenceFor(e, 'Tiers'))}</p>`)
    .join('');
  const cur = esc(x.currency || 'currency');
  return `<fieldset><legend>Credit terms</legend>
${selectField({
  name: 'credit_terms.type',
  label: 'Kind',
  value: x.terms_type,
  problem: p,
  options: [
    { value: 'tiered', label: 'Tiered: a step of credit below each attainment' },
    { value: 'proportional', label: 'Proportional: the down share of the fee × a multiplier' },
  ],
})}
<fieldset><legend>Tiers (tiered terms)</legend>
<p class="muted">Mildest breach first: "below" falling, credit rising from step to step. The highest credit whose "below" the attainment is under applies. Empty rows are left out.</p>
${steps.join('\n')}${stepErrors}
<div class="actions">${opButton('add_step', 'Add a step')}</div>
</fieldset>
${inputField({ name: 'credit_terms.multiplier', label: 'Multiplier (proportional terms)', value: x.multiplier, problem: p })}
${inputField({ name: 'credit_terms.cap_pct', label: 'Cap (% of the monthly fee)', value: x.cap_pct, problem: p })}
${inputField({ name: 'credit_terms.minimum_credit', label: `Minimum credit (in ${cur}; 0 for none)`, value: x.minimum_credit, problem: p })}
${selectField({
  name: 'credit_terms.rounding',
  label: 'Rounding',
  value: x.rounding,
  problem: p,
  options: [
    { value: 'half_up', label: 'Half up' },
    { value: 'up', label: "Up (in the customer's favour)" },
  ],
})}
${checkboxField({ name: 'credit_terms.count_degraded_as_down', label: 'Count degraded minutes as down', checked: x.count_degraded_as_down })}
${inputField({ name: 'credit_terms.maintenance_notice_hours', label: 'Maintenance notice (hours) that excludes a maintenance', value: x.maintenance_notice_hours, problem: p, type: 'number' })}
${selectField({
  name: 'credit_terms.no_data_counts_as',
  label: 'A minute without data counts as',
  value: x.no_data_counts_as,
  problem: p,
  options: [
    { value: 'up', label: 'Up' },
    { value: 'down', label: 'Down' },
    { value: 'excluded', label: 'Excluded' },
  ],
})}
${inputField({ name: 'credit_terms.min_coverage_pct', label: 'Minimum measured coverage (%) before a statement warns', value: x.min_coverage_pct, problem: p })}
</fieldset>`;
}

function exampleSection(v: ContractFormView, form: boolean): string {
  const input = form
    ? `${inputField({ name: 'example_attainment_pct', label: 'Example attainment (%)', value: v.values.example_attainment_pct, problem: null })}<div class="actions">${opButton('example', 'Show example')}</div>`
    : '';
  return `<section class="worked-example" aria-labelledby="example-h"><h2 id="example-h">Worked example</h2>
${workedExampleText(v.example)}
${input}
<p class="muted">Computed with the same arithmetic as the SLA statements, from the terms and fee as entered (saved or not).</p>
</section>`;
}

/** Create (`existing` null) or edit a contract, with its credit terms and a worked example. */
export function contractFormBody(v: ContractFormView): string {
  const { values: x, problem: p } = v;
  const action = v.existing ? contractHref(v.existing.id) : '/console/contracts/new';
  const customerOptions = [
    { value: '', label: 'Choose a customer' },
    ...v.customers.map((c) => ({ value: c.id, label: c.name })),
  ];
  const stepPaths = (p?.errors ?? []).filter((e) => e.path.startsWith('credit_terms.steps.')).map((e) => e.path);
  return `${v.existing ? managedNotice(v.existing.config_key) : ''}
<p><a href="/console/contracts">All contracts</a></p>
${problemBox(p, [...CONTRACT_FIELDS, ...stepPaths])}
<form class="stack publishing-form" method="post" action="${esc(action)}">
${csrfField(v.csrf)}
<button type="submit" name="_op" value="save" class="default-submit" tabindex="-1">Save</button>
${selectField({ name: 'customer_id', label: 'Customer', value: x.customer_id, problem: p, options: customerOptions })}
${inputField({ name: 'name', label: 'Name', value: x.name, problem: p, required: true })}
${choiceGroup({ name: 'service_ids', legend: 'Services covered', choices: v.services, selected: x.service_ids, problem: p, empty: 'No services yet.' })}
${choiceGroup({ name: 'slo_ids', legend: 'SLOs covered (optional)', choices: v.slos, selected: x.slo_ids, problem: p, empty: 'No SLOs.' })}
${inputField({ name: 'sla_target_pct', label: 'SLA target (%)', value: x.sla_target_pct, problem: p, hint: 'A decimal such as 99.9.' })}
${zoneSelectField({ name: 'timezone', label: 'Time zone', value: x.timezone, problem: p, hint: 'Statements cover calendar months there.' })}
${inputField({ name: 'currency', label: 'Currency', value: x.currency, problem: p, hint: 'ISO 4217 code such as USD or EUR.' })}
${inputField({ name: 'monthly_fee', label: 'Monthly fee', value: x.monthly_fee, problem: p, hint: 'In the currency, e.g. 10000.00.' })}
${inputField({ name: 'effective_from', label: 'In effect from', value: x.effective_from, problem: p, hint: 'YYYY-MM-DD' })}
${inputField({ name: 'effective_to', label: 'In effect until (optional, inclusive)', value: x.effective_to, problem: p, hint: 'YYYY-MM-DD; empty while open-ended.' })}
${termsFieldset(v)}
${exampleSection(v, true)}
<fieldset><legend>Statements</legend>
${inputField({ name: 'billing_email', label: 'Billing email (optional)', value: x.billing_email, problem: p, hint: "Empty: the customer's contact email." })}
${textareaField({ name: 'finance_contacts', label: 'Finance contacts (optional)', value: x.finance_contacts, problem: p, hint: 'Email addresses separated by commas or lines; reminded after 3 days in review.' })}
${textareaField({ name: 'escalation_contacts', label: 'Escalation contacts (optional)', value: x.escalation_contacts, problem: p, hint: 'Told after 7 days in review.' })}
${inputField({ name: 'grace_hours', label: 'Grace hours before a month is drafted', value: x.grace_hours, problem: p, type: 'number' })}
</fieldset>
<div class="actions"><button type="submit" name="_op" value="save">${v.existing ? 'Save changes' : 'Create contract'}</button></div>
</form>
${v.existing ? `<p><a class="danger-link" href="${esc(contractHref(v.existing.id))}/delete">Delete this contract…</a></p>` : ''}`;
}

/** A contract as a reader (no write:sla) sees it, with the worked example. */
export function contractReadBody(o: {
  contract: ConsoleContract;
  customers: Choice[];
  services: Choice[];
  slos: Choice[];
  view: ContractFormView;
}): string {
  const c = o.contract;
  return `${managedNotice(c.config_key)}
<p><a href="/console/contracts">All contracts</a></p>
${facts([
  ['Customer', namesOf([c.customer_id], o.customers)],
  ['Services', namesOf(c.service_ids, o.services)],
  ['SLOs', namesOf(c.slo_ids, o.slos)],
  ['Target', `${esc(c.sla_target_pct)}%`],
  ['Monthly fee', esc(formatMinor(c.monthly_fee_minor, c.currency))],
  ['Time zone', esc(c.timezone)],
  ['In effect', `${esc(c.effective_from)} – ${c.effective_to ? esc(c.effective_to) : 'open-ended'}`],
  ['Credit terms', termsSummary(c.credit_terms)],
])}
${exampleSection(o.view, false)}`;
}

export function contractDeleteBody(o: {
  csrf: string;
  contract: ConsoleContract;
  problem?: FormProblem | null;
}): string {
  const c = o.contract;
  return `${managedNotice(c.config_key)}
${problemBox(o.problem)}
<p>Delete the contract <strong>${esc(c.name)}</strong>? No more statements are drafted for it. A contract with statements cannot be deleted (they stay with it for the audit trail): end it with "In effect until" instead.</p>
<form class="actions" method="post" action="${esc(contractHref(c.id))}/delete">${csrfField(o.csrf)}<button type="submit" class="danger">Delete contract</button> <a href="${esc(contractHref(c.id))}">Keep it</a></form>`;
}
