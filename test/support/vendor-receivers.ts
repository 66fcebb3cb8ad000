/**
 * Loopback stand-ins for the notification vendors: each checks every request against the
 * vendor's documented contract, records it with what it broke, and answers as the vendor does
 * (success, the vendor's 4xx when the request breaks the contract, its 5xx for `failFirst`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type VendorKind = 'slack' | 'teams' | 'discord' | 'pagerduty' | 'opsgenie';
/** A vendor's channel endpoint, or Slack's `response_url` of a button press (where an app answers the person who pressed). */
export type ReceiverKind = VendorKind | 'slack_response_url';

export interface ReceivedRequest {
  /** Path with query string. */
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
  violations: string[];
  /** What the receiver answered. */
  status: number;
  at: number;
}

export interface VendorReceiverOptions {
  /** Answer the vendor's 5xx to the first N requests (still checked and recorded). */
  failFirst?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Opsgenie: the only API key accepted (any well-formed GenieKey otherwise). */
  apiKey?: string;
}

export interface VendorReceiver {
  kind: ReceiverKind;
  /** The webhook URL (slack, teams, discord), API base (pagerduty, opsgenie) or response_url (slack_response_url) to configure. */
  url: string;
  requests: ReceivedRequest[];
  /** Every violation of every request, prefixed with the request's index and path. */
  violations(): string[];
  /** Resolves once `n` requests arrived; rejects after `timeoutMs` saying what did. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

interface Incoming {
  method: string;
  path: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  raw: string;
  body: unknown;
}

interface Answer {
  status: number;
  contentType?: string;
  body?: string;
}

interface Contract {
  /** The path (with query) for webhook vendors; '' for API bases. */
  webhookPath: string;
  check(req: Incoming): string[];
  accept(req: Incoming): Answer;
  reject(req: Incoming, violations: string[]): Answer;
  fail(): Answer;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const json = (status: number, body: unknown): Answer => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify(body),
});

/** Pushes a violation unless `v` is a string within [min, max] (absent is fine unless required). */
function str(
  out: string[],
  where: string,
  v: unknown,
  {
    max,
    min = 0,
    required = false,
    oneOf,
  }: { max?: number; min?: number; required?: boolean; oneOf?: readonly string[] } = {},
): void {
  if (v === undefined || v === null) {
    if (required) out.push(`${where} is required`);
    return;
  }
  if (typeof v !== 'string') return void out.push(`${where} must be a string`);
  if (v.length < min)
    out.push(min === 1 ? `${where} must not be empty` : `${where} must have at least ${min} characters`);
  if (max !== undefined && v.length > max) out.push(`${where} has ${v.length} characters (max ${max})`);
  if (oneOf && !oneOf.includes(v)) out.push(`${where} must be one of ${oneOf.join(', ')} (got ${JSON.stringify(v)})`);
}

function arr(
  out: string[],
  where: string,
  v: unknown,
  { max, min = 0 }: { max?: number; min?: number } = {},
): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) return (void out.push(`${where} must be an array`), []);
  if (v.length < min) out.push(`${where} needs at least ${min} item(s)`);
  if (max !== undefined && v.length > max) out.push(`${where} has ${v.length} items (max ${max})`);
  return v;
}

const isoDate = (v: unknown) =>
  typeof v === 'string' &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) &&
  !Number.isNaN(Date.parse(v));
const httpUrl = (v: unknown) => typeof v === 'string' && /^https?:\/\/\S+$/.test(v);

// --- Slack -----------------------------------------------------------------------------------
// https://api.slack.com/messaging/webhooks (answers, errors)
// https://api.slack.com/reference/block-kit/blocks (header, section, context, actions limits)
// https://api.slack.com/reference/block-kit/block-elements#button
// https://api.slack.com/reference/block-kit/composition-objects#text
// https://api.slack.com/reference/surfaces/formatting#escaping (& < > in mrkdwn)

/** In mrkdwn, `<` opens a link, mention or date token and `&` an entity; anything else must be escaped. */
function mrkdwn(out: string[], where: string, text: string): void {
  for (const token of text.match(/<!date\^[^>]*>/g) ?? []) {
    if (!/^<!date\^\d+\^[^|^>]*(\^[^|>]+)?\|[^>]+>$/.test(token)) out.push(`${where}: malformed date token ${token}`);
  }
  const rest = text.replace(/<(?:https?:\/\/|mailto:|[@#!])[^<>\s][^<>]*>/g, '');
  if (/[<>]/.test(rest)) out.push(`${where}: unescaped < or > in mrkdwn`);
  if (/&(?!amp;|lt;|gt;)/.test(rest)) out.push(`${where}: unescaped & in mrkdwn`);
}

function slackText(out: string[], where: string, v: unknown, max: number, only?: 'plain_text'): void {
  if (!isObj(v)) return void out.push(`${where} must be a text object`);
  str(out, `${where}.type`, v.type, { required: true, oneOf: only ? [only] : ['plain_text', 'mrkdwn'] });
  str(out, `${where}.text`, v.text, { required: true, min: 1, max });
  if (v.type === 'mrkdwn' && v.emoji !== undefined) out.push(`${where}.emoji is only for plain_text`);
  if (v.type === 'mrkdwn' && typeof v.text === 'string') mrkdwn(out, `${where}.text`, v.text);
}

function slackBlock(out: string[], where: string, b: unknown, ids: Set<string>): void {
  if (!isObj(b)) return void out.push(`${where} must be an object`);
  str(out, `${where}.block_id`, b.block_id, { max: 255 });
  if (typeof b.block_id === 'string') {
    if (ids.has(b.block_id)) out.push(`${where}.block_id ${b.block_id} is not unique`);
    ids.add(b.block_id);
  }
  switch (b.type) {
    case 'header':
      return slackText(out, `${where}.text`, b.text, 150, 'plain_text');
    case 'section':
      if (b.text === undefined && b.fields === undefined) out.push(`${where} needs text or fields`);
      if (b.text !== undefined) slackText(out, `${where}.text`, b.text, 3000);
      arr(out, `${where}.fields`, b.fields, { min: 1, max: 10 }).forEach((f, i) =>
        slackText(out, `${where}.fields[${i}]`, f, 2000),
      );
      return;
    case 'context':
      if (b.elements === undefined) out.push(`${where}.elements is required`);
      arr(out, `${where}.elements`, b.elements, { min: 1, max: 10 }).forEach((e, i) => {
        if (isObj(e) && e.type === 'image')
          return str(out, `${where}.elements[${i}].image_url`, e.image_url, { required: true, max: 3000 });
        slackText(out, `${where}.elements[${i}]`, e, 3000);
      });
      return;
    case 'actions': {
      if (b.elements === undefined) out.push(`${where}.elements is required`);
      const actionIds = new Set<string>();
      arr(out, `${where}.elements`, b.elements, { min: 1, max: 25 }).forEach((e, i) => {
        const at = `${where}.elements[${i}]`;
        if (!isObj(e) || e.type !== 'button') return void out.push(`${at} must be a button`);
        slackText(out, `${at}.text`, e.text, 75, 'plain_text');
        str(out, `${at}.action_id`, e.action_id, { max: 255 });
        if (typeof e.action_id === 'string') {
          if (actionIds.has(e.action_id)) out.push(`${at}.action_id is not unique`);
          actionIds.add(e.action_id);
        }
        str(out, `${at}.url`, e.url, { max: 3000 });
        if (e.url !== undefined && !httpUrl(e.url)) out.push(`${at}.url must be an absolute http(s) URL`);
        str(out, `${at}.value`, e.value, { max: 2000 });
        str(out, `${at}.style`, e.style, { oneOf: ['primary', 'danger'] });
      });
      return;
    }
    case 'divider':
      return;
    default:
      out.push(`${where}.type ${JSON.stringify(b.type)} is not a message block this receiver knows`);
  }
}

function checkSlack(req: Incoming): string[] {
  const out: string[] = [];
  const b = req.body;
  if (!isObj(b)) return ['invalid_payload: body must be a JSON object'];
  if (b.text === undefined && b.blocks === undefined) out.push('no_text: text or blocks is required');
  str(out, 'text', b.text, { max: 40000 });
  if (typeof b.text === 'string') mrkdwn(out, 'text', b.text);
  const ids = new Set<string>();
  arr(out, 'blocks', b.blocks, { max: 50 }).forEach((block, i) => slackBlock(out, `blocks[${i}]`, block, ids));
  return out;
}

const slack = (webhookPath: string): Contract => ({
  webhookPath,
  check: checkSlack,
  accept: () => ({ status: 200, contentType: 'text/plain', body: 'ok' }),
  reject: (req, v) => {
    const code = !isObj(req.body)
      ? 'invalid_payload'
      : v.some((x) => x.startsWith('no_text'))
        ? 'no_text'
        : v.some((x) => x.startsWith('blocks'))
          ? 'invalid_blocks'
          : 'invalid_payload';
    return { status: 400, contentType: 'text/plain', body: code };
  },
  fail: () => ({ status: 500, contentType: 'text/plain', body: 'rollup_error' }),
});

// --- Slack response_url --------------------------------------------------------------------------
// https://api.slack.com/interactivity/handling#message_responses (response_url: JSON POST, text,
// response_type in_channel|ephemeral, replace_original / delete_original booleans; 5 uses in 30 min)
// https://api.slack.com/reference/block-kit/blocks#section (a section's text: at most 3,000 characters)

/** How many messages one response_url takes before Slack answers `used_url`. */
const RESPONSE_URL_USES = 5;

function checkSlackResponse(req: Incoming): string[] {
  const out: string[] = [];
  const b = req.body;
  if (!isObj(b)) return ['invalid_payload: body must be a JSON object'];
  // An app's answer is shown as a message: without blocks, its text is the message's one section.
  str(out, 'text', b.text, { required: true, min: 1, max: b.blocks === undefined ? 3000 : 40000 });
  if (typeof b.text === 'string') mrkdwn(out, 'text', b.text);
  str(out, 'response_type', b.response_type, { oneOf: ['in_channel', 'ephemeral'] });
  for (const k of ['replace_original', 'delete_original'] as const)
    if (b[k] !== undefined && typeof b[k] !== 'boolean')
      out.push(`${k} must be a boolean (got ${JSON.stringify(b[k])})`);
  const ids = new Set<string>();
  arr(out, 'blocks', b.blocks, { max: 50 }).forEach((block, i) => slackBlock(out, `blocks[${i}]`, block, ids));
  return out;
}

const slackResponse = (webhookPath: string): Contract => {
  let uses = 0;
  return {
    webhookPath,
    check: (req) => [
      ...checkSlackResponse(req),
      ...(++uses > RESPONSE_URL_USES ? [`used_url: a response_url takes ${RESPONSE_URL_USES} messages`] : []),
    ],
    accept: () => json(200, { ok: true }),
    reject: (_req, v) =>
      json(v.some((x) => x.startsWith('used_url')) ? 404 : 400, {
        ok: false,
        error: v.some((x) => x.startsWith('used_url'))
          ? 'used_url'
          : v.some((x) => x.startsWith('text is required'))
            ? 'no_text'
            : 'invalid_payload',
      }),
    fail: () => json(500, { ok: false, error: 'internal_error' }),
  };
};

// --- Microsoft Teams (Workflows webhook, Adaptive Card) ------------------------------------------
// https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#send-adaptive-cards-using-an-incoming-webhook
// https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/cards-reference#adaptive-card (Teams renders up to 1.5)
// https://adaptivecards.io/explorer/ ; 28 KB message limit:
// https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#rate-limiting-for-connectors

function cardElement(out: string[], where: string, e: unknown): void {
  if (!isObj(e)) return void out.push(`${where} must be an object`);
  switch (e.type) {
    case 'TextBlock':
      return str(out, `${where}.text`, e.text, { required: true });
    case 'FactSet':
      if (e.facts === undefined) out.push(`${where}.facts is required`);
      arr(out, `${where}.facts`, e.facts).forEach((f, i) => {
        if (!isObj(f)) return void out.push(`${where}.facts[${i}] must be an object`);
        str(out, `${where}.facts[${i}].title`, f.title, { required: true });
        str(out, `${where}.facts[${i}].value`, f.value, { required: true });
      });
      return;
    case 'RichTextBlock':
      // Adaptive Cards 1.2+: inlines are TextRuns or plain strings.
      if (e.inlines === undefined) out.push(`${where}.inlines is required`);
      return arr(out, `${where}.inlines`, e.inlines).forEach((r, i) => {
        if (typeof r === 'string') return;
        if (!isObj(r) || r.type !== 'TextRun')
          return void out.push(`${where}.inlines[${i}] must be a string or a TextRun`);
        str(out, `${where}.inlines[${i}].text`, r.text, { required: true });
      });
    case 'Container':
      return arr(out, `${where}.items`, e.items).forEach((x, i) => cardElement(out, `${where}.items[${i}]`, x));
    case 'ColumnSet':
      return arr(out, `${where}.columns`, e.columns).forEach((c, i) =>
        isObj(c)
          ? arr(out, `${where}.columns[${i}].items`, c.items).forEach((x, j) =>
              cardElement(out, `${where}.columns[${i}].items[${j}]`, x),
            )
          : out.push(`${where}.columns[${i}] must be an object`),
      );
    case 'Image':
      if (!httpUrl(e.url)) out.push(`${where}.url must be an absolute http(s) URL`);
      return;
    default:
      out.push(`${where}.type ${JSON.stringify(e.type)} is not a card element this receiver knows`);
  }
}

function checkTeams(req: Incoming): string[] {
  const out: string[] = [];
  const b = req.body;
  if (Buffer.byteLength(req.raw) > 28 * 1024) out.push(`message is ${Buffer.byteLength(req.raw)} bytes (max 28 KB)`);
  if (!isObj(b)) return [...out, 'body must be a JSON object'];
  str(out, 'type', b.type, { required: true, oneOf: ['message'] });
  if (b.attachments === undefined) out.push('attachments is required');
  arr(out, 'attachments', b.attachments, { min: 1 }).forEach((a, i) => {
    const at = `attachments[${i}]`;
    if (!isObj(a)) return void out.push(`${at} must be an object`);
    str(out, `${at}.contentType`, a.contentType, {
      required: true,
      oneOf: ['application/vnd.microsoft.card.adaptive'],
    });
    const c = a.content;
    if (!isObj(c)) return void out.push(`${at}.content must be an Adaptive Card object`);
    str(out, `${at}.content.type`, c.type, { required: true, oneOf: ['AdaptiveCard'] });
    if (typeof c.version !== 'string' || !/^1\.[0-5]$/.test(c.version))
      out.push(`${at}.content.version must be 1.0 to 1.5 (got ${JSON.stringify(c.version)})`);
    arr(out, `${at}.content.body`, c.body).forEach((e, j) => cardElement(out, `${at}.content.body[${j}]`, e));
    arr(out, `${at}.content.actions`, c.actions).forEach((x, j) => {
      const where = `${at}.content.actions[${j}]`;
      if (!isObj(x)) return void out.push(`${where} must be an object`);
      if (x.type === 'Action.Submit' || x.type === 'Action.Execute')
        return void out.push(`${where}: ${String(x.type)} cannot post back from a webhook card`);
      str(out, `${where}.type`, x.type, {
        required: true,
        oneOf: ['Action.OpenUrl', 'Action.ShowCard', 'Action.ToggleVisibility'],
      });
      if (x.type === 'Action.OpenUrl') {
        str(out, `${where}.title`, x.title, { required: true, min: 1 });
        if (!httpUrl(x.url)) out.push(`${where}.url must be an absolute http(s) URL`);
      }
    });
  });
  return out;
}

const teams = (webhookPath: string): Contract => ({
  webhookPath,
  check: checkTeams,
  accept: () => ({ status: 202 }),
  reject: (_req, v) => json(400, { error: { code: 'InvalidRequestContent', message: v.join('; ') } }),
  fail: () => json(502, { error: { code: 'BadGateway', message: 'The flow could not be triggered.' } }),
});

// --- Discord -------------------------------------------------------------------------------
// https://discord.com/developers/docs/resources/webhook#execute-webhook
// https://discord.com/developers/docs/resources/message#embed-object-embed-limits
// https://discord.com/developers/docs/resources/message#allowed-mentions-object

function checkDiscord(req: Incoming): string[] {
  const out: string[] = [];
  const b = req.body;
  if (!isObj(b)) return ['body must be a JSON object'];
  str(out, 'content', b.content, { max: 2000 });
  str(out, 'username', b.username, { min: 1, max: 80 });
  const embeds = arr(out, 'embeds', b.embeds, { max: 10 });
  const hasContent = typeof b.content === 'string' && b.content.trim() !== '';
  if (
    !hasContent &&
    embeds.length === 0 &&
    b.components === undefined &&
    b.attachments === undefined &&
    b.poll === undefined
  )
    out.push('empty: content, embeds, components, attachments or poll is required');
  let total = 0;
  const count = (v: unknown) => (typeof v === 'string' ? (total += v.length) : 0);
  embeds.forEach((e, i) => {
    const at = `embeds[${i}]`;
    if (!isObj(e)) return void out.push(`${at} must be an object`);
    str(out, `${at}.title`, e.title, { max: 256 });
    str(out, `${at}.description`, e.description, { max: 4096 });
    if (e.url !== undefined && !httpUrl(e.url)) out.push(`${at}.url must be an absolute http(s) URL`);
    if (e.timestamp !== undefined && !isoDate(e.timestamp)) out.push(`${at}.timestamp must be ISO 8601`);
    if (
      e.color !== undefined &&
      !(Number.isInteger(e.color) && (e.color as number) >= 0 && (e.color as number) <= 0xffffff)
    )
      out.push(`${at}.color must be an integer 0..0xFFFFFF`);
    count(e.title);
    count(e.description);
    if (e.footer !== undefined) {
      if (!isObj(e.footer)) out.push(`${at}.footer must be an object`);
      else {
        str(out, `${at}.footer.text`, e.footer.text, { required: true, min: 1, max: 2048 });
        count(e.footer.text);
      }
    }
    if (isObj(e.author)) {
      str(out, `${at}.author.name`, e.author.name, { required: true, max: 256 });
      count(e.author.name);
    }
    arr(out, `${at}.fields`, e.fields, { max: 25 }).forEach((f, j) => {
      if (!isObj(f)) return void out.push(`${at}.fields[${j}] must be an object`);
      str(out, `${at}.fields[${j}].name`, f.name, { required: true, min: 1, max: 256 });
      str(out, `${at}.fields[${j}].value`, f.value, { required: true, min: 1, max: 1024 });
      if (f.inline !== undefined && typeof f.inline !== 'boolean')
        out.push(`${at}.fields[${j}].inline must be a boolean`);
      count(f.name);
      count(f.value);
    });
  });
  if (total > 6000) out.push(`embeds hold ${total} characters (max 6000)`);
  if (b.allowed_mentions !== undefined) {
    if (!isObj(b.allowed_mentions)) out.push('allowed_mentions must be an object');
    else
      arr(out, 'allowed_mentions.parse', b.allowed_mentions.parse).forEach((p, i) =>
        str(out, `allowed_mentions.parse[${i}]`, p, { oneOf: ['roles', 'users', 'everyone'] }),
      );
  }
  return out;
}

const discord = (webhookPath: string): Contract => ({
  webhookPath,
  check: checkDiscord,
  accept: () => ({ status: 204 }),
  reject: (_req, v) =>
    v.some((x) => x.startsWith('empty'))
      ? json(400, { message: 'Cannot send an empty message', code: 50006 })
      : json(400, { message: 'Invalid Form Body', code: 50035, errors: v }),
  fail: () => json(500, { message: '500: Internal Server Error', code: 0 }),
});

// --- PagerDuty Events API v2 -------------------------------------------------------------------
// https://developer.pagerduty.com/api-reference/368ae3d938c9e-send-an-event-to-pager-duty
// https://developer.pagerduty.com/docs/send-alert-event (fields, 512 KB, responses)

function checkPagerDuty(req: Incoming): string[] {
  const out: string[] = [];
  if (req.pathname !== '/v2/enqueue') out.push(`path must be /v2/enqueue (got ${req.pathname})`);
  if (Buffer.byteLength(req.raw) > 512 * 1024) out.push('event is larger than 512 KB');
  const b = req.body;
  if (!isObj(b)) return [...out, 'body must be a JSON object'];
  if (typeof b.routing_key !== 'string' || b.routing_key.length !== 32)
    out.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  str(out, 'event_action', b.event_action, { required: true, oneOf: ['trigger', 'acknowledge', 'resolve'] });
  str(out, 'dedup_key', b.dedup_key, {
    max: 255,
    required: b.event_action === 'acknowledge' || b.event_action === 'resolve',
  });
  if (b.event_action !== 'trigger') return out;
  const p = b.payload;
  if (!isObj(p)) return [...out, "'payload' is missing or not an object"];
  str(out, 'payload.summary', p.summary, { required: true, min: 1, max: 1024 });
  str(out, 'payload.source', p.source, { required: true, min: 1 });
  str(out, 'payload.severity', p.severity, { required: true, oneOf: ['critical', 'error', 'warning', 'info'] });
  if (p.timestamp !== undefined && !isoDate(p.timestamp)) out.push('payload.timestamp must be ISO 8601');
  for (const k of ['component', 'group', 'class'] as const) str(out, `payload.${k}`, p[k]);
  if (p.custom_details !== undefined && !isObj(p.custom_details)) out.push('payload.custom_details must be an object');
  arr(out, 'links', b.links).forEach((l, i) =>
    isObj(l)
      ? (str(out, `links[${i}].href`, l.href, { required: true }), str(out, `links[${i}].text`, l.text))
      : out.push(`links[${i}] must be an object`),
  );
  arr(out, 'images', b.images).forEach((l, i) =>
    isObj(l) ? str(out, `images[${i}].src`, l.src, { required: true }) : out.push(`images[${i}] must be an object`),
  );
  str(out, 'client', b.client);
  str(out, 'client_url', b.client_url);
  return out;
}

const pagerduty = (): Contract => ({
  webhookPath: '',
  check: checkPagerDuty,
  accept: (req) => {
    const key =
      isObj(req.body) && typeof req.body.dedup_key === 'string' ? req.body.dedup_key : randomBytes(16).toString('hex');
    return json(202, { status: 'success', message: 'Event processed', dedup_key: key });
  },
  reject: (_req, v) => json(400, { status: 'invalid event', message: 'Event object is invalid', errors: v }),
  fail: () => json(500, { status: 'error', message: 'Internal Server Error' }),
});

// --- Opsgenie Alert API v2 -------------------------------------------------------------------
// https://docs.opsgenie.com/docs/alert-api#create-alert (limits), #acknowledge-alert, #close-alert
// https://docs.opsgenie.com/docs/authentication (Authorization: GenieKey <key>)
// https://docs.opsgenie.com/docs/response (202 result/took/requestId; 401, 422)

function opsgenieAuth(req: Incoming, apiKey: string | undefined): string | null {
  const m = /^GenieKey (\S+)$/.exec(String(req.headers.authorization ?? ''));
  if (!m) return 'authorization: expected "GenieKey <api key>"';
  if (
    apiKey !== undefined
      ? m[1] !== apiKey
      : !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(m[1] ?? '')
  )
    return 'authorization: unknown API key';
  return null;
}

function checkOpsgenie(req: Incoming, apiKey: string | undefined): string[] {
  const out: string[] = [];
  const auth = opsgenieAuth(req, apiKey);
  if (auth) out.push(auth);
  const b = req.body;
  if (!isObj(b)) return [...out, 'body must be a JSON object'];
  const action = /^\/v2\/alerts\/([^/]+)\/(acknowledge|close)$/.exec(req.pathname);
  if (action) {
    if (req.query.get('identifierType') !== 'alias')
      out.push(`identifierType must be alias (got ${req.query.get('identifierType')})`);
    if (decodeURIComponent(action[1] ?? '').length > 512) out.push('alias identifier is longer than 512 characters');
    str(out, 'user', b.user, { max: 100 });
    str(out, 'source', b.source, { max: 100 });
    str(out, 'note', b.note, { max: 25000 });
    return out;
  }
  if (req.pathname !== '/v2/alerts')
    return [...out, `path ${req.pathname} is not an alert create, acknowledge or close`];
  str(out, 'message', typeof b.message === 'string' ? b.message.trim() : b.message, {
    required: true,
    min: 1,
    max: 130,
  });
  str(out, 'alias', b.alias, { max: 512 });
  str(out, 'description', b.description, { max: 15000 });
  str(out, 'entity', b.entity, { max: 512 });
  str(out, 'source', b.source, { max: 100 });
  str(out, 'user', b.user, { max: 100 });
  str(out, 'note', b.note, { max: 25000 });
  str(out, 'priority', b.priority, { oneOf: ['P1', 'P2', 'P3', 'P4', 'P5'] });
  arr(out, 'tags', b.tags, { max: 20 }).forEach((t, i) => str(out, `tags[${i}]`, t, { required: true, max: 50 }));
  arr(out, 'actions', b.actions, { max: 10 }).forEach((t, i) =>
    str(out, `actions[${i}]`, t, { required: true, max: 50 }),
  );
  for (const k of ['responders', 'visibleTo'] as const) {
    arr(out, k, b[k], { max: 50 }).forEach((r, i) =>
      isObj(r)
        ? str(out, `${k}[${i}].type`, r.type, { required: true, oneOf: ['team', 'user', 'escalation', 'schedule'] })
        : out.push(`${k}[${i}] must be an object`),
    );
  }
  if (b.details !== undefined) {
    if (!isObj(b.details)) out.push('details must be an object of strings');
    else {
      const entries = Object.entries(b.details);
      if (entries.some(([, v]) => typeof v !== 'string')) out.push('details values must be strings');
      const size = entries.reduce((n, [k, v]) => n + k.length + String(v).length, 0);
      if (size > 8000) out.push(`details hold ${size} characters (max 8000)`);
    }
  }
  return out;
}

const opsgenie = (apiKey: string | undefined): Contract => {
  const meta = () => ({ took: Number((Math.random() / 50).toFixed(3)), requestId: randomUUID() });
  return {
    webhookPath: '',
    check: (req) => checkOpsgenie(req, apiKey),
    accept: () => json(202, { result: 'Request will be processed', ...meta() }),
    reject: (_req, v) =>
      v.some((x) => x.startsWith('authorization'))
        ? json(401, { message: 'Could not authenticate', ...meta() })
        : json(422, { message: v.join('; '), ...meta() }),
    fail: () => json(503, { message: 'Service Unavailable', ...meta() }),
  };
};

// --- The server --------------------------------------------------------------------------------

function contractFor(kind: ReceiverKind, options: VendorReceiverOptions): Contract {
  const token = randomBytes(12).toString('hex');
  switch (kind) {
    case 'slack':
      return slack(`/services/T0VIGIL01/B0VIGIL01/${token}`);
    case 'slack_response_url':
      return slackResponse(`/actions/T0VIGIL01/${Date.now()}/${token}`);
    case 'teams':
      return teams(
        `/workflows/${token}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${token}`,
      );
    case 'discord':
      return discord(`/api/webhooks/1234567890123456789/${token}`);
    case 'pagerduty':
      return pagerduty();
    case 'opsgenie':
      return opsgenie(options.apiKey);
  }
}

function unknownPath(kind: ReceiverKind): Answer {
  if (kind === 'slack_response_url') return json(404, { ok: false, error: 'expired_url' });
  if (kind === 'slack') return { status: 404, contentType: 'text/plain', body: 'no_service' };
  if (kind === 'discord') return json(404, { message: 'Unknown Webhook', code: 10015 });
  return json(404, { message: 'Not Found' });
}

export async function startVendorReceiver(
  kind: ReceiverKind,
  options: VendorReceiverOptions = {},
): Promise<VendorReceiver> {
  const contract = contractFor(kind, options);
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();

  const server = http.createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (c: Buffer) => chunks.push(c));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const parsed = new URL(incoming.url ?? '/', 'http://receiver');
      let body: unknown = raw;
      const violations: string[] = [];
      try {
        body = JSON.parse(raw);
      } catch {
        violations.push('body is not JSON');
      }
      const req: Incoming = {
        method: incoming.method ?? '',
        path: incoming.url ?? '/',
        pathname: parsed.pathname,
        query: parsed.searchParams,
        headers: incoming.headers,
        raw,
        body,
      };
      if (req.method !== 'POST') violations.push(`method must be POST (got ${req.method})`);
      const type = String(req.headers['content-type'] ?? '');
      if (!/^application\/json(\s*;|$)/i.test(type))
        violations.push(`content-type must be application/json (got ${JSON.stringify(type)})`);
      const wrongPath = contract.webhookPath !== '' && req.path !== contract.webhookPath;
      if (wrongPath) violations.push(`path ${req.path} is not the webhook's`);
      violations.push(...contract.check(req));

      const failing = requests.length < (options.failFirst ?? 0);
      const answer = wrongPath
        ? unknownPath(kind)
        : failing
          ? contract.fail()
          : violations.length > 0
            ? contract.reject(req, violations)
            : contract.accept(req);
      requests.push({
        path: req.path,
        method: req.method,
        headers: req.headers,
        body,
        violations,
        status: answer.status,
        at: Date.now(),
      });
      for (const wake of waiters) wake();
      setTimeout(() => {
        res.writeHead(answer.status, answer.contentType ? { 'content-type': answer.contentType } : {});
        res.end(answer.body ?? '');
      }, options.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    kind,
    url: base + contract.webhookPath,
    requests,
    violations: () => requests.flatMap((r, i) => r.violations.map((v) => `#${i} ${r.path}: ${v}`)),
    waitFor: (n, timeoutMs = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < n) return;
          cleanup();
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `${kind} receiver: expected ${n} request(s) within ${timeoutMs} ms, got ${requests.length}: ${requests.map((r) => `${r.path} → ${r.status}`).join(', ')}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
