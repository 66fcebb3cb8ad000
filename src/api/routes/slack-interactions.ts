import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SecretBox } from '../../crypto/secret-box';
import { handleSlackInteraction } from '../../usecases/alerting/slack-interactions';
import { routeDoc } from '../route-doc';
import type { AlertRouteDeps } from './alerts';

const ChannelParams = z.object({ channelId: z.string().max(64).describe('The Slack notification channel’s id') });
const SlackAnswerSchema = z
  .object({
    response_type: z.literal('ephemeral').optional(),
    replace_original: z.literal(false).optional(),
    text: z
      .string()
      .optional()
      .describe('What was done, or why nothing was (already done, expired); empty for presses Vigil ignores'),
  })
  .meta({ id: 'SlackInteractionAnswer' });

/** Form bodies Slack sends are small; a press payload is a few kilobytes. */
const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * The Interactivity Request URL of a Slack app whose messages come from a Slack channel with a
 * signing secret. Slack posts `application/x-www-form-urlencoded`, which the API refuses
 * elsewhere: only this plugin's scope reads it, and keeps it as the raw string the signature covers.
 */
export const slackInteractionRoutes: FastifyPluginAsyncZod<{ box: SecretBox; alerts: AlertRouteDeps }> = async (
  app,
  opts,
) => {
  const replies = opts.alerts.slackReplies;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );
  const { errorResponses, ...doc } = routeDoc('receiveSlackInteraction', {
    summary: 'Slack interactivity: a button press',
    tag: 'Alerts',
    errors: ['validation_failed', 'unauthenticated', 'not_found'],
  });
  app.post(
    '/integrations/slack/interactions/:channelId',
    { schema: { ...doc, params: ChannelParams, response: { 200: SlackAnswerSchema, ...errorResponses } } },
    async (request, reply) => {
      const header = (name: string) => (typeof request.headers[name] === 'string' ? request.headers[name] : undefined);
      const log = (fields: Record<string, unknown>, message: string) => request.log.warn(fields, message);
      const { answer, followUp } = await handleSlackInteraction(
        request.em,
        { box: opts.box, linkKey: opts.alerts.linkKey, control: opts.alerts.control, replies, log },
        {
          channelId: request.params.channelId,
          rawBody: typeof request.body === 'string' ? request.body : '',
          timestamp: header('x-slack-request-timestamp'),
          signature: header('x-slack-signature'),
          now: request.now,
        },
      );
      // After the answer has left: Slack's 3-second limit is for this answer alone.
      if (followUp) reply.raw.once('close', () => void followUp());
      return answer;
    },
  );
};
