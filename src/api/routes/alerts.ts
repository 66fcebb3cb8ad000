import type { EntityManager } from '@mikro-orm/postgresql';
import type { SlackReplySender } from '../../usecases/alerting/slack-replies';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AlertControl,
  type ChannelTester,
  actOnAlert,
  apiKeyActor,
  getAlert,
  listAlerts,
} from '../../usecases/alerting/alerts';
import { followAlertLink } from '../../usecases/alerting/alert-links';
import { testChannelSend } from '../../usecases/alerting/channel-tests';
import { sendHumanPage } from '../human-page';
import { routeDoc } from '../route-doc';
import { DateTimeInput, IdParams, ListQuery, pageSchema } from '../schemas/common';
import { AlertSchema as AlertViewSchema, ChannelTestResultSchema } from '../schemas/alerts';
import { alertLinkAnswer } from './alert-link-answers';

const tag = 'Alerts';

export interface AlertRouteDeps {
  control: AlertControl;
  tester: ChannelTester;
  /** Checks the one-click links in notifications (the worker signs them with the same key). */
  linkKey: Buffer;
  /** Posts follow-ups to Slack button presses (public addresses only, except WEBHOOK_ALLOW_CIDRS). */
  slackReplies: SlackReplySender;
}

const ListAlertsQuery = ListQuery.extend({
  state: z
    .enum(['open', 'triggered', 'acknowledged', 'suppressed', 'resolved'])
    .optional()
    .describe('`open`: every state but resolved'),
  rule_id: z.string().max(64).optional().describe('Only alerts of this alert rule'),
  since: DateTimeInput.optional().describe('Alerts created at or after this instant'),
});
const ActorBody = z
  .object({ note: z.string().max(500).optional().describe('Recorded on the timeline entry') })
  .nullish();
const SnoozeBody = z.object({
  minutes: z
    .number()
    .int()
    .min(1)
    .max(1440)
    .describe('How long the alert stays quiet; if it still fires then, escalation starts again from the first level'),
});
const TokenParams = z.object({
  token: z.string().max(1024).describe('The signed token of the link in the notification'),
});

const apiActor = (request: { principal: { keyId: string } | null; em: EntityManager }) =>
  apiKeyActor(request.em, request.principal!.keyId);

export const alertRoutes: FastifyPluginAsyncZod<AlertRouteDeps> = async (app, deps) => {
  {
    const { errorResponses, ...doc } = routeDoc('listAlerts', {
      summary: 'List alerts',
      tag,
      errors: ['validation_failed'],
    });
    app.get(
      '/alerts',
      {
        schema: {
          ...doc,
          querystring: ListAlertsQuery,
          response: { 200: pageSchema(AlertViewSchema), ...errorResponses },
        },
      },
      async (request) => {
        const page = await listAlerts(request.orgContext(), request.query);
        return { items: page.items, next_cursor: page.nextCursor };
      },
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('getAlert', {
      summary: 'Read an alert with its timeline',
      tag,
      errors: ['not_found'],
    });
    app.get(
      '/alerts/:id',
      { schema: { ...doc, params: IdParams, response: { 200: AlertViewSchema, ...errorResponses } } },
      async (request) => getAlert(request.orgContext(), request.params.id),
    );
  }
  for (const action of ['acknowledge', 'resolve'] as const) {
    const { errorResponses, ...doc } = routeDoc(`${action}Alert`, {
      summary: action === 'acknowledge' ? 'Acknowledge an alert' : 'Resolve an alert',
      tag,
      description:
        action === 'acknowledge'
          ? 'Stops the escalation (a workflow update of `alert:<rule>:<subject>`); PagerDuty and Opsgenie channels that were told get their acknowledge call, chats a message. Acknowledging twice answers the alert unchanged.'
          : 'Ends the alert: every channel that was told gets `resolve` (PagerDuty resolve, Opsgenie close, a message in chats and email).',
      errors: ['validation_failed', 'not_found', 'alert_closed', 'alert_busy'],
    });
    app.post(
      `/alerts/:id/${action}`,
      { schema: { ...doc, params: IdParams, body: ActorBody, response: { 200: AlertViewSchema, ...errorResponses } } },
      async (request) =>
        actOnAlert(request.orgContext(), deps.control, request.params.id, action, {
          by: await apiActor(request),
          ...(request.body?.note ? { note: request.body.note } : {}),
        }),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('snoozeAlert', {
      summary: 'Snooze an alert',
      tag,
      errors: ['validation_failed', 'not_found', 'alert_closed', 'alert_busy'],
    });
    app.post(
      '/alerts/:id/snooze',
      { schema: { ...doc, params: IdParams, body: SnoozeBody, response: { 200: AlertViewSchema, ...errorResponses } } },
      async (request) =>
        actOnAlert(request.orgContext(), deps.control, request.params.id, 'snooze', {
          by: await apiActor(request),
          minutes: request.body.minutes,
        }),
    );
  }
  {
    const { errorResponses, ...doc } = routeDoc('testNotificationChannel', {
      summary: 'Send a test notification',
      tag: 'Alerting',
      errors: ['not_found', 'alert_busy'],
    });
    app.post(
      '/notification-channels/:id/test',
      { schema: { ...doc, params: IdParams, response: { 200: ChannelTestResultSchema, ...errorResponses } } },
      async (request) => testChannelSend(request.orgContext(), deps.tester, request.params.id),
    );
  }
  // The pages behind the links in notifications: a browser posts the confirmation form as a form
  // (application/x-www-form-urlencoded, no fields). Only these two routes read that media type;
  // the token in the URL is the whole request.
  await app.register(async (plain) => {
    const links = plain.withTypeProvider<ZodTypeProvider>();
    links.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, _body, done) => done(null, undefined),
    );
    {
      const { errorResponses, ...doc } = routeDoc('getAlertActionLink', {
        summary: 'One-click link: confirmation page',
        tag,
        errors: ['link_invalid', 'link_used', 'link_expired'],
      });
      links.get(
        '/alert-actions/:token',
        {
          schema: {
            ...doc,
            params: TokenParams,
            response: { 200: z.string(), 400: z.string(), 403: z.string(), 410: z.string(), ...errorResponses },
          },
        },
        async (request, reply) => {
          const outcome = await followAlertLink(
            request.em,
            deps.linkKey,
            request.params.token,
            request.now,
            'view',
            deps.control,
          );
          return sendHumanPage(request, reply, alertLinkAnswer(outcome));
        },
      );
    }
    {
      const { errorResponses, ...doc } = routeDoc('useAlertActionLink', {
        summary: 'One-click link: act',
        tag,
        errors: ['link_invalid', 'link_not_applied', 'link_used', 'link_expired'],
      });
      links.post(
        '/alert-actions/:token',
        {
          schema: {
            ...doc,
            params: TokenParams,
            response: {
              200: z.string(),
              400: z.string(),
              403: z.string(),
              409: z.string(),
              410: z.string(),
              ...errorResponses,
            },
          },
        },
        async (request, reply) => {
          const outcome = await followAlertLink(
            request.em,
            deps.linkKey,
            request.params.token,
            request.now,
            'act',
            deps.control,
          );
          return sendHumanPage(request, reply, alertLinkAnswer(outcome));
        },
      );
    }
  });
};
