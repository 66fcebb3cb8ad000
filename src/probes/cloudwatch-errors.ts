/**
 * Maps an AWS SDK error from CloudWatch to a §7.3 cloudwatch_* reason. CloudWatch speaks AWS JSON
 * 1.0 in query-compatible mode: the SDK error's `name` is the JSON type (AccessDeniedException…)
 * and `Code` the older query code (AccessDenied…); both spellings are listed.
 */
import type { ProbeOutcome } from './types';

const REASONS: Record<string, string> = {
  AccessDenied: 'cloudwatch_access_denied',
  AccessDeniedException: 'cloudwatch_access_denied',
  UnauthorizedOperation: 'cloudwatch_access_denied',
  UnrecognizedClientException: 'cloudwatch_access_denied',
  InvalidClientTokenId: 'cloudwatch_access_denied',
  SignatureDoesNotMatch: 'cloudwatch_access_denied',
  IncompleteSignature: 'cloudwatch_access_denied',
  Throttling: 'cloudwatch_throttled',
  ThrottlingException: 'cloudwatch_throttled',
  ThrottledException: 'cloudwatch_throttled',
  TooManyRequestsException: 'cloudwatch_throttled',
  RequestLimitExceeded: 'cloudwatch_throttled',
  LimitExceeded: 'cloudwatch_throttled',
  LimitExceededException: 'cloudwatch_throttled',
  InvalidParameterValue: 'cloudwatch_invalid_parameter',
  InvalidParameterValueException: 'cloudwatch_invalid_parameter',
  InvalidParameterCombination: 'cloudwatch_invalid_parameter',
  InvalidParameterCombinationException: 'cloudwatch_invalid_parameter',
  MissingParameter: 'cloudwatch_invalid_parameter',
  MissingRequiredParameterException: 'cloudwatch_invalid_parameter',
  InvalidNextToken: 'cloudwatch_invalid_parameter',
  ValidationError: 'cloudwatch_invalid_parameter',
  ValidationException: 'cloudwatch_invalid_parameter',
  ResourceNotFound: 'cloudwatch_resource_not_found',
  ResourceNotFoundException: 'cloudwatch_resource_not_found',
  ExpiredToken: 'cloudwatch_expired_credentials',
  ExpiredTokenException: 'cloudwatch_expired_credentials',
  RequestExpired: 'cloudwatch_expired_credentials',
  TokenRefreshRequired: 'cloudwatch_expired_credentials',
};

interface SdkError {
  name?: unknown;
  Code?: unknown;
  code?: unknown;
  $fault?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  cause?: { code?: unknown };
  message?: unknown;
}

export function classifyCloudwatchError(err: unknown): {
  reason: string;
  metadata: NonNullable<ProbeOutcome['metadata']>;
} {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SdkError;
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const code = typeof e.Code === 'string' ? e.Code : null;
  const status = typeof e.$metadata?.httpStatusCode === 'number' ? e.$metadata.httpStatusCode : null;
  const metadata = { error: code ?? name, ...(status !== null ? { status } : {}) };
  const reason = (code && REASONS[code]) || REASONS[name];
  if (reason) return { reason, metadata };
  if (e.$fault === 'server' || (status !== null && status >= 500))
    return { reason: 'cloudwatch_server_error', metadata };
  // No HTTP answer at all (refused, unresolvable endpoint): the Node code says why. The SDK may
  // wrap an error from another realm ("AWS SDK error wrapper for Error: connect ECONNREFUSED …"),
  // keeping the code only in its message.
  const network =
    typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : codeInMessage(e.message);
  return {
    reason: 'cloudwatch_error',
    metadata: network && status === null ? { error: name, cause: network } : metadata,
  };
}

function codeInMessage(message: unknown): string | null {
  return typeof message === 'string' ? (/\b(E[A-Z_]{3,}|EAI_[A-Z]+)\b/.exec(message)?.[1] ?? null) : null;
}
