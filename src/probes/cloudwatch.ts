/**
 * CloudWatch probe: the latest datapoint of one metric for the chosen statistic, in the metric's
 * native unit (spec §4.1), not rescaled. GetMetricStatistics, not GetMetricData: only its
 * datapoints carry the unit the data was published with (GetMetricData answers values and
 * timestamps only, and no other call reports a metric's unit).
 * Decisions (spec silent):
 * - Unit: the newest datapoint's, in the spec's short form where there is one (Milliseconds ms,
 *   Seconds s, Percent %, Bytes/Second B/s; Count and None are bare numbers, null), else
 *   CloudWatch's own name (Microseconds, Bytes, Count/Second…). SampleCount counts datapoints, so
 *   its unit is null whatever the metric's. No Unit filter is sent: data of every unit is read.
 * - Region: `region`, else the agent's AWS_REGION / AWS_DEFAULT_REGION (neither: cloudwatch_error
 *   with problem region_missing). Credentials: the agent's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
 *   (+ AWS_SESSION_TOKEN) when set, else the SDK's default chain (profiles, SSO, instance role).
 *   Endpoint: AWS_ENDPOINT_URL_CLOUDWATCH, else AWS_ENDPOINT_URL, else AWS's.
 * - Window: the last max(3 periods, 15 minutes) — CloudWatch publishes with a delay — and the
 *   datapoint with the newest timestamp in it (at most 900 datapoints, under the call's 1440).
 *   Nothing in it: cloudwatch_no_data.
 * - Statistic: Average, Sum, Minimum, Maximum and SampleCount as `Statistics`, percentiles (pNN)
 *   as `ExtendedStatistics`.
 * - One attempt (no SDK retries), within ctx.defaultTimeoutMs and the probe deadline (ETIMEDOUT,
 *   there being no CloudWatch timeout code). A failure without an HTTP answer (refused,
 *   unresolvable endpoint) is cloudwatch_error with the Node code as `cause`.
 */
import {
  CloudWatchClient,
  type CloudWatchClientConfig,
  type Datapoint,
  GetMetricStatisticsCommand,
  type Statistic,
} from '@aws-sdk/client-cloudwatch';
import type { SourceConfigOf } from '../domain/source-config';
import { classifyCloudwatchError } from './cloudwatch-errors';
import { measured, noValue, readSetting, type Probe, type ProbeContext, type ProbeOutcome } from './types';

type CloudwatchConfig = SourceConfigOf<'cloudwatch'>;

const DEFAULT_PERIOD_S = 60;
const MIN_WINDOW_S = 15 * 60;
const STATISTICS: readonly string[] = ['Average', 'Sum', 'Minimum', 'Maximum', 'SampleCount'] satisfies Statistic[];

/** CloudWatch units with a short form in the spec (§2.3: ms, %, days, s, B/s, or null for a bare number). */
const SHORT_UNITS: Readonly<Record<string, string | null>> = {
  Milliseconds: 'ms',
  Seconds: 's',
  Percent: '%',
  'Bytes/Second': 'B/s',
  Count: null,
  None: null,
};

/** The unit a CloudWatch datapoint reports, as the probe reports it. */
function cloudwatchUnit(unit: string | undefined, statistic: string): string | null {
  if (!unit || statistic === 'SampleCount') return null;
  return unit in SHORT_UNITS ? SHORT_UNITS[unit]! : unit;
}

export const cloudwatchProbe: Probe<CloudwatchConfig> = async (config, ctx) => {
  const region =
    config.region ?? readSetting(ctx, 'AWS_REGION')?.trim() ?? readSetting(ctx, 'AWS_DEFAULT_REGION')?.trim();
  if (!region) return noValue('cloudwatch_error', { problem: 'region_missing' });
  const client = new CloudWatchClient(clientConfig(region, ctx));
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.defaultTimeoutMs)]);
  try {
    const period = config.period_seconds ?? DEFAULT_PERIOD_S;
    const end = new Date();
    const start = new Date(end.getTime() - Math.max(3 * period, MIN_WINDOW_S) * 1000);
    const plain = STATISTICS.includes(config.statistic);
    const out = await client.send(
      new GetMetricStatisticsCommand({
        Namespace: config.namespace,
        MetricName: config.metric_name,
        Dimensions: Object.entries(config.dimensions ?? {}).map(([Name, Value]) => ({ Name, Value })),
        StartTime: start,
        EndTime: end,
        Period: period,
        ...(plain ? { Statistics: [config.statistic as Statistic] } : { ExtendedStatistics: [config.statistic] }),
      }),
      { abortSignal: signal },
    );
    return latest(out.Datapoints ?? [], config);
  } catch (err) {
    if (signal.aborted) return noValue('ETIMEDOUT');
    const { reason, metadata } = classifyCloudwatchError(err);
    return noValue(reason, metadata);
  } finally {
    client.destroy();
  }
};

function clientConfig(region: string, ctx: ProbeContext): CloudWatchClientConfig {
  const accessKeyId = readSetting(ctx, 'AWS_ACCESS_KEY_ID')?.trim();
  const secretAccessKey = readSetting(ctx, 'AWS_SECRET_ACCESS_KEY')?.trim();
  const sessionToken = readSetting(ctx, 'AWS_SESSION_TOKEN')?.trim() || undefined;
  const endpoint =
    readSetting(ctx, 'AWS_ENDPOINT_URL_CLOUDWATCH')?.trim() ||
    readSetting(ctx, 'AWS_ENDPOINT_URL')?.trim() ||
    undefined;
  return {
    region,
    maxAttempts: 1,
    ...(endpoint ? { endpoint } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, sessionToken } } : {}),
  };
}

/** The statistic's value in a datapoint (percentiles under ExtendedStatistics). */
function statisticOf(d: Datapoint, statistic: string): number | undefined {
  return STATISTICS.includes(statistic) ? d[statistic as Statistic] : d.ExtendedStatistics?.[statistic];
}

/** The newest datapoint that holds the statistic (CloudWatch answers them in no particular order). */
function latest(datapoints: Datapoint[], config: CloudwatchConfig): ProbeOutcome {
  let newest: { at: number; value: number; unit: string | undefined } | null = null;
  for (const d of datapoints) {
    const value = statisticOf(d, config.statistic);
    const at = d.Timestamp?.getTime() ?? 0;
    if (value === undefined || value === null) continue;
    if (newest === null || at > newest.at) newest = { at, value, unit: d.Unit };
  }
  if (newest === null) return noValue('cloudwatch_no_data');
  if (!Number.isFinite(newest.value)) return noValue('non_finite_value');
  return measured(
    newest.value,
    cloudwatchUnit(newest.unit, config.statistic),
    `CloudWatch ${config.namespace} ${config.metric_name} (${config.statistic})`,
  );
}
