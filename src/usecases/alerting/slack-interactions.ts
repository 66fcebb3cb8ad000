import type { EntityManager } from '@mikro-orm/postgresql';
import { NotificationChannelSchema } from '../../db/entities';
import { escapeMrkdwn } from '../../domain/alerting/channel-formats';
import { ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import { verifyAlertLink } from '../../crypto/alert-action-links';
import type { SecretBox } from '../../crypto/secret-box';
import { verifySlackRequest } from '../../crypto/slack-signing';
import { type AlertLinkOutcome, followAlertLink } from './alert-links';
import type { AlertControl } from './alerts';
import { openChannelSecret } from './channel-secrets';
import {
  type SlackReplyLog,
  type SlackReplySender,
  postSlackFollowUp,
  responseUrlOf,
  slackFollowUp,
} from './slack-replies';

/** A request Slack sent to a channel's Interactivity Request URL, as it arrived. */
export interface SlackInteraction {
  channelId: string;
  /** The form body exactly as received: the signature covers these bytes. */
  rawBody: string;
  timestamp: string | undefined;
  signature: string | undefined;
  now: Date;
}

/**
 * What Vigil answers Slack (200). Slack wants the acknowledgement within 3 seconds; for a
 * block_actions press it does not post this body as a message (the alert's own "Acknowledged by …"
 * message reaches the channel through the escalation), but it is the answer Slack accepts. The
 * person who pressed reads the same sentence through the follow-up to `response_url`.
 */
export interface SlackAnswer {
  response_type?: 'ephemeral';
  replace_original?: false;
  text?: string;
}

/** The answer, and the follow-up to post once it is sent (null: nothing to tell, or nowhere to tell it). */
export interface SlackInteractionResult {
  answer: SlackAnswer;
  followUp: (() => Promise<void>) | null;
}

export interface SlackInteractionDeps {
  box: SecretBox;
  linkKey: Buffer;
  control: AlertControl;
  replies: SlackReplySender;
  log: SlackReplyLog;
}

const ACTIONS: Readonly<Record<string, 'acknowledge' | 'resolve'>> = {
  vigil_acknowledge: 'acknowledge',
  vigil_resolve: 'resolve',
};

/**
 * A press of an Acknowledge or Resolve button in a Slack message: the request is checked against
 * the channel's signing secret (401 otherwise), then the button's one-click token acts as the
 * link would, in the name of the Slack user who pressed it. Presses of other buttons (the "Open
 * alert" link, which Slack reports too) are acknowledged and ignored.
 */
export async function handleSlackInteraction(
  em: EntityManager,
  deps: SlackInteractionDeps,
  req: SlackInteraction,
): Promise<SlackInteractionResult> {
  const payload = await verifiedPayload(em, deps, req);
  const answer = await actOn(em, deps, req, payload.payload, payload.channel);
  // Only a request Slack signed gets a follow-up: nobody else can make Vigil post anywhere.
  const url = answer.text ? responseUrlOf(payload.payload.response_url) : null;
  const text = answer.text;
  if (!url || !text) return { answer, followUp: null };
  return {
    answer,
    followUp: async () => {
      await postSlackFollowUp(deps.replies, url, slackFollowUp(text), deps.log);
    },
  };
}

/** The channel and the press, once the request is known to be Slack's for this channel. */
async function verifiedPayload(em: EntityManager, deps: SlackInteractionDeps, req: SlackInteraction) {
  const channel = isUuid(req.channelId)
    ? await em.findOne(NotificationChannelSchema, { id: req.channelId, type: 'slack', deletedAt: null })
    : null;
  const signingSecret = channel ? openChannelSecret(deps.box, channel.sealedSecret ?? null).signing_secret : undefined;
  if (!channel || !signingSecret)
    throw new ProblemError('not_found', 'No Slack channel with a signing secret has this id.');
  const check = verifySlackRequest(signingSecret, req.timestamp, req.signature, req.rawBody, req.now.getTime());
  if (!check.ok) {
    const why =
      check.reason === 'missing'
        ? 'X-Slack-Signature and X-Slack-Request-Timestamp are required'
        : check.reason === 'stale'
          ? 'the request timestamp is more than 5 minutes from now'
          : 'the signature does not match the channel’s signing secret';
    // A 401 names its scheme (RFC 9110): here Slack's request signature, not an API key.
    throw new ProblemError(
      'unauthenticated',
      `This request is not signed by Slack for this channel: ${why}.`,
      {},
      { 'www-authenticate': 'Slack-Signature realm="vigil"' },
    );
  }
  return { payload: readPayload(req.rawBody), channel };
}

async function actOn(
  em: EntityManager,
  deps: SlackInteractionDeps,
  req: SlackInteraction,
  payload: BlockActionsPayload,
  channel: { id: string; name: string },
): Promise<SlackAnswer> {
  if (payload.type !== 'block_actions') return {};
  const press = payload.actions?.find((a) => a && typeof a.action_id === 'string' && a.action_id in ACTIONS);
  // A link button (a message sent before the channel had its signing secret) has no value: the
  // browser opens its one-click page, which does the rest.
  if (!press || typeof press.value !== 'string') return {};
  const token = press.value;
  const claims = verifyAlertLink(deps.linkKey, token, req.now.getTime());
  // A token of another channel (or for the other action) is not this button's: nobody here may use it.
  if (
    claims.ok &&
    (claims.claims.recipient.kind !== 'channel' ||
      claims.claims.recipient.id !== channel.id ||
      claims.claims.action !== ACTIONS[press.action_id!])
  ) {
    return reply('This button does not belong to this channel’s messages; open the alert in Vigil instead.');
  }
  const by = `Slack user ${slackUser(payload.user)} in channel “${channel.name}”`;
  return reply(answerText(await followAlertLink(em, deps.linkKey, token, req.now, 'act', deps.control, by), req.now));
}

interface BlockActionsPayload {
  type?: string;
  user?: { id?: unknown; username?: unknown; name?: unknown };
  actions?: Array<{ action_id?: string; value?: unknown } | null>;
  /** Where Slack takes follow-up messages about this press (valid 30 minutes, 5 uses). */
  response_url?: unknown;
}

function readPayload(rawBody: string): BlockActionsPayload {
  const text = new URLSearchParams(rawBody).get('payload');
  try {
    const parsed: unknown = text === null ? null : JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    // answered below
  }
  throw new ProblemError('validation_failed', 'payload: a JSON object is required (the form field Slack sends).', {
    errors: [{ path: 'payload', message: 'A JSON object is required' }],
  });
}

/** `@ana (U0123ABC)`, as Slack names the person; their words are kept short and on one line. */
function slackUser(user: BlockActionsPayload['user']): string {
  const clean = (v: unknown) =>
    typeof v === 'string'
      ? v
          .replace(/[\u0000-\u001f\u007f]/g, ' ')
          .trim()
          .slice(0, 80)
      : '';
  const name = clean(user?.username) || clean(user?.name) || 'unknown';
  const id = clean(user?.id);
  return id ? `@${name} (${id})` : `@${name}`;
}

const reply = (text: string): SlackAnswer => ({ response_type: 'ephemeral', replace_original: false, text });

const DONE: Record<'acknowledge' | 'resolve', string> = { acknowledge: 'Acknowledged', resolve: 'Resolved' };

/**
 * An instant as Slack shows it: in the reader's own zone ("Nov 20th at 3:05 PM"), with the UTC
 * time as the text for clients that cannot.
 */
function slackTime(at: Date): string {
  const fallback = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${fallback}>`;
}

/** What the person who pressed is told; Slack shows an error for anything but 200, so every outcome is a sentence. */
function answerText(o: AlertLinkOutcome, now: Date): string {
  const alert = 'title' in o ? ` “${escapeMrkdwn(o.title)}”` : '';
  switch (o.kind) {
    case 'done':
      return `${DONE[o.action]}${alert} — by ${escapeMrkdwn(o.by ?? '')} at ${slackTime(now)}.`;
    case 'used':
      return `Already done: this ${o.action === 'acknowledge' ? 'Acknowledge' : 'Resolve'} button was already used (alert${alert}, now ${o.state}).`;
    case 'already':
      return `Already resolved: alert${alert} was resolved${o.by ? ` by ${escapeMrkdwn(o.by)}` : ''}.`;
    case 'expired':
      return 'This button has expired (buttons work for 24 hours); open the alert in Vigil instead.';
    case 'revoked':
      return `This button no longer works (alert${alert}): ${o.why}.`;
    case 'failed':
      return `The alert${alert} was not changed: ${o.detail ?? 'it could not be changed'}.`;
    default:
      return 'This button is not valid; open the alert in Vigil instead.';
  }
}
