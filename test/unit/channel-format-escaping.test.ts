import type { AlertAction, AlertMessage } from '../../src/domain/alerting/alert-message';
import { channelRequest, emailMessage, type VendorChannelType } from '../../src/domain/alerting/channel-formats';

/**
 * Names, reasons and titles come from the people who configure Vigil and from the systems it
 * probes, and land in front of on-call staff. Whatever markup they hold must show as the text it
 * is, in every channel format: no link or mention but Vigil's own survives, and the text stays
 * readable. Each format's body is read the way its vendor renders it (see `surfaces`).
 */
const ALERT_ID = '0b7e6c1e-5a8f-4f43-9a57-2f7cbb1d9e10';
const LINKS = {
  alert: `https://vigil.example.com/console/alerts/${ALERT_ID}`,
  acknowledge: `https://vigil.example.com/v1/alert-actions/ack.token?x=1&y=2`,
  resolve: `https://vigil.example.com/v1/alert-actions/resolve.token`,
};
const VIGIL_LINKS = new Set(Object.values(LINKS));

/** The hostile texts, each put into every user-controlled field of the message. */
const HOSTILE: Array<[string, string]> = [
  ['a markdown link', '[Acknowledge here](https://evil.test/ack)'],
  ['a markdown image', '![status](https://evil.test/pixel.png)'],
  ['a reference-style link', 'see [the runbook][1]\n\n[1]: https://evil.test/runbook'],
  ['an angle-bracket link', '<https://evil.test/login>'],
  ['a Slack link', '<https://evil.test/login|Open alert>'],
  ['Slack mentions', '<!channel> <!here> <@U024BE7LH> <!subteam^SAZ94GDB8|oncall>'],
  ['Discord mentions', '@everyone @here <@80351110224678912> <@&165511591545143296> <#1234567890>'],
  ['a Teams mention', '<at>Everyone</at>'],
  [
    'HTML',
    '<a href="https://evil.test/x">Open alert</a><img src=x onerror="alert(1)"><script>alert(1)</script><b>bold</b>',
  ],
  ['backticks', '`inline` and ```block```'],
  ['asterisks and underscores', '**bold** *em* _em_ __under__ ~~gone~~ ||spoiler||'],
  ['line breaks and block markup', 'line one\r\n# Heading\n> quote\n- item\n1. item\u2028end'],
  ['entities', '&lt;b&gt; &amp; &#x3C;script&#x3E; &'],
  ['a bare URL', 'see https://evil.test/docs for details'],
  ['very long text ending in a link', `${'checkout-'.repeat(2500)} [Acknowledge](https://evil.test/end)`],
];

type Field = { name: string; action: AlertAction; set: (text: string, msg: AlertMessage) => Partial<AlertMessage> };
/** Everything in the message model a person or a probed system can write (see message-text.ts). */
const FIELDS: Field[] = [
  { name: 'title', action: 'trigger', set: (t) => ({ title: t }) },
  { name: 'summary', action: 'trigger', set: (t) => ({ summary: t }) },
  { name: 'service name', action: 'trigger', set: (t, m) => ({ subject: { ...m.subject, name: t } }) },
  { name: 'metric name', action: 'trigger', set: (t, m) => ({ metric: { ...m.metric!, name: t } }) },
  { name: 'metric unit', action: 'trigger', set: (t, m) => ({ metric: { ...m.metric!, unit: t } }) },
  { name: 'reason detail', action: 'trigger', set: (t, m) => ({ metric: { ...m.metric!, reason: t } }) },
  { name: 'organization name', action: 'trigger', set: (t, m) => ({ organization: { ...m.organization, name: t } }) },
  { name: 'acknowledging actor', action: 'acknowledge', set: (t) => ({ actor: t }) },
  { name: 'resolving actor', action: 'resolve', set: (t) => ({ actor: t }) },
];

function message(action: AlertAction, over: Partial<AlertMessage> = {}): AlertMessage {
  const open = action === 'trigger' || action === 'escalate' || action === 'test';
  return {
    action,
    alertId: ALERT_ID,
    dedupKey: `vigil-${ALERT_ID}`,
    title: 'checkout is unhealthy',
    summary: 'p95 latency 1834 ms is above 1500 ms',
    severity: 'critical',
    status: 'unhealthy',
    subject: { kind: 'service', id: 'svc_1', name: 'checkout' },
    metric: { name: 'p95 latency', value: 1834.25, unit: 'ms', reason: 'above 1500 ms' },
    level: 1,
    organization: { id: 'org_1', name: 'Acme' },
    occurredAt: '2026-03-02T13:08:45.828Z',
    actor: open ? null : 'dana@acme.example',
    links: {
      alert: LINKS.alert,
      acknowledge: open ? LINKS.acknowledge : null,
      resolve: action === 'resolve' ? null : LINKS.resolve,
    },
    ...over,
  };
}

/**
 * How a vendor renders one text: `plain` shows it as written (a visible URL may be auto-linked,
 * but then the link is the text itself); `slack` is mrkdwn (`<…>` links, mentions and date
 * tokens; & < > escaped as entities); `discord` is Discord markdown (masked links, `<…>` links
 * and mentions, @everyone/@here; a backslash escapes the next character); `teams` is the Adaptive
 * Card markdown subset in TextBlock and Fact (links; Microsoft documents no reliable escape, so
 * link syntax counts as a link even behind a backslash); `html` is HTML.
 */
type Syntax = 'plain' | 'slack' | 'discord' | 'teams' | 'html';
interface Surface {
  where: string;
  syntax: Syntax;
  text: string;
}
interface Rendered {
  surfaces: Surface[];
  /** URLs the format itself makes clickable (buttons, actions, link lists). */
  buttons: string[];
  /** Mentions the format switches on or off outside the text (Discord allowed_mentions, Teams entities). */
  mentionSettings: unknown[];
}

const FORMATS = ['slack', 'teams', 'discord', 'pagerduty', 'opsgenie', 'email'] as const;
type Format = (typeof FORMATS)[number];

function render(format: Format, msg: AlertMessage): Rendered {
  if (format === 'email') {
    const email = emailMessage(msg);
    return {
      surfaces: [
        { where: 'subject', syntax: 'plain', text: email.subject },
        { where: 'text', syntax: 'plain', text: email.text },
        { where: 'html', syntax: 'html', text: email.html },
      ],
      buttons: [],
      mentionSettings: [],
    };
  }
  const body = JSON.parse(
    channelRequest(
      format as VendorChannelType,
      { url: 'https://hooks.example.com/x', routing_key: 'R'.repeat(32), api_key: 'key' },
      msg,
    ).body,
  ) as Record<string, any>;
  const out: Rendered = { surfaces: [], buttons: [], mentionSettings: [] };
  const add = (where: string, syntax: Syntax, text: unknown) => {
    if (text === undefined || text === null) return;
    expect({ where, type: typeof text }).toEqual({ where, type: 'string' });
    out.surfaces.push({ where, syntax, text: text as string });
  };
  switch (format) {
    case 'slack':
      add('text', 'slack', body.text);
      for (const [i, block] of (body.blocks as Array<Record<string, any>>).entries()) {
        const textObject = (where: string, t: { type: string; text: string } | undefined) =>
          t && add(where, t.type === 'mrkdwn' ? 'slack' : 'plain', t.text);
        textObject(`blocks[${i}].text`, block.text);
        for (const [j, f] of (block.fields ?? []).entries()) textObject(`blocks[${i}].fields[${j}]`, f);
        for (const [j, e] of (block.elements ?? []).entries()) {
          if (e.type === 'button') {
            textObject(`blocks[${i}].elements[${j}].text`, e.text);
            out.buttons.push(e.url);
          } else textObject(`blocks[${i}].elements[${j}]`, e);
        }
      }
      break;
    case 'teams': {
      const card = body.attachments[0].content as Record<string, any>;
      out.mentionSettings.push(card.msteams?.entities);
      const element = (where: string, e: Record<string, any>): void => {
        switch (e.type) {
          case 'TextBlock':
            return add(`${where}.text`, 'teams', e.text);
          case 'FactSet':
            return e.facts.forEach((f: Record<string, string>, i: number) => {
              add(`${where}.facts[${i}].title`, 'teams', f.title);
              add(`${where}.facts[${i}].value`, 'teams', f.value);
            });
          case 'RichTextBlock':
            // TextRun has no markdown (adaptivecards.io/explorer/TextRun.html); a bare string is a TextRun.
            return e.inlines.forEach((r: string | Record<string, string>, i: number) =>
              add(`${where}.inlines[${i}]`, 'plain', typeof r === 'string' ? r : r.text),
            );
          case 'ColumnSet':
            return e.columns.forEach((c: Record<string, any>, i: number) =>
              c.items.forEach((x: Record<string, any>, j: number) => element(`${where}.columns[${i}].items[${j}]`, x)),
            );
          case 'Container':
            return e.items.forEach((x: Record<string, any>, j: number) => element(`${where}.items[${j}]`, x));
          default:
            throw new Error(`${where}: a card element this test cannot read: ${String(e.type)}`);
        }
      };
      (card.body as Array<Record<string, any>>).forEach((e, i) => element(`body[${i}]`, e));
      for (const a of card.actions ?? []) {
        expect(a.type).toBe('Action.OpenUrl');
        add('action title', 'plain', a.title);
        out.buttons.push(a.url);
      }
      break;
    }
    case 'discord': {
      out.mentionSettings.push(body.allowed_mentions);
      add('content', 'discord', body.content);
      for (const e of body.embeds as Array<Record<string, any>>) {
        // Embed titles render markdown too; footers do not.
        add('embed.title', 'discord', e.title);
        add('embed.description', 'discord', e.description);
        for (const [i, f] of (e.fields ?? []).entries()) {
          add(`embed.fields[${i}].name`, 'discord', f.name);
          add(`embed.fields[${i}].value`, 'discord', f.value);
        }
        add('embed.footer', 'plain', e.footer?.text);
        add('embed.author', 'discord', e.author?.name);
        if (e.url) out.buttons.push(e.url);
      }
      break;
    }
    case 'pagerduty': {
      // PagerDuty shows the payload as text; its links are the `links` list and client_url.
      const walk = (where: string, v: unknown): void => {
        if (typeof v === 'string') add(where, 'plain', v);
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(`${where}.${k}`, x);
      };
      walk('payload', body.payload);
      for (const l of body.links ?? []) {
        add('links.text', 'plain', l.text);
        out.buttons.push(l.href);
      }
      if (body.client_url) out.buttons.push(body.client_url);
      break;
    }
    case 'opsgenie':
      // Opsgenie documents HTML formatting for the message and description; notes are shown the same way.
      add('message', 'html', body.message);
      add('description', 'html', body.description);
      add('note', 'html', body.note);
      add('entity', 'plain', body.entity);
      add('user', 'plain', body.user);
      for (const [k, v] of Object.entries((body.details ?? {}) as Record<string, string>)) {
        if (k.endsWith('_url')) out.buttons.push(v);
        else add(`details.${k}`, 'plain', v);
      }
      for (const t of body.tags ?? []) add('tag', 'plain', t);
      break;
  }
  return out;
}

const SLACK_DATE = /^!date\^\d+\^\{date_short_pretty\} at \{time_secs\}\|([^<>|]*)$/;
const EMAIL_TAGS = new Set([
  '!doctype',
  'html',
  'head',
  'meta',
  'title',
  'body',
  'div',
  'h1',
  'p',
  'table',
  'tr',
  'td',
  'a',
]);
const decodeHtml = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&(lt|gt|quot|amp);/g, (_, n: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[n] as string);
const decodeSlack = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Discord text with every backslash-escaped character replaced by U+FFFC (so patterns skip it), and its display. */
function discordUnescaped(text: string): { live: string; shown: string } {
  let live = '';
  let shown = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && /[!-/:-@[-`{-~]/.test(next)) {
      live += '\uFFFC';
      shown += next;
      i++;
    } else {
      live += c;
      shown += c;
    }
  }
  return { live, shown };
}

/** The links and mentions the vendor would render in one text, and the text as a reader sees it. */
function read(surface: Surface, format: Format): { links: string[]; mentions: string[]; shown: string } {
  const { text, syntax } = surface;
  const links: string[] = [];
  const mentions: string[] = [];
  switch (syntax) {
    case 'plain':
      return { links, mentions, shown: text };
    case 'slack': {
      let shown = text;
      for (const [token, inner] of text.matchAll(/<([^<>]*)>/g) as IterableIterator<[string, string]>) {
        const date = SLACK_DATE.exec(inner);
        if (date) {
          shown = shown.replace(token, date[1] as string);
          continue;
        }
        if (/^[!@#]/.test(inner)) mentions.push(token);
        else links.push(inner.split('|')[0] as string);
      }
      return { links, mentions, shown: decodeSlack(shown) };
    }
    case 'discord': {
      const { live, shown } = discordUnescaped(text);
      for (const m of live.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)/g)) links.push(m[1] as string);
      for (const m of live.matchAll(/<(https?:[^>\s]+)>/g)) links.push(m[1] as string);
      for (const m of live.matchAll(/<(?:@[!&]?|#)\d+>|@everyone|@here/g)) mentions.push(m[0]);
      return { links, mentions, shown };
    }
    case 'teams':
      for (const m of text.matchAll(/\[[^\]]*\]\s*\(\s*<?([^)\s>]+)/g)) links.push(m[1] as string);
      for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) links.push(m[1] as string);
      for (const m of text.matchAll(/<(https?:[^>\s]+)>/g)) links.push(m[1] as string);
      for (const m of text.matchAll(/<at>/gi)) mentions.push(m[0]);
      return { links, mentions, shown: text };
    case 'html': {
      const allowed = format === 'email' ? EMAIL_TAGS : new Set<string>();
      for (const m of text.matchAll(/<\s*\/?\s*([!a-z][^\s/>]*)([^>]*)>/gi)) {
        const name = (m[1] as string).toLowerCase();
        if (!allowed.has(name)) links.push(`<${name}> element`);
        for (const a of (m[2] as string).matchAll(/\b(?:href|src|action|formaction)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi))
          links.push(decodeHtml((a[1] as string).replace(/^["']|["']$/g, '')));
        if (/\bon[a-z]+\s*=/i.test(m[2] as string)) links.push(`<${name}> event handler`);
      }
      const shown = decodeHtml(text.replace(/<title>[\s\S]*?<\/title>/i, '').replace(/<[^>]*>/g, ''));
      return { links, mentions, shown };
    }
  }
}

const oneLine = (s: string) => s.replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ').trim();

/** The whole text is shown, or as much of it as fits, cut with an ellipsis and unchanged before the cut. */
function showsReadably(shown: string, text: string): boolean {
  if (shown.includes(text)) return true;
  const head = text.slice(0, 24);
  for (let at = shown.indexOf(head); at !== -1; at = shown.indexOf(head, at + 1)) {
    let i = 0;
    while (i < text.length && shown[at + i] === text[i]) i++;
    if (shown[at + i] === '…' && i >= head.length) return true;
  }
  return false;
}

describe.each(FORMATS)('%s messages keep hostile text as text', (format) => {
  it.each(HOSTILE)('%s, in every user-controlled field', (_case, hostile) => {
    const problems: string[] = [];
    for (const field of FIELDS) {
      const base = message(field.action);
      const msg = { ...base, ...field.set(hostile, base) };
      const rendered = render(format, msg);
      for (const url of rendered.buttons) if (!VIGIL_LINKS.has(url)) problems.push(`${field.name}: a button to ${url}`);
      for (const s of rendered.mentionSettings)
        if (s !== undefined && JSON.stringify(s) !== JSON.stringify({ parse: [] }))
          problems.push(`${field.name}: mentions switched on: ${JSON.stringify(s)}`);
      const shown: string[] = [];
      for (const surface of rendered.surfaces) {
        const r = read(surface, format);
        for (const link of r.links)
          if (!VIGIL_LINKS.has(link)) problems.push(`${field.name} → ${surface.where}: a link to ${link}`);
        for (const m of r.mentions) problems.push(`${field.name} → ${surface.where}: a mention ${m}`);
        shown.push(r.shown);
      }
      // PagerDuty's acknowledge and resolve carry no text at all; everything else must show the field.
      if (rendered.surfaces.length > 0 && !showsReadably(shown.join('\n'), oneLine(hostile)))
        problems.push(`${field.name}: not shown as written`);
    }
    expect(problems).toEqual([]);
  });

  it("keeps Vigil's own links clickable", () => {
    const rendered = render(format, message('trigger'));
    const links = new Set(rendered.buttons);
    for (const s of rendered.surfaces) for (const l of read(s, format).links) links.add(l);
    expect([...links].filter((l) => VIGIL_LINKS.has(l)).sort()).toEqual([...VIGIL_LINKS].sort());
  });
});
