import { z } from 'zod';
import type { StatusPage, Subscriber } from '../../db/entities';
import { isValidTimeZone } from '../../domain/periods';
import { toIso, toIsoOrNull } from '../../domain/time';
import { IMPORT_MAX_ROWS } from '../../usecases/status-pages/subscriber-import';
import { VIEWER_TTL_DEFAULT_S, VIEWER_TTL_MAX_S } from '../../usecases/status-pages/viewer-tokens';
import { DateTime, Uuid } from './common';

const HexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Expected #rrggbb');
const HttpsUrl = z.url({ protocol: /^https?$/ }).max(2000);
const Component = z.strictObject({ kind: z.enum(['service', 'metric', 'slo']), id: Uuid });
const Group = z.strictObject({
  name: z.string().trim().min(1).max(100).nullable().describe('Group heading; null for components shown without one'),
  components: z.array(Component).max(100),
});
const Branding = z.strictObject({
  logo_url: z
    .url({ protocol: /^https$/ })
    .max(2000)
    .nullable()
    .optional()
    .describe('https only: the page loads no other images'),
  accent_color: HexColor.nullable()
    .optional()
    .describe('Links and buttons; darkened on the page when needed to meet WCAG AA contrast'),
  header_color: HexColor.nullable().optional(),
});
const Link = z.strictObject({ label: z.string().trim().min(1).max(60), url: HttpsUrl });
const TimeZone = z.string().max(64).refine(isValidTimeZone, 'Expected an IANA time zone, e.g. Europe/Berlin');

const fields = {
  subdomain: z.string().max(63).describe('DNS label: the page is served at <subdomain>.<STATUS_HOST>'),
  title: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullable(),
  time_zone: TimeZone.describe('IANA zone the page shows times in; default UTC'),
  branding: Branding,
  links: z.array(Link).max(10),
  groups: z.array(Group).max(50).describe('What the page shows, in order'),
  viewer_public_key: z
    .string()
    .max(10_000)
    .nullable()
    .describe(
      'Your own PEM (SPKI) public key: viewer tokens you sign with it (RS256, PS256, ES256 or EdDSA) are accepted too',
    ),
};

export const StatusPageCreateBody = z
  .strictObject({
    ...fields,
    description: fields.description.optional(),
    time_zone: fields.time_zone.optional(),
    branding: fields.branding.optional(),
    links: fields.links.optional(),
    groups: fields.groups.optional(),
    viewer_public_key: fields.viewer_public_key.optional(),
  })
  .meta({ id: 'StatusPageCreate' });

export const StatusPagePatchBody = z
  .strictObject(
    Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])) as {
      [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
    },
  )
  .meta({ id: 'StatusPagePatch' });

export const StatusPageSchemaOut = z
  .object({
    id: Uuid,
    config_key: z
      .string()
      .nullable()
      .describe('Its handle in configuration documents (config as code); null when created otherwise'),
    subdomain: z.string(),
    url: z.url().describe('Where the page is served'),
    feeds: z.object({ atom: z.url(), rss: z.url() }),
    title: z.string(),
    description: z.string().nullable(),
    time_zone: z.string(),
    branding: z.object({
      logo_url: z.string().nullable(),
      accent_color: z.string().nullable(),
      header_color: z.string().nullable(),
    }),
    links: z.array(z.object({ label: z.string(), url: z.string() })),
    groups: z.array(
      z.object({
        name: z.string().nullable(),
        components: z.array(z.object({ kind: z.enum(['service', 'metric', 'slo']), id: z.string() })),
      }),
    ),
    viewer_public_key: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    deleted_at: DateTime.nullable(),
  })
  .meta({ id: 'StatusPage' });

export function presentStatusPage(p: StatusPage, url: string): z.output<typeof StatusPageSchemaOut> {
  return {
    id: p.id,
    config_key: p.configKey ?? null,
    subdomain: p.subdomain,
    url: `${url}/`,
    feeds: { atom: `${url}/feed.atom`, rss: `${url}/feed.rss` },
    title: p.title,
    description: p.description ?? null,
    time_zone: p.timeZone,
    branding: p.branding,
    links: p.links,
    groups: p.layout.groups,
    viewer_public_key: p.viewerPublicKey ?? null,
    created_at: toIso(p.createdAt),
    updated_at: toIso(p.updatedAt),
    deleted_at: toIsoOrNull(p.deletedAt),
  };
}

export const SUBSCRIBER_STATES = ['pending', 'confirmed', 'unsubscribed'] as const;

export const SubscriberOut = z
  .object({
    id: Uuid,
    page_id: Uuid,
    email: z.string(),
    components: z.array(z.string()).describe('Services chosen; empty: everything on the page'),
    customer_id: z.string().nullable(),
    state: z.enum(SUBSCRIBER_STATES),
    source: z.enum(['form', 'import']),
    confirmation_sent_at: DateTime.nullable(),
    confirmed_at: DateTime.nullable(),
    unsubscribed_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'Subscriber' });

export function presentSubscriber(s: Subscriber): z.output<typeof SubscriberOut> {
  return {
    id: s.id,
    page_id: s.page,
    email: s.email,
    components: s.components,
    customer_id: s.customer ?? null,
    state: s.state as (typeof SUBSCRIBER_STATES)[number],
    source: s.source as 'form' | 'import',
    confirmation_sent_at: toIsoOrNull(s.confirmationSentAt),
    confirmed_at: toIsoOrNull(s.confirmedAt),
    unsubscribed_at: toIsoOrNull(s.unsubscribedAt),
    created_at: toIso(s.createdAt),
    updated_at: toIso(s.updatedAt),
  };
}

const ImportRow = z.object({
  email: z.string().max(320),
  components: z.array(z.string()).max(100).optional(),
  customer_id: z.string().nullable().optional(),
});
export const SubscriberImportBody = z
  .strictObject({
    subscribers: z.array(ImportRow).max(IMPORT_MAX_ROWS).optional().describe('JSON rows; send this or csv'),
    csv: z
      .string()
      .max(5_000_000)
      .optional()
      .describe('CSV with a header row: email (required), components (service ids separated by ";"), customer_id'),
    skip_confirmation: z
      .boolean()
      .default(false)
      .describe('The list already consented: rows start confirmed and get no confirmation email'),
  })
  .refine((b) => (b.subscribers === undefined) !== (b.csv === undefined), {
    message: 'Send exactly one of subscribers or csv',
    path: ['subscribers'],
  })
  .meta({ id: 'SubscriberImport' });

export const SubscriberImportResult = z
  .object({
    received: z.int(),
    created: z.int(),
    existing: z.int().describe('Addresses already on the page, left unchanged'),
    confirmations_queued: z.int(),
    errors: z.array(
      z.object({
        row: z.int().describe('1-based row number (CSV: not counting the header)'),
        path: z.string(),
        message: z.string(),
      }),
    ),
  })
  .meta({ id: 'SubscriberImportResult' });

export const ViewerTokenBody = z
  .strictObject({
    customer_id: Uuid,
    ttl_seconds: z.int().min(60).max(VIEWER_TTL_MAX_S).default(VIEWER_TTL_DEFAULT_S),
  })
  .meta({ id: 'ViewerTokenCreate' });

export const ViewerTokenOut = z
  .object({
    token: z.string().describe('HS256 JWT: aud vigil:status-page:<page id>, customer_id, exp'),
    customer_id: Uuid,
    expires_at: DateTime,
    url: z.url().describe('The page URL that signs the customer in (sets a cookie)'),
  })
  .meta({ id: 'ViewerToken' });

export const SubscribeBody = z
  .strictObject({
    email: z.email().max(320),
    components: z
      .array(Uuid)
      .max(100)
      .optional()
      .describe('Services (shown on the page) to hear about; default: everything'),
  })
  .meta({ id: 'SubscribeRequest' });

export const SubscribeAccepted = z
  .object({ status: z.literal('pending_confirmation'), detail: z.string() })
  .meta({ id: 'SubscribeAccepted' });
