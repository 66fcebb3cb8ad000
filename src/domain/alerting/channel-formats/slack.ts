/**
 * Slack incoming webhook with Block Kit.
 * https://api.slack.com/messaging/webhooks
 * https://api.slack.com/reference/block-kit/blocks (limits below)
 * https://api.slack.com/reference/surfaces/formatting#escaping
 * https://api.slack.com/interactivity/handling (interactive buttons: action_id and value reach the app's Request URL)
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import {
  facts,
  fit,
  headline,
  isoSeconds,
  JSON_HEADERS,
  linkButtons,
  oneLine,
  readableTime,
  type Tone,
  tone,
} from './message-text';

export const SLACK_LIMITS = {
  blocks: 50,
  headerText: 150,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  contextText: 3000,
  buttonText: 75,
  buttonUrl: 3000,
  buttonValue: 2000,
  /** Slack truncates longer `text`; the fallback only has to carry the notification line. */
  fallbackText: 3000,
} as const;

/** The three characters Slack's mrkdwn reads as control sequences. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const EMOJI: Record<Tone, string> = {
  danger: '🔴',
  warning: '🟠',
  info: '🔵',
  good: '✅',
  acknowledged: '👀',
  test: '🧪',
};

type TextObject = { type: 'plain_text'; text: string; emoji?: boolean } | { type: 'mrkdwn'; text: string };

/** How the message's buttons act: links to the one-click pages, or interactive buttons Slack posts to Vigil (the channel has the Slack app's signing secret). */
export interface SlackOptions {
  interactive?: boolean;
}

/** The one-click link's token: the last segment of `<base>/v1/alert-actions/<token>`. */
export function alertLinkToken(url: string): string | null {
  const m = /\/alert-actions\/([A-Za-z0-9_-]+)$/.exec(url);
  return m ? m[1]! : null;
}

export function slackBlocks(msg: AlertMessage, opts: SlackOptions = {}): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: fit(`${EMOJI[tone(msg)]} ${headline(msg)}`, SLACK_LIMITS.headerText),
        emoji: true,
      },
    },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: fit(oneLine(msg.summary) || msg.title, SLACK_LIMITS.sectionText, escapeMrkdwn) },
      fields: facts(msg)
        .slice(0, SLACK_LIMITS.fields)
        .map((f): TextObject => ({
          type: 'mrkdwn',
          text: `*${f.label}*\n${fit(f.value, SLACK_LIMITS.fieldText - f.label.length - 3, escapeMrkdwn)}`,
        })),
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: fit(contextLine(msg), SLACK_LIMITS.contextText) }] },
  ];
  const buttons = linkButtons(msg)
    .filter((b) => b.url.length <= SLACK_LIMITS.buttonUrl)
    .map((b) => {
      // Interactive: the press goes to Vigil's interactions URL with the one-click token as the
      // value (the same signature, expiry and single use), so Vigil learns which Slack user pressed.
      const token = opts.interactive && b.kind !== 'open' ? alertLinkToken(b.url) : null;
      return {
        type: 'button',
        action_id: `vigil_${b.kind}`,
        text: { type: 'plain_text', text: fit(b.label, SLACK_LIMITS.buttonText), emoji: false },
        ...(token && token.length <= SLACK_LIMITS.buttonValue ? { value: token } : { url: b.url }),
        ...(b.kind === 'acknowledge' ? { style: 'primary' } : {}),
      };
    });
  if (buttons.length > 0) blocks.push({ type: 'actions', block_id: 'vigil_links', elements: buttons });
  return blocks;
}

/** "Occurred <date token> · Vigil · <organization>"; the date token shows each reader's own time zone. */
function contextLine(msg: AlertMessage): string {
  const at = isoSeconds(msg.occurredAt);
  const when = at
    ? `<!date^${Date.parse(at) / 1000}^{date_short_pretty} at {time_secs}|${readableTime(at)}>`
    : escapeMrkdwn(msg.occurredAt);
  return `Occurred ${when} · Vigil · ${fit(oneLine(msg.organization.name), 500, escapeMrkdwn)}`;
}

export function slackRequest(webhookUrl: string, msg: AlertMessage, opts: SlackOptions = {}): ChannelRequest {
  const text = fit(`${headline(msg)} — ${oneLine(msg.summary)}`, SLACK_LIMITS.fallbackText, escapeMrkdwn);
  return {
    method: 'POST',
    url: webhookUrl,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({ text, blocks: slackBlocks(msg, opts) }),
  };
}
