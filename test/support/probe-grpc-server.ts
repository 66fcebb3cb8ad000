import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** The standard health.proto (grpc/grpc-proto), loaded with proto-loader so the probe's hand-written codec meets a real one. */
const HEALTH_PROTO = `
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
`;

function healthService(): grpc.ServiceDefinition {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-health-proto-'));
  try {
    const file = path.join(dir, 'health.proto');
    writeFileSync(file, HEALTH_PROTO);
    const def = protoLoader.loadSync(file, { keepCase: true, enums: Number, defaults: true });
    const pkg = grpc.loadPackageDefinition(def) as unknown as {
      grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
    };
    return pkg.grpc.health.v1.Health.service;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per service name, what Check answers: a serving status, an error status, or nothing at all. */
export const HEALTH_TOKEN = 'test-token-7f3a';
const STATUSES: Record<string, number> = {
  '': 1,
  'vigil.Up': 1,
  'vigil.Down': 2,
  'vigil.Unset': 0,
  'vigil.WatchOnly': 3,
};

const check: grpc.handleUnaryCall<{ service: string }, { status: number }> = (call, callback) => {
  const service = call.request.service;
  if (service === 'vigil.Hang') return; // never answers
  if (service === 'vigil.Broken') return callback({ code: grpc.status.INTERNAL, details: 'health backend crashed' });
  if (service === 'vigil.Secured') {
    const token = call.metadata.get('x-token')[0];
    if (token === undefined) return callback({ code: grpc.status.UNAUTHENTICATED, details: 'missing x-token' });
    if (token !== HEALTH_TOKEN) return callback({ code: grpc.status.PERMISSION_DENIED, details: 'bad x-token' });
    return callback(null, { status: 1 });
  }
  const status = STATUSES[service];
  if (status === undefined) return callback({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
  callback(null, { status });
};

export interface TestGrpcServer {
  target: string;
  port: number;
  close(): Promise<void>;
}

/** A grpc-js server on 127.0.0.1:0; with `health: false` it serves nothing (every call is UNIMPLEMENTED). */
export async function startGrpcServer(
  opts: { health?: boolean; tls?: { cert: Buffer; key: Buffer } } = {},
): Promise<TestGrpcServer> {
  const server = new grpc.Server();
  if (opts.health !== false)
    server.addService(healthService(), {
      Check: check,
      Watch: (call: grpc.ServerWritableStream<unknown, unknown>) => call.end(),
    });
  const creds = opts.tls
    ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: opts.tls.cert, private_key: opts.tls.key }])
    : grpc.ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', creds, (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    target: `127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
