/** The kinds a configuration document manages, in the order they are created (dependencies first). */
export const CONFIG_KINDS = ['customer', 'service', 'metric', 'slo', 'status_page', 'webhook', 'contract'] as const;
export type ConfigKind = (typeof CONFIG_KINDS)[number];

/** The document section that holds each kind. */
export const SECTION_OF: Record<ConfigKind, string> = {
  customer: 'customers',
  service: 'services',
  metric: 'metrics',
  slo: 'slos',
  status_page: 'status_pages',
  webhook: 'webhooks',
  contract: 'contracts',
};

/** What a reference in the document can point at: a managed kind, or an agent (by name or id). */
export type RefTarget = ConfigKind | 'agent';

/** `config_key`: lowercase letters, digits, "-" and "_", starting with a letter or digit (max 100). */
export const CONFIG_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/** A document path as the API reports it: `metrics[3].thresholds.healthy_value`. */
export function formatPath(segments: readonly (string | number)[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out ? `.${s}` : s;
  }
  return out;
}

/** A lowercase slug of a name, usable as a config_key (for exports of items that have none). */
export function slugKey(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return slug || 'item';
}
