/**
 * SLA statement arithmetic: credit terms, period bounds, downtime minutes, exact
 * attainment and the credit. Pure: no I/O, no clock, no Node built-ins.
 */
export {
  creditTermsSchema,
  tieredTermsSchema,
  proportionalTermsSchema,
  tierStepSchema,
  ROUNDING_MODES,
  MAX_MAINTENANCE_NOTICE_HOURS,
  MAX_MULTIPLIER,
  type CreditTerms,
  type CreditTermsInput,
  type TieredTerms,
  type ProportionalTerms,
  type TierStep,
  type RoundingMode,
  type DowntimeRule,
} from './credit-terms';
export {
  effectiveWindow,
  isValidDate,
  periodDue,
  previousPeriod,
  periodBounds,
  periodOf,
  assertIanaTimeZone,
  isValidPeriodLabel,
  tzDataVersion,
  PERIOD_LABEL_PATTERN,
  TZ_DATA_SOURCE,
  type PeriodBounds,
} from './period';
export {
  countDowntime,
  worstStatus,
  isDownStatus,
  maintenanceQualifies,
  SLA_STATUSES,
  STATUS_RANK,
  type SlaStatus,
  type SlaStatusChange,
  type ServiceTimeline,
  type MaintenanceWindow,
  type DowntimeInput,
  type DowntimeMinutes,
} from './downtime';
export { attainment, compareWithPercent, isBelowPercent, formatPercent, FULL_ATTAINMENT } from './attainment';
export { computeCredit, selectTier, CREDIT_PCT_DECIMALS, type CreditResult } from './credit';
export { currencyByCode, currencyExponent, isKnownCurrency } from './currency';
export {
  DECIMAL_PATTERN,
  MAX_DECIMAL_PLACES,
  parseDecimal,
  decimalToFraction,
  compareDecimals,
  canonicalDecimal,
  isDecimalString,
  type Fraction,
  type ScaledDecimal,
} from './decimal';
export {
  InvalidDecimalError,
  InvalidPeriodError,
  InvalidSlaInputError,
  UnknownCurrencyError,
  UnknownTimeZoneError,
  UnknownTzDataVersionError,
} from './errors';
export {
  buildStatementDocument,
  statementDocumentSchema,
  STATEMENT_SCHEMA_ID,
  ATTAINMENT_DECIMALS,
  type StatementDocument,
  type StatementInput,
  type CoveredService,
  type MaintenanceEvidence,
  type ManualExclusion,
  type IncidentEvidence,
} from './statement';
export {
  STATEMENT_STATES,
  STATEMENT_ACTIONS,
  refuseTransition,
  creditStateOf,
  allowedFrom,
  stateAfter,
  isStatementState,
  type StatementState,
  type StatementAction,
  type TransitionRefusal,
} from './transitions';
