import { createHash, createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ApiServer, type RecordedRequest, sendJson, startApiServer } from './probe-http-api';

/**
 * A local CloudWatch endpoint for the SDK's endpoint override (the one test double the
 * architecture allows: CloudWatch cannot run here). It speaks what @aws-sdk/client-cloudwatch
 * sends today — AWS JSON 1.0 in query-compatible mode: POST /, X-Amz-Target
 * GraniteServiceVersion20100801.GetMetricStatistics (the call the probe makes, since only its
 * datapoints carry a unit), answers `application/x-amz-json-1.0`, errors as
 * `{ "__type": "<namespace>#<Type>", "message" }` with `x-amzn-query-error: <Code>;<Sender|Receiver>`
 * — and checks each request's SigV4 signature against the known keys.
 */
export interface CloudwatchKey {
  secret: string;
  /** Session token the key needs; 'expired' answers ExpiredTokenException. */
  sessionToken?: string;
  /** No IAM permission for cloudwatch:GetMetricStatistics. */
  denied?: boolean;
}

export interface MetricSeries {
  /** Answered in this order (CloudWatch promises none): the probe must find the newest itself. */
  points: Array<{ at: Date; value: number }>;
  /** The unit the datapoints were published with (CloudWatch StandardUnit); default None, null: no Unit in the answer. */
  unit?: string | null;
}

/** Errors by metric name, in CloudWatch's wire format. */
export const CLOUDWATCH_FAULTS: Record<
  string,
  { status: number; type: string; code: string; fault: 'Sender' | 'Receiver'; message?: string }
> = {
  Throttled: {
    status: 400,
    type: 'com.amazon.coral.availability#ThrottlingException',
    code: 'Throttling',
    fault: 'Sender',
    message: 'Rate exceeded',
  },
  BadParameter: {
    status: 400,
    type: 'com.amazonaws.cloudwatch#InvalidParameterValueException',
    code: 'InvalidParameterValue',
    fault: 'Sender',
    message: 'The parameter Period must be a multiple of 60.',
  },
  Gone: {
    status: 404,
    type: 'com.amazonaws.cloudwatch#ResourceNotFoundException',
    code: 'ResourceNotFound',
    fault: 'Sender',
    message: 'The specified resource does not exist.',
  },
  Broken: {
    status: 500,
    type: 'com.amazonaws.cloudwatch#InternalServiceFault',
    code: 'InternalServiceError',
    fault: 'Receiver',
    message: 'Internal service error',
  },
  Odd: {
    status: 400,
    type: 'com.amazonaws.cloudwatch#InvalidFormatFault',
    code: 'InvalidFormat',
    fault: 'Sender',
    message: 'Data was not syntactically valid JSON',
  },
};

export interface CloudwatchEndpoint extends ApiServer {
  /** Seconds to hold a request for metric `Slow`. */
  slowSeconds: number;
}

export async function startCloudwatchEndpoint(
  keys: Record<string, CloudwatchKey>,
  metrics: Record<string, MetricSeries>,
): Promise<CloudwatchEndpoint> {
  const endpoint = (await startApiServer(async (req, res) =>
    handle(req, res, keys, metrics, endpoint.slowSeconds),
  )) as CloudwatchEndpoint;
  endpoint.slowSeconds = 2;
  return endpoint;
}

function awsError(
  res: ServerResponse,
  status: number,
  type: string,
  code: string,
  fault: 'Sender' | 'Receiver',
  message?: string,
): void {
  sendJson(
    res,
    status,
    { __type: type, ...(message ? { message } : {}) },
    {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-query-error': `${code};${fault}`,
      'x-amzn-requestid': 'test-request',
    },
  );
}

async function handle(
  req: RecordedRequest,
  res: ServerResponse,
  keys: Record<string, CloudwatchKey>,
  metrics: Record<string, MetricSeries>,
  slowSeconds: number,
): Promise<void> {
  if (req.method !== 'POST' || req.headers['x-amz-target'] !== 'GraniteServiceVersion20100801.GetMetricStatistics') {
    return awsError(res, 400, 'com.amazon.coral.service#UnknownOperationException', 'UnknownOperation', 'Sender');
  }
  const auth = verifySignature(req, keys);
  if (auth === 'unknown_key')
    return awsError(
      res,
      403,
      'com.amazon.coral.service#UnrecognizedClientException',
      'InvalidClientTokenId',
      'Sender',
      'The security token included in the request is invalid.',
    );
  if (auth === 'bad_signature')
    return awsError(
      res,
      403,
      'com.amazon.coral.service#InvalidSignatureException',
      'SignatureDoesNotMatch',
      'Sender',
      'The request signature we calculated does not match the signature you provided.',
    );
  if (auth.sessionToken === 'expired')
    return awsError(
      res,
      403,
      'com.amazon.coral.service#ExpiredTokenException',
      'ExpiredToken',
      'Sender',
      'The security token included in the request is expired',
    );
  if (auth.denied) {
    return awsError(
      res,
      403,
      'com.amazon.coral.service#AccessDeniedException',
      'AccessDenied',
      'Sender',
      'User: arn:aws:iam::123456789012:user/probe is not authorized to perform: cloudwatch:GetMetricStatistics because no identity-based policy allows the cloudwatch:GetMetricStatistics action',
    );
  }
  return metricStatistics(res, JSON.parse(req.body) as StatisticsInput, metrics, slowSeconds);
}

interface StatisticsInput {
  Namespace: string;
  MetricName: string;
  StartTime: number;
  EndTime: number;
  Period: number;
  Statistics?: string[];
  ExtendedStatistics?: string[];
  Unit?: string;
}

/**
 * GetMetricStatistics: every datapoint of the window, in no particular order (as CloudWatch
 * answers), each with the asked statistic (the series' value stands for any statistic) and the
 * unit it was published with.
 */
async function metricStatistics(
  res: ServerResponse,
  input: StatisticsInput,
  metrics: Record<string, MetricSeries>,
  slowSeconds: number,
): Promise<void> {
  const name = input.MetricName;
  const fault = CLOUDWATCH_FAULTS[name];
  if (fault) return awsError(res, fault.status, fault.type, fault.code, fault.fault, fault.message);
  if (!input.Statistics?.length === !input.ExtendedStatistics?.length) {
    return awsError(
      res,
      400,
      'com.amazonaws.cloudwatch#InvalidParameterCombinationException',
      'InvalidParameterCombination',
      'Sender',
      'Must specify either Statistics or ExtendedStatistics, but not both.',
    );
  }
  if (name === 'Slow') await new Promise((r) => setTimeout(r, slowSeconds * 1000).unref());
  const series = metrics[`${input.Namespace}/${name}`];
  const unit = series?.unit === undefined ? 'None' : series.unit;
  const inWindow = (series?.points ?? []).filter(
    (p) => p.at.getTime() / 1000 >= input.StartTime && p.at.getTime() / 1000 < input.EndTime,
  );
  const matching = input.Unit === undefined || input.Unit === unit ? inWindow : [];
  const Datapoints = matching.map((p) => ({
    Timestamp: p.at.getTime() / 1000,
    ...(input.Statistics
      ? Object.fromEntries(input.Statistics.map((s) => [s, p.value]))
      : { ExtendedStatistics: Object.fromEntries(input.ExtendedStatistics!.map((s) => [s, p.value])) }),
    ...(unit === null ? {} : { Unit: unit }),
  }));
  sendJson(
    res,
    200,
    { Label: name, Datapoints },
    { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'test-request' },
  );
}

/** SigV4 (AWS4-HMAC-SHA256) check of a request against the known keys. */
function verifySignature(
  req: RecordedRequest,
  keys: Record<string, CloudwatchKey>,
): CloudwatchKey | 'unknown_key' | 'bad_signature' {
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      String(req.headers.authorization ?? ''),
    );
  if (!m) return 'bad_signature';
  const [, keyId, date, region, service, signedHeaders, signature] = m as unknown as string[];
  const key = keys[keyId!];
  if (!key) return 'unknown_key';
  if (key.sessionToken && key.sessionToken !== 'expired' && req.headers['x-amz-security-token'] !== key.sessionToken)
    return 'unknown_key';
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = createHash('sha256').update(req.body).digest('hex');
  const canonicalRequest = [
    req.method,
    req.path.split('?')[0],
    req.path.split('?')[1] ?? '',
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    String(req.headers['x-amz-date']),
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  let signingKey: Buffer = Buffer.from(`AWS4${key.secret}`);
  for (const part of [date!, region!, service!, 'aws4_request'])
    signingKey = createHmac('sha256', signingKey).update(part).digest();
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return expected === signature ? key : 'bad_signature';
}
