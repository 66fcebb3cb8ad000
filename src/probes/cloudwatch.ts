/**
 * CloudWatch probe: the latest datapoint of one metric for the chosen statistic (GetMetricData,
 * newest first), in the metric's native unit — which GetMetricData does not report, so `unit` is
 * null and the value is not rescaled.
 * Decisions (spec silent):
 * - Region: `region`, else the agent's AWS_REGION / AWS_DEFAULT_REGION (neither: cloudwatch_error
 *   with problem region_missing). Credentials: the agent's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
 *   (+ AWS_SESSION_TOKEN) when set, else the SDK's default chain (profiles, SSO, instance role).
 *   Endpoint: AWS_ENDPOINT_URL_CLOUDWATCH, else AWS_ENDPOINT_URL, else AWS's.
 * - Window: the last max(3 periods, 15 minutes) — CloudWatch publishes with a delay — and the
 *   datapoint with the newest timestamp in it. Nothing in it: cloudwatch_no_data.
 * - One attempt (no SDK retries), within ctx.defaultTimeoutMs and the probe deadline (ETIMEDOUT,
 *   there being no CloudWatch timeout code). A result marked Forbidden / InternalError is
 *   cloudwatch_access_denied / cloudwatch_server_error; a failure without an HTTP answer (refused,
 *   unresolvable endpoint) is cloudwatch_error with the Node code as `cause`.
 */
import { CloudWatchClient, type CloudWatchClientConfig, GetMetricDataCommand, type MetricDataResult } from '@aws-sdk/client-cloudwatch';
import type { SourceConfigOf } from '../domain/source-config';
import { classifyCloudwatchError } from './cloudwatch-errors';
import { measured, noValue, type Probe, type ProbeContext, type ProbeOutcome } from './types';

type CloudwatchConfig = SourceConfigOf<'cloudwatch'>;

const DEFAULT_PERIOD_S = 60;
const MIN_WINDOW_S = 15 * 60;
const QUERY_ID = 'probe';

export const cloudwatchProbe: Probe<CloudwatchConfig> = async (config, ctx) => {
  const region = config.region ?? ctx.env('AWS_REGION')?.trim() ?? ctx.env('AWS_DEFAULT_REGION')?.trim();
  if (!region) return noValue('cloudwatch_error', { problem: 'region_missing' });
  const client = new CloudWatchClient(clientConfig(region, ctx));
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.defaultTimeoutMs)]);
  try {
    const period = config.period_seconds ?? DEFAULT_PERIOD_S;
    const end = new Date();
    const start = new Date(end.getTime() - Math.max(3 * period, MIN_WINDOW_S) * 1000);
    const out = await client.send(
      new GetMetricDataCommand({
        StartTime: start,
        EndTime: end,
        ScanBy: 'TimestampDescending',
        MaxDatapoints: 100,
        MetricDataQueries: [
          {
            Id: QUERY_ID,
            ReturnData: true,
            MetricStat: {
              Metric: {
                Namespace: config.namespace,
                MetricName: config.metric_name,
                Dimensions: Object.entries(config.dimensions ?? {}).map(([Name, Value]) => ({ Name, Value })),
              },
              Period: period,
              Stat: config.statistic,
            },
          },
        ],
      }),
      { abortSignal: signal },
    );
    return latest(out.MetricDataResults?.find((r) => r.Id === QUERY_ID), config);
  } catch (err) {
    if (signal.aborted) return noValue('ETIMEDOUT');
    const { reason, metadata } = classifyCloudwatchError(err);
    return noValue(reason, metadata);
  } finally {
    client.destroy();
  }
};

function clientConfig(region: string, ctx: ProbeContext): CloudWatchClientConfig {
  const accessKeyId = ctx.env('AWS_ACCESS_KEY_ID')?.trim();
  const secretAccessKey = ctx.env('AWS_SECRET_ACCESS_KEY')?.trim();
  const sessionToken = ctx.env('AWS_SESSION_TOKEN')?.trim() || undefined;
  const endpoint = ctx.env('AWS_ENDPOINT_URL_CLOUDWATCH')?.trim() || ctx.env('AWS_ENDPOINT_URL')?.trim() || undefined;
  return {
    region,
    maxAttempts: 1,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, sessionToken } } : {}),
  };
}

function latest(result: MetricDataResult | undefined, config: CloudwatchConfig): ProbeOutcome {
  if (result?.StatusCode === 'Forbidden') return noValue('cloudwatch_access_denied', { status_code: 'Forbidden' });
  if (result?.StatusCode === 'InternalError') return noValue('cloudwatch_server_error', { status_code: 'InternalError' });
  const values = result?.Values ?? [];
  const times = result?.Timestamps ?? [];
  if (values.length === 0) return noValue('cloudwatch_no_data');
  let newest = 0;
  for (let i = 1; i < values.length; i += 1) if ((times[i]?.getTime() ?? 0) > (times[newest]?.getTime() ?? 0)) newest = i;
  const value = values[newest]!;
  if (!Number.isFinite(value)) return noValue('non_finite_value');
  return measured(value, null, `CloudWatch ${config.namespace} ${config.metric_name} (${config.statistic})`);
}
