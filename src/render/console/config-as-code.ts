import type { ConfigKind } from '../../domain/config/kinds';
import { esc } from '../html';

/**
 * Config as code in the console. An item with a `config_key` is owned by a configuration
 * document: pages say so, and edit forms warn that the next `vigil config apply` overwrites the edit.
 */
export function managedNotice(configKey: string | null | undefined): string {
  if (!configKey) return '';
  return `<p class="managed" role="note"><strong>Managed by config as code</strong> (key <code>${esc(configKey)}</code>). Edits made here are overwritten by the next <code>vigil config apply</code> of its document; change the document instead.</p>`;
}

/** A short marker for list rows: the item's config key, or nothing. */
export function managedMarker(configKey: string | null | undefined): string {
  return configKey
    ? ` <span class="muted" title="Managed by config as code">(config: <code>${esc(configKey)}</code>)</span>`
    : '';
}

/** "Export as YAML" for a list page: the kind's section of the organization's configuration document. */
export function exportLink(kind: ConfigKind): string {
  return `<p class="export"><a href="/console/export/${esc(kind)}.yaml" download>Export as YAML</a></p>`;
}
