/**
 * Typed errors of the SLA arithmetic. Each carries a stable `code` token the API layer can map.
 * Time zone and period-label errors are the domain's existing ones (src/domain/periods.ts), so an
 * unknown zone or a malformed `YYYY-MM` reads the same everywhere in Vigil.
 */
export { InvalidPeriodError, UnknownTimeZoneError } from '../periods';

/** A currency code that is not in dinero.js's ISO 4217 table (codes are upper case, e.g. `EUR`). */
export class UnknownCurrencyError extends Error {
  readonly code = 'unknown_currency' as const;
  constructor(readonly currency: string) {
    super(`unknown ISO 4217 currency: ${JSON.stringify(currency)}`);
    this.name = 'UnknownCurrencyError';
  }
}

/** A decimal string that is not a plain non-negative decimal such as `99.99` (see decimal.ts). */
export class InvalidDecimalError extends Error {
  readonly code = 'invalid_decimal' as const;
  constructor(readonly value: unknown) {
    super(`not a decimal string: ${JSON.stringify(value)}`);
    this.name = 'InvalidDecimalError';
  }
}

/** An input the arithmetic refuses: negative or non-integer minutes, down > eligible, an unsorted timeline, … */
export class InvalidSlaInputError extends Error {
  readonly code = 'invalid_sla_input' as const;
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSlaInputError';
  }
}

/** No tz data version to record in a statement (the runtime reported none, or not in tzdb's form). */
export class UnknownTzDataVersionError extends Error {
  readonly code = 'unknown_tz_data_version' as const;
  constructor(readonly value: unknown) {
    super(`not a tz data version (expected e.g. "2025b"): ${JSON.stringify(value)}`);
    this.name = 'UnknownTzDataVersionError';
  }
}
