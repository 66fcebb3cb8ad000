/**
 * The reasons catalog as one document (GET /docs/reasons.json and its HTML page): every fixed
 * code with its label, hint and class, and the codes with a variable part.
 */
import { REASON_CODE_CLASSES, type ReasonClass, VARIABLE_REASON_CLASSES } from './reason-class';
import {
  describeReason,
  LEGACY_REASON_CODES,
  REASON_CODES,
  type ReasonCode,
  VARIABLE_REASON_PREFIXES,
} from './reason-codes';

export interface ReasonCatalogEntry {
  reason_label: string;
  reason_hint: string;
  reason_class: ReasonClass;
}

export interface ReasonCatalog {
  /** Fixed codes, keyed by code. */
  codes: Record<string, ReasonCatalogEntry>;
  /** Codes `<prefix>:<part>`, keyed by prefix; the label and hint shown are those of an example part. */
  variable: Record<string, { reason_class: ReasonClass; example: string; reason_label: string; reason_hint: string }>;
  /** Older agents' codes and the current code each is shown as. */
  legacy: Record<string, string>;
}

const EXAMPLE_PART: Record<string, string> = {
  unexpected_status: '503',
  target_not_public: 'loopback',
  refused: 'invalid_host',
};

export function reasonCatalog(): ReasonCatalog {
  const codes: Record<string, ReasonCatalogEntry> = {};
  for (const code of Object.keys(REASON_CODES) as ReasonCode[]) {
    const { label, hint } = REASON_CODES[code];
    codes[code] = { reason_label: label, reason_hint: hint, reason_class: REASON_CODE_CLASSES[code] };
  }
  const variable: ReasonCatalog['variable'] = {};
  for (const prefix of VARIABLE_REASON_PREFIXES) {
    const example = `${prefix}:${EXAMPLE_PART[prefix] ?? 'x'}`;
    const d = describeReason(example);
    variable[prefix] = {
      reason_class: VARIABLE_REASON_CLASSES[prefix],
      example,
      reason_label: d.reason_label!,
      reason_hint: d.reason_hint!,
    };
  }
  return { codes, variable, legacy: { ...LEGACY_REASON_CODES } };
}
