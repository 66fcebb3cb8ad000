import {
  type ConfigPlan,
  MAX_VALUE_LENGTH,
  NO_CHANGES,
  formatPlan,
  formatProblem,
  formatValue,
  wantsColour,
} from '../../src/cli/config-diff';

/** The human output of `vigil config plan|apply` on hand-written answers of POST /v1/config/apply. */

const PLAN: ConfigPlan = {
  dry_run: true,
  applied: false,
  prune: true,
  changed: true,
  summary: { create: 1, update: 1, delete: 1, unchanged: 3 },
  changes: [
    {
      kind: 'service',
      config_key: 'checkout',
      action: 'update',
      id: 'c0ffee00-0000-4000-8000-000000000001',
      diff: [{ field: 'name', before: 'Checkout', after: 'Checkout API' }],
    },
    {
      kind: 'metric',
      config_key: 'checkout-latency',
      action: 'create',
      id: null,
      diff: [
        { field: 'name', before: null, after: 'Latency' },
        { field: 'source_config.url', before: null, after: 'https://example.com' },
        { field: 'thresholds.healthy_value', before: null, after: 300 },
      ],
    },
    {
      kind: 'slo',
      config_key: 'checkout-avail',
      action: 'unchanged',
      id: 'c0ffee00-0000-4000-8000-000000000002',
      diff: [],
    },
    { kind: 'slo', config_key: 'old', action: 'delete', id: 'c0ffee00-0000-4000-8000-000000000003', diff: [] },
  ],
  warnings: [{ path: 'metrics[0].agent', message: 'The agent edge-1 is offline' }],
  secrets: [],
};

const plain = (plan: ConfigPlan) => formatPlan(plan, { colour: false });

describe('formatPlan', () => {
  it('lists creates with their fields, updates with before → after, deletes by name, and a summary', () => {
    const { out } = plain(PLAN);
    expect(out).toEqual([
      '~ service checkout',
      '    name: "Checkout" → "Checkout API"',
      '+ metric checkout-latency',
      '    name: "Latency"',
      '    source_config.url: "https://example.com"',
      '    thresholds.healthy_value: 300',
      '- slo old',
      '',
      'Plan: 1 to create, 1 to update, 1 to delete, 3 unchanged.',
    ]);
  });

  it('leaves unchanged items out (they are only counted)', () => {
    expect(plain(PLAN).out.join('\n')).not.toContain('checkout-avail');
  });

  it('sends warnings to stderr, with their path', () => {
    expect(plain(PLAN).err).toEqual(['warning: metrics[0].agent: The agent edge-1 is offline']);
    expect(plain({ ...PLAN, warnings: [{ path: '', message: 'Whole document' }] }).err).toEqual([
      'warning: Whole document',
    ]);
  });

  it('says so when nothing changes', () => {
    const same: ConfigPlan = {
      ...PLAN,
      changed: false,
      summary: { create: 0, update: 0, delete: 0, unchanged: 4 },
      changes: PLAN.changes.map((c) => ({ ...c, action: 'unchanged', diff: [] })),
      warnings: [],
    };
    expect(plain(same)).toEqual({ out: [NO_CHANGES], err: [] });
    expect(NO_CHANGES).toBe('No changes. The configuration matches the document.');
  });

  it('summarises an apply in the past tense and shows the new webhook secrets once, labelled', () => {
    const applied: ConfigPlan = {
      ...PLAN,
      dry_run: false,
      applied: true,
      summary: { create: 2, update: 0, delete: 0, unchanged: 0 },
      changes: [
        {
          kind: 'webhook',
          config_key: 'ops-hook',
          action: 'create',
          id: 'c0ffee00-0000-4000-8000-000000000004',
          diff: [{ field: 'url', before: null, after: 'https://hooks.example.com/x' }],
        },
      ],
      secrets: [{ config_key: 'ops-hook', webhook_id: 'c0ffee00-0000-4000-8000-000000000004', secret: 'whsec_abc' }],
    };
    const out = plain(applied).out;
    expect(out).toContain('Applied: 2 created, 0 updated, 0 deleted, 0 unchanged.');
    expect(out.filter((l) => l.includes('whsec_abc'))).toEqual([
      '  ops-hook (webhook c0ffee00-0000-4000-8000-000000000004): whsec_abc',
    ]);
    expect(out.join('\n')).toMatch(/shown once/);
  });

  it('names an item without a config_key by its name and id, and shows new inbound URLs once', () => {
    const applied: ConfigPlan = {
      ...PLAN,
      dry_run: false,
      applied: true,
      summary: { create: 1, update: 0, delete: 1, unchanged: 0 },
      changes: [
        {
          kind: 'metric',
          config_key: null,
          name: 'Hand-made',
          action: 'delete',
          id: 'c0ffee00-0000-4000-8000-000000000006',
          diff: [],
        },
        {
          kind: 'metric',
          config_key: 'cron',
          name: 'Cron',
          action: 'create',
          id: 'c0ffee00-0000-4000-8000-000000000007',
          diff: [],
        },
      ],
      inbound_urls: [
        {
          config_key: 'cron',
          metric_id: 'c0ffee00-0000-4000-8000-000000000007',
          url: 'https://vigil.example/v1/heartbeats/hb_x',
        },
      ],
    };
    const out = plain(applied).out;
    expect(out[0]).toBe('- metric "Hand-made" (c0ffee00-0000-4000-8000-000000000006)');
    expect(out.slice(-2)).toEqual([
      'Inbound URLs of the new heartbeat and alert metrics (shown once; store them now):',
      '  cron (metric c0ffee00-0000-4000-8000-000000000007): https://vigil.example/v1/heartbeats/hb_x',
    ]);
  });

  it('prints values as JSON: null for an absent one, objects and arrays inline', () => {
    const update: ConfigPlan = {
      ...PLAN,
      summary: { create: 0, update: 1, delete: 0, unchanged: 0 },
      changes: [
        {
          kind: 'metric',
          config_key: 'm',
          action: 'update',
          id: 'c0ffee00-0000-4000-8000-000000000005',
          diff: [
            { field: 'agent', before: null, after: 'edge-1' },
            { field: 'source_config.headers', before: { a: '1' }, after: ['x', 2, true] },
          ],
        },
      ],
    };
    expect(plain(update).out.slice(0, 3)).toEqual([
      '~ metric m',
      '    agent: null → "edge-1"',
      '    source_config.headers: {"a":"1"} → ["x",2,true]',
    ]);
  });

  it('colours the change lines only when asked to', () => {
    expect(plain(PLAN).out.join('\n')).not.toMatch(/\u001b\[/);
    const coloured = formatPlan(PLAN, { colour: true }).out;
    expect(coloured[0]).toBe('\u001b[33m~ service checkout\u001b[0m');
    expect(coloured).toContain('\u001b[32m+ metric checkout-latency\u001b[0m');
    expect(coloured).toContain('\u001b[31m- slo old\u001b[0m');
  });
});

describe('formatValue', () => {
  it('truncates long values with an ellipsis', () => {
    const long = 'x'.repeat(500);
    const shown = formatValue(long);
    expect(shown).toHaveLength(MAX_VALUE_LENGTH);
    expect(shown.startsWith('"xxx')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
    expect(formatValue('x'.repeat(MAX_VALUE_LENGTH - 2))).toBe(`"${'x'.repeat(MAX_VALUE_LENGTH - 2)}"`);
  });

  it('keeps a long diff line readable', () => {
    const plan: ConfigPlan = {
      ...PLAN,
      changes: [
        {
          kind: 'metric',
          config_key: 'm',
          action: 'create',
          id: null,
          diff: [{ field: 'source_config.query', before: null, after: 'q'.repeat(1000) }],
        },
      ],
    };
    expect(plain(plan).out[1]!.length).toBeLessThanOrEqual('    source_config.query: '.length + MAX_VALUE_LENGTH);
  });
});

describe('wantsColour', () => {
  it('colours a terminal only, and never with NO_COLOR', () => {
    expect(wantsColour(true, {})).toBe(true);
    expect(wantsColour(false, {})).toBe(false);
    expect(wantsColour(undefined, {})).toBe(false);
    expect(wantsColour(true, { NO_COLOR: '1' })).toBe(false);
  });
});

describe('formatProblem', () => {
  it('lists every path of a config_invalid answer, the document as a whole included', () => {
    const lines = formatProblem({
      title: 'config_invalid',
      status: 400,
      detail: 'The document has 2 problems.',
      errors: [
        { path: 'metrics[3].thresholds.healthy_value', message: 'Required' },
        { path: '', message: 'YAML syntax error at line 4' },
      ],
      warnings: [{ path: 'metrics[0].agent', message: 'offline' }],
    });
    expect(lines).toEqual([
      'error: config_invalid: The document has 2 problems.',
      '  metrics[3].thresholds.healthy_value: Required',
      '  (document): YAML syntax error at line 4',
      'warning: metrics[0].agent: offline',
    ]);
  });

  it('names what still uses an item a prune would delete', () => {
    const lines = formatProblem({
      title: 'in_use',
      detail: 'The metric is used by 1 SLO and 1 status page; remove it from them first.',
      referenced_by: {
        slos: [{ id: 'u1', config_key: 'avail', name: 'Availability' }],
        pages: [{ id: 'u2', config_key: null, name: 'Status' }],
        subscribers: 3,
      },
    });
    expect(lines).toEqual([
      'error: in_use: The metric is used by 1 SLO and 1 status page; remove it from them first.',
      '  used by SLO "Availability" (avail)',
      '  shown on status page "Status" (u2)',
      '  3 status page subscriber(s) would be affected',
    ]);
  });

  it('states the quota that was reached and the upgrade', () => {
    const lines = formatProblem({
      title: 'quota_exceeded',
      detail: 'The Free plan allows 3 metrics; 3 exist.',
      quota: { capability: 'metrics', used: 3, cap: 3, plan: 'free' },
      upgrade: { plan: 'team', label: 'Upgrade to Team', url: 'https://vigil.example/pricing#team' },
    });
    expect(lines).toEqual([
      'error: quota_exceeded: The Free plan allows 3 metrics; 3 exist.',
      '  quota: metrics: 3 used, limit 3 on the free plan',
      '  Upgrade to Team: https://vigil.example/pricing#team',
    ]);
  });

  it('shows a bare title, and when to retry', () => {
    expect(formatProblem({ title: 'rate_limited', retry_after: 12 })).toEqual([
      'error: rate_limited',
      '  retry after 12 s',
    ]);
  });
});
