/**
 * Microsoft Teams through a Workflows (Power Automate) "When a Teams webhook request is received"
 * trigger, carrying one Adaptive Card.
 * https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#send-adaptive-cards-using-an-incoming-webhook
 * https://adaptivecards.io/explorer/ (TextBlock, FactSet, Action.OpenUrl)
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import { facts, fit, headline, isoSeconds, JSON_HEADERS, linkButtons, oneLine, type Tone, tone } from './message-text';

/** Teams refuses messages over 28 KB; these caps keep a card well inside it. */
export const TEAMS_LIMITS = { messageBytes: 28 * 1024, headline: 500, summary: 2000, factValue: 1000, url: 2048 } as const;

const COLOR: Record<Tone, string> = {
  danger: 'Attention',
  warning: 'Warning',
  info: 'Accent',
  good: 'Good',
  acknowledged: 'Accent',
  test: 'Default',
};

export function adaptiveCard(msg: AlertMessage): Record<string, unknown> {
  const at = isoSeconds(msg.occurredAt);
  // Teams renders DATE/TIME in each reader's own time zone.
  const occurred = at ? `{{DATE(${at}, SHORT)}} {{TIME(${at})}}` : fit(msg.occurredAt, 100);
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body: [
      { type: 'TextBlock', text: fit(headline(msg), TEAMS_LIMITS.headline), size: 'Large', weight: 'Bolder', color: COLOR[tone(msg)], wrap: true },
      { type: 'TextBlock', text: fit(oneLine(msg.summary) || msg.title, TEAMS_LIMITS.summary), wrap: true },
      {
        type: 'FactSet',
        facts: [...facts(msg).map((f) => ({ title: f.label, value: fit(f.value, TEAMS_LIMITS.factValue) })), { title: 'Occurred', value: occurred }],
      },
    ],
    actions: linkButtons(msg)
      .filter((b) => b.url.length <= TEAMS_LIMITS.url)
      .map((b) => ({ type: 'Action.OpenUrl', title: b.label, url: b.url, ...(b.kind === 'acknowledge' ? { style: 'positive' } : {}) })),
  };
}

export function teamsRequest(webhookUrl: string, msg: AlertMessage): ChannelRequest {
  const body = {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: adaptiveCard(msg) }],
  };
  return { method: 'POST', url: webhookUrl, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}
