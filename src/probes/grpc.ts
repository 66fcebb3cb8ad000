/**
 * gRPC probe: one call of the standard health checking protocol (grpc.health.v1.Health/Check).
 * health_state (default) gives 1 for SERVING and 0 for NOT_SERVING — a measured 0, not an error;
 * latency gives the round trip of the Check call in ms, whatever serving status it answers.
 * Decisions (spec silent):
 * - `ca_cert_ref` names a variable holding the CA as PEM text (starting with -----BEGIN) or as the
 *   path of a PEM file; a CA implies TLS when `tls` is not set. Without a CA, TLS verifies against
 *   the system store.
 * - `metadata_refs` keys are sent lowercased; a `-bin` key takes its variable as base64.
 * - The channel is closed after every run; nothing is cached between runs.
 */
import { Client, status as GrpcStatus, type Metadata, type ServiceError } from '@grpc/grpc-js';
import type { SourceConfigOf } from '../domain/source-config';
import { elapsedMs, reasonForError } from './errors';
import { grpcCredentials, usesTls } from './grpc-credentials';
import {
  decodeHealthCheckResponse,
  encodeHealthCheckRequest,
  HEALTH_CHECK_PATH,
  SERVING_STATUS,
} from './grpc-health-codec';
import { resolveGrpcMetadata } from './grpc-metadata';
import { grpcStatusName, reasonForGrpcStatus } from './grpc-status';
import { measured, noValue, ProbeFailure, type Probe, type ProbeContext } from './types';

type GrpcConfig = SourceConfigOf<'grpc'>;

const CHANNEL_OPTIONS = {
  'grpc.max_receive_message_length': 64 * 1024,
  'grpc.service_config_disable_resolution': 1,
  'grpc.enable_retries': 0,
};
const MAX_DETAILS = 200;

export const grpcProbe: Probe<GrpcConfig> = async (config, ctx) => {
  if (ctx.mode === 'cloud') return noValue('source_not_allowed_in_prober');
  try {
    const metadata = resolveGrpcMetadata(config.metadata_refs, (name) => ctx.env(name));
    const creds = await grpcCredentials(config, (name) => ctx.env(name));
    const client = new Client(config.target, creds, CHANNEL_OPTIONS);
    try {
      const startedAt = performance.now();
      const { status } = await check(
        client,
        config.service ?? '',
        metadata,
        config.timeout_ms ?? ctx.defaultTimeoutMs,
        ctx,
        usesTls(config),
      );
      const latency = elapsedMs(startedAt);
      if (config.interpretation === 'latency') return measured(latency, 'ms', 'gRPC health check round trip');
      return healthState(status);
    } finally {
      client.close();
    }
  } catch (err) {
    if (err instanceof ProbeFailure) return noValue(err.reason, err.metadata);
    return noValue(reasonForError(err, 'grpc_error'));
  }
};

function healthState(status: number) {
  if (status === SERVING_STATUS.SERVING) return measured(1, null, 'gRPC health state (1 SERVING, 0 NOT_SERVING)');
  if (status === SERVING_STATUS.NOT_SERVING) return measured(0, null, 'gRPC health state (1 SERVING, 0 NOT_SERVING)');
  if (status === SERVING_STATUS.UNKNOWN) return noValue('grpc_health_unknown', { health_status: 'UNKNOWN' });
  if (status === SERVING_STATUS.SERVICE_UNKNOWN)
    return noValue('grpc_service_unknown', { health_status: 'SERVICE_UNKNOWN' });
  return noValue('grpc_error', { health_status: status });
}

/** The Check call with a deadline; an abort of ctx.signal cancels it (→ grpc_timeout). */
function check(
  client: Client,
  service: string,
  metadata: Metadata,
  timeoutMs: number,
  ctx: ProbeContext,
  tls: boolean,
): Promise<{ status: number }> {
  if (ctx.signal.aborted) return Promise.reject(new ProbeFailure('grpc_timeout', { aborted: true }));
  return new Promise((resolve, reject) => {
    let aborted = false;
    const call = client.makeUnaryRequest(
      HEALTH_CHECK_PATH,
      encodeHealthCheckRequest,
      decodeHealthCheckResponse,
      service,
      metadata,
      { deadline: Date.now() + timeoutMs },
      (err: ServiceError | null, response?: { status: number }) => {
        ctx.signal.removeEventListener('abort', onAbort);
        if (aborted) reject(new ProbeFailure('grpc_timeout', { aborted: true }));
        else if (err) reject(failureFor(err, tls));
        else if (!response) reject(new ProbeFailure('grpc_error', { grpc_status: 'OK', message: 'empty response' }));
        else resolve(response);
      },
    );
    const onAbort = () => {
      aborted = true;
      call.cancel();
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}

function failureFor(err: ServiceError, tls: boolean): ProbeFailure {
  const details = String(err.details ?? '')
    .replace(/\s*Resolution note:\s*$/, '')
    .trim();
  const reason = reasonForGrpcStatus(err.code, details, tls);
  const facts: Record<string, string | number> = { grpc_status: grpcStatusName(err.code) };
  if (err.code !== GrpcStatus.DEADLINE_EXCEEDED && details) facts.message = details.slice(0, MAX_DETAILS);
  return new ProbeFailure(reason, facts);
}
