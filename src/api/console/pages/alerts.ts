import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ProblemError } from '../../../domain/error-catalog';
import {
  ALERT_FILTER_STATES,
  alertDetailBody,
  alertHref,
  alertListBody,
  alertingChecklist,
} from '../../../render/console/alerts';
import type { FormProblem } from '../../../render/console/forms';
import { type AlertActionName, getAlert, listAlerts, actOnAlert } from '../../../usecases/alerting/alerts';
import { getRule, listRules } from '../../../usecases/alerting/rules';
import { listChannels } from '../../../usecases/alerting/channels';
import { listPolicies } from '../../../usecases/alerting/policies';
import type { OrgContext } from '../../../usecases/shared/context';
import { type ConsoleViewer, LIVE_SECONDS, redirectWithFlash, requireScope, sendPage } from '../context';
import type { ConsoleDeps } from '../deps';
import { attempt, field, filterOf, flashOf, listQuery } from '../forms';
import { alertPorts, consoleActor } from './alerting/ports';
import { createIncidentButton } from '../../../render/console/pages/incident-buttons';

const NAV = '/console/alerts';
/** Resolved alerts under the open ones on the first page (each state has its own paged list). */
const RECENT_RESOLVED = 10;

type IdRequest = { Params: { id: string } };

/** Rule names for the alerts shown (a deleted rule has none). */
async function ruleNames(ctx: OrgContext, ids: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(ids)) {
    const r = await attempt(() => getRule(ctx, id));
    if (r.ok) names.set(id, r.value.name);
  }
  return names;
}

const DONE: Readonly<Record<AlertActionName, (state: string) => string>> = {
  acknowledge: () => 'Acknowledged: escalation stopped.',
  resolve: () => 'Resolved: everyone who was told hears that it is over.',
  snooze: () => 'Snoozed: if it still fires when the snooze ends, escalation starts again from the first level.',
};

/** Alerts (API: /v1/alerts): open first, each with its timeline; acknowledge, snooze and resolve as the signed-in user. */
export const alertPages: FastifyPluginAsync<ConsoleDeps> = async (app, deps) => {
  const { control } = alertPorts(deps);

  app.get('/alerts', async (request, reply) => {
    const v = requireScope(request, 'read:alerts');
    const state = filterOf(request.query, 'state', ALERT_FILTER_STATES);
    const [open, rest] = state
      ? [{ items: [], nextCursor: null }, await listAlerts(v.ctx, { ...listQuery(request.query, 50), state })]
      : [
          await listAlerts(v.ctx, { limit: 50, state: 'open' }),
          await listAlerts(v.ctx, { limit: RECENT_RESOLVED, state: 'resolved' }),
        ];
    const names = await ruleNames(
      v.ctx,
      [...open.items, ...rest.items].map((a) => a.rule_id),
    );
    // How far alerting is set up (one row of each is enough to know).
    const count = async (list: (ctx: OrgContext, q: { limit: number }) => Promise<{ items: unknown[] }>) =>
      (await list(v.ctx, { limit: 1 })).items.length;
    const setup = alertingChecklist(
      { channels: await count(listChannels), policies: await count(listPolicies), rules: await count(listRules) },
      v.can('write:alerts'),
    );
    const body =
      setup +
      alertListBody(
        {
          open: open.items,
          openNext: open.nextCursor,
          rest: rest.items,
          restNext: rest.nextCursor,
          state,
          ruleNames: names,
        },
        { csrf: v.csrf, canWrite: v.can('write:alerts'), zone: v.timeZone },
      );
    return sendPage(reply, v, NAV, { title: 'Alerts', flash: flashOf(request.query), body, live: LIVE_SECONDS });
  });

  const sendDetail = async (
    reply: FastifyReply,
    v: ConsoleViewer,
    id: string,
    flash: string | null,
    failed?: { problem: FormProblem; status: number },
  ) => {
    const alert = await getAlert(v.ctx, id);
    const names = await ruleNames(v.ctx, [alert.rule_id]);
    const draft = v.can('write:incidents') ? createIncidentButton({ from: 'alert', id: alert.id, csrf: v.csrf }) : '';
    const body = `${draft}${alertDetailBody({ alert, ruleName: names.get(alert.rule_id) ?? null, temporalUiUrl: deps.temporalUiUrl, problem: failed?.problem ?? null }, { csrf: v.csrf, canWrite: v.can('write:alerts'), zone: v.timeZone })}`;
    if (failed?.status === 503) reply.header('retry-after', '5');
    return sendPage(
      reply,
      v,
      NAV,
      { title: `Alert: ${alert.title}`, flash, body, ...(failed ? {} : { live: LIVE_SECONDS }) },
      failed?.status,
    );
  };

  app.get<IdRequest>('/alerts/:id', async (request, reply) =>
    sendDetail(reply, requireScope(request, 'read:alerts'), request.params.id, flashOf(request.query)),
  );

  for (const action of ['acknowledge', 'resolve', 'snooze'] as const) {
    app.post<IdRequest>(`/alerts/:id/${action}`, async (request, reply) => {
      const v = requireScope(request, 'write:alerts');
      const { id } = request.params;
      const r = await attempt(async () => {
        const minutes = action === 'snooze' ? Number(field(request.body, 'minutes')) : undefined;
        if (minutes !== undefined && !(Number.isInteger(minutes) && minutes >= 1 && minutes <= 1440)) {
          throw new ProblemError('validation_failed', 'minutes: A whole number of minutes from 1 to 1440', {
            errors: [{ path: 'minutes', message: 'A whole number of minutes from 1 to 1440' }],
          });
        }
        return actOnAlert(v.ctx, control, id, action, {
          by: consoleActor(v),
          ...(minutes !== undefined ? { minutes } : {}),
        });
      });
      if (r.ok) return redirectWithFlash(reply, alertHref(id), DONE[action](r.value.state));
      if (r.status === 404) throw new ProblemError('not_found', r.problem.detail);
      // The alert as it is now, with why nothing was done (resolved meanwhile, or the workflows not reachable).
      v.ctx.em.clear();
      return sendDetail(reply, v, id, null, r);
    });
  }
};
