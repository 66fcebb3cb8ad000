import { ProblemError } from '../../domain/error-catalog';
import { isUuid } from '../../domain/ids';
import {
  ALL_SOURCE_TYPES,
  type TestableSourceType,
  isTestableSourceType,
  validateSourceConfig,
} from '../../domain/source-config';
import { THRESHOLD_OPERATIONS, type Thresholds } from '../../domain/thresholds';

export interface ProbeTestRequest {
  agentId: string | null;
  sourceType: TestableSourceType;
  sourceConfig: Record<string, unknown>;
  thresholds: Thresholds | null;
  waitSeconds: number;
}

const THRESHOLD_FIELDS = ['healthy_operation', 'healthy_value', 'unhealthy_operation', 'unhealthy_value'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a ProbeTestRequest (spec §2.2) with the error tokens of §7.2, checked in the order the
 * fields are listed, so a client learns the first thing to fix by its token: invalid_json →
 * invalid_agent_id → invalid_source_type / unsupported_source_type → invalid_probe_config →
 * invalid_thresholds → invalid_wait_seconds. Top-level fields other than the five are ignored
 * (the spec has no token for them, and the OpenAPI schema allows them).
 */
export function parseProbeTestRequest(body: unknown): ProbeTestRequest {
  if (!isObject(body)) throw new ProblemError('invalid_json', 'The body must be a JSON object.');
  const { agent_id, source_type, source_config, thresholds, wait_seconds } = body;
  if (agent_id !== undefined && agent_id !== null && (typeof agent_id !== 'string' || !isUuid(agent_id))) {
    throw new ProblemError('invalid_agent_id', 'agent_id must be a UUID (or null for a cloud check).', {
      errors: [{ path: 'agent_id', message: 'Expected a UUID' }],
    });
  }
  if (typeof source_type !== 'string' || !(ALL_SOURCE_TYPES as readonly string[]).includes(source_type)) {
    throw new ProblemError('invalid_source_type', `source_type must be one of ${ALL_SOURCE_TYPES.join(', ')}.`, {
      errors: [{ path: 'source_type', message: source_type === undefined ? 'Required' : 'Unknown source type' }],
    });
  }
  if (!isTestableSourceType(source_type)) {
    throw new ProblemError(
      'unsupported_source_type',
      `${source_type} metrics cannot be tested: they are pushed or set by hand, not probed.`,
      {
        errors: [{ path: 'source_type', message: 'Cannot be tested' }],
      },
    );
  }
  if (!isObject(source_config)) {
    throw new ProblemError('invalid_probe_config', 'source_config must be an object.', {
      errors: [{ path: 'source_config', message: 'Expected an object' }],
    });
  }
  const config = validateSourceConfig(source_type, source_config);
  if (!config.ok)
    throw new ProblemError('invalid_probe_config', `source_config is not valid for ${source_type}.`, {
      errors: config.errors,
    });
  return {
    agentId: typeof agent_id === 'string' ? agent_id.toLowerCase() : null,
    sourceType: source_type,
    sourceConfig: config.config,
    thresholds: parseThresholds(thresholds),
    waitSeconds: parseWaitSeconds(wait_seconds),
  };
}

function parseThresholds(t: unknown): Thresholds | null {
  if (t === undefined || t === null) return null;
  const errors: { path: string; message: string }[] = [];
  if (!isObject(t)) errors.push({ path: 'thresholds', message: 'Expected an object' });
  else {
    for (const k of Object.keys(t))
      if (!THRESHOLD_FIELDS.includes(k)) errors.push({ path: `thresholds.${k}`, message: 'Unknown field' });
    for (const k of ['healthy_operation', 'unhealthy_operation']) {
      if (t[k] !== undefined && !(THRESHOLD_OPERATIONS as readonly unknown[]).includes(t[k]))
        errors.push({ path: `thresholds.${k}`, message: 'Expected over, under or equal' });
    }
    for (const k of ['healthy_value', 'unhealthy_value']) {
      if (t[k] !== undefined && (typeof t[k] !== 'number' || !Number.isFinite(t[k])))
        errors.push({ path: `thresholds.${k}`, message: 'Expected a finite number' });
    }
  }
  if (errors.length) throw new ProblemError('invalid_thresholds', 'thresholds are out of shape.', { errors });
  return t;
}

function parseWaitSeconds(w: unknown): number {
  if (w === undefined) return 20;
  if (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w > 20) {
    throw new ProblemError('invalid_wait_seconds', 'wait_seconds must be an integer from 0 to 20.', {
      errors: [{ path: 'wait_seconds', message: 'Expected an integer 0..20' }],
    });
  }
  return w;
}
