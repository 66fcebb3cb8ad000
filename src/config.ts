import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isIP } from 'node:net';
import {
  DEFAULT_HEARTBEAT_SECONDS,
  DEFAULT_LOCATION_ID,
  LOCATION_ID_PATTERN,
  LOCATION_LABEL_MAX,
  parseLocationList,
} from './domain/locations';
import { DEFAULT_RETRY_POLICY } from './domain/webhook-retry';
import { parseCidrList } from './probes/public-address';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration as `<n>s`, `<n>m`, `<n>h` or `<n>d` (a bare number is seconds), in milliseconds. */
const duration = z
  .string()
  .trim()
  .regex(/^\d+(s|m|h|d)?$/, 'Expected a duration such as 7d, 36h, 90m or 3600s')
  .transform((v) => Number(v.replace(/[smhd]$/, '')) * DURATION_UNITS_MS[/[smhd]$/.test(v) ? v.slice(-1) : 's']!);

/** A comma-separated list of CIDRs (`127.0.0.0/8,::1/128`), empty by default; a malformed entry stops the process. */
const cidrList = z
  .string()
  .default('')
  .refine((v) => {
    try {
      parseCidrList(v);
      return true;
    } catch {
      return false;
    }
  }, 'Expected a comma-separated list of CIDRs, e.g. 127.0.0.0/8,::1/128');

/** Every environment variable Vigil reads, with its default. The README's configuration table mirrors this. */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: z.url().optional(),
  DOCS_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  DATABASE_URL: z.string().optional(),
  DATABASE_NAME: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('vigil'),
  DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  VIGIL_DATA_DIR: z.string().default('.data'),
  VIGIL_CACHE_DIR: z.string().default(path.join(os.homedir(), '.cache', 'vigil')),
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('vigil'),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  /** The Temporal UI the console links workflows to (e.g. https://temporal.example.com); `vigil start` sets it to its dev server's UI. */
  TEMPORAL_UI_URL: z.url().optional(),
  WORKFLOW_DEADLOCK_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  STATUS_HOST: z.string().default('status.localhost'),
  VIGIL_SEED_DEV: boolish.default(true),
  VIGIL_MASTER_KEY: z.string().optional(),
  WEBHOOK_ALLOW_CIDRS: cidrList,
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(10).default(DEFAULT_RETRY_POLICY.initialMs),
  WEBHOOK_RETRY_MAX_MS: z.coerce.number().int().min(10).default(DEFAULT_RETRY_POLICY.maxMs),
  CLOUD_PROBE_ALLOW_CIDRS: cidrList,
  CLOUD_PROBE_RESOLVER: z
    .string()
    .regex(
      /^(|\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?)$/,
      'Expected a resolver address: ip, ip:port or [ipv6]:port',
    )
    .default(''),
  CLOUD_PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(10_000),
  /** This process's probe location (the worker's built-in one, or a `vigil-prober`). */
  VIGIL_LOCATION: z
    .string()
    .regex(
      LOCATION_ID_PATTERN,
      'Expected a location id: lower-case letters, digits and dashes, starting with a letter, at most 40',
    )
    .default(DEFAULT_LOCATION_ID),
  VIGIL_LOCATION_LABEL: z.string().trim().min(1).max(LOCATION_LABEL_MAX).optional(),
  VIGIL_PROBE_SOURCE_ADDRESS: z
    .string()
    .refine((v) => v === '' || isIP(v) !== 0, 'Expected an IP address, e.g. 127.0.0.11')
    .default(''),
  LOCATION_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(DEFAULT_HEARTBEAT_SECONDS),
  /** The worker runs the built-in location unless this is false (`npm start` with VIGIL_LOCATIONS, docker-compose). */
  VIGIL_WORKER_LOCATION: boolish.default(true),
  /** `npm start` only: one prober process per name instead of the worker's built-in location. */
  VIGIL_LOCATIONS: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      const r = parseLocationList(v);
      if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
    }),
  METRIC_SAMPLE_RETENTION_DAYS: z.coerce.number().int().min(2).max(3_650).default(400),
  /** How old a sample an agent may post (older: rejected `sampled_too_old`; history comes through the import), in ms. */
  SAMPLE_MAX_AGE: duration.refine((ms) => ms >= 60_000, 'At least 1 minute').default(7 * 86_400_000),
  PROBE_TEST_EXPIRY_MS: z.coerce.number().int().min(1_000).max(600_000).default(120_000),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(|true|false|[0-9a-fA-F.:/, ]+)$/,
      'Expected true, false, or a comma-separated list of proxy addresses/CIDRs',
    )
    .default(''),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'Expected smtp://host:port or smtps://user:pass@host:port')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Vigil Status <status@vigil.localhost>'),
  MAIL_OUTBOX_DIR: z.string().optional(),
  SUBSCRIBE_LIMIT_PER_IP_HOUR: z.coerce.number().int().min(1).default(20),
  SUBSCRIBE_LIMIT_PER_PAGE_HOUR: z.coerce.number().int().min(1).default(500),
  /** Console sign-in requests per email address, and per client address, in a 15-minute window. */
  CONSOLE_SIGN_IN_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(3),
  CONSOLE_SIGN_IN_LIMIT_PER_CLIENT: z.coerce.number().int().min(1).default(10),
  WEBHOOK_RETRY_GIVE_UP_MS: z.coerce.number().int().min(0).default(DEFAULT_RETRY_POLICY.giveUpAfterMs),
  SLA_REVIEW_REMINDER_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(3 * 86_400_000),
  SLA_REVIEW_ESCALATION_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(7 * 86_400_000),
  SLA_CORRECTION_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .default(90 * 86_400_000),
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  /** Vendor endpoints of alert channels (tests point them at loopback receivers). */
  PAGERDUTY_EVENTS_URL: z.url().default('https://events.pagerduty.com'),
  OPSGENIE_API_URL: z.url().default('https://api.opsgenie.com'),
  OPSGENIE_EU_API_URL: z.url().default('https://api.eu.opsgenie.com'),
  /** How long an escalation policy's "minute" is, in ms (delays, snoozes); shorter only to compress time in tests and demos. */
  ALERT_MINUTE_MS: z.coerce.number().int().min(10).max(60_000).default(60_000),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /** Resolved: PUBLIC_BASE_URL or http://<HOST>:<PORT>. */
  publicBaseUrl: string;
  /** Resolved: DOCS_URL or <publicBaseUrl>/docs. */
  docsUrl: string;
  /** Absolute path of VIGIL_DATA_DIR. */
  dataDir: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const host = c.HOST === '0.0.0.0' || c.HOST === '::' ? 'localhost' : c.HOST;
  const publicBaseUrl = (c.PUBLIC_BASE_URL ?? `http://${host}:${c.PORT}`).replace(/\/$/, '');
  return {
    ...c,
    publicBaseUrl,
    docsUrl: (c.DOCS_URL ?? `${publicBaseUrl}/docs`).replace(/\/$/, ''),
    dataDir: path.resolve(c.VIGIL_DATA_DIR),
  };
}

/** Fastify's trustProxy from TRUST_PROXY: off by default; `true`, or the proxies' addresses/CIDRs. */
export function trustProxy(c: Pick<Config, 'TRUST_PROXY'>): boolean | string {
  const v = c.TRUST_PROXY.trim();
  if (v === '' || v === 'false') return false;
  return v === 'true' ? true : v;
}
