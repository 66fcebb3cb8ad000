import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FieldError } from '../../../domain/error-catalog';
import type { FormProblem } from '../../../render/console/forms';
import type { Choice } from '../../../render/console/parts';
import {
  type ConsoleSlo,
  type SloFormValues,
  sloDeleteBody,
  sloDeleteLink,
  sloFormBody,
  sloHref,
  sloListBody,
  sloSummaryBody,
} from '../../../render/console/pages/slos';
import { managedNotice } from '../../../render/console/config-as-code';
import type { OrgContext } from '../../../usecases/shared/context';
import { listMetrics } from '../../../usecases/metrics/metrics';
import { createSlo, deleteSlo, getSlo, listSlos, updateSlo } from '../../../usecases/slos/slos';
import { SloCreateBody, SloPatchBody } from '../../schemas/slos';
import { serviceChoices } from '../choices';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, flashOf, listQuery, validated } from '../forms';

const NAV = '/console/slos';

/** Every live metric of the organization for the target picker (at most 1,000, like services). */
async function metricChoices(ctx: OrgContext): Promise<Choice[]> {
  const out: Choice[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 5; i++) {
    const page = await listMetrics(ctx, { limit: 200, ...(cursor ? { cursor } : {}) });
    out.push(...page.items.map((m) => ({ id: m.id, name: m.name })));
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return out;
}

function valuesOf(body: unknown): SloFormValues {
  const f = (name: string) => field(body, name);
  return {
    name: f('name'),
    target: f('target'),
    objective: f('objective').trim(),
    window_kind: f('window.kind'),
    window_days: f('window.days').trim(),
    window_timezone: f('window.timezone').trim(),
    no_data: f('no_data'),
    maintenance: f('maintenance'),
    degraded: f('degraded'),
  };
}

function valuesFrom(s: ConsoleSlo): SloFormValues {
  return {
    name: s.name,
    target: s.metric_id ? `metric:${s.metric_id}` : `service:${s.service_id}`,
    objective: s.objective,
    window_kind: s.window.kind,
    window_days: s.window.kind === 'rolling' ? String(s.window.days) : '',
    window_timezone: s.window.kind === 'calendar_month' ? s.window.timezone : '',
    no_data: s.no_data,
    maintenance: s.maintenance,
    degraded: s.degraded,
  };
}

/** The API body the form stands for, and what the form itself finds wrong (unreadable window fields). */
function bodyOf(v: SloFormValues): { body: Record<string, unknown>; extra: FieldError[] } {
  const extra: FieldError[] = [];
  let window: unknown = { kind: 'rolling', days: 1 }; // a stand-in while the window has its own error, so the schema does not repeat it
  if (v.window_kind === 'rolling') {
    const days = /^\d{1,3}$/.test(v.window_days) ? Number(v.window_days) : NaN;
    if (!(days >= 1 && days <= 366))
      extra.push({ path: 'window.days', message: 'Give a whole number of days from 1 to 366' });
    else window = { kind: 'rolling', days };
  } else if (v.window_kind === 'calendar_month') {
    if (!v.window_timezone)
      extra.push({ path: 'window.timezone', message: 'Give an IANA time zone, e.g. Europe/Berlin' });
    else window = { kind: 'calendar_month', timezone: v.window_timezone };
  } else extra.push({ path: 'window.kind', message: 'Pick rolling or calendar month' });
  const body: Record<string, unknown> = {
    name: v.name,
    objective: v.objective,
    window,
    no_data: v.no_data,
    maintenance: v.maintenance,
    degraded: v.degraded,
  };
  return { body, extra };
}

/** The use case names the target `metric_id` / `service_id`; the form has one picker, `target`. */
function onForm(problem: FormProblem): FormProblem {
  return {
    ...problem,
    errors: problem.errors?.map((e) =>
      e.path === 'metric_id' || e.path === 'service_id' ? { ...e, path: 'target' } : e,
    ),
  };
}

/** SLOs: list (with their attainment now), create, edit, delete; the same use cases and scopes as /v1/slos. */
export const sloPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  async function names(ctx: OrgContext) {
    const [services, metrics] = await Promise.all([serviceChoices(ctx), metricChoices(ctx)]);
    return { services, metrics, names: new Map([...services, ...metrics].map((c) => [c.id, c.name])) };
  }

  async function formPage(
    reply: FastifyReply,
    v: ConsoleViewer,
    slo: ConsoleSlo | null,
    values: SloFormValues,
    problem: FormProblem | null,
    status = 200,
  ) {
    const n = await names(v.ctx);
    const form = sloFormBody({
      csrf: v.csrf,
      action: slo ? sloHref(slo.id) : '/console/slos/new',
      values,
      problem: problem && onForm(problem),
      services: n.services,
      metrics: n.metrics,
      slo,
      names: n.names,
    });
    return sendPage(
      reply,
      v,
      NAV,
      { title: slo ? `SLO: ${slo.name}` : 'Create an SLO', body: slo ? `${form}${sloDeleteLink(slo)}` : form },
      status,
    );
  }

  app.get('/slos', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const page = await listSlos(v.ctx, listQuery(request.query, 50));
    const n = await names(v.ctx);
    return sendPage(reply, v, NAV, {
      title: 'SLOs',
      flash: flashOf(request.query),
      body: sloListBody(page.items, page.nextCursor, n.names, v.can('write:config')),
    });
  });

  app.get('/slos/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    return formPage(
      reply,
      v,
      null,
      {
        name: '',
        target: '',
        objective: '99.9',
        window_kind: 'rolling',
        window_days: '30',
        window_timezone: '',
        no_data: 'excluded',
        maintenance: 'excluded',
        degraded: 'good',
      },
      null,
    );
  });

  app.post('/slos/new', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const values = valuesOf(request.body);
    const done = await attempt(async () => {
      const { body, extra } = bodyOf(values);
      const [kind, id] = values.target.split(':');
      if (kind === 'metric' || kind === 'service') body[`${kind}_id`] = id;
      else extra.push({ path: 'target', message: 'Pick a service or a metric' });
      return createSlo(v.ctx, validated(SloCreateBody, body, extra));
    });
    if (done.ok) return redirectWithFlash(reply, sloHref(done.value.id), `Created the SLO ${done.value.name}.`);
    return formPage(reply, v, null, values, done.problem, done.status);
  });

  app.get<{ Params: { id: string } }>('/slos/:id', async (request, reply) => {
    const v = requireScope(request, 'read:metrics');
    const slo = await getSlo(v.ctx, request.params.id);
    const n = await names(v.ctx);
    const summary = sloSummaryBody(slo, n.names);
    const edit = v.can('write:config')
      ? `<h2>Edit</h2>${sloFormBody({ csrf: v.csrf, action: sloHref(slo.id), values: valuesFrom(slo), problem: null, services: n.services, metrics: n.metrics, slo, names: n.names })}${sloDeleteLink(slo)}`
      : managedNotice(slo.config_key);
    return sendPage(reply, v, NAV, {
      title: `SLO: ${slo.name}`,
      flash: flashOf(request.query),
      body: `${summary}${edit}`,
    });
  });

  app.post<{ Params: { id: string } }>('/slos/:id', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const slo = await getSlo(v.ctx, request.params.id);
    const values = valuesOf(request.body);
    const done = await attempt(async () => {
      const { body, extra } = bodyOf(values);
      return updateSlo(v.ctx, slo.id, validated(SloPatchBody, body, extra));
    });
    if (done.ok)
      return redirectWithFlash(
        reply,
        sloHref(slo.id),
        `Saved the SLO ${done.value.name}.${slo.config_key ? ' It is managed by config as code: the next apply of its document overwrites this edit.' : ''}`,
      );
    return formPage(reply, v, slo, values, done.problem, done.status);
  });

  app.get<{ Params: { id: string } }>('/slos/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const slo = await getSlo(v.ctx, request.params.id);
    return sendPage(reply, v, NAV, { title: `Delete ${slo.name}?`, body: sloDeleteBody(slo, v.csrf, null) });
  });

  app.post<{ Params: { id: string } }>('/slos/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:config');
    const slo = await getSlo(v.ctx, request.params.id);
    const done = await attempt(() => deleteSlo(v.ctx, slo.id));
    if (done.ok) return redirectWithFlash(reply, NAV, `Deleted the SLO ${slo.name}.`);
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Delete ${slo.name}?`, body: sloDeleteBody(slo, v.csrf, done.problem) },
      done.status,
    );
  });
};
