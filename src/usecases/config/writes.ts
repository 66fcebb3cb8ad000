import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Contract, Metric, PageLayout } from '../../db/entities';
import { CONFIG_KINDS, type ConfigKind } from '../../domain/config/kinds';
import type { Fields } from '../../domain/config/plan';
import { runsInCloud } from '../../domain/source-types';
import type { SecretBox } from '../../crypto/secret-box';
import { newWebhookSecret } from '../../crypto/webhook-signing';
import type { OrgContext } from '../shared/context';
import { type InboundEndpoint, hashToken, inboundEndpoint, inboundToken } from '../metrics/inbound';
import type { ComponentEntry } from './document';
import type { ItemPlan } from './items';
import { componentOf } from './records';
import { ENTITY_OF } from './snapshot';

export interface WriteOutcome {
  /** Webhooks created: their signing secret, shown once. */
  secrets: { config_key: string; webhook_id: string; secret: string }[];
  /** Heartbeat and alert metrics created: the token of their inbound URL, shown once. */
  inbound: ({ config_key: string; metric_id: string } & InboundEndpoint)[];
  /** Cloud metrics (now or before) and contracts: their Temporal Schedules follow the commit. */
  metrics: Metric[];
  contracts: Contract[];
}

const isCloud = (m: Metric) => runsInCloud(m.sourceType, m.agent);

const layoutOf = (groups: { name: string | null; components: ComponentEntry[] }[]): PageLayout => ({
  groups: groups.map((g) => ({
    name: g.name,
    components: g.components.map((c) => ({ kind: componentOf(c).kind, id: componentOf(c).ref })),
  })),
});

/** A record's fields as entity properties (what both a create and an update set). */
function propertiesOf(
  kind: ConfigKind,
  r: Fields,
  now: Date,
  row: Record<string, unknown> | null,
): Record<string, unknown> {
  switch (kind) {
    case 'customer':
      return { name: r.name, externalId: r.external_id, contactEmail: r.contact_email };
    case 'service':
      return { name: r.name, description: r.description };
    case 'metric':
      return {
        service: r.service,
        name: r.name,
        sourceConfig: r.source_config,
        thresholds: r.thresholds,
        intervalSeconds: r.interval_seconds,
        agent: r.agent,
        unit: r.unit,
        locations: r.locations,
        confirmation: r.confirmation,
      };
    case 'slo':
      return {
        name: r.name,
        metric: r.metric,
        service: r.service,
        objective: r.objective,
        window: r.window,
        noData: r.no_data,
        maintenance: r.maintenance,
        degraded: r.degraded,
      };
    case 'status_page':
      return {
        subdomain: r.subdomain,
        title: r.title,
        description: r.description,
        timeZone: r.time_zone,
        branding: r.branding,
        links: r.links,
        layout: layoutOf(r.groups as { name: string | null; components: ComponentEntry[] }[]),
        viewerPublicKey: r.viewer_public_key,
      };
    case 'webhook':
      return {
        url: r.url,
        description: r.description,
        eventTypes: r.event_types,
        disabledAt: r.enabled ? null : (row?.disabledAt ?? now),
      };
    case 'contract':
      return {
        customer: r.customer,
        name: r.name,
        serviceIds: r.services,
        sloIds: r.slos,
        slaTargetPct: r.sla_target_pct,
        timezone: r.timezone,
        currency: r.currency,
        monthlyFeeMinor: r.monthly_fee_minor,
        effectiveFrom: r.effective_from,
        effectiveTo: r.effective_to,
        creditTerms: r.credit_terms,
        billingEmail: r.billing_email,
        financeContacts: r.finance_contacts,
        escalationContacts: r.escalation_contacts,
        graceHours: r.grace_hours,
      };
  }
}

/** What only a new item gets: a metric's starting state and inbound token, a page's viewer secret, a webhook's secret. */
function birthProperties(
  kind: ConfigKind,
  r: Fields,
  now: Date,
  box: SecretBox,
  outcome: WriteOutcome,
  item: ItemPlan,
): Record<string, unknown> {
  switch (kind) {
    case 'metric': {
      const token = inboundToken(String(r.source_type));
      if (token)
        outcome.inbound.push({
          config_key: item.key!,
          metric_id: item.id,
          ...inboundEndpoint(String(r.source_type), token),
        });
      return {
        sourceType: r.source_type,
        status: 'no_data',
        currentValue: null,
        reason: null,
        lastSampleAt: null,
        statusSince: now,
        manualStatus: null,
        inboundTokenHash: token ? hashToken(token) : null,
        pushState: r.source_type === 'heartbeat' ? { last_ping_at: null } : null,
      };
    }
    case 'status_page':
      return { sealedViewerSecret: box.seal(randomBytes(32).toString('base64url')) };
    case 'webhook': {
      const secret = newWebhookSecret();
      outcome.secrets.push({ config_key: item.key!, webhook_id: item.id, secret });
      return { sealedSecret: box.seal(secret), sealedPreviousSecret: null, previousSecretExpiresAt: null };
    }
    case 'contract':
      return { scheduleSyncedAt: null };
    default:
      return {};
  }
}

/**
 * Writes a plan in the caller's transaction: deletes first (dependents before what they depend
 * on), then creates and updates in dependency order, all flushed together.
 */
export async function writePlan(
  ctx: OrgContext,
  em: EntityManager,
  box: SecretBox,
  items: ItemPlan[],
): Promise<WriteOutcome> {
  const outcome: WriteOutcome = { secrets: [], inbound: [], metrics: [], contracts: [] };
  const now = ctx.now;
  // Only cloud metrics have a Schedule: one is created, changed or removed when the metric is (or was) a cloud one.
  const cloudBefore = new Set(
    items
      .filter((i) => i.kind === 'metric' && i.existing)
      .flatMap((i) => (isCloud(i.existing as Metric) ? [i.id] : [])),
  );
  const track = (kind: ConfigKind, row: unknown) => {
    if (kind === 'metric' && (isCloud(row as Metric) || cloudBefore.has((row as Metric).id)))
      outcome.metrics.push(row as Metric);
    if (kind === 'contract') outcome.contracts.push(row as Contract);
  };
  for (const kind of [...CONFIG_KINDS].reverse()) {
    for (const item of items.filter((i) => i.kind === kind && i.action === 'delete')) {
      Object.assign(item.existing as object, { deletedAt: now, updatedAt: now });
      track(kind, item.existing);
    }
  }
  for (const kind of CONFIG_KINDS) {
    for (const item of items.filter((i) => i.kind === kind && (i.action === 'create' || i.action === 'update'))) {
      const r = item.record!;
      if (item.action === 'update') {
        const row = item.existing as unknown as Record<string, unknown>;
        Object.assign(row, propertiesOf(kind, r, now, row), { configKey: item.key, updatedAt: now });
        track(kind, row);
        continue;
      }
      const row = em.create(
        ENTITY_OF[kind] as never,
        {
          id: item.id,
          organization: ctx.org.id,
          configKey: item.key,
          ...propertiesOf(kind, r, now, null),
          ...birthProperties(kind, r, now, box, outcome, item),
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        } as never,
      );
      track(kind, row);
    }
  }
  await em.flush();
  return outcome;
}
