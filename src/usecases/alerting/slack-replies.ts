import type { PostResult, WebhookPoster } from '../shared/ports';

/**
 * The follow-up message to a button press, posted to the interaction's `response_url` (Slack's
 * documented way to answer a block_actions press: the HTTP answer to the press itself is not shown
 * to anyone). Ephemeral, so only the person who pressed sees it: the channel already hears who
 * acknowledged or resolved through the alert's own message, and would otherwise read it twice.
 */
export interface SlackFollowUp {
  response_type: 'ephemeral';
  /** The alert's message keeps its buttons and text: the follow-up is a message of its own. */
  replace_original: false;
  text: string;
}

/** How follow-ups leave: the channels' SSRF-guarded HTTP, with a short timeout of its own. */
export interface SlackReplySender {
  poster: WebhookPoster;
  timeoutMs: number;
}

/** What the sender reports when a follow-up could not be posted (the press itself stands). */
export type SlackReplyLog = (fields: Record<string, unknown>, message: string) => void;

/** Slack shows at most 3,000 characters of a message's text in its section. */
const MAX_TEXT = 3_000;
const DEFAULT_TIMEOUT_MS = 5_000;

/** A sender over the channels' SSRF-guarded poster, waiting at most 10 s for Slack. */
export function slackReplySender(poster: WebhookPoster, timeoutMs = DEFAULT_TIMEOUT_MS): SlackReplySender {
  return { poster, timeoutMs: Math.min(timeoutMs, 10_000) };
}

export function slackFollowUp(text: string): SlackFollowUp {
  return {
    response_type: 'ephemeral',
    replace_original: false,
    text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text,
  };
}

/** An absolute http(s) URL Slack gave as `response_url`, or null (nothing is posted then). */
export function responseUrlOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2_000) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Posts the follow-up once. Never throws: a refused address, a timeout or Slack's refusal is
 * logged, and the acknowledgement or resolution it reports stays done.
 */
export async function postSlackFollowUp(
  sender: SlackReplySender,
  url: string,
  message: SlackFollowUp,
  log: SlackReplyLog,
): Promise<PostResult> {
  const r = await sender.poster.post(
    url,
    { 'content-type': 'application/json', 'user-agent': 'Vigil-Alerts/1.0' },
    JSON.stringify(message),
    sender.timeoutMs,
    200,
  );
  if (r.error !== null || r.statusCode === null || r.statusCode >= 300) {
    // The URL carries a one-time credential of Slack's: only its host is logged.
    log(
      { response_url_host: new URL(url).host, status_code: r.statusCode, error: r.error, response: r.response },
      'the Slack follow-up to a button press was not delivered',
    );
  }
  return r;
}
