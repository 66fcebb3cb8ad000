import type { SourceConfigOf } from '../../src/domain/source-config';
import { getFreePort } from '../../src/launchers/free-port';
import { cloudwatchProbe } from '../../src/probes/cloudwatch';
import type { ProbeContext } from '../../src/probes/types';
import { type CloudwatchEndpoint, startCloudwatchEndpoint } from '../support/probe-cloudwatch';

type CwConfig = SourceConfigOf<'cloudwatch'>;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

/** CloudWatch units and the unit the probe reports: the spec's short form where there is one. */
const UNITS: Array<[string, string | null]> = [
  ['Milliseconds', 'ms'],
  ['Seconds', 's'],
  ['Percent', '%'],
  ['Bytes/Second', 'B/s'],
  ['Count', null],
  ['None', null],
  ['Microseconds', 'Microseconds'],
  ['Bytes', 'Bytes'],
  ['Count/Second', 'Count/Second'],
  ['Kilobytes/Second', 'Kilobytes/Second'],
];

describe('cloudwatch probe through the SDK endpoint override', () => {
  let endpoint: CloudwatchEndpoint;
  let env: Record<string, string>;

  const ctxWith = (vars: Record<string, string> = env, signal = new AbortController().signal): ProbeContext => ({
    env: (name) => vars[name],
    mode: 'agent',
    signal,
    defaultTimeoutMs: 5_000,
  });
  const probe = (metric: string, extra: Partial<CwConfig> = {}, vars = env) =>
    cloudwatchProbe(
      { namespace: 'Test/App', metric_name: metric, dimensions: { Service: 'api' }, statistic: 'Average', ...extra },
      ctxWith(vars),
    );

  beforeAll(async () => {
    endpoint = await startCloudwatchEndpoint(
      {
        AKIDPROBE: { secret: 'probe-secret' },
        AKIDDENIED: { secret: 'denied-secret', denied: true },
        ASIASESSION: { secret: 'session-secret', sessionToken: 'expired' },
      },
      {
        'Test/App/Latency': {
          points: [
            { at: minutesAgo(9), value: 80 },
            { at: minutesAgo(2), value: 120.5 },
            { at: minutesAgo(5), value: 99 },
          ],
          unit: 'Milliseconds',
        },
        'Test/App/Old': { points: [{ at: minutesAgo(120), value: 1 }] },
        'Test/App/Unitless': { points: [{ at: minutesAgo(2), value: 3 }], unit: null },
        ...Object.fromEntries(
          UNITS.map(([unit], i) => [
            `Test/Units/M${i}`,
            {
              points: [
                { at: minutesAgo(3), value: 7 },
                { at: minutesAgo(1), value: 8 },
              ],
              unit,
            },
          ]),
        ),
      },
    );
    env = {
      AWS_ENDPOINT_URL_CLOUDWATCH: endpoint.url,
      AWS_ACCESS_KEY_ID: 'AKIDPROBE',
      AWS_SECRET_ACCESS_KEY: 'probe-secret',
    };
  });

  afterAll(async () => {
    await endpoint?.close();
  });

  it("measures the newest datapoint of the statistic, in the metric's native unit", async () => {
    expect(await probe('Latency', { region: 'eu-west-1' })).toEqual({
      value: 120.5,
      unit: 'ms',
      value_description: 'CloudWatch Test/App Latency (Average)',
      reason: null,
    });
    expect(await probe('Latency', { region: 'eu-west-1', statistic: 'p99.5' })).toMatchObject({
      value: 120.5,
      unit: 'ms',
      reason: null,
    });
  });

  it.each(UNITS.map(([cw, unit], i) => [cw, unit, i] as const))(
    'reports a %s metric with unit %p',
    async (_, unit, i) => {
      const out = await cloudwatchProbe(
        { namespace: 'Test/Units', metric_name: `M${i}`, statistic: 'Maximum', region: 'eu-west-1' },
        ctxWith(),
      );
      expect(out).toMatchObject({ value: 8, unit, reason: null });
    },
  );

  it("reports SampleCount, a count of samples, without the metric's unit; a datapoint without a unit as a bare number", async () => {
    expect(await probe('Latency', { region: 'eu-west-1', statistic: 'SampleCount' })).toMatchObject({
      value: 120.5,
      unit: null,
      reason: null,
    });
    expect(await probe('Unitless', { region: 'eu-west-1' })).toMatchObject({ value: 3, unit: null, reason: null });
  });

  it('sends a signed GetMetricStatistics for the metric, statistic, period and region, any unit', async () => {
    await probe('Latency', { region: 'eu-west-1', statistic: 'p99', period_seconds: 300 });
    const sent = endpoint.requests.at(-1)!;
    expect(sent.headers).toMatchObject({
      'x-amz-target': 'GraniteServiceVersion20100801.GetMetricStatistics',
      'content-type': 'application/x-amz-json-1.0',
    });
    expect(String(sent.headers.authorization)).toMatch(
      /Credential=AKIDPROBE\/\d{8}\/eu-west-1\/monitoring\/aws4_request/,
    );
    const body = JSON.parse(sent.body) as Record<string, unknown> & { StartTime: number; EndTime: number };
    expect(body).toMatchObject({
      Namespace: 'Test/App',
      MetricName: 'Latency',
      Dimensions: [{ Name: 'Service', Value: 'api' }],
      Period: 300,
      ExtendedStatistics: ['p99'],
    });
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['Statistics']));
    expect(Object.keys(body)).not.toEqual(expect.arrayContaining(['Unit']));
    expect(body.EndTime - body.StartTime).toBe(900);
    await probe('Latency', { region: 'eu-west-1', statistic: 'Sum' });
    expect(JSON.parse(endpoint.requests.at(-1)!.body)).toMatchObject({ Statistics: ['Sum'], Period: 60 });
  });

  it('takes the region from AWS_REGION and the endpoint from AWS_ENDPOINT_URL', async () => {
    const vars = {
      AWS_ENDPOINT_URL: endpoint.url,
      AWS_REGION: 'ap-southeast-2',
      AWS_ACCESS_KEY_ID: 'AKIDPROBE',
      AWS_SECRET_ACCESS_KEY: 'probe-secret',
    };
    expect((await probe('Latency', {}, vars)).value).toBe(120.5);
    expect(String(endpoint.requests.at(-1)!.headers.authorization)).toContain('/ap-southeast-2/monitoring/');
  });

  it('cloudwatch_no_data when the window holds no datapoint', async () => {
    expect((await probe('Old', { region: 'eu-west-1' })).reason).toBe('cloudwatch_no_data');
    expect((await probe('NeverPublished', { region: 'eu-west-1' })).reason).toBe('cloudwatch_no_data');
  });

  it('cloudwatch_access_denied without the IAM permission, for an unknown key and for a wrong secret', async () => {
    const as = (id: string, secret: string) => ({ ...env, AWS_ACCESS_KEY_ID: id, AWS_SECRET_ACCESS_KEY: secret });
    expect(await probe('Latency', { region: 'eu-west-1' }, as('AKIDDENIED', 'denied-secret'))).toMatchObject({
      reason: 'cloudwatch_access_denied',
      metadata: { error: 'AccessDenied', status: 403 },
    });
    expect(await probe('Latency', { region: 'eu-west-1' }, as('AKIDNOBODY', 'x'))).toMatchObject({
      reason: 'cloudwatch_access_denied',
      metadata: { error: 'InvalidClientTokenId' },
    });
    expect(await probe('Latency', { region: 'eu-west-1' }, as('AKIDPROBE', 'wrong-secret'))).toMatchObject({
      reason: 'cloudwatch_access_denied',
      metadata: { error: 'SignatureDoesNotMatch' },
    });
  });

  it('cloudwatch_expired_credentials for an expired session token', async () => {
    const vars = {
      ...env,
      AWS_ACCESS_KEY_ID: 'ASIASESSION',
      AWS_SECRET_ACCESS_KEY: 'session-secret',
      AWS_SESSION_TOKEN: 'token-from-sts',
    };
    expect(await probe('Latency', { region: 'eu-west-1' }, vars)).toMatchObject({
      reason: 'cloudwatch_expired_credentials',
      metadata: { error: 'ExpiredToken' },
    });
  });

  it('cloudwatch_throttled, cloudwatch_invalid_parameter, cloudwatch_resource_not_found, cloudwatch_server_error', async () => {
    expect(await probe('Throttled', { region: 'eu-west-1' })).toMatchObject({
      reason: 'cloudwatch_throttled',
      metadata: { error: 'Throttling', status: 400 },
    });
    expect(await probe('BadParameter', { region: 'eu-west-1' })).toMatchObject({
      reason: 'cloudwatch_invalid_parameter',
      metadata: { error: 'InvalidParameterValue' },
    });
    expect(await probe('Gone', { region: 'eu-west-1' })).toMatchObject({
      reason: 'cloudwatch_resource_not_found',
      metadata: { status: 404 },
    });
    expect(await probe('Broken', { region: 'eu-west-1' })).toMatchObject({
      reason: 'cloudwatch_server_error',
      metadata: { error: 'InternalServiceError', status: 500 },
    });
  });

  it('cloudwatch_error for an unclassified AWS error, an unreachable endpoint and a missing region', async () => {
    expect(await probe('Odd', { region: 'eu-west-1' })).toMatchObject({
      reason: 'cloudwatch_error',
      metadata: { error: 'InvalidFormat', status: 400 },
    });
    const port = await getFreePort();
    expect(
      await probe(
        'Latency',
        { region: 'eu-west-1' },
        { ...env, AWS_ENDPOINT_URL_CLOUDWATCH: `http://127.0.0.1:${port}` },
      ),
    ).toMatchObject({ reason: 'cloudwatch_error', metadata: { cause: 'ECONNREFUSED' } });
    expect(await probe('Latency')).toMatchObject({
      reason: 'cloudwatch_error',
      metadata: { problem: 'region_missing' },
    });
  });

  it('ETIMEDOUT when the endpoint does not answer before the deadline', async () => {
    // `Slow` answers (a success) only after 2 s: ETIMEDOUT shows the probe gave up at its deadline first, without a wall-clock bound.
    const outcome = await cloudwatchProbe(
      { namespace: 'Test/App', metric_name: 'Slow', statistic: 'Sum', region: 'eu-west-1' },
      ctxWith(env, AbortSignal.timeout(300)),
    );
    expect(outcome.reason).toBe('ETIMEDOUT');
  });

  it('never puts credentials in the outcome', async () => {
    const outcome = await probe('Latency', { region: 'eu-west-1' }, { ...env, AWS_SECRET_ACCESS_KEY: 'wrong-secret' });
    expect(JSON.stringify(outcome)).not.toMatch(/secret|AKID/);
  });
});
