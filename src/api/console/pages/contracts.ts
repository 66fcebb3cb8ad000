import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../domain/error-catalog';
import { ProblemError } from '../../../domain/error-catalog';
import { creditTermsSchema, currencyExponent, isKnownCurrency } from '../../../domain/sla';
import type { FormProblem } from '../../../render/console/forms';
import type { Choice } from '../../../render/console/parts';
import { workedExample } from '../../../render/console/pages/contracts-example';
import {
  type ConsoleContract,
  type ContractFormValues,
  type ContractFormView,
  DEFAULT_EXAMPLE_ATTAINMENT,
  EMPTY_CONTRACT_FORM,
  contractDeleteBody,
  contractFormBody,
  contractHref,
  contractListBody,
  contractReadBody,
} from '../../../render/console/pages/contracts';
import {
  createContract,
  deleteContract,
  getContract,
  listContracts,
  updateContract,
} from '../../../usecases/sla/contracts';
import { listSlos } from '../../../usecases/slos/slos';
import { ContractCreateBody, ContractPatchBody, presentContract } from '../../schemas/sla';
import { customerChoices, serviceChoices } from '../choices';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, fields, flashOf, listQuery, validated } from '../forms';

const NAV = '/console/contracts';
const MAX_STEPS = 20;
type IdRequest = { Params: { id: string } };

function stepRows(body: unknown): { below_pct: string; credit_pct: string }[] {
  const seen = new Set<number>();
  for (const k of Object.keys((body as Record<string, unknown>) ?? {})) {
    const m = /^credit_terms\.steps\.(\d+)\./.exec(k);
    if (m && Number(m[1]) < MAX_STEPS + 5) seen.add(Number(m[1]));
  }
  return [...seen]
    .sort((a, b) => a - b)
    .map((i) => ({
      below_pct: field(body, `credit_terms.steps.${i}.below_pct`).trim(),
      credit_pct: field(body, `credit_terms.steps.${i}.credit_pct`).trim(),
    }));
}

function formValues(body: unknown): ContractFormValues {
  const t = (name: string) => field(body, name).trim();
  return {
    customer_id: t('customer_id'),
    name: field(body, 'name'),
    service_ids: fields(body, 'service_ids'),
    slo_ids: fields(body, 'slo_ids'),
    sla_target_pct: t('sla_target_pct'),
    timezone: t('timezone'),
    currency: t('currency'),
    monthly_fee: t('monthly_fee'),
    effective_from: t('effective_from'),
    effective_to: t('effective_to'),
    billing_email: t('billing_email'),
    finance_contacts: field(body, 'finance_contacts'),
    escalation_contacts: field(body, 'escalation_contacts'),
    grace_hours: t('grace_hours'),
    terms_type: t('credit_terms.type'),
    steps: stepRows(body),
    multiplier: t('credit_terms.multiplier'),
    cap_pct: t('credit_terms.cap_pct'),
    minimum_credit: t('credit_terms.minimum_credit'),
    rounding: t('credit_terms.rounding'),
    count_degraded_as_down: field(body, 'credit_terms.count_degraded_as_down') === 'true',
    maintenance_notice_hours: t('credit_terms.maintenance_notice_hours'),
    no_data_counts_as: t('credit_terms.no_data_counts_as'),
    min_coverage_pct: t('credit_terms.min_coverage_pct'),
    example_attainment_pct: t('example_attainment_pct') || DEFAULT_EXAMPLE_ATTAINMENT,
  };
}

/** An amount in the currency's major units ("10000.50") as minor units; null when it is not one. */
function toMinor(amount: string, currency: string): number | null {
  const exp = isKnownCurrency(currency) ? currencyExponent(currency) : 2;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(amount.replace(/[,_ ]/g, ''));
  if (!m || (m[2] ?? '').length > exp) return null;
  const minor = Number(BigInt(m[1]!) * 10n ** BigInt(exp) + BigInt((m[2] ?? '').padEnd(exp, '0') || '0'));
  return Number.isSafeInteger(minor) ? minor : null;
}

function minorToMajor(minor: number, currency: string): string {
  const exp = isKnownCurrency(currency) ? currencyExponent(currency) : 2;
  const digits = BigInt(minor)
    .toString()
    .padStart(exp + 1, '0');
  return exp ? `${digits.slice(0, -exp)}.${digits.slice(-exp)}` : digits;
}

const emails = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const wholeNumber = (s: string): number | string => (/^\d{1,9}$/.test(s) ? Number(s) : s);

/**
 * The API body the form stands for, and the form's own errors (amounts in major units, whole
 * hours) under the form's field names. Percentages stay decimal strings, as the API takes them.
 */
function inputOf(x: ContractFormValues): { input: Record<string, unknown>; extra: FieldError[] } {
  const extra: FieldError[] = [];
  const exp = isKnownCurrency(x.currency) ? currencyExponent(x.currency) : 2;
  const amountHint = `Expected an amount such as ${exp ? `10000.${'0'.repeat(exp)}` : '10000'} (at most ${exp} decimals)`;
  const fee = toMinor(x.monthly_fee, x.currency);
  if (fee === null) extra.push({ path: 'monthly_fee_minor', message: amountHint });
  const minimum = x.minimum_credit === '' ? 0 : toMinor(x.minimum_credit, x.currency);
  if (minimum === null) extra.push({ path: 'credit_terms.minimum_credit_minor', message: amountHint });
  for (const [name, value] of [
    ['grace_hours', x.grace_hours],
    ['credit_terms.maintenance_notice_hours', x.maintenance_notice_hours],
  ] as const) {
    if (!/^\d{1,9}$/.test(value)) extra.push({ path: name, message: 'Expected a whole number of hours' });
  }
  const common = {
    cap_pct: x.cap_pct,
    minimum_credit_minor: minimum ?? 0,
    rounding: x.rounding,
    count_degraded_as_down: x.count_degraded_as_down,
    maintenance_notice_hours: wholeNumber(x.maintenance_notice_hours),
    no_data_counts_as: x.no_data_counts_as,
    min_coverage_pct: x.min_coverage_pct,
  };
  const steps = x.steps.filter((s) => s.below_pct || s.credit_pct);
  const credit_terms =
    x.terms_type === 'proportional'
      ? { type: 'proportional', multiplier: x.multiplier, ...common }
      : { type: x.terms_type, steps, ...common };
  const input = {
    customer_id: x.customer_id,
    name: x.name,
    service_ids: x.service_ids,
    slo_ids: x.slo_ids,
    sla_target_pct: x.sla_target_pct,
    timezone: x.timezone,
    currency: x.currency,
    monthly_fee_minor: fee ?? 0,
    effective_from: x.effective_from,
    effective_to: x.effective_to || null,
    credit_terms,
    billing_email: x.billing_email || null,
    finance_contacts: emails(x.finance_contacts),
    escalation_contacts: emails(x.escalation_contacts),
    grace_hours: wholeNumber(x.grace_hours),
  };
  return { input, extra };
}

/** The API's paths as the form's field names (amounts are entered in major units). */
function formProblem(p: FormProblem): FormProblem {
  const rename = (path: string) =>
    path === 'monthly_fee_minor'
      ? 'monthly_fee'
      : path === 'credit_terms.minimum_credit_minor'
        ? 'credit_terms.minimum_credit'
        : path;
  return { ...p, errors: p.errors?.map((e) => ({ ...e, path: rename(e.path) })) };
}

/** The form kept for a re-render: empty step rows dropped, one empty row to add another. */
function kept(x: ContractFormValues): ContractFormValues {
  return { ...x, steps: [...x.steps.filter((s) => s.below_pct || s.credit_pct), { below_pct: '', credit_pct: '' }] };
}

function valuesOf(
  c: ConsoleContract & {
    billing_email: string | null;
    finance_contacts: string[];
    escalation_contacts: string[];
    grace_hours: number;
  },
): ContractFormValues {
  const t = c.credit_terms as Record<string, unknown>;
  const steps = Array.isArray(t.steps) ? (t.steps as { below_pct: string; credit_pct: string }[]) : [];
  return {
    customer_id: c.customer_id,
    name: c.name,
    service_ids: c.service_ids,
    slo_ids: c.slo_ids,
    sla_target_pct: c.sla_target_pct,
    timezone: c.timezone,
    currency: c.currency,
    monthly_fee: minorToMajor(c.monthly_fee_minor, c.currency),
    effective_from: c.effective_from,
    effective_to: c.effective_to ?? '',
    billing_email: c.billing_email ?? '',
    finance_contacts: c.finance_contacts.join(', '),
    escalation_contacts: c.escalation_contacts.join(', '),
    grace_hours: String(c.grace_hours),
    terms_type: String(t.type),
    steps: [...steps.map((s) => ({ ...s })), { below_pct: '', credit_pct: '' }],
    multiplier: typeof t.multiplier === 'string' ? t.multiplier : '1',
    cap_pct: String(t.cap_pct),
    minimum_credit: minorToMajor(Number(t.minimum_credit_minor ?? 0), c.currency),
    rounding: String(t.rounding),
    count_degraded_as_down: t.count_degraded_as_down === true,
    maintenance_notice_hours: String(t.maintenance_notice_hours),
    no_data_counts_as: String(t.no_data_counts_as),
    min_coverage_pct: String(t.min_coverage_pct),
    example_attainment_pct: DEFAULT_EXAMPLE_ATTAINMENT,
  };
}

/** The worked example of the terms as entered; words instead when they are not complete yet. */
function exampleOf(x: ContractFormValues): ContractFormView['example'] {
  const { input } = inputOf(x);
  const terms = creditTermsSchema.safeParse(input.credit_terms);
  const fee = toMinor(x.monthly_fee, x.currency);
  if (!terms.success || fee === null)
    return { error: 'Enter a monthly fee and complete credit terms to see what they would pay.' };
  return workedExample(terms.data, fee, x.currency, x.example_attainment_pct);
}

async function choices(
  ctx: ConsoleViewer['ctx'],
): Promise<{ customers: Choice[]; services: Choice[]; slos: Choice[] }> {
  const slos = await attempt(() => listSlos(ctx, { limit: 200 }));
  return {
    customers: (await customerChoices(ctx)) ?? [],
    services: await serviceChoices(ctx),
    slos: slos.ok ? slos.value.items.map((s) => ({ id: s.id, name: s.name })) : [],
  };
}

/** SLA contracts: list, create, edit, delete (API: /v1/contracts, read:sla / write:sla), credit terms in a form with a worked example. */
export const contractPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    o: {
      title: string;
      values: ContractFormValues;
      existing?: { id: string; config_key: string | null };
      problem?: FormProblem;
      status?: number;
      flash?: string | null;
    },
  ) => {
    const view: ContractFormView = {
      csrf: v.csrf,
      values: o.values,
      ...(await choices(v.ctx)),
      example: exampleOf(o.values),
      problem: o.problem ? formProblem(o.problem) : null,
      existing: o.existing ?? null,
    };
    return sendPage(reply, v, NAV, { title: o.title, body: contractFormBody(view), flash: o.flash ?? null }, o.status);
  };

  /** A row button (add a step, show the example) re-renders; true when it did. */
  const rowOp = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    body: unknown,
    form: { title: string; values: ContractFormValues; existing?: { id: string; config_key: string | null } },
  ) => {
    const op = field(body, '_op');
    if (op === 'add_step') {
      await sendForm(reply, v, {
        ...form,
        values: { ...form.values, steps: [...form.values.steps, { below_pct: '', credit_pct: '' }] },
      });
      return true;
    }
    if (op === 'example') {
      await sendForm(reply, v, { ...form, values: kept(form.values) });
      return true;
    }
    return false;
  };

  app.get('/contracts', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const page = await listContracts(v.ctx, listQuery(request.query, 50));
    const customers = (await customerChoices(v.ctx)) ?? [];
    const body = contractListBody({
      items: page.items.map(presentContract),
      customers,
      nextCursor: page.nextCursor,
      canWrite: v.can('write:sla'),
    });
    return sendPage(reply, v, NAV, { title: 'Contracts', flash: flashOf(request.query), body });
  });

  app.get('/contracts/new', async (request, reply) =>
    sendForm(reply, requireScope(request, 'write:sla'), { title: 'New contract', values: EMPTY_CONTRACT_FORM }),
  );

  app.post('/contracts/new', async (request, reply) => {
    const v = requireScope(request, 'write:sla');
    const values = formValues(request.body);
    const form = { title: 'New contract', values };
    if (await rowOp(reply, v, request.body, form)) return reply;
    const { input, extra } = inputOf(values);
    const r = await attempt(() =>
      createContract(v.ctx, validated(ContractCreateBody, input, extra), deps.slaWorkflows),
    );
    if (!r.ok) return sendForm(reply, v, { ...form, values: kept(values), problem: r.problem, status: r.status });
    return redirectWithFlash(
      reply,
      contractHref(r.value.id),
      `Contract "${r.value.name}" created; its statements are drafted monthly.`,
    );
  });

  app.get<IdRequest>('/contracts/:id', async (request, reply) => {
    const v = requireScope(request, 'read:sla');
    const c = presentContract(await getContract(v.ctx, request.params.id));
    const values = valuesOf(c);
    if (v.can('write:sla'))
      return sendForm(reply, v, { title: `Contract: ${c.name}`, values, existing: c, flash: flashOf(request.query) });
    const all = await choices(v.ctx);
    const view: ContractFormView = { csrf: v.csrf, values, ...all, example: exampleOf(values) };
    return sendPage(reply, v, NAV, {
      title: `Contract: ${c.name}`,
      flash: flashOf(request.query),
      body: contractReadBody({ contract: c, ...all, view }),
    });
  });

  app.post<IdRequest>('/contracts/:id', async (request, reply) => {
    const v = requireScope(request, 'write:sla');
    const c = presentContract(await getContract(v.ctx, request.params.id));
    const values = formValues(request.body);
    const form = { title: `Contract: ${c.name}`, values, existing: c };
    if (await rowOp(reply, v, request.body, form)) return reply;
    const { input, extra } = inputOf(values);
    const r = await attempt(() =>
      updateContract(v.ctx, c.id, validated(ContractPatchBody, input, extra), deps.slaWorkflows),
    );
    if (!r.ok) {
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      return sendForm(reply, v, { ...form, values: kept(values), problem: r.problem, status: r.status });
    }
    return redirectWithFlash(
      reply,
      contractHref(c.id),
      c.config_key
        ? 'Contract saved. It is managed by config as code: the next apply overwrites this edit.'
        : 'Contract saved.',
    );
  });

  app.get<IdRequest>('/contracts/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:sla');
    const contract = presentContract(await getContract(v.ctx, request.params.id));
    return sendPage(reply, v, NAV, {
      title: `Delete ${contract.name}?`,
      body: contractDeleteBody({ csrf: v.csrf, contract }),
    });
  });

  app.post<IdRequest>('/contracts/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:sla');
    const contract = presentContract(await getContract(v.ctx, request.params.id));
    const r = await attempt(() => deleteContract(v.ctx, contract.id, deps.slaWorkflows));
    if (r.ok) return redirectWithFlash(reply, NAV, `Contract "${contract.name}" deleted.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Delete ${contract.name}?`, body: contractDeleteBody({ csrf: v.csrf, contract, problem: r.problem }) },
      r.status,
    );
  });
};
