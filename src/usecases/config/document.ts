import type { PageLayout } from '../../db/entities';
import type { ConfigKind } from '../../domain/config/kinds';
import type { ContractInput } from '../sla/contracts';
import type { SloPolicy } from '../../domain/slo';
import type { FieldError } from '../../domain/error-catalog';
import type { Confirmation } from '../../domain/confirmation';

/**
 * A configuration document (version 1) as the API hands it over: each section's entries in
 * document order, every entry already shaped by the document's JSON Schema. An entry that failed
 * that check stays in its slot as `invalid` (its problems are reported already), keeping its
 * config_key so references to it and prunes around it are judged as the author meant.
 */
interface Keyed {
  config_key: string;
  /** Adopts an existing item created outside config as code (one without a config_key). */
  id?: string;
}

export interface ServiceEntry extends Keyed {
  name: string;
  description?: string | null;
}

export interface CustomerEntry extends Keyed {
  name: string;
  external_id?: string | null;
  contact_email?: string | null;
}

export interface MetricEntry extends Keyed {
  /** A service's config_key (in the document or not), or its id. */
  service: string;
  name: string;
  source_type: string;
  source_config: Record<string, unknown>;
  thresholds?: Record<string, unknown> | null;
  interval_seconds?: number;
  /** An agent's name or id; absent or null: the cloud prober (or pushed to Vigil). */
  agent?: string | null;
  unit?: string | null;
  /** Cloud location ids and agents as `agent:<agent name or id>`; absent or null: the default. */
  locations?: string[] | null;
  /** Absent or null: the defaults (or, for a metric still at the pre-confirmation 1/1, what it has). */
  confirmation?: Partial<Confirmation> | null;
}

export interface SloEntry extends Keyed {
  name: string;
  metric?: string | null;
  service?: string | null;
  objective: string;
  window: SloPolicy['window'];
  no_data?: SloPolicy['no_data'];
  maintenance?: SloPolicy['maintenance'];
  degraded?: 'good' | 'bad';
}

export type ComponentEntry = { service: string } | { metric: string } | { slo: string };

export interface StatusPageEntry extends Keyed {
  subdomain: string;
  title: string;
  description?: string | null;
  time_zone?: string;
  branding?: { logo_url?: string | null; accent_color?: string | null; header_color?: string | null };
  links?: { label: string; url: string }[];
  groups?: { name: string | null; components: ComponentEntry[] }[];
  viewer_public_key?: string | null;
}

export interface WebhookEntry extends Keyed {
  url: string;
  event_types: string[];
  description?: string | null;
  enabled?: boolean;
}

/** A contract's fields as its endpoint takes them, references by key or id instead of `*_id`. */
export type ContractEntry = Keyed &
  Omit<ContractInput, 'customer_id' | 'service_ids' | 'slo_ids'> & {
    customer: string;
    services?: string[];
    slos?: string[];
  };

export interface EntryOf {
  customer: CustomerEntry;
  service: ServiceEntry;
  metric: MetricEntry;
  slo: SloEntry;
  status_page: StatusPageEntry;
  webhook: WebhookEntry;
  contract: ContractEntry;
}

export type Slot<K extends ConfigKind> = { ok: true; entry: EntryOf[K] } | { ok: false; config_key: string | null };

/** Sections left out (undefined) are not managed by the document: nothing of that kind is pruned. */
export type ConfigSections = { [K in ConfigKind]?: Slot<K>[] };

export interface ParsedDocument {
  sections: ConfigSections;
  /** What the document's shape check found (paths into the document). */
  errors: FieldError[];
}

export interface ApplyOptions {
  dryRun: boolean;
  prune: boolean;
  /** Contracts are SLA data: changing them through a document also takes the key's `write:sla`. */
  contractsAllowed: boolean;
}

export type { PageLayout };
