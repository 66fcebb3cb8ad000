import {
  REASON_CLASSES,
  REASON_CODE_CLASSES,
  VARIABLE_REASON_CLASSES,
  effectiveStatus,
  readingReasonClass,
  reasonClass,
} from '../../src/domain/reason-class';
import { LEGACY_REASON_CODES, REASON_CODES, VARIABLE_REASON_PREFIXES } from '../../src/domain/reason-codes';

/** Every reason code of the catalog is `target` or `measurement`, in one table. */
describe('reason classes', () => {
  it('classes every code of the catalog, and only codes of the catalog', () => {
    const codes = Object.keys(REASON_CODES).sort();
    expect(Object.keys(REASON_CODE_CLASSES).sort()).toEqual(codes);
    for (const code of codes) expect(REASON_CLASSES).toContain(reasonClass(code));
  });

  it('classes every prefix of the codes with a variable part', () => {
    expect(Object.keys(VARIABLE_REASON_CLASSES).sort()).toEqual([...VARIABLE_REASON_PREFIXES].sort());
    for (const prefix of VARIABLE_REASON_PREFIXES) expect(REASON_CLASSES).toContain(reasonClass(`${prefix}:x`));
  });

  it.each([
    // The target examples: the target did not answer as configured.
    ['ECONNREFUSED', 'target'],
    ['ECONNRESET', 'target'],
    ['ETIMEDOUT', 'target'],
    ['ENOTFOUND', 'target'],
    ['CERT_HAS_EXPIRED', 'target'],
    ['tls_handshake_failed', 'target'],
    ['unexpected_status:500', 'target'],
    ['unexpected_status:404', 'target'],
    ['body_mismatch', 'target'],
    ['expected_value_mismatch', 'target'],
    ['icmp_all_timeout', 'target'],
    ['grpc_unavailable', 'target'],
    ['ws_open_failed', 'target'],
    ['db_connection_failed', 'target'],
    ['loki_unreachable', 'target'],
    // The measurement examples: Vigil could not measure.
    ['header_ref_missing', 'measurement'],
    ['prometheus_url_missing', 'measurement'],
    ['invalid_config', 'measurement'],
    ['stale_agent_silent', 'measurement'],
    ['no_data', 'measurement'],
    ['icmp_privilege_denied', 'measurement'],
    ['custom_probe_error', 'measurement'],
    ['target_not_public:private', 'measurement'],
    ['target_not_public:loopback', 'measurement'],
    // Older agents' codes take the class of the code they are shown as; codes Vigil does not know are gaps.
    ['ConnectionRefused', 'target'],
    ['ERR_TLS_SOMETHING_NEW', 'target'],
    ['connection_refused', 'measurement'],
    ['made_up', 'measurement'],
  ])('%s is %s', (code, cls) => {
    expect(reasonClass(code)).toBe(cls);
  });

  it('gives every legacy code the class of its current code', () => {
    for (const [legacy, current] of Object.entries(LEGACY_REASON_CODES))
      expect(reasonClass(legacy)).toBe(REASON_CODE_CLASSES[current]);
  });

  it('carries a class only on no_data readings; a target reason counts as unhealthy for availability', () => {
    expect(reasonClass(null)).toBeNull();
    expect(readingReasonClass('no_data', 'ECONNREFUSED')).toBe('target');
    expect(readingReasonClass('no_data', null)).toBe('measurement');
    // A manual metric's status set by hand is stored with the reason `no_data`: it has no class.
    expect(readingReasonClass('healthy', 'no_data')).toBeNull();
    expect(effectiveStatus('no_data', 'ECONNREFUSED')).toBe('unhealthy');
    expect(effectiveStatus('no_data', 'stale_agent_silent')).toBe('no_data');
    expect(effectiveStatus('healthy', null)).toBe('healthy');
  });
});
