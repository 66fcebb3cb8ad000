import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../../domain/error-catalog';
import { type FormValues, slotCount, valuesOf } from '../../../../render/console/alerting-parts';
import {
  type TargetChoices,
  isBlankLevel,
  policyFormBody,
  policyListBody,
} from '../../../../render/console/alerting-policies';
import { type FormProblem, problemBox } from '../../../../render/console/forms';
import { listChannels } from '../../../../usecases/alerting/channels';
import {
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  updatePolicy,
} from '../../../../usecases/alerting/policies';
import { listSchedules } from '../../../../usecases/alerting/schedules';
import type { PolicyView } from '../../../../usecases/alerting/views';
import type { OrgContext } from '../../../../usecases/shared/context';
import { PolicyCreateBody, PolicyPatchBody } from '../../../schemas/alerting';
import { type ConsoleViewer, redirectWithFlash, requireScope, sendPage } from '../../context';
import type { ConsoleDeps } from '../../deps';
import { confirmDeleteRoute } from './confirm-delete';
import { attempt, field, flashOf, listQuery, validated } from '../../forms';
import { consoleUserEmails, slotPath, wholeOr, withFormPaths } from './form-slots';

const NAV = '/console/on-call';
const LIST = '/console/on-call/policies';
type IdRequest = { Params: { id: string } };
type Failed = { problem: FormProblem; status: number };

/** What a level may target: the organization's channels and schedules (first 200 of each) and its console users. */
export async function targetChoices(ctx: OrgContext): Promise<TargetChoices> {
  const [channels, schedules] = [await listChannels(ctx, { limit: 200 }), await listSchedules(ctx, { limit: 200 })];
  const users = await consoleUserEmails(ctx);
  return {
    channels: channels.items.map((c) => ({ id: c.id, name: c.name })),
    schedules: schedules.items.map((s) => ({ id: s.id, name: s.name })),
    users: users.map((e) => ({ id: e, name: e })),
  };
}

/** The policy the form describes; a level's targets are its channels, then schedules, then users. */
function policyOf(body: FormValues) {
  const levels: unknown[] = [];
  const slots: number[] = [];
  for (let i = 0; i < slotCount(body, 'levels'); i++) {
    if (isBlankLevel(body, i)) continue;
    const targets = [
      ...valuesOf(body, `levels.${i}.channels`).map((id) => ({ type: 'channel', id })),
      ...valuesOf(body, `levels.${i}.schedules`).map((id) => ({ type: 'schedule', id })),
      ...valuesOf(body, `levels.${i}.users`).map((email) => ({ type: 'user', email })),
    ];
    levels.push({ delay_minutes: wholeOr(field(body, `levels.${i}.delay_minutes`)), targets });
    slots.push(i);
  }
  const repeat = field(body, 'repeat').trim();
  // A target's error shows under its level's targets (the form groups them by kind, not in the API's order).
  const rename = (path: string) => slotPath(path, 'levels', slots).replace(/^(levels\.\d+\.targets)\..*$/, '$1');
  return {
    input: { name: field(body, 'name'), levels, ...(repeat === '' ? {} : { repeat: wholeOr(repeat) }) },
    rename,
  };
}

function valuesOfPolicy(p: PolicyView): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { name: p.name, repeat: String(p.repeat) };
  p.levels.forEach((l, i) => {
    out[`levels.${i}.delay_minutes`] = String(l.delay_minutes);
    out[`levels.${i}.channels`] = l.targets.filter((t) => t.type === 'channel').map((t) => t.id);
    out[`levels.${i}.schedules`] = l.targets.filter((t) => t.type === 'schedule').map((t) => t.id);
    out[`levels.${i}.users`] = l.targets.filter((t) => t.type === 'user').map((t) => t.email);
  });
  return out;
}

/** A blank level to add, waiting 15 minutes before the next. */
function withNewLevel(values: Record<string, string | string[]>): Record<string, string | string[]> {
  return { ...values, [`levels.${slotCount(values, 'levels')}.delay_minutes`]: '15' };
}

/** Escalation policies (API: /v1/escalation-policies): list, create, edit, delete. */
export const policyPages: FastifyPluginAsync<ConsoleDeps> = async (app) => {
  app.get('/on-call/policies', async (request, reply) => {
    const v = requireScope(request, 'read:alerts');
    const page = await listPolicies(v.ctx, listQuery(request.query, 50));
    const body = policyListBody({
      rows: page.items,
      nextCursor: page.nextCursor,
      known: await targetChoices(v.ctx),
      csrf: v.csrf,
      canWrite: v.can('write:alerts'),
    });
    return sendPage(reply, v, NAV, { title: 'Escalation policies', flash: flashOf(request.query), body });
  });

  const sendForm = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    values: FormValues,
    policy?: PolicyView,
    failed?: Failed,
  ) =>
    sendPage(
      reply,
      v,
      NAV,
      {
        title: policy ? `Edit escalation policy: ${policy.name}` : 'New escalation policy',
        body: policyFormBody({
          csrf: v.csrf,
          values,
          known: await targetChoices(v.ctx),
          policy,
          problem: failed?.problem,
        }),
      },
      failed?.status,
    );

  app.get('/on-call/policies/new', async (request, reply) =>
    sendForm(reply, requireScope(request, 'write:alerts'), withNewLevel(withNewLevel({ repeat: '0' }))),
  );

  app.post('/on-call/policies/new', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const b = request.body as FormValues;
    const { input, rename } = policyOf(b);
    const r = await attempt(() => withFormPaths(() => createPolicy(v.ctx, validated(PolicyCreateBody, input)), rename));
    if (!r.ok) return sendForm(reply, v, b, undefined, r);
    return redirectWithFlash(reply, LIST, `Escalation policy "${r.value.name}" created.`);
  });

  app.get<IdRequest>('/on-call/policies/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const p = await getPolicy(v.ctx, request.params.id);
    return sendForm(reply, v, withNewLevel(valuesOfPolicy(p)), p);
  });

  app.post<IdRequest>('/on-call/policies/:id/edit', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const p = await getPolicy(v.ctx, request.params.id);
    const b = request.body as FormValues;
    const { input, rename } = policyOf(b);
    const r = await attempt(() =>
      withFormPaths(() => updatePolicy(v.ctx, p.id, validated(PolicyPatchBody, input)), rename),
    );
    if (!r.ok) return sendForm(reply, v, b, p, r);
    return redirectWithFlash(reply, LIST, `Escalation policy "${r.value.name}" saved.`);
  });

  confirmDeleteRoute(app, {
    base: '/on-call/policies',
    list: '/console/on-call/policies',
    nav: NAV,
    noun: 'escalation policy',
    load: getPolicy,
    consequence: 'Nobody is paged through it any more; a rule that uses it must be changed first.',
  });

  app.post<IdRequest>('/on-call/policies/:id/delete', async (request, reply) => {
    const v = requireScope(request, 'write:alerts');
    const r = await attempt(() => deletePolicy(v.ctx, request.params.id));
    if (r.ok) return redirectWithFlash(reply, LIST, `Escalation policy "${r.value.name}" deleted.`);
    if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
    // in_use: the list again, with which rules still use it.
    const page = await listPolicies(v.ctx, { limit: 50 });
    const body = policyListBody({
      rows: page.items,
      nextCursor: page.nextCursor,
      known: await targetChoices(v.ctx),
      csrf: v.csrf,
      canWrite: true,
    });
    return sendPage(reply, v, NAV, { title: 'Escalation policies', body: `${problemBox(r.problem)}${body}` }, r.status);
  });
};
