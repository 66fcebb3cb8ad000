import { StatusPageSchema } from '../../db/entities';
import { type StatusSite, pageBaseUrl } from '../../domain/status-page/site';
import { notificationEmail } from '../../render/emails';
import type { OrgContext } from '../shared/context';
import { pageServiceIds } from '../shared/page-coverage';
import { getIncident } from './incidents';

export interface SubscriberPreview {
  /** The page whose subscribers the preview is written for (its title, zone and links). */
  page: { title: string; subdomain: string };
  /** Every live page whose subscribers the publish would email (by the services they show). */
  pageTitles: string[];
  subject: string;
  text: string;
}

/**
 * The email a publish would send subscribers now, rendered by the subscriber email renderer
 * itself, for the organization's oldest live page that shows an affected service (any page when
 * the incident names none). Null: no page shows it, so no subscriber would be emailed. The
 * unsubscribe link is a placeholder: each subscriber gets their own.
 */
export async function subscriberPreview(
  ctx: OrgContext,
  site: StatusSite,
  incidentId: string,
): Promise<SubscriberPreview | null> {
  const incident = await getIncident(ctx, incidentId);
  const pages = await ctx.em.find(
    StatusPageSchema,
    { organization: ctx.org.id, deletedAt: null },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  const concerned = [];
  for (const p of pages) {
    if (
      !incident.affected_services.length ||
      (await pageServiceIds(ctx.em, p)).some((s) => incident.affected_services.includes(s))
    )
      concerned.push(p);
  }
  const page = concerned[0];
  if (!page) return null;
  // The email carries the latest message, as the notification of a publish does.
  const latest = [...incident.messages].sort((a, b) => (a.posted_at < b.posted_at ? 1 : -1))[0];
  const url = pageBaseUrl(site, page.subdomain);
  const mail = notificationEmail({
    pageTitle: page.title,
    pageUrl: url,
    unsubscribeUrl: `${url}/unsubscribe?token=…`,
    timeZone: page.timeZone,
    event: {
      kind: 'incident',
      type: 'incident.published',
      title: incident.title,
      severity: incident.severity,
      message: latest ? { type: latest.type, body: latest.body, posted_at: new Date(latest.posted_at) } : null,
      url: `${url}/incidents/${incident.id}`,
    },
  });
  return {
    page: { title: page.title, subdomain: page.subdomain },
    pageTitles: concerned.map((p) => p.title),
    subject: mail.subject,
    text: mail.text,
  };
}
