import { withTermDefaults } from '../../domain/sla/credit-terms';
import {
  AGENT_LOCATION_PREFIX,
  type Confirmation,
  DEFAULT_CONFIRMATION,
  LEGACY_CONFIRMATION,
  isAgentLocation,
} from '../../domain/confirmation';
import { isPushSourceType } from '../../domain/source-types';
import type { Contract, Customer, Metric, Service, Slo, StatusPage, WebhookSubscription } from '../../db/entities';
import type { ConfigKind, RefTarget } from '../../domain/config/kinds';
import { type Fields, sameValue } from '../../domain/config/plan';
import { DEFAULT_GRACE_HOURS } from '../sla/contracts';
import type { ComponentEntry, EntryOf } from './document';

/**
 * Each kind as one flat record in the document's own field names, so what is stored and what a
 * document asks for compare field by field. References hold ids (of existing items, or the ids
 * planned for items the apply creates); `mapRefs` turns them into config_keys for display.
 */
export interface RowOf {
  customer: Customer;
  service: Service;
  metric: Metric;
  slo: Slo;
  status_page: StatusPage;
  webhook: WebhookSubscription;
  contract: Contract;
}

export type AnyRow = RowOf[ConfigKind];

type Segment = string | number;
/** Rewrites one reference; `path` is the field's path inside the record. */
export type RefMapper = (target: RefTarget, value: string, path: Segment[]) => string;

const COMPONENT_KINDS = ['service', 'metric', 'slo'] as const;

export function componentOf(c: ComponentEntry): { kind: (typeof COMPONENT_KINDS)[number]; ref: string } {
  const kind = COMPONENT_KINDS.find((k) => k in c)!;
  return { kind, ref: (c as Record<string, string>)[kind]! };
}

/** The same record with every reference passed through `fn` (null references stay null). */
export function mapRefs(kind: ConfigKind, f: Fields, fn: RefMapper): Fields {
  const one = (target: RefTarget, field: string) =>
    typeof f[field] === 'string' ? fn(target, f[field], [field]) : (f[field] ?? null);
  const many = (target: RefTarget, field: string) =>
    ((f[field] as string[] | undefined) ?? []).map((v, i) => fn(target, v, [field, i]));
  switch (kind) {
    case 'metric': {
      // Agents among the locations are references too: `agent:<name or id>` in documents, `agent:<id>` stored.
      const locations = !Array.isArray(f.locations)
        ? (f.locations ?? null)
        : (f.locations as string[]).map((l, i) =>
            isAgentLocation(l)
              ? `${AGENT_LOCATION_PREFIX}${fn('agent', l.slice(AGENT_LOCATION_PREFIX.length), ['locations', i])}`
              : l,
          );
      return { ...f, service: one('service', 'service'), agent: one('agent', 'agent'), locations };
    }
    case 'slo':
      return { ...f, metric: one('metric', 'metric'), service: one('service', 'service') };
    case 'contract':
      return {
        ...f,
        customer: one('customer', 'customer'),
        services: many('service', 'services'),
        slos: many('slo', 'slos'),
      };
    case 'status_page': {
      const groups = (f.groups as { name: string | null; components: ComponentEntry[] }[]).map((g, gi) => ({
        name: g.name,
        components: g.components.map((c, ci) => {
          const { kind: k, ref } = componentOf(c);
          return { [k]: fn(k, ref, ['groups', gi, 'components', ci, k]) } as ComponentEntry;
        }),
      }));
      return { ...f, groups };
    }
    default:
      return f;
  }
}

/** What is stored, as a record (references as ids). */
export function storedRecord<K extends ConfigKind>(kind: K, row: RowOf[K]): Fields {
  switch (kind) {
    case 'customer': {
      const c = row as Customer;
      return { name: c.name, external_id: c.externalId ?? null, contact_email: c.contactEmail ?? null };
    }
    case 'service': {
      const s = row as Service;
      return { name: s.name, description: s.description ?? null };
    }
    case 'metric': {
      const m = row as Metric;
      return {
        service: m.service,
        name: m.name,
        source_type: m.sourceType,
        source_config: m.sourceConfig,
        thresholds: m.thresholds ?? null,
        interval_seconds: m.intervalSeconds,
        agent: m.agent ?? null,
        unit: m.unit ?? null,
        locations: storedLocations(m.sourceType, m.locations),
        confirmation: m.confirmation ?? null,
      };
    }
    case 'slo': {
      const s = row as Slo;
      return {
        name: s.name,
        metric: s.metric ?? null,
        service: s.service ?? null,
        objective: s.objective,
        window: s.window,
        no_data: s.noData,
        maintenance: s.maintenance,
        degraded: s.degraded,
      };
    }
    case 'status_page': {
      const p = row as StatusPage;
      return {
        subdomain: p.subdomain,
        title: p.title,
        description: p.description ?? null,
        time_zone: p.timeZone,
        branding: {
          logo_url: p.branding.logo_url ?? null,
          accent_color: p.branding.accent_color ?? null,
          header_color: p.branding.header_color ?? null,
        },
        links: p.links,
        groups: p.layout.groups.map((g) => ({
          name: g.name,
          components: g.components.map((c) => ({ [c.kind]: c.id }) as ComponentEntry),
        })),
        viewer_public_key: p.viewerPublicKey ?? null,
      };
    }
    case 'webhook': {
      const w = row as WebhookSubscription;
      return {
        url: w.url,
        description: w.description ?? null,
        event_types: w.eventTypes,
        enabled: w.disabledAt == null,
      };
    }
    case 'contract': {
      const c = row as Contract;
      return {
        customer: c.customer,
        name: c.name,
        services: c.serviceIds,
        slos: c.sloIds,
        sla_target_pct: c.slaTargetPct,
        timezone: c.timezone,
        currency: c.currency,
        monthly_fee_minor: Number(c.monthlyFeeMinor),
        effective_from: c.effectiveFrom,
        effective_to: c.effectiveTo ?? null,
        credit_terms: withTermDefaults(c.creditTerms),
        billing_email: c.billingEmail ?? null,
        finance_contacts: c.financeContacts,
        escalation_contacts: c.escalationContacts,
        grace_hours: c.graceHours,
      };
    }
  }
  throw new Error(`unknown kind ${String(kind)}`);
}

export const DEFAULT_INTERVAL_SECONDS = 60;

/** A pushed metric's empty list of locations is none at all (a document leaves both out). */
function storedLocations(sourceType: string, locations: readonly string[] | null | undefined): string[] | null {
  if (!locations || (!locations.length && isPushSourceType(sourceType))) return null;
  return [...locations];
}

/**
 * Whether a metric entry that names no confirmation keeps the stored one: a metric still at the
 * pre-confirmation failures 1 / recoveries 1 (what the migration gave every existing metric) is
 * not moved to the defaults by a document that never heard of confirmation; naming one opts in
 * (docs/decisions.md, "Config as code and confirmed status").
 */
export function keepsLegacyConfirmation(entry: EntryOf['metric'], stored: Metric | null): boolean {
  return entry.confirmation == null && !!stored && sameValue(stored.confirmation ?? null, LEGACY_CONFIRMATION);
}

/** A metric entry's confirmation: given fields over the defaults; none for pushed metrics (what a pushed entry gives is kept, to be refused). */
function requestedConfirmation(
  entry: EntryOf['metric'],
  stored: Metric | null,
): Confirmation | Partial<Confirmation> | null {
  if (isPushSourceType(entry.source_type)) return entry.confirmation ?? null;
  if (keepsLegacyConfirmation(entry, stored)) return { ...LEGACY_CONFIRMATION };
  return { ...DEFAULT_CONFIRMATION, ...(entry.confirmation ?? {}) };
}

/**
 * What a document entry asks for, with the defaults a create would apply (a field left out
 * means its default, not "keep what is there"), references still as written. `stored`: the item
 * as it is (a metric's pre-confirmation 1/1 is the one default that depends on it).
 */
export function requestedRecord<K extends ConfigKind>(
  kind: K,
  entry: EntryOf[K],
  stored: RowOf[K] | null = null,
): Fields {
  switch (kind) {
    case 'customer': {
      const c = entry as EntryOf['customer'];
      return { name: c.name, external_id: c.external_id ?? null, contact_email: c.contact_email ?? null };
    }
    case 'service': {
      const s = entry as EntryOf['service'];
      return { name: s.name, description: s.description ?? null };
    }
    case 'metric': {
      const m = entry as EntryOf['metric'];
      return {
        service: m.service,
        name: m.name,
        source_type: m.source_type,
        source_config: m.source_config,
        thresholds: m.thresholds ?? null,
        interval_seconds: m.interval_seconds ?? DEFAULT_INTERVAL_SECONDS,
        agent: m.agent ?? null,
        unit: m.unit ?? null,
        locations: storedLocations(m.source_type, m.locations),
        confirmation: requestedConfirmation(m, stored as Metric | null),
      };
    }
    case 'slo': {
      const s = entry as EntryOf['slo'];
      return {
        name: s.name,
        metric: s.metric ?? null,
        service: s.service ?? null,
        objective: s.objective,
        window: s.window,
        no_data: s.no_data ?? 'excluded',
        maintenance: s.maintenance ?? 'excluded',
        degraded: s.degraded ?? 'good',
      };
    }
    case 'status_page': {
      const p = entry as EntryOf['status_page'];
      return {
        subdomain: p.subdomain,
        title: p.title,
        description: p.description ?? null,
        time_zone: p.time_zone ?? 'UTC',
        branding: {
          logo_url: p.branding?.logo_url ?? null,
          accent_color: p.branding?.accent_color ?? null,
          header_color: p.branding?.header_color ?? null,
        },
        links: p.links ?? [],
        groups: p.groups ?? [],
        viewer_public_key: p.viewer_public_key ?? null,
      };
    }
    case 'webhook': {
      const w = entry as EntryOf['webhook'];
      return {
        url: w.url,
        description: w.description ?? null,
        event_types: [...new Set(w.event_types)],
        enabled: w.enabled ?? true,
      };
    }
    case 'contract': {
      const c = entry as EntryOf['contract'];
      return {
        customer: c.customer,
        name: c.name,
        services: [...new Set(c.services ?? [])],
        slos: [...new Set(c.slos ?? [])],
        sla_target_pct: c.sla_target_pct,
        timezone: c.timezone,
        currency: c.currency,
        monthly_fee_minor: c.monthly_fee_minor,
        effective_from: c.effective_from,
        effective_to: c.effective_to ?? null,
        credit_terms: c.credit_terms,
        billing_email: c.billing_email ?? null,
        finance_contacts: c.finance_contacts ?? [],
        escalation_contacts: c.escalation_contacts ?? [],
        grace_hours: c.grace_hours ?? DEFAULT_GRACE_HOURS,
      };
    }
  }
  throw new Error(`unknown kind ${String(kind)}`);
}

/** The references a resolved record holds, by target kind (what deleting a target would orphan). */
export function referencesOf(kind: ConfigKind, f: Fields): { target: RefTarget; id: string }[] {
  const out: { target: RefTarget; id: string }[] = [];
  mapRefs(kind, f, (target, id) => {
    out.push({ target, id });
    return id;
  });
  return out;
}

/** A human handle for an item in plans and errors. */
export function nameOf(kind: ConfigKind, f: Fields): string {
  if (kind === 'status_page') return String(f.title);
  if (kind === 'webhook') return String(f.url);
  return String(f.name);
}
