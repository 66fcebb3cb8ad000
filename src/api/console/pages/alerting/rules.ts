import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../../domain/error-catalog';
import { ProblemError } from '../../../../domain/error-catalog';
import { type FormValues, valuesOf } from '../../../../render/console/alerting-parts';
import { type SubjectChoice, ruleFormBody, ruleListBody, silenceFormBody, silenceListBody } from '../../../../render/console/alerting-rules';
import { type FormProblem, problemBox } from '../../../../render/console/forms';
import type { Choice } from '../../../../render/console/parts';
import { listPolicies } from '../../../../usecases/alerting/policies';
import { createRule, deleteRule, listRules } from '../../../../usecases/alerting/rules';
import { createSilence, deleteSilence, listSilences } from '../../../../usecases/alerting/silences';
import { listAgents } from '../../../../usecases/agents';
import type { OrgContext } from '../../../../usecases/context';
import { listLocations } from '../../../../usecases/locations';
import { listMetrics } from '../../../../usecases/metrics/metrics';
import { listSlos } from '../../../../usecases/slos';
import { listStatusPages } from '../../../../usecases/status-pages/pages';
import { RuleCreateBody, SilenceCreateBody } from '../../../schemas/alerting';
import { serviceChoices } from '../../choices';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../../context';
import type { ConsoleDeps } from '../../deps';
import { attempt, field, flashOf, listQuery, optionalField, utcInstantOf, validated } from '../../forms';
import { consoleCreator } from './ports';
import { wholeOr } from './form-slots';

const NAV = '/console/alerts';
type IdRequest = { Params: { id: string } };
type Failed = { problem: FormProblem; status: number };
const PICK = { limit: 200 };

/** Everything a rule may watch (the first 200 of each kind), labelled with what it is. */
async function subjectChoices(ctx: OrgContext, taskQueue: string): Promise<SubjectChoice[]> {
  const metrics = await listMetrics(ctx, PICK);
  const services = await serviceChoices(ctx);
  const pages = await listStatusPages(ctx, PICK);
  const slos = await listSlos(ctx, PICK);
  const agents = await listAgents(ctx, PICK);
  const locations = await listLocations(ctx, taskQueue, PICK);
  return [
    ...services.map((s) => ({ id: s.id, name: `Service: ${s.name}` })),
    ...metrics.items.map((m) => ({ id: m.id, name: `${m.source_type === 'heartbeat' ? 'Heartbeat' : 'Metric'}: ${m.name}` })),
    ...pages.items.map((p) => ({ id: p.id, name: `Status page: ${p.title}` })),
    ...slos.items.map((s) => ({ id: s.id, name: `SLO: ${s.name}` })),
    ...agents.items.filter((a) => a.status !== 'revoked').map((a) => ({ id: a.id, name: `Agent: ${a.name}` })),
    ...locations.items.filter((l) => l.kind === 'cloud').map((l) => ({ id: l.id, name: `Location: ${l.label} (${l.id})` })),
  ];
}

async function policyChoices(ctx: OrgContext): Promise<Choice[]> {
  return (await listPolicies(ctx, PICK)).items.map((p) => ({ id: p.id, name: p.name }));
}

async function ruleChoices(ctx: OrgContext): Promise<Choice[]> {
  return (await listRules(ctx, PICK)).items.map((r) => ({ id: r.id, name: r.name }));
}

/** Alert rules and silences (API: /v1/alert-rules, /v1/silences): list, create, delete. */
export const rulePages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const taskQueue = deps.locationTaskQueue ?? 'vigil';

  const sendRules = async (reply: FastifyReply, v: ConsoleViewer, query: unknown, flash: string | null, failed?: Failed) => {
    const page = await listRules(v.ctx, listQuery(query, 50));
    const body = ruleListBody({ rows: page.items, nextCursor: page.nextCursor, subjects: await subjectChoices(v.ctx, taskQueue), policies: await policyChoices(v.ctx), csrf: v.csrf, canWrite: v.can('write:alerts') });
    return sendPage(reply, v, NAV, { title: 'Alert rules', flash, body: `${problemBox(failed?.problem)}${body}` }, failed?.status);
  };

  app.get('/alerts/rules', async (request, reply) => sendRules(reply, requireScope(request, 'read:alerts'), request.query, flashOf(request.query)));

  const sendRuleForm = async (reply: FastifyReply, v: ConsoleViewer, values: FormValues, failed?: Failed) =>
    sendPage(
      reply,
      v,
      NAV,
      { title: 'New alert rule', body: ruleFormBody({ csrf: v.csrf, values, subjects: await subjectChoices(v.ctx, taskQueue), policies: await policyChoices(v.ctx), problem: failed?.problem }) },
      failed?.status,
    );

  app.get('/alerts/rules/new', async (request, reply) => sendRuleForm(reply, requireScope(request, 'write:alerts'), { kind: 'service_status', severity: 'critical', auto_resolve: 'true', enabled: 'true' }));

  app.post('/alerts/rules/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body as FormValues;
    const reminder = optionalField(b, 'settings.reminder_hours');
    const input = {
      name: field(b, 'name'),
      kind: field(b, 'kind'),
      subject_id: optionalField(b, 'subject_id'),
      include_degraded: field(b, 'include_degraded') === 'true',
      severity: field(b, 'severity'),
      escalation_policy_id: field(b, 'escalation_policy_id'),
      auto_resolve: field(b, 'auto_resolve') === 'true',
      enabled: field(b, 'enabled') === 'true',
      ...(reminder === null ? {} : { settings: { reminder_hours: wholeOr(reminder) } }),
    };
    const r = await attempt(() => createRule(v.ctx, validated(RuleCreateBody, input)));
    if (!r.ok) return sendRuleForm(reply, v, b, r);
    return redirectWithFlash(reply, '/console/alerts/rules', `Alert rule "${r.value.name}" created.`);
  });

  app.post<IdRequest>('/alerts/rules/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const r = await attempt(() => deleteRule(v.ctx, request.params.id));
    if (r.ok) return redirectWithFlash(reply, '/console/alerts/rules', `Alert rule "${r.value.name}" deleted; its alerts keep their history.`);
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    return sendRules(reply, v, {}, null, r);
  });

  app.get('/alerts/silences', async (request, reply) => {
    const v = requireScope(request, 'read:alerts');
    const page = await listSilences(v.ctx, listQuery(request.query, 50));
    const body = silenceListBody({ rows: page.items, nextCursor: page.nextCursor, rules: await ruleChoices(v.ctx), services: await serviceChoices(v.ctx), csrf: v.csrf, canWrite: v.can('write:alerts') });
    return sendPage(reply, v, NAV, { title: 'Silences', flash: flashOf(request.query), body });
  });

  const sendSilenceForm = async (reply: FastifyReply, v: ConsoleViewer, values: FormValues, failed?: Failed) =>
    sendPage(reply, v, NAV, { title: 'New silence', body: silenceFormBody({ csrf: v.csrf, values, rules: await ruleChoices(v.ctx), services: await serviceChoices(v.ctx), problem: failed?.problem }) }, failed?.status);

  app.get('/alerts/silences/new', async (request, reply) => sendSilenceForm(reply, requireScope(request, 'write:alerts'), {}));

  app.post('/alerts/silences/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body as FormValues;
    const extra: FieldError[] = [];
    const instant = (name: 'starts_at' | 'ends_at') => {
      const text = field(b, name).trim();
      if (text === '' && name === 'starts_at') return {};
      const iso = utcInstantOf(text);
      if (!iso) extra.push({ path: name, message: 'Enter a date and time (UTC)' });
      return { [name]: iso ?? text };
    };
    const input = { rule_ids: valuesOf(b, 'rule_ids'), service_ids: valuesOf(b, 'service_ids'), ...instant('starts_at'), ...instant('ends_at'), reason: field(b, 'reason') };
    const r = await attempt(() => createSilence(v.ctx, consoleCreator(v), validated(SilenceCreateBody, input, extra)));
    if (!r.ok) return sendSilenceForm(reply, v, b, r);
    return redirectWithFlash(reply, '/console/alerts/silences', r.value.state === 'active' ? 'Silence active: alerts it covers are recorded as suppressed.' : 'Silence scheduled.');
  });

  app.post<IdRequest>('/alerts/silences/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const r = await attempt(() => deleteSilence(v.ctx, request.params.id));
    if (!r.ok) throw new ProblemError('not_found', r.problem.detail);
    return redirectWithFlash(reply, '/console/alerts/silences', 'Silence ended.');
  });
};
