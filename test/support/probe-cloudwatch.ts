import { createHash, createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ApiServer, type RecordedRequest, sendJson, startApiServer } from './probe-http-api';

/**
 * A local CloudWatch endpoint for the SDK's endpoint override (the one test double the
 * architecture allows: CloudWatch cannot run here). It speaks what @aws-sdk/client-cloudwatch
 * sends today — AWS JSON 1.0 in query-compatible mode: POST /, X-Amz-Target
 * GraniteServiceVersion20100801.GetMetricData, answers `application/x-amz-json-1.0`, errors as
 * `{ "__type": "<namespace>#<Type>", "message" }` with `x-amzn-query-error: <Code>;<Sender|Receiver>`
 * — and checks each request's SigV4 signature against the known keys.
 */
export interface CloudwatchKey {
  secret: string;
  /** Session token the key needs; 'expired' answers ExpiredTokenException. */
  sessionToken?: string;
  /** No IAM permission for cloudwatch:GetMetricData. */
  denied?: boolean;
}

export interface MetricSeries {
  /** Newest first is not assumed: the server orders by the request's ScanBy. */
  points: Array<{ at: Date; value: number }>;
  status?: 'Complete' | 'PartialData' | 'Forbidden' | 'InternalError';
}

/** Errors by metric name, in CloudWatch's wire format. */
export const CLOUDWATCH_FAULTS: Record<string, { status: number; type: string; code: string; fault: 'Sender' | 'Receiver'; message?: string }> = {
  Throttled: { status: 400, type: 'com.amazon.coral.availability#ThrottlingException', code: 'Throttling', fault: 'Sender', message: 'Rate exceeded' },
  BadParameter: { status: 400, type: 'com.amazonaws.cloudwatch#InvalidParameterValueException', code: 'InvalidParameterValue', fault: 'Sender', message: 'The value 7 for parameter MetricDataQueries.member.1.MetricStat.Period is not a multiple of 60.' },
  Gone: { status: 404, type: 'com.amazonaws.cloudwatch#ResourceNotFoundException', code: 'ResourceNotFound', fault: 'Sender', message: 'The specified resource does not exist.' },
  Broken: { status: 500, type: 'com.amazonaws.cloudwatch#InternalServiceFault', code: 'InternalServiceError', fault: 'Receiver', message: 'Internal service error' },
  Odd: { status: 400, type: 'com.amazonaws.cloudwatch#InvalidFormatFault', code: 'InvalidFormat', fault: 'Sender', message: 'Data was not syntactically valid JSON' },
};

export interface CloudwatchEndpoint extends ApiServer {
  /** Seconds to hold a request for metric `Slow`. */
  slowSeconds: number;
}

export async function startCloudwatchEndpoint(keys: Record<string, CloudwatchKey>, metrics: Record<string, MetricSeries>): Promise<CloudwatchEndpoint> {
  const endpoint = (await startApiServer(async (req, res) => handle(req, res, keys, metrics, endpoint.slowSeconds))) as CloudwatchEndpoint;
  endpoint.slowSeconds = 2;
  return endpoint;
}

function awsError(res: ServerResponse, status: number, type: string, code: string, fault: 'Sender' | 'Receiver', message?: string): void {
  sendJson(res, status, { __type: type, ...(message ? { message } : {}) }, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-query-error': `${code};${fault}`, 'x-amzn-requestid': 'test-request' });
}

async function handle(req: RecordedRequest, res: ServerResponse, keys: Record<string, CloudwatchKey>, metrics: Record<string, MetricSeries>, slowSeconds: number): Promise<void> {
  if (req.method !== 'POST' || req.headers['x-amz-target'] !== 'GraniteServiceVersion20100801.GetMetricData') {
    return awsError(res, 400, 'com.amazon.coral.service#UnknownOperationException', 'UnknownOperation', 'Sender');
  }
  const auth = verifySignature(req, keys);
  if (auth === 'unknown_key') return awsError(res, 403, 'com.amazon.coral.service#UnrecognizedClientException', 'InvalidClientTokenId', 'Sender', 'The security token included in the request is invalid.');
  if (auth === 'bad_signature') return awsError(res, 403, 'com.amazon.coral.service#InvalidSignatureException', 'SignatureDoesNotMatch', 'Sender', 'The request signature we calculated does not match the signature you provided.');
  if (auth.sessionToken === 'expired') return awsError(res, 403, 'com.amazon.coral.service#ExpiredTokenException', 'ExpiredToken', 'Sender', 'The security token included in the request is expired');
  if (auth.denied) {
    return awsError(res, 403, 'com.amazon.coral.service#AccessDeniedException', 'AccessDenied', 'Sender', 'User: arn:aws:iam::123456789012:user/probe is not authorized to perform: cloudwatch:GetMetricData because no identity-based policy allows the cloudwatch:GetMetricData action');
  }
  const input = JSON.parse(req.body) as {
    StartTime: number;
    EndTime: number;
    ScanBy?: string;
    MetricDataQueries: Array<{ Id: string; MetricStat: { Metric: { Namespace: string; MetricName: string }; Period: number; Stat: string } }>;
  };
  const results = [];
  for (const q of input.MetricDataQueries) {
    const name = q.MetricStat.Metric.MetricName;
    const fault = CLOUDWATCH_FAULTS[name];
    if (fault) return awsError(res, fault.status, fault.type, fault.code, fault.fault, fault.message);
    if (name === 'Slow') await new Promise((r) => setTimeout(r, slowSeconds * 1000).unref());
    const series = metrics[`${q.MetricStat.Metric.Namespace}/${name}`];
    const inWindow = (series?.points ?? []).filter((p) => p.at.getTime() / 1000 >= input.StartTime && p.at.getTime() / 1000 < input.EndTime);
    inWindow.sort((a, b) => (input.ScanBy === 'TimestampAscending' ? a.at.getTime() - b.at.getTime() : b.at.getTime() - a.at.getTime()));
    results.push({
      Id: q.Id,
      Label: name,
      Timestamps: inWindow.map((p) => p.at.getTime() / 1000),
      Values: inWindow.map((p) => p.value),
      StatusCode: series?.status ?? 'Complete',
    });
  }
  sendJson(res, 200, { MetricDataResults: results, Messages: [] }, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'test-request' });
}

/** SigV4 (AWS4-HMAC-SHA256) check of a request against the known keys. */
function verifySignature(req: RecordedRequest, keys: Record<string, CloudwatchKey>): CloudwatchKey | 'unknown_key' | 'bad_signature' {
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(String(req.headers.authorization ?? ''));
  if (!m) return 'bad_signature';
  const [, keyId, date, region, service, signedHeaders, signature] = m as unknown as string[];
  const key = keys[keyId!];
  if (!key) return 'unknown_key';
  if (key.sessionToken && key.sessionToken !== 'expired' && req.headers['x-amz-security-token'] !== key.sessionToken) return 'unknown_key';
  const names = signedHeaders!.split(';');
  const canonicalHeaders = names.map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payloadHash = createHash('sha256').update(req.body).digest('hex');
  const canonicalRequest = [req.method, req.path.split('?')[0], req.path.split('?')[1] ?? '', canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', String(req.headers['x-amz-date']), scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  let signingKey: Buffer = Buffer.from(`AWS4${key.secret}`);
  for (const part of [date!, region!, service!, 'aws4_request']) signingKey = createHmac('sha256', signingKey).update(part).digest();
  const expected = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return expected === signature ? key : 'bad_signature';
}
