import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../../domain/error-catalog';
import { ProblemError } from '../../../../domain/error-catalog';
import { type FormValues, valuesOf } from '../../../../render/console/alerting-parts';
import {
  type SubjectChoice,
  ruleFormBody,
  ruleListBody,
  silenceFormBody,
  silenceListBody,
} from '../../../../render/console/alerting-rules';
import { type FormProblem, problemBox } from '../../../../render/console/forms';
import type { Choice } from '../../../../render/console/parts';
import { listPolicies } from '../../../../usecases/alerting/policies';
import { createRule, deleteRule, getRule, listRules, updateRule } from '../../../../usecases/alerting/rules';
import { createSilence, deleteSilence, listSilences } from '../../../../usecases/alerting/silences';
import { listAgents } from '../../../../usecases/agents/agents';
import type { OrgContext } from '../../../../usecases/shared/context';
import { listLocations } from '../../../../usecases/agents/locations';
import { listMetrics } from '../../../../usecases/metrics/metrics';
import { listSlos } from '../../../../usecases/slos/slos';
import { listStatusPages } from '../../../../usecases/status-pages/pages';
import { RuleCreateBody, RulePatchBody, SilenceCreateBody } from '../../../schemas/alerting';
import { serviceChoices } from '../../choices';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../../context';
import type { ConsoleDeps } from '../../deps';
import { confirmDeleteRoute } from './confirm-delete';
import { attempt, field, flashOf, listQuery, optionalField, validated, zonedInstantOf } from '../../forms';
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
    ...services.map((s) => ({ id: s.id, name: `Service: ${s.name}`, kind: 'service' as const })),
    ...metrics.items.map((m) =>
      m.source_type === 'heartbeat'
        ? { id: m.id, name: `Heartbeat: ${m.name}`, kind: 'heartbeat' as const }
        : { id: m.id, name: `Metric: ${m.name}`, kind: 'metric' as const },
    ),
    ...pages.items.map((p) => ({ id: p.id, name: `Status page: ${p.title}`, kind: 'status_page' as const })),
    ...slos.items.map((s) => ({ id: s.id, name: `SLO: ${s.name}`, kind: 'slo' as const })),
    ...agents.items
      .filter((a) => a.status !== 'revoked')
      .map((a) => ({ id: a.id, name: `Agent: ${a.name}`, kind: 'agent' as const })),
    ...locations.items
      .filter((l) => l.kind === 'cloud')
      .map((l) => ({ id: l.id, name: `Location: ${l.label} (${l.id})`, kind: 'location' as const })),
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

  const sendRules = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    query: unknown,
    flash: string | null,
    failed?: Failed,
  ) => {
    const page = await listRules(v.ctx, listQuery(query, 50));
    const body = ruleListBody({
      rows: page.items,
      nextCursor: page.nextCursor,
      subjects: await subjectChoices(v.ctx, taskQueue),
      policies: await policyChoices(v.ctx),
      csrf: v.csrf,
      canWrite: v.can('write:alerts'),
    });
    return sendPage(
      reply,
      v,
      NAV,
      { title: 'Alert rules', flash, body: `${problemBox(failed?.problem)}${body}` },
      failed?.status,
    );
  };

  app.get('/alerts/rules', async (request, reply) =>
    sendRules(reply, requireScope(request, 'read:alerts'), request.query, flashOf(request.query)),
  );

  const sendRuleForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: FormValues,
    failed?: Failed,
    editing?: { id: string; name: string },
  ) =>
    sendPage(
      reply,
      v,
      NAV,
      {
        title: editing ? `Edit alert rule ${editing.name}` : 'New alert rule',
        body: ruleFormBody({
          csrf: v.csrf,
          values,
          subjects: await subjectChoices(v.ctx, taskQueue),
          policies: await policyChoices(v.ctx),
          problem: failed?.problem,
          editing: editing ?? null,
        }),
      },
      failed?.status,
    );

  app.get('/alerts/rules/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const kind = field(request.query, 'kind');
    return sendRuleForm(reply, v, {
      kind: kind || 'service_status',
      severity: 'critical',
      auto_resolve: 'true',
      enabled: 'true',
    });
  });

  /** The rule's fields as the form posts them (the kind only when creating: it cannot change). */
  const ruleInput = (b: FormValues) => {
    const reminder = optionalField(b, 'settings.reminder_hours');
    return {
      name: field(b, 'name'),
      subject_id: optionalField(b, 'subject_id'),
      include_degraded: field(b, 'include_degraded') === 'true',
      severity: field(b, 'severity'),
      escalation_policy_id: field(b, 'escalation_policy_id'),
      auto_resolve: field(b, 'auto_resolve') === 'true',
      enabled: field(b, 'enabled') === 'true',
      ...(reminder === null ? {} : { settings: { reminder_hours: wholeOr(reminder) } }),
    };
  };

  app.post('/alerts/rules/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body as FormValues;
    const r = await attempt(() =>
      createRule(v.ctx, validated(RuleCreateBody, { ...ruleInput(b), kind: field(b, 'kind') })),
    );
    if (!r.ok) return sendRuleForm(reply, v, b, r);
    return redirectWithFlash(reply, '/console/alerts/rules', `Alert rule "${r.value.name}" created.`);
  });

  app.get<IdRequest>('/alerts/rules/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const r = await getRule(v.ctx, request.params.id);
    const values: FormValues = {
      name: r.name,
      kind: r.kind,
      subject_id: r.subject_id ?? '',
      include_degraded: String(r.include_degraded),
      severity: r.severity,
      escalation_policy_id: r.escalation_policy_id,
      auto_resolve: String(r.auto_resolve),
      enabled: String(r.enabled),
      ...(typeof r.settings?.reminder_hours === 'number'
        ? { 'settings.reminder_hours': String(r.settings.reminder_hours) }
        : {}),
    };
    return sendRuleForm(reply, v, values, undefined, { id: r.id, name: r.name });
  });

  app.post<IdRequest>('/alerts/rules/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const existing = await getRule(v.ctx, request.params.id);
    const b = { ...(request.body as FormValues), kind: existing.kind };
    const input = ruleInput(b);
    // A rule that watches every one of its kind keeps doing so: the API's patch cannot clear a subject.
    const { subject_id: subject, ...rest } = input;
    const r = await attempt(() =>
      updateRule(
        v.ctx,
        existing.id,
        validated(RulePatchBody, subject === null ? rest : { ...rest, subject_id: subject }),
      ),
    );
    if (!r.ok) return sendRuleForm(reply, v, b, r, { id: existing.id, name: existing.name });
    return redirectWithFlash(reply, '/console/alerts/rules', `Alert rule "${r.value.name}" saved.`);
  });

  app.post<IdRequest>('/alerts/rules/:id/enabled', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const enabled = field(request.body, 'enabled') === 'true';
    const r = await updateRule(v.ctx, request.params.id, { enabled });
    return redirectWithFlash(
      reply,
      '/console/alerts/rules',
      `Alert rule "${r.name}" ${enabled ? 'enabled' : 'disabled: it raises no alert until enabled again'}.`,
    );
  });

  confirmDeleteRoute(app, {
    base: '/alerts/rules',
    list: '/console/alerts/rules',
    nav: NAV,
    noun: 'alert rule',
    load: getRule,
    consequence: 'It stops raising alerts; the alerts it raised keep their history.',
  });

  app.post<IdRequest>('/alerts/rules/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const r = await attempt(() => deleteRule(v.ctx, request.params.id));
    if (r.ok)
      return redirectWithFlash(
        reply,
        '/console/alerts/rules',
        `Alert rule "${r.value.name}" deleted; its alerts keep their history.`,
      );
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    return sendRules(reply, v, {}, null, r);
  });

  app.get('/alerts/silences', async (request, reply) => {
    const v = requireScope(request, 'read:alerts');
    const page = await listSilences(v.ctx, listQuery(request.query, 50));
    const body = silenceListBody({
      rows: page.items,
      nextCursor: page.nextCursor,
      rules: await ruleChoices(v.ctx),
      services: await serviceChoices(v.ctx),
      csrf: v.csrf,
      canWrite: v.can('write:alerts'),
      zone: v.timeZone,
    });
    return sendPage(reply, v, NAV, { title: 'Silences', flash: flashOf(request.query), body });
  });

  const sendSilenceForm = async (reply: FastifyReply, v: ConsoleViewer, values: FormValues, failed?: Failed) =>
    sendPage(
      reply,
      v,
      NAV,
      {
        title: 'New silence',
        body: silenceFormBody({
          csrf: v.csrf,
          values,
          rules: await ruleChoices(v.ctx),
          services: await serviceChoices(v.ctx),
          zone: v.timeZone,
          problem: failed?.problem,
        }),
      },
      failed?.status,
    );

  app.get('/alerts/silences/new', async (request, reply) =>
    sendSilenceForm(reply, requireScope(request, 'write:alerts'), {}),
  );

  app.post('/alerts/silences/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body as FormValues;
    const extra: FieldError[] = [];
    const instant = (name: 'starts_at' | 'ends_at') => {
      const text = field(b, name).trim();
      if (text === '' && name === 'starts_at') return {};
      const iso = zonedInstantOf(text, v.timeZone);
      if (!iso) extra.push({ path: name, message: `Enter a date and time (${v.timeZone})` });
      return { [name]: iso ?? text };
    };
    const input = {
      rule_ids: valuesOf(b, 'rule_ids'),
      service_ids: valuesOf(b, 'service_ids'),
      ...instant('starts_at'),
      ...instant('ends_at'),
      reason: field(b, 'reason'),
    };
    const r = await attempt(() => createSilence(v.ctx, consoleCreator(v), validated(SilenceCreateBody, input, extra)));
    if (!r.ok) return sendSilenceForm(reply, v, b, r);
    return redirectWithFlash(
      reply,
      '/console/alerts/silences',
      r.value.state === 'active'
        ? 'Silence active: alerts it covers are recorded as suppressed.'
        : 'Silence scheduled.',
    );
  });

  app.post<IdRequest>('/alerts/silences/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const r = await attempt(() => deleteSilence(v.ctx, request.params.id));
    if (!r.ok) throw new ProblemError('not_found', r.problem.detail);
    return redirectWithFlash(reply, '/console/alerts/silences', 'Silence ended.');
  });
};
