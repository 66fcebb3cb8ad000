import { z } from 'zod';
import { CONFIG_KEY_PATTERN, CONFIG_KINDS, type ConfigKind, SECTION_OF } from '../../domain/config/kinds';
import { CustomerCreateBody } from './customers';
import { FieldErrorSchema, Uuid } from './common';
import { MetricCreateBody } from './metrics';
import { ServiceCreateBody } from './services';
import { ContractCreateBody } from './sla';
import { SloCreateBody } from './slos';
import { StatusPageCreateBody } from './status-pages';
import { WebhookCreateBody } from './webhooks';

/**
 * The configuration document (version 1), built from the same field schemas as the single-item
 * endpoints, so a field means the same in both. References name another item by its config_key
 * (in the document or not) or its id; agents by name or id.
 */
const ConfigKey = z
  .string()
  .regex(CONFIG_KEY_PATTERN, 'Lowercase letters, digits, "-" and "_", starting with a letter or digit (max 100)')
  .describe('Stable handle of the item; references in the document use it');
const AdoptId = Uuid.describe(
  'Adopts an existing item created outside config as code (one without a config_key): it takes this config_key',
);
const Ref = (what: string) =>
  z.string().min(1).max(200).describe(`A ${what}: its config_key (in this document or not) or its id`);

const keyed = { config_key: ConfigKey, id: AdoptId.optional() };

const ServiceEntry = z
  .strictObject({ ...keyed, name: ServiceCreateBody.shape.name, description: ServiceCreateBody.shape.description })
  .meta({ id: 'ConfigService' });

const CustomerEntry = z
  .strictObject({
    ...keyed,
    name: CustomerCreateBody.shape.name,
    external_id: CustomerCreateBody.shape.external_id,
    contact_email: CustomerCreateBody.shape.contact_email,
  })
  .meta({ id: 'ConfigCustomer' });

const m = MetricCreateBody.shape;
const MetricEntry = z
  .strictObject({
    ...keyed,
    service: Ref('service'),
    name: m.name,
    source_type: m.source_type,
    source_config: m.source_config,
    thresholds: m.thresholds,
    interval_seconds: m.interval_seconds,
    agent: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .describe(
        'The agent that runs it: its name or id. Left out: the cloud prober runs public HTTP/TCP/DNS/TLS/ping checks; heartbeat, alert and manual metrics are fed to Vigil.',
      ),
    unit: m.unit,
    locations: z
      .array(z.string().min(1).max(210))
      .max(20)
      .nullable()
      .optional()
      .describe(
        'The locations that measure it: cloud location ids (GET /v1/locations) and/or agents as `agent:<agent name or id>`. Left out: every online cloud location for a cloud metric, its agent for an agent metric. Not for pushed metrics (manual, heartbeat, alert).',
      ),
    confirmation: m.confirmation
      .unwrap()
      .optional()
      .describe(
        'When a failure counts: `quorum` (majority, any, all or a number k), `failures` and `recoveries` (consecutive rounds), `recheck`. Fields left out take the defaults (majority, 2, 2, false). The whole field left out (or null): the defaults, except that a metric still at failures 1 / recoveries 1 from before confirmed status keeps them until the document names a confirmation. Not for pushed metrics.',
      ),
  })
  .meta({ id: 'ConfigMetric' });

const s = SloCreateBody.shape;
const SloEntry = z
  .strictObject({
    ...keyed,
    name: s.name,
    metric: Ref('metric').nullable().optional(),
    service: Ref('service').nullable().optional(),
    objective: s.objective,
    window: s.window,
    no_data: s.no_data,
    maintenance: s.maintenance,
    degraded: s.degraded,
  })
  .meta({ id: 'ConfigSlo', description: 'An SLO over exactly one metric or one service' });

const p = StatusPageCreateBody.shape;
const Component = z
  .union([
    z.strictObject({ service: Ref('service') }),
    z.strictObject({ metric: Ref('metric') }),
    z.strictObject({ slo: Ref('slo') }),
  ])
  .describe('One of `service`, `metric` or `slo`');
const StatusPageEntry = z
  .strictObject({
    ...keyed,
    subdomain: p.subdomain,
    title: p.title,
    description: p.description,
    time_zone: p.time_zone,
    branding: p.branding,
    links: p.links,
    groups: z
      .array(
        z.strictObject({ name: z.string().trim().min(1).max(100).nullable(), components: z.array(Component).max(100) }),
      )
      .max(50)
      .optional()
      .describe('What the page shows, in order'),
    viewer_public_key: p.viewer_public_key,
  })
  .meta({ id: 'ConfigStatusPage' });

const w = WebhookCreateBody.shape;
const WebhookEntry = z
  .strictObject({ ...keyed, url: w.url, event_types: w.event_types, description: w.description, enabled: w.enabled })
  .meta({
    id: 'ConfigWebhook',
    description:
      "A webhook subscription. Its secret is never part of the document: a new subscription's secret is answered once by the apply",
  });

const c = ContractCreateBody.shape;
const ContractEntry = z
  .strictObject({
    ...keyed,
    customer: Ref('customer'),
    name: c.name,
    services: z.array(Ref('service')).max(50).optional().describe('The services the SLA covers'),
    slos: z
      .array(Ref('slo'))
      .max(50)
      .optional()
      .describe('SLOs the SLA covers: each stands for its metric, or every metric of its service'),
    sla_target_pct: c.sla_target_pct,
    timezone: c.timezone,
    currency: c.currency,
    monthly_fee_minor: c.monthly_fee_minor,
    effective_from: c.effective_from,
    effective_to: c.effective_to,
    credit_terms: c.credit_terms,
    billing_email: c.billing_email,
    finance_contacts: c.finance_contacts,
    escalation_contacts: c.escalation_contacts,
    grace_hours: c.grace_hours,
  })
  .meta({ id: 'ConfigContract' });

export const ENTRY_SCHEMAS: { [K in ConfigKind]: z.ZodType } = {
  customer: CustomerEntry,
  service: ServiceEntry,
  metric: MetricEntry,
  slo: SloEntry,
  status_page: StatusPageEntry,
  webhook: WebhookEntry,
  contract: ContractEntry,
};

/** Entries per section: enough for ten thousand metrics in one document. */
export const SECTION_MAX = 20_000;

export const ConfigDocumentSchema = z
  .strictObject({
    $schema: z.string().max(2000).optional().describe('For editors: the URL of this schema'),
    version: z.literal(1).describe('The document format; 1'),
    ...(Object.fromEntries(
      CONFIG_KINDS.map((k) => [
        SECTION_OF[k],
        z
          .array(ENTRY_SCHEMAS[k])
          .max(SECTION_MAX)
          .optional()
          .describe(`Left out: ${SECTION_OF[k]} are not managed by this document (never pruned)`),
      ]),
    ) as Record<string, z.ZodOptional<z.ZodArray<z.ZodType>>>),
  })
  .meta({ id: 'ConfigDocument', description: 'A Vigil configuration document (config as code)' });

export const ApplyQuery = z.object({
  dry_run: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: answer the plan and write nothing'),
  prune: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: delete items with a config_key that the document no longer names (only in the sections it has)'),
});

export const ExportQuery = z.object({
  format: z.enum(['json', 'yaml']).optional().describe('Default json; `Accept: application/yaml` also gives YAML'),
  include_unmanaged: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe(
      'true: also items created outside config as code, each with a config_key made from its name and its `id`, so applying the export adopts them',
    ),
});

const Change = z.object({
  kind: z.enum(CONFIG_KINDS),
  config_key: z.string().nullable().describe('Null only for an item without one that a deleted service takes with it'),
  name: z.string(),
  action: z.enum(['create', 'update', 'delete', 'unchanged']),
  id: Uuid.nullable().describe('Null for an item a dry run would create'),
  diff: z
    .array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() }))
    .describe('Field by field (objects key by key: `source_config.url`); a create lists the fields it sets'),
});

export const ApplyResultSchema = z
  .object({
    dry_run: z.boolean(),
    applied: z.boolean().describe('false for a dry run'),
    prune: z.boolean(),
    changed: z.boolean().describe('Whether anything was (or would be) created, updated or deleted'),
    summary: z.object({ create: z.int(), update: z.int(), delete: z.int(), unchanged: z.int() }),
    changes: z.array(Change),
    warnings: z.array(FieldErrorSchema).describe('Non-fatal: an agent offline, a plain-http webhook'),
    secrets: z
      .array(z.object({ config_key: z.string(), webhook_id: Uuid, secret: z.string() }))
      .describe('Webhooks this apply created: their signing secret, shown only here'),
    inbound_urls: z
      .array(z.object({ config_key: z.string(), metric_id: Uuid, url: z.url() }))
      .describe('Heartbeat and alert metrics this apply created: their inbound URL, shown only here'),
  })
  .meta({ id: 'ConfigApplyResult' });
