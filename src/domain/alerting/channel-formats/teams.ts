/**
 * Microsoft Teams through a Workflows (Power Automate) "When a Teams webhook request is received"
 * trigger, carrying one Adaptive Card.
 * https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#send-adaptive-cards-using-an-incoming-webhook
 * https://adaptivecards.io/explorer/ (RichTextBlock, TextRun, ColumnSet, Action.OpenUrl)
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import { facts, fit, headline, isoSeconds, JSON_HEADERS, linkButtons, oneLine, type Tone, tone } from './message-text';

/** Teams refuses messages over 28 KB; these caps keep a card well inside it. */
export const TEAMS_LIMITS = {
  messageBytes: 28 * 1024,
  headline: 500,
  summary: 2000,
  factValue: 1000,
  url: 2048,
} as const;

const COLOR: Record<Tone, string> = {
  danger: 'Attention',
  warning: 'Warning',
  info: 'Accent',
  good: 'Good',
  acknowledged: 'Accent',
  test: 'Default',
};

/**
 * Text shown exactly as written. TextBlock and Fact titles and values read a markdown subset
 * (links among it) and Adaptive Cards document no escape that every client honours, so nothing a
 * person or a probed system wrote goes there: a TextRun has no markdown at all.
 * https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/cards-format
 * https://adaptivecards.io/explorer/TextRun.html
 */
function literal(text: string, style: Record<string, string> = {}): Record<string, unknown> {
  return { type: 'RichTextBlock', inlines: [{ type: 'TextRun', text, ...style }] };
}

/** One label/value row (a FactSet would read the value as markdown). */
function row(label: string, value: Record<string, unknown>, first: boolean): Record<string, unknown> {
  return {
    type: 'ColumnSet',
    ...(first ? {} : { spacing: 'Small' }),
    columns: [
      { type: 'Column', width: 1, items: [literal(label, { weight: 'Bolder' })] },
      { type: 'Column', width: 3, items: [value] },
    ],
  };
}

export function adaptiveCard(msg: AlertMessage): Record<string, unknown> {
  const at = isoSeconds(msg.occurredAt);
  // Teams renders DATE/TIME in each reader's own time zone; only Vigil's own text goes into this TextBlock.
  const occurred = at
    ? { type: 'TextBlock', text: `{{DATE(${at}, SHORT)}} {{TIME(${at})}}`, wrap: true }
    : literal(fit(msg.occurredAt, 100));
  const rows = facts(msg).map((f) => ({ label: f.label, value: literal(fit(f.value, TEAMS_LIMITS.factValue)) }));
  rows.push({ label: 'Occurred', value: occurred });
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body: [
      literal(fit(headline(msg), TEAMS_LIMITS.headline), { size: 'Large', weight: 'Bolder', color: COLOR[tone(msg)] }),
      literal(fit(oneLine(msg.summary) || msg.title, TEAMS_LIMITS.summary)),
      { type: 'Container', spacing: 'Medium', items: rows.map((r, i) => row(r.label, r.value, i === 0)) },
    ],
    actions: linkButtons(msg)
      .filter((b) => b.url.length <= TEAMS_LIMITS.url)
      .map((b) => ({
        type: 'Action.OpenUrl',
        title: b.label,
        url: b.url,
        ...(b.kind === 'acknowledge' ? { style: 'positive' } : {}),
      })),
  };
}

export function teamsRequest(webhookUrl: string, msg: AlertMessage): ChannelRequest {
  const body = {
    type: 'message',
    attachments: [
      { contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: adaptiveCard(msg) },
    ],
  };
  return { method: 'POST', url: webhookUrl, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}
