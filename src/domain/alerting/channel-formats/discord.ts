/**
 * Discord webhook with one embed.
 * https://discord.com/developers/docs/resources/webhook#execute-webhook
 * https://discord.com/developers/docs/resources/message#embed-object-embed-limits
 */
import type { AlertMessage, ChannelRequest } from '../alert-message';
import { facts, fit, headline, JSON_HEADERS, linkButtons, oneLine, TONE_RGB, tone } from './message-text';

export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** title + description + field names and values + footer + author name, over all embeds. */
  embedTotal: 6000,
} as const;

/** Backslash-escapes Discord markdown (and mention/link syntax) so names show as written. */
export function escapeDiscord(text: string): string {
  return text.replace(/[\\*_~`|>#<@[\]-]/g, (c) => `\\${c}`);
}

const INLINE = new Set(['Status', 'Severity', 'Escalation level']);
// Parentheses and spaces would end a masked link early.
const linkTarget = (url: string) =>
  url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

export function discordEmbed(msg: AlertMessage): Record<string, unknown> {
  // Titles render markdown too (not footers, which show text as written).
  const title = fit(headline(msg), DISCORD_LIMITS.title, escapeDiscord);
  const footer = fit(`Vigil · ${oneLine(msg.organization.name)}`, 256);
  const links: string[] = [];
  for (const b of linkButtons(msg)) {
    const link = `[${b.label}](${linkTarget(b.url)})`;
    if ([...links, link].join(' · ').length <= 1500) links.push(link);
  }
  const linkLine = links.join(' · ');
  const summary = oneLine(msg.summary) || msg.title;
  const rows = facts(msg).slice(0, DISCORD_LIMITS.fields);

  // Share what is left of the 6,000 characters between the summary and the field values:
  // the largest common cap that fits (short texts keep their whole length).
  const fixed =
    title.length + footer.length + (linkLine ? linkLine.length + 2 : 0) + rows.reduce((n, f) => n + f.label.length, 0);
  const wants = [
    Math.min(escapeDiscord(summary).length, DISCORD_LIMITS.description - (linkLine ? linkLine.length + 2 : 0)),
    ...rows.map((f) => Math.min(escapeDiscord(f.value).length, DISCORD_LIMITS.fieldValue)),
  ];
  const cap = largestCap(wants, DISCORD_LIMITS.embedTotal - fixed);
  const description = [fit(summary, Math.min(wants[0] ?? 0, cap), escapeDiscord), linkLine]
    .filter(Boolean)
    .join('\n\n');

  const embed: Record<string, unknown> = {
    title,
    description,
    color: TONE_RGB[tone(msg)],
    fields: rows.map((f, i) => ({
      name: fit(f.label, DISCORD_LIMITS.fieldName),
      value: fit(f.value, Math.max(1, Math.min(wants[i + 1] ?? 0, cap)), escapeDiscord),
      inline: INLINE.has(f.label),
    })),
    footer: { text: footer },
  };
  const first = linkButtons(msg)[0];
  if (first?.kind === 'open') embed.url = first.url;
  const at = Date.parse(msg.occurredAt);
  if (!Number.isNaN(at)) embed.timestamp = new Date(at).toISOString();
  return embed;
}

/** The largest c with sum(min(want, c)) <= budget (at least 1: an empty field value is refused). */
function largestCap(wants: number[], budget: number): number {
  let lo = 1;
  let hi = Math.max(1, ...wants);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (wants.reduce((n, w) => n + Math.min(w, mid), 0) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function discordRequest(webhookUrl: string, msg: AlertMessage): ChannelRequest {
  const body = {
    content: `**${fit(headline(msg), DISCORD_LIMITS.content - 4, escapeDiscord)}**`,
    embeds: [discordEmbed(msg)],
    allowed_mentions: { parse: [] },
  };
  return { method: 'POST', url: webhookUrl, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}
