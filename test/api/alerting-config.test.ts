import { randomUUID } from 'node:crypto';
import {
  ConsoleUserSchema,
  IdempotencyRecordSchema,
  NotificationAttemptSchema,
  NotificationChannelSchema,
  NotificationSendSchema,
  ProbeLocationSchema,
} from '../../src/db/entities';
import { openChannelSecret } from '../../src/usecases/alerting/channel-secrets';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testSecretBox } from '../support/env';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture<'reader' | 'config', 'checkout'>;
let other: OrgFixture;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, {
    keys: { reader: ['read:alerts'], config: ['read:config', 'write:config'] },
    services: ['checkout'],
  });
  other = await orgWithKeys(api);
  await addConsoleUser(org.id, 'oncall@example.com');
  await addConsoleUser(other.id, 'elsewhere@example.com');
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);
const PD_KEY = 'abcdefghijklmnopqrstuvwxyz012345';
const SLACK_URL = 'https://hooks.slack.com/services/T000/B000/XXXXSECRETXXXX';

async function addConsoleUser(orgId: string, email: string, disabled = false) {
  const em = api.orm.em.fork();
  em.create(ConsoleUserSchema, {
    id: randomUUID(),
    organization: orgId,
    email,
    role: 'operator',
    createdAt: new Date(),
    lastSignInAt: null,
    disabledAt: disabled ? new Date() : null,
  });
  await em.flush();
}

const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);

async function channel(
  c: Call = call,
  body: Record<string, unknown> = { name: 'pager', type: 'pagerduty', routing_key: PD_KEY },
): Promise<string> {
  const res = await c('POST', '/v1/notification-channels', body);
  if (res.status !== 201) throw new Error(`channel: ${res.status} ${res.text}`);
  return res.body.id;
}

async function policy(c: Call, channelId: string): Promise<string> {
  const res = await c('POST', '/v1/escalation-policies', {
    name: 'default',
    levels: [{ delay_minutes: 5, targets: [{ type: 'channel', id: channelId }] }],
  });
  if (res.status !== 201) throw new Error(`policy: ${res.status} ${res.text}`);
  return res.body.id;
}

async function schedule(c: Call = call, participant = 'oncall@example.com'): Promise<string> {
  const res = await c('POST', '/v1/on-call/schedules', {
    name: 'primary',
    timezone: 'Europe/Berlin',
    layers: [
      {
        name: 'weekly',
        rotation: { kind: 'weekly', handoff_time: '09:00', starts_on: '2026-01-05', participants: [participant] },
      },
    ],
  });
  if (res.status !== 201) throw new Error(`schedule: ${res.status} ${res.text}`);
  return res.body.id;
}

describe('/v1/notification-channels', () => {
  it('creates each type, showing settings and a hint but never the secret, in reads, lists and PATCH answers', async () => {
    const bodies = [
      { name: 'ops mail', type: 'email', addresses: ['ops@example.com', 'ops@example.com', 'cto@example.com'] },
      { name: 'slack', type: 'slack', url: SLACK_URL },
      { name: 'teams', type: 'teams', url: 'https://prod.westeurope.logic.azure.com/workflows/SECRETTEAMS' },
      { name: 'discord', type: 'discord', url: 'https://discord.com/api/webhooks/1/SECRETDISCORD' },
      { name: 'pager', type: 'pagerduty', routing_key: PD_KEY },
      { name: 'genie', type: 'opsgenie', api_key: 'b0c0ffee-0000-4000-8000-SECRETGENIE1', region: 'eu' },
    ];
    const secrets = ['XXXXSECRETXXXX', 'SECRETTEAMS', 'SECRETDISCORD', PD_KEY, 'SECRETGENIE1'];
    const created = [];
    for (const body of bodies) {
      const res = await call('POST', '/v1/notification-channels', body);
      expect(res.status).toBe(201);
      expect(res.body.signing_secret).toBeUndefined();
      created.push(res.body);
    }
    expect(created.map((c) => [c.type, c.settings, c.secret_hint, c.enabled])).toEqual([
      ['email', { addresses: ['ops@example.com', 'cto@example.com'] }, null, true],
      ['slack', {}, 'hooks.slack.com', true],
      ['teams', {}, 'prod.westeurope.logic.azure.com', true],
      ['discord', {}, 'discord.com', true],
      ['pagerduty', {}, '…2345', true],
      ['opsgenie', { region: 'eu' }, '…NIE1', true],
    ]);
    const answers = [
      ...created.map((c) => JSON.stringify(c)),
      (await call('GET', '/v1/notification-channels?limit=200')).text,
      ...(await Promise.all(created.map(async (c) => (await call('GET', `/v1/notification-channels/${c.id}`)).text))),
      (await call('PATCH', `/v1/notification-channels/${created[1].id}`, { name: 'slack #ops' })).text,
    ];
    for (const text of answers) for (const s of secrets) expect(text).not.toContain(s);
    const row = await api.orm.em.fork().findOneOrFail(NotificationChannelSchema, created[1].id);
    expect(row.sealedSecret).not.toContain('SECRET');
    expect(openChannelSecret(testSecretBox(), row.sealedSecret ?? null)).toEqual({ url: SLACK_URL });
    expect((await call('GET', `/v1/notification-channels/${created[5].id}`)).body.settings).toEqual({ region: 'eu' });
    const us = await call('POST', '/v1/notification-channels', {
      name: 'genie us',
      type: 'opsgenie',
      api_key: 'k-1234',
    });
    expect(us.body.settings).toEqual({ region: 'us' });
  });

  it("answers a webhook channel's signing secret once, also on an Idempotency-Key replay, without recording it", async () => {
    const body = { name: 'hook', type: 'webhook', url: 'https://receiver.example.com/vigil?token=SECRETHOOK' };
    const headers = { 'idempotency-key': 'channel-hook-1' };
    const first = await call('POST', '/v1/notification-channels', body, headers);
    const again = await call('POST', '/v1/notification-channels', body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(first.body.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(again.body.signing_secret).toBe(first.body.signing_secret);
    expect(first.body.secret_hint).toBe('receiver.example.com');
    const read = await call('GET', `/v1/notification-channels/${first.body.id}`);
    expect(read.body.signing_secret).toBeUndefined();
    expect(read.text).not.toContain(first.body.signing_secret.slice(6));
    expect(read.text).not.toContain('SECRETHOOK');
    const record = await api.orm.em
      .fork()
      .findOneOrFail(IdempotencyRecordSchema, { organization: org.id, key: 'channel-hook-1' });
    expect(JSON.stringify(record.responseBody)).not.toContain(first.body.signing_secret.slice(6));

    // A new URL replaces the URL; the signing secret stays.
    const patched = await call('PATCH', `/v1/notification-channels/${first.body.id}`, {
      url: 'https://other.example.com/in',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.secret_hint).toBe('other.example.com');
    expect(patched.body.signing_secret).toBeUndefined();
    const row = await api.orm.em.fork().findOneOrFail(NotificationChannelSchema, first.body.id);
    expect(openChannelSecret(testSecretBox(), row.sealedSecret ?? null)).toEqual({
      url: 'https://other.example.com/in',
      signing_secret: first.body.signing_secret,
    });
  });

  it('answers 400 validation_failed naming the field: a non-http URL, a short routing key, a bad address, unknown fields, a field of another type', async () => {
    for (const url of [
      'ftp://files.example.com/in',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'gopher://127.0.0.1:6379/_INFO',
    ]) {
      const res = await call('POST', '/v1/notification-channels', { name: 'x', type: 'slack', url });
      expect(res.status).toBe(400);
      expect(res.body.title).toBe('validation_failed');
      expect(paths(res)).toEqual(['url']);
    }
    expect(
      paths(
        await call('POST', '/v1/notification-channels', { name: 'x', type: 'webhook', url: 'ftp://x.example.com/' }),
      ),
    ).toEqual(['url']);
    expect(
      paths(
        await call('POST', '/v1/notification-channels', { name: 'x', type: 'pagerduty', routing_key: PD_KEY.slice(1) }),
      ),
    ).toEqual(['routing_key']);
    expect(
      paths(
        await call('POST', '/v1/notification-channels', {
          name: 'x',
          type: 'email',
          addresses: ['ops@example.com', 'not an address'],
        }),
      ),
    ).toEqual(['addresses.1']);
    expect(paths(await call('POST', '/v1/notification-channels', { name: 'x', type: 'email', addresses: [] }))).toEqual(
      ['addresses'],
    );
    expect(
      paths(
        await call('POST', '/v1/notification-channels', { name: 'x', type: 'opsgenie', api_key: 'k', region: 'mars' }),
      ),
    ).toEqual(['region']);
    expect(
      paths(
        await call('POST', '/v1/notification-channels', {
          name: 'x',
          type: 'slack',
          url: SLACK_URL,
          routing_key: PD_KEY,
        }),
      ),
    ).toEqual(['routing_key']);
    expect((await call('POST', '/v1/notification-channels', { name: 'x', type: 'sms', url: SLACK_URL })).status).toBe(
      400,
    );
    const slack = await channel(call, { name: 's', type: 'slack', url: SLACK_URL });
    const wrong = await call('PATCH', `/v1/notification-channels/${slack}`, { routing_key: PD_KEY, region: 'eu' });
    expect(wrong.status).toBe(400);
    expect(paths(wrong).sort()).toEqual(['region', 'routing_key']);
    expect(paths(await call('PATCH', `/v1/notification-channels/${slack}`, { url: 'ftp://x.example.com' }))).toEqual([
      'url',
    ]);
  });

  it('patches name, enabled and settings, replaces a secret, and soft-deletes idempotently', async () => {
    const mail = await channel(call, { name: 'mail', type: 'email', addresses: ['a@example.com'] });
    const patched = await call('PATCH', `/v1/notification-channels/${mail}`, {
      name: 'mail 2',
      enabled: false,
      addresses: ['b@example.com'],
    });
    expect(patched.body).toMatchObject({ name: 'mail 2', enabled: false, settings: { addresses: ['b@example.com'] } });
    expect((await call('PATCH', `/v1/notification-channels/${mail}`, { enabled: true })).body.enabled).toBe(true);
    const pd = await channel();
    const replaced = await call('PATCH', `/v1/notification-channels/${pd}`, { routing_key: 'Z'.repeat(28) + 'WXYZ' });
    expect(replaced.body.secret_hint).toBe('…WXYZ');
    const row = await api.orm.em.fork().findOneOrFail(NotificationChannelSchema, pd);
    expect(openChannelSecret(testSecretBox(), row.sealedSecret ?? null)).toEqual({
      routing_key: 'Z'.repeat(28) + 'WXYZ',
    });
    const deleted = await call('DELETE', `/v1/notification-channels/${mail}`);
    const again = await call('DELETE', `/v1/notification-channels/${mail}`);
    expect([deleted.status, again.status]).toEqual([200, 200]);
    expect(again.body.deleted_at).toBe(deleted.body.deleted_at);
    expect((await call('GET', `/v1/notification-channels/${mail}`)).status).toBe(404);
    expect(
      (await call('GET', '/v1/notification-channels?limit=200')).body.items.map((c: { id: string }) => c.id),
    ).not.toContain(mail);
  });

  it('lists the sends of a channel newest first with their attempts, cursor-paged, without the secret', async () => {
    const id = await channel(call, { name: 'slack sends', type: 'slack', url: SLACK_URL });
    const em = api.orm.em.fork();
    const base = Date.now() - 60_000;
    const sends = [0, 1, 2].map((i) =>
      em.create(NotificationSendSchema, {
        id: randomUUID(),
        organization: org.id,
        channel: id,
        alert: null,
        key: `test:${id}:${i}`,
        action: i === 2 ? 'test' : 'trigger',
        level: i === 2 ? 0 : 1,
        recipient: null,
        state: i === 0 ? 'failed' : 'succeeded',
        attemptCount: i === 0 ? 2 : 1,
        lastStatusCode: i === 0 ? 500 : 200,
        lastError: i === 0 ? 'HTTP 500' : null,
        createdAt: new Date(base + i * 1000),
        updatedAt: new Date(base + i * 1000),
        completedAt: new Date(base + i * 1000 + 500),
      }),
    );
    em.create(NotificationAttemptSchema, {
      id: randomUUID(),
      organization: org.id,
      send: sends[0]!.id,
      number: 2,
      attemptedAt: new Date(base + 300),
      statusCode: 500,
      latencyMs: 40,
      error: 'HTTP 500',
      response: 'SECRETRESPONSE',
      succeeded: false,
    });
    em.create(NotificationAttemptSchema, {
      id: randomUUID(),
      organization: org.id,
      send: sends[0]!.id,
      number: 1,
      attemptedAt: new Date(base + 100),
      statusCode: null,
      latencyMs: 12,
      error: 'ECONNREFUSED: connect',
      response: null,
      succeeded: false,
    });
    await em.flush();
    const page1 = await call('GET', `/v1/notification-channels/${id}/sends?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((s: { id: string }) => s.id)).toEqual([sends[2]!.id, sends[1]!.id]);
    expect(page1.body.items[0]).toMatchObject({
      channel_id: id,
      alert_id: null,
      action: 'test',
      level: 0,
      state: 'succeeded',
      attempts: [],
    });
    const page2 = await call('GET', `/v1/notification-channels/${id}/sends?limit=2&cursor=${page1.body.next_cursor}`);
    expect(page2.body.next_cursor).toBeNull();
    expect(page2.body.items).toHaveLength(1);
    expect(page2.body.items[0]).toMatchObject({
      state: 'failed',
      attempt_count: 2,
      last_status_code: 500,
      last_error: 'HTTP 500',
    });
    expect(
      page2.body.items[0].attempts.map((a: { number: number; status_code: number | null; error: string }) => [
        a.number,
        a.status_code,
        a.error,
      ]),
    ).toEqual([
      [1, null, 'ECONNREFUSED: connect'],
      [2, 500, 'HTTP 500'],
    ]);
    for (const text of [page1.text, page2.text]) {
      expect(text).not.toContain('XXXXSECRETXXXX');
      expect(text).not.toContain('SECRETRESPONSE');
    }
    expect((await other.call('GET', `/v1/notification-channels/${id}/sends`)).status).toBe(404);
  });
});

describe('/v1/escalation-policies', () => {
  it('creates a policy with channel, schedule and user targets (emails lower-cased), reads, patches and lists it', async () => {
    const ch = await channel();
    const sc = await schedule();
    const res = await call('POST', '/v1/escalation-policies', {
      name: 'checkout',
      levels: [
        {
          delay_minutes: 10,
          targets: [
            { type: 'channel', id: ch },
            { type: 'schedule', id: sc },
          ],
        },
        { delay_minutes: 30, targets: [{ type: 'user', email: 'OnCall@Example.com' }] },
      ],
      repeat: 2,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'checkout',
      repeat: 2,
      levels: [{ delay_minutes: 10 }, { delay_minutes: 30, targets: [{ type: 'user', email: 'oncall@example.com' }] }],
    });
    expect((await call('GET', `/v1/escalation-policies/${res.body.id}`)).body).toEqual(res.body);
    const patched = await call('PATCH', `/v1/escalation-policies/${res.body.id}`, { name: 'checkout 2', repeat: 0 });
    expect(patched.body).toMatchObject({ name: 'checkout 2', repeat: 0, levels: res.body.levels });
    const levels = await call('PATCH', `/v1/escalation-policies/${res.body.id}`, {
      levels: [{ delay_minutes: 1, targets: [{ type: 'channel', id: ch }] }],
    });
    expect(levels.body.levels).toEqual([{ delay_minutes: 1, targets: [{ type: 'channel', id: ch }] }]);
    expect(
      (await call('GET', '/v1/escalation-policies?limit=200')).body.items.map((p: { id: string }) => p.id),
    ).toContain(res.body.id);
    const noRepeat = await call('POST', '/v1/escalation-policies', {
      name: 'r',
      levels: [{ delay_minutes: 1, targets: [{ type: 'channel', id: ch }] }],
    });
    expect(noRepeat.body.repeat).toBe(0);
  });

  it('answers 400 validation_failed at each target that names nothing of the organization, and at malformed levels', async () => {
    const ch = await channel();
    const foreignChannel = await channel(other.call);
    const foreignSchedule = await schedule(other.call, 'elsewhere@example.com');
    await addConsoleUser(org.id, 'gone@example.com', true);
    const res = await call('POST', '/v1/escalation-policies', {
      name: 'bad',
      levels: [
        {
          delay_minutes: 5,
          targets: [
            { type: 'channel', id: ch },
            { type: 'channel', id: foreignChannel },
          ],
        },
        {
          delay_minutes: 5,
          targets: [
            { type: 'schedule', id: foreignSchedule },
            { type: 'user', email: 'elsewhere@example.com' },
            { type: 'user', email: 'gone@example.com' },
            { type: 'channel', id: 'not-a-uuid' },
          ],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('validation_failed');
    expect(paths(res).sort()).toEqual([
      'levels.0.targets.1.id',
      'levels.1.targets.0.id',
      'levels.1.targets.1.email',
      'levels.1.targets.2.email',
      'levels.1.targets.3.id',
    ]);
    expect(res.text).not.toContain('elsewhere organization');
    expect(paths(await call('POST', '/v1/escalation-policies', { name: 'x', levels: [] }))).toEqual(['levels']);
    expect(
      paths(
        await call('POST', '/v1/escalation-policies', {
          name: 'x',
          levels: [{ delay_minutes: 0, targets: [{ type: 'channel', id: ch }] }],
        }),
      ),
    ).toEqual(['levels.0.delay_minutes']);
    expect(
      paths(
        await call('POST', '/v1/escalation-policies', {
          name: 'x',
          levels: [
            {
              delay_minutes: 1,
              targets: [
                { type: 'channel', id: ch },
                { type: 'channel', id: ch },
              ],
            },
          ],
        }),
      ),
    ).toEqual(['levels.0.targets.1']);
    expect(
      paths(
        await call('POST', '/v1/escalation-policies', {
          name: 'x',
          repeat: 11,
          levels: [{ delay_minutes: 1, targets: [{ type: 'pager', id: ch }] }],
        }),
      ).sort(),
    ).toEqual(['levels.0.targets.0.type', 'repeat'].sort());
    const deleted = await channel();
    const p = await policy(call, deleted);
    await call('PATCH', `/v1/escalation-policies/${p}`, {
      levels: [{ delay_minutes: 1, targets: [{ type: 'channel', id: ch }] }],
    });
    await call('DELETE', `/v1/notification-channels/${deleted}`);
    expect(
      paths(
        await call('PATCH', `/v1/escalation-policies/${p}`, {
          levels: [{ delay_minutes: 1, targets: [{ type: 'channel', id: deleted }] }],
        }),
      ),
    ).toEqual(['levels.0.targets.0.id']);
  });

  it('refuses (409 in_use) to delete a channel or schedule a policy targets, and a policy a rule uses; frees them in turn', async () => {
    const ch = await channel();
    const sc = await schedule();
    const p = (
      await call('POST', '/v1/escalation-policies', {
        name: 'in use',
        levels: [
          {
            delay_minutes: 5,
            targets: [
              { type: 'channel', id: ch },
              { type: 'schedule', id: sc },
            ],
          },
        ],
      })
    ).body.id;
    const rule = (
      await call('POST', '/v1/alert-rules', {
        name: 'every service',
        kind: 'service_status',
        severity: 'critical',
        escalation_policy_id: p,
      })
    ).body.id;
    const chDel = await call('DELETE', `/v1/notification-channels/${ch}`);
    expect(chDel.status).toBe(409);
    expect(chDel.body.title).toBe('in_use');
    expect(chDel.body.referenced_by.escalation_policies).toEqual([{ id: p, config_key: null, name: 'in use' }]);
    const scDel = await call('DELETE', `/v1/on-call/schedules/${sc}`);
    expect(scDel.status).toBe(409);
    expect(scDel.body.referenced_by.escalation_policies.map((x: { id: string }) => x.id)).toEqual([p]);
    await call('PATCH', `/v1/alert-rules/${rule}`, { enabled: false });
    const pDel = await call('DELETE', `/v1/escalation-policies/${p}`);
    expect(pDel.status).toBe(409);
    expect(pDel.body.referenced_by.alert_rules).toEqual([{ id: rule, config_key: null, name: 'every service' }]);
    expect((await call('DELETE', `/v1/alert-rules/${rule}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/escalation-policies/${p}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/notification-channels/${ch}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/on-call/schedules/${sc}`)).status).toBe(200);
    expect((await call('GET', `/v1/escalation-policies/${p}`)).status).toBe(404);
  });
});

describe('/v1/alert-rules', () => {
  let policyId: string;
  beforeAll(async () => {
    policyId = await policy(call, await channel());
  });

  it('creates a rule per kind with its defaults, patches and deletes it', async () => {
    const service = org.services.checkout;
    const metric = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'latency',
        source_type: 'manual',
        source_config: {},
      })
    ).body.id;
    const res = await call('POST', '/v1/alert-rules', {
      name: 'latency down',
      kind: 'metric_status',
      subject_id: metric,
      include_degraded: true,
      severity: 'critical',
      escalation_policy_id: policyId,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'metric_status',
      subject_id: metric,
      include_degraded: true,
      severity: 'critical',
      escalation_policy_id: policyId,
      auto_resolve: true,
      enabled: true,
      settings: {},
      deleted_at: null,
    });
    const sla = await call('POST', '/v1/alert-rules', {
      name: 'review',
      kind: 'sla_review_overdue',
      severity: 'info',
      escalation_policy_id: policyId,
      auto_resolve: false,
      enabled: false,
    });
    expect(sla.body).toMatchObject({
      subject_id: null,
      settings: { reminder_hours: 24 },
      auto_resolve: false,
      enabled: false,
    });
    const every = await call('POST', '/v1/alert-rules', {
      name: 'all services',
      kind: 'service_status',
      subject_id: null,
      severity: 'warning',
      escalation_policy_id: policyId,
    });
    expect(every.body.subject_id).toBeNull();
    const one = await call('POST', '/v1/alert-rules', {
      name: 'checkout',
      kind: 'service_status',
      subject_id: service,
      severity: 'warning',
      escalation_policy_id: policyId,
    });
    expect(one.status).toBe(201);
    const agent = (await call('POST', '/v1/agents', { name: 'edge' })).body.id;
    expect(
      (
        await call('POST', '/v1/alert-rules', {
          name: 'agent',
          kind: 'agent_offline',
          subject_id: agent,
          severity: 'warning',
          escalation_policy_id: policyId,
        })
      ).status,
    ).toBe(201);
    const heartbeat = (
      await call('POST', '/v1/metrics', {
        service_id: service,
        name: 'cron',
        source_type: 'heartbeat',
        source_config: {},
      })
    ).body.id;
    expect(
      (
        await call('POST', '/v1/alert-rules', {
          name: 'cron',
          kind: 'heartbeat_missed',
          subject_id: heartbeat,
          severity: 'warning',
          escalation_policy_id: policyId,
        })
      ).status,
    ).toBe(201);
    const queue = `alerting-config-${randomUUID()}`;
    const em = api.orm.em.fork();
    em.create(ProbeLocationSchema, {
      taskQueue: queue,
      id: 'ap-south-test',
      label: 'Mumbai',
      version: '1.0.0',
      heartbeatSeconds: 10,
      startedAt: new Date(),
      lastSeenAt: new Date(),
      stoppedAt: null,
    });
    await em.flush();
    expect(
      (
        await call('POST', '/v1/alert-rules', {
          name: 'loc',
          kind: 'location_offline',
          subject_id: 'ap-south-test',
          severity: 'info',
          escalation_policy_id: policyId,
        })
      ).status,
    ).toBe(201);
    expect(
      paths(
        await call('POST', '/v1/alert-rules', {
          name: 'loc',
          kind: 'location_offline',
          subject_id: 'nowhere-1',
          severity: 'info',
          escalation_policy_id: policyId,
        }),
      ),
    ).toEqual(['subject_id']);

    const patched = await call('PATCH', `/v1/alert-rules/${sla.body.id}`, {
      settings: { reminder_hours: 72 },
      enabled: true,
      severity: 'warning',
    });
    expect(patched.body).toMatchObject({ settings: { reminder_hours: 72 }, enabled: true, severity: 'warning' });
    expect(paths(await call('PATCH', `/v1/alert-rules/${sla.body.id}`, { kind: 'slo_burn' }))).toEqual(['kind']);
    const deleted = await call('DELETE', `/v1/alert-rules/${res.body.id}`);
    expect(deleted.body.deleted_at).toEqual(expect.any(String));
    expect((await call('GET', `/v1/alert-rules/${res.body.id}`)).status).toBe(404);
    expect((await call('GET', '/v1/alert-rules?limit=200')).body.items.map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining([sla.body.id, every.body.id]),
    );
  });

  it("answers 400 at subject_id for a missing, wrong-kind or another organization's subject, and at escalation_policy_id for another organization's policy", async () => {
    const foreignService = (await other.call('POST', '/v1/services', { name: 'theirs' })).body.id;
    const foreignPolicy = await policy(other.call, await channel(other.call));
    const ourMetric = (
      await call('POST', '/v1/metrics', {
        service_id: org.services.checkout,
        name: 'not a heartbeat',
        source_type: 'manual',
        source_config: {},
      })
    ).body.id;
    const base = { name: 'r', severity: 'critical', escalation_policy_id: policyId };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ kind: 'metric_status' }, ['subject_id']],
      [{ kind: 'status_page_status', subject_id: null }, ['subject_id']],
      [{ kind: 'service_status', subject_id: foreignService }, ['subject_id']],
      [{ kind: 'service_status', subject_id: 'not-a-uuid' }, ['subject_id']],
      [{ kind: 'heartbeat_missed', subject_id: ourMetric }, ['subject_id']],
      [{ kind: 'sla_review_overdue', subject_id: ourMetric }, ['subject_id']],
      [{ kind: 'slo_burn', include_degraded: true }, ['include_degraded']],
      [{ kind: 'slo_burn', settings: { reminder_hours: 5 } }, ['settings.reminder_hours']],
      [{ kind: 'sla_review_overdue', settings: { reminder_hours: 721 } }, ['settings.reminder_hours']],
      [{ kind: 'service_status', escalation_policy_id: foreignPolicy }, ['escalation_policy_id']],
      [{ kind: 'service_status', severity: 'page' }, ['severity']],
      [{ kind: 'volcano' }, ['kind']],
    ];
    for (const [body, expected] of cases) {
      const res = await call('POST', '/v1/alert-rules', { ...base, ...body });
      expect([JSON.stringify(body), res.status, res.body.title, paths(res)]).toEqual([
        JSON.stringify(body),
        400,
        'validation_failed',
        expected,
      ]);
      expect(res.text).not.toContain('theirs');
    }
    const mine = (await call('POST', '/v1/alert-rules', { ...base, kind: 'service_status' })).body.id;
    expect(paths(await call('PATCH', `/v1/alert-rules/${mine}`, { escalation_policy_id: foreignPolicy }))).toEqual([
      'escalation_policy_id',
    ]);
    expect(paths(await call('PATCH', `/v1/alert-rules/${mine}`, { subject_id: foreignService }))).toEqual([
      'subject_id',
    ]);
  });
});

describe('/v1/silences', () => {
  let ruleId: string;
  beforeAll(async () => {
    const p = await policy(call, await channel());
    ruleId = (
      await call('POST', '/v1/alert-rules', {
        name: 'silenced',
        kind: 'service_status',
        severity: 'critical',
        escalation_policy_id: p,
      })
    ).body.id;
  });
  const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

  it('creates active and scheduled silences, records the API key, lists by state, and ends one on delete', async () => {
    const active = await call('POST', '/v1/silences', {
      rule_ids: [ruleId],
      service_ids: [org.services.checkout],
      ends_at: inMinutes(60),
      reason: 'deploy',
    });
    expect(active.status).toBe(201);
    expect(active.body).toMatchObject({
      rule_ids: [ruleId],
      service_ids: [org.services.checkout],
      state: 'active',
      reason: 'deploy',
      deleted_at: null,
    });
    expect(active.body.created_by).toMatch(/^api_key:[0-9a-f-]{36}$/);
    const later = await call('POST', '/v1/silences', {
      rule_ids: [ruleId],
      starts_at: inMinutes(30),
      ends_at: inMinutes(90),
      reason: 'migration',
    });
    expect(later.body.state).toBe('scheduled');
    expect((await call('GET', `/v1/silences/${active.body.id}`)).body.state).toBe('active');
    const activeList = (await call('GET', '/v1/silences?state=active&limit=200')).body.items.map(
      (s: { id: string }) => s.id,
    );
    expect(activeList).toContain(active.body.id);
    expect(activeList).not.toContain(later.body.id);
    expect((await call('GET', '/v1/silences?state=scheduled')).body.items.map((s: { id: string }) => s.id)).toEqual([
      later.body.id,
    ]);

    const ended = await call('DELETE', `/v1/silences/${active.body.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body.state).toBe('expired');
    expect(Date.parse(ended.body.ends_at)).toBeLessThanOrEqual(Date.now());
    expect(ended.body.deleted_at).toEqual(expect.any(String));
    expect((await call('DELETE', `/v1/silences/${active.body.id}`)).body.ends_at).toBe(ended.body.ends_at);
    expect((await call('GET', `/v1/silences/${active.body.id}`)).status).toBe(404);
    const endedLater = await call('DELETE', `/v1/silences/${later.body.id}`);
    expect(endedLater.body.state).toBe('expired');
    expect(endedLater.body.starts_at).toBe(endedLater.body.ends_at);
  });

  it('answers 400 at ends_at in words, and at each id that names nothing of the organization', async () => {
    const past = await call('POST', '/v1/silences', { rule_ids: [ruleId], ends_at: inMinutes(-1), reason: 'x' });
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([{ path: 'ends_at', message: 'Must be in the future' }]);
    const before = await call('POST', '/v1/silences', {
      rule_ids: [ruleId],
      starts_at: inMinutes(60),
      ends_at: inMinutes(30),
      reason: 'x',
    });
    expect(before.body.errors).toEqual([{ path: 'ends_at', message: 'Must be after starts_at' }]);
    const foreignService = (await other.call('POST', '/v1/services', { name: 'theirs' })).body.id;
    const unknown = await call('POST', '/v1/silences', {
      rule_ids: [ruleId, randomUUID()],
      service_ids: [foreignService],
      ends_at: inMinutes(10),
      reason: 'x',
    });
    expect(paths(unknown)).toEqual(['rule_ids.1', 'service_ids.0']);
    expect(paths(await call('POST', '/v1/silences', { ends_at: inMinutes(10), reason: 'x' }))).toEqual(['rule_ids']);
    expect(
      paths(await call('POST', '/v1/silences', { rule_ids: [ruleId], ends_at: inMinutes(10), reason: '' })),
    ).toEqual(['reason']);
    expect(
      paths(
        await call('POST', '/v1/silences', { rule_ids: [ruleId], ends_at: '2026-02-30T00:00:00.000Z', reason: 'x' }),
      ),
    ).toEqual(['ends_at']);
  });
});

describe('scopes and organizations', () => {
  it("answers 404 for another organization's channel, policy, schedule, rule and silence, whatever the method", async () => {
    const ch = await channel();
    const p = await policy(call, ch);
    const sc = await schedule();
    const rule = (
      await call('POST', '/v1/alert-rules', {
        name: 'mine',
        kind: 'service_status',
        severity: 'critical',
        escalation_policy_id: p,
      })
    ).body.id;
    const silence = (
      await call('POST', '/v1/silences', {
        rule_ids: [rule],
        ends_at: new Date(Date.now() + 3_600_000).toISOString(),
        reason: 'x',
      })
    ).body.id;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/notification-channels/${ch}`],
      ['PATCH', `/v1/notification-channels/${ch}`, { name: 'stolen' }],
      ['DELETE', `/v1/notification-channels/${ch}`],
      ['GET', `/v1/escalation-policies/${p}`],
      ['PATCH', `/v1/escalation-policies/${p}`, { name: 'stolen' }],
      ['DELETE', `/v1/escalation-policies/${p}`],
      ['GET', `/v1/on-call/schedules/${sc}`],
      ['GET', `/v1/on-call/schedules/${sc}/on-call`],
      ['GET', `/v1/on-call/schedules/${sc}/shifts`],
      ['DELETE', `/v1/on-call/schedules/${sc}`],
      ['GET', `/v1/alert-rules/${rule}`],
      ['PATCH', `/v1/alert-rules/${rule}`, { name: 'stolen' }],
      ['DELETE', `/v1/alert-rules/${rule}`],
      ['GET', `/v1/silences/${silence}`],
      ['DELETE', `/v1/silences/${silence}`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await other.call(method, path, body);
      expect([method, path, res.status, res.body.title]).toEqual([method, path, 404, 'not_found']);
    }
    expect((await call('GET', `/v1/alert-rules/${rule}`)).body.name).toBe('mine');
    expect((await call('GET', `/v1/silences/${silence}`)).body.state).toBe('active');
    for (const list of [
      '/v1/notification-channels',
      '/v1/escalation-policies',
      '/v1/on-call/schedules',
      '/v1/alert-rules',
      '/v1/silences',
    ]) {
      const text = (await other.call('GET', `${list}?limit=200`)).text;
      for (const id of [ch, p, sc, rule, silence]) expect(text).not.toContain(id);
    }
  });

  it('lets a read:alerts key read but not write, and a key without alert scopes do neither', async () => {
    const ch = await channel();
    const reader = org.keys.reader.call;
    expect((await reader('GET', '/v1/notification-channels')).status).toBe(200);
    expect((await reader('GET', `/v1/notification-channels/${ch}/sends`)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/v1/notification-channels', { name: 'x', type: 'pagerduty', routing_key: PD_KEY }],
      ['PATCH', `/v1/notification-channels/${ch}`, { name: 'x' }],
      ['DELETE', `/v1/notification-channels/${ch}`],
      [
        'POST',
        '/v1/escalation-policies',
        { name: 'x', levels: [{ delay_minutes: 1, targets: [{ type: 'channel', id: ch }] }] },
      ],
      [
        'POST',
        '/v1/silences',
        { rule_ids: [randomUUID()], ends_at: new Date(Date.now() + 60_000).toISOString(), reason: 'x' },
      ],
    ] as [string, string, unknown?][]) {
      const res = await reader(method, path, body);
      expect([method, path, res.status, res.body.title]).toEqual([method, path, 403, 'forbidden']);
      expect(res.body.detail).toContain('write:alerts');
    }
    expect((await org.keys.config.call('GET', '/v1/alert-rules')).status).toBe(403);
    expect((await call('GET', `/v1/notification-channels/${ch}`)).body.name).toBe('pager');
  });
});
