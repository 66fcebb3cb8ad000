import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  type CustomProbeRegistry,
  customProbeTimeoutMs,
  loadCustomProbes,
  loadCustomProbesFromEnv,
  runCustomProbe,
} from '../../src/agent/custom-probes';

/**
 * Real modules written to a temp directory and loaded the way the agent loads
 * VIGIL_CUSTOM_PROBES_MODULE: one CommonJS, one ESM.
 */

const CJS = `
exports.queueDepth = async () => 42;
exports.withMetadata = async (config, { env }) => ({ value: config.n * 2, metadata: { queue: env.QUEUE_NAME, nested: { x: 1 } } });
exports.syncValue = () => 7;
exports.throws = async () => { throw new Error('backend said no'); };
exports.configError = async () => { const e = new Error('threshold missing'); e.name = 'ConfigError'; throw e; };
exports.hangs = (config, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => { globalThis.__vigilAborted = true; }));
exports.returnsString = async () => '42';
exports.returnsNaN = async () => NaN;
exports.returnsInfinity = async () => ({ value: Infinity });
exports.badMetadata = async () => ({ value: 1, metadata: 'not an object' });
exports.notAFunction = 3;
`;

const ESM = `
export async function fromEsm() { return { value: 5, metadata: { kind: 'esm' } }; }
export default { fromDefault: async () => 6 };
`;

let dir: string;
let registry: CustomProbeRegistry;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-custom-probes-'));
  writeFileSync(path.join(dir, 'probes.js'), CJS);
  writeFileSync(path.join(dir, 'probes.mjs'), ESM);
  registry = await loadCustomProbes(path.join(dir, 'probes.js'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadCustomProbes', () => {
  it('registers the named functions of a CommonJS module, nothing else', () => {
    expect([...registry.keys()].sort()).toEqual([
      'badMetadata',
      'configError',
      'hangs',
      'queueDepth',
      'returnsInfinity',
      'returnsNaN',
      'returnsString',
      'syncValue',
      'throws',
      'withMetadata',
    ]);
  });

  // Jest's module system cannot load ESM, so this runs where the agent runs: a plain Node process.
  it('registers the named and default-object functions of an ESM module', async () => {
    const script = path.join(dir, 'load-esm.js');
    writeFileSync(
      script,
      `
      const { loadCustomProbes, runCustomProbe } = require(${JSON.stringify(path.resolve(__dirname, '../../src/agent/custom-probes.ts'))});
      loadCustomProbes(${JSON.stringify(path.join(dir, 'probes.mjs'))}).then(async (r) => {
        process.stdout.write(JSON.stringify({ names: [...r.keys()].sort(), outcome: await runCustomProbe(r, 'fromEsm', {}) }));
      });`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      cwd: path.resolve(__dirname, '../..'),
    });
    const { names, outcome } = JSON.parse(stdout) as { names: string[]; outcome: unknown };
    expect(names).toEqual(['fromDefault', 'fromEsm']);
    expect(outcome).toMatchObject({ value: 5, reason: null, metadata: { kind: 'esm' } });
  });

  it('reads the module path from VIGIL_CUSTOM_PROBES_MODULE, an empty registry when unset', async () => {
    expect(
      (await loadCustomProbesFromEnv({ VIGIL_CUSTOM_PROBES_MODULE: path.join(dir, 'probes.js') })).has('queueDepth'),
    ).toBe(true);
    expect((await loadCustomProbesFromEnv({})).size).toBe(0);
  });

  it('throws when the module does not exist', async () => {
    await expect(loadCustomProbes(path.join(dir, 'missing.js'))).rejects.toMatchObject({ code: 'MODULE_NOT_FOUND' });
  });
});

describe('runCustomProbe', () => {
  it('answers the number a probe returns, any unit', async () => {
    expect(await runCustomProbe(registry, 'queueDepth', {})).toEqual({
      value: 42,
      unit: null,
      value_description: 'custom probe queueDepth',
      reason: null,
    });
  });

  it('answers { value, metadata } with the agent environment and the config, keeping scalar metadata', async () => {
    const o = await runCustomProbe(registry, 'withMetadata', { n: 21 }, { env: { QUEUE_NAME: 'orders' } });
    expect(o).toMatchObject({ value: 42, reason: null, metadata: { queue: 'orders' } });
    expect(o.metadata).not.toHaveProperty('nested');
  });

  it('accepts a synchronous function', async () => {
    expect((await runCustomProbe(registry, 'syncValue', {})).value).toBe(7);
  });

  it('answers custom_probe_not_found for a name not registered', async () => {
    expect(await runCustomProbe(registry, 'nope', {})).toMatchObject({
      value: null,
      reason: 'custom_probe_not_found',
      metadata: { probe: 'nope' },
    });
    expect((await runCustomProbe(new Map(), 'queueDepth', {})).reason).toBe('custom_probe_not_found');
  });

  it('answers custom_probe_config_invalid when the config is not an object', async () => {
    for (const config of [null, [1], 'x', 3]) {
      expect((await runCustomProbe(registry, 'queueDepth', config)).reason).toBe('custom_probe_config_invalid');
    }
  });

  it('answers custom_probe_config_invalid when the probe throws a ConfigError', async () => {
    expect(await runCustomProbe(registry, 'configError', {})).toMatchObject({
      value: null,
      reason: 'custom_probe_config_invalid',
      metadata: { error: 'threshold missing' },
    });
  });

  it('answers custom_probe_error with metadata.error and the first lines of metadata.stack', async () => {
    const o = await runCustomProbe(registry, 'throws', {});
    expect(o).toMatchObject({ value: null, reason: 'custom_probe_error', metadata: { error: 'backend said no' } });
    const stack = String(o.metadata?.stack);
    expect(stack).toMatch(/^Error: backend said no\n\s+at /);
    expect(stack).toContain('probes.js');
    expect(stack.split('\n').length).toBeLessThanOrEqual(5);
  });

  it('answers custom_probe_timeout after timeoutMs and aborts the signal', async () => {
    // 'hangs' never settles: only the timeout can answer, so the reason is the proof (no wall-clock bound needed).
    const o = await runCustomProbe(registry, 'hangs', {}, { timeoutMs: 100 });
    expect(o).toMatchObject({ value: null, reason: 'custom_probe_timeout', metadata: { timeout_ms: 100 } });
    expect((globalThis as { __vigilAborted?: boolean }).__vigilAborted).toBe(true);
  });

  it('caps the timeout at 30 s (10 s when none or a non-finite one is given)', async () => {
    expect([120_000, 30_001, 30_000, 250, 0, undefined, NaN].map(customProbeTimeoutMs)).toEqual([
      30_000, 30_000, 30_000, 250, 1, 10_000, 10_000,
    ]);
    expect((await runCustomProbe(registry, 'queueDepth', {}, { timeoutMs: 120_000 })).value).toBe(42);
  });

  it('answers custom_probe_bad_return for a string or malformed metadata', async () => {
    expect(await runCustomProbe(registry, 'returnsString', {})).toMatchObject({
      value: null,
      reason: 'custom_probe_bad_return',
      metadata: { returned: 'string' },
    });
    expect((await runCustomProbe(registry, 'badMetadata', {})).reason).toBe('custom_probe_bad_return');
  });

  it('answers non_finite_value for NaN or infinity', async () => {
    expect(await runCustomProbe(registry, 'returnsNaN', {})).toMatchObject({ value: null, reason: 'non_finite_value' });
    expect((await runCustomProbe(registry, 'returnsInfinity', {})).reason).toBe('non_finite_value');
  });
});
