import { cloudwatchProbe } from './cloudwatch';
import { databaseProbe } from './database';
import { dnsProbe } from './dns';
import { elasticsearchProbe } from './elasticsearch';
import { grpcProbe } from './grpc';
import { hostProbe } from './host';
import { httpProbe, mtlsHttpProbe } from './http';
import { icmpProbe } from './icmp';
import { lokiProbe } from './loki';
import { prometheusProbe } from './prometheus';
import type { ProbeRegistry } from './run-probe';
import { tcpProbe } from './tcp';
import { tlsCertProbe } from './tls-cert';
import { websocketProbe } from './websocket';

/** Every probe module by source_type (agent and cloud share them). */
export const PROBES: ProbeRegistry = {
  http: httpProbe,
  mtls_http: mtlsHttpProbe,
  tcp: tcpProbe,
  dns: dnsProbe,
  icmp: icmpProbe,
  tls_cert: tlsCertProbe,
  grpc: grpcProbe,
  websocket: websocketProbe,
  database: databaseProbe,
  host: hostProbe,
  prometheus: prometheusProbe,
  loki: lokiProbe,
  elasticsearch: elasticsearchProbe,
  cloudwatch: cloudwatchProbe,
};
