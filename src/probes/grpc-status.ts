import { status as GrpcStatus } from '@grpc/grpc-js';

/** §7.3 reason for a gRPC status the health call ended with (not OK). */
export function reasonForGrpcStatus(code: number, details: string, tls: boolean): string {
  switch (code) {
    case GrpcStatus.NOT_FOUND:
      return 'grpc_service_unknown'; // the health service's answer to a service it does not know
    case GrpcStatus.UNIMPLEMENTED:
      return 'grpc_unimplemented';
    case GrpcStatus.UNAVAILABLE:
      return tls && looksLikeTlsFailure(details) ? 'grpc_tls_failed' : 'grpc_unavailable';
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 'grpc_timeout';
    case GrpcStatus.UNAUTHENTICATED:
      return 'grpc_unauthenticated';
    case GrpcStatus.PERMISSION_DENIED:
      return 'grpc_permission_denied';
    default:
      return 'grpc_error';
  }
}

/**
 * grpc-js reports a failed TLS handshake as UNAVAILABLE with the Node/OpenSSL error in the details
 * ("No connection established. Last error: Error: unable to verify the first certificate…"); these
 * words in the last error (not in the target name, which precedes it elsewhere) tell it from a
 * refused connection or a name that did not resolve.
 */
const TLS_WORDS = /certificate|cert_|self[- ]signed|ssl|tls|handshake|altname|wrong version number|unable to verify/i;
function looksLikeTlsFailure(details: string): boolean {
  const at = details.indexOf('Last error:');
  return at >= 0 && TLS_WORDS.test(details.slice(at + 'Last error:'.length));
}

/** "UNAVAILABLE" for 14: the name of a gRPC status code. */
export const grpcStatusName = (code: number): string => GrpcStatus[code] ?? String(code);
