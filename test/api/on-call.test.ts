import { randomUUID } from 'node:crypto';
import { ConsoleUserSchema } from '../../src/db/entities';
import { type ApiHarness, startApi } from '../support/api-harness';
import { type Call, type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api);
  const em = api.orm.em.fork();
  for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com']) {
    em.create(ConsoleUserSchema, {
      id: randomUUID(),
      organization: org.id,
      email,
      role: 'operator',
      createdAt: new Date(),
      lastSignInAt: null,
      disabledAt: null,
    });
  }
  await em.flush();
});
afterAll(async () => api.close());

const call: Call = (...args) => org.call(...args);
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);

/**
 * Europe/Berlin moves from CET (UTC+1) to CEST (UTC+2) on Sunday 2026-03-29. A weekly Monday
 * 09:00 handoff is 08:00Z on 2026-03-23 and 07:00Z on 2026-03-30. Alice starts on 2026-03-02,
 * so bob holds the week of the 23rd and alice the week of the 30th. A higher layer (carol, daily)
 * starts on 2026-04-01; dave overrides alice on the 30th from 12:00Z to 18:00Z.
 */
const BERLIN = {
  name: 'checkout primary',
  timezone: 'Europe/Berlin',
  layers: [
    {
      name: 'weekly',
      rotation: {
        kind: 'weekly',
        handoff_time: '09:00',
        handoff_weekday: 1,
        starts_on: '2026-03-02',
        participants: ['Alice@Example.com', 'bob@example.com'],
      },
    },
    {
      name: 'from april',
      rotation: { kind: 'daily', handoff_time: '09:00', starts_on: '2026-04-01', participants: ['carol@example.com'] },
    },
  ],
  overrides: [{ user: 'dave@example.com', start_at: '2026-03-30T14:00:00+02:00', end_at: '2026-03-30T18:00:00Z' }],
};

describe('on-call schedules through the API', () => {
  let id: string;
  beforeAll(async () => {
    const res = await call('POST', '/v1/on-call/schedules', BERLIN);
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    id = res.body.id;
  });

  it('stores the schedule with emails lower-cased, the weekday filled in and override instants in UTC', async () => {
    const read = await call('GET', `/v1/on-call/schedules/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.layers[0].rotation.participants).toEqual(['alice@example.com', 'bob@example.com']);
    expect(read.body.layers[1].rotation).not.toHaveProperty('handoff_weekday');
    expect(read.body.overrides).toEqual([
      { user: 'dave@example.com', start_at: '2026-03-30T12:00:00.000Z', end_at: '2026-03-30T18:00:00.000Z' },
    ]);
    expect((await call('GET', '/v1/on-call/schedules')).body.items.map((s: { id: string }) => s.id)).toContain(id);
  });

  it('hands over at 09:00 Berlin time on both sides of the clock change', async () => {
    const at = async (instant: string) => (await call('GET', `/v1/on-call/schedules/${id}/on-call?at=${instant}`)).body;
    expect(await at('2026-03-23T07:59:59.999Z')).toMatchObject({
      user: { email: 'alice@example.com' },
      shift_end: '2026-03-23T08:00:00.000Z',
    });
    expect(await at('2026-03-30T06:59:59.999Z')).toEqual({
      at: '2026-03-30T06:59:59.999Z',
      user: { email: 'bob@example.com' },
      source: 'layer',
      layer: { index: 0, name: 'weekly' },
      shift_start: '2026-03-23T08:00:00.000Z',
      shift_end: '2026-03-30T07:00:00.000Z',
    });
    // 08:00Z would be 10:00 in Berlin after the change: alice has been on call for an hour.
    expect(await at('2026-03-30T07:00:00.000Z')).toMatchObject({
      user: { email: 'alice@example.com' },
      shift_start: '2026-03-30T07:00:00.000Z',
      shift_end: '2026-03-30T12:00:00.000Z',
    });
    expect(await at('2026-03-30T08:00:00.000Z')).toMatchObject({ user: { email: 'alice@example.com' } });
  });

  it('lets the override win over the layer, and the higher layer win once its rotation starts', async () => {
    const at = async (instant: string) => (await call('GET', `/v1/on-call/schedules/${id}/on-call?at=${instant}`)).body;
    expect(await at('2026-03-30T12:00:00.000Z')).toEqual({
      at: '2026-03-30T12:00:00.000Z',
      user: { email: 'dave@example.com' },
      source: 'override',
      layer: null,
      shift_start: '2026-03-30T12:00:00.000Z',
      shift_end: '2026-03-30T18:00:00.000Z',
    });
    expect(await at('2026-03-30T18:00:00.000Z')).toMatchObject({
      user: { email: 'alice@example.com' },
      source: 'layer',
      shift_end: '2026-04-01T07:00:00.000Z',
    });
    expect(await at('2026-04-01T07:00:00.000Z')).toMatchObject({
      user: { email: 'carol@example.com' },
      layer: { index: 1, name: 'from april' },
    });
    expect(await at('2026-02-01T00:00:00.000Z')).toEqual({
      at: '2026-02-01T00:00:00.000Z',
      user: null,
      source: null,
      layer: null,
      shift_start: null,
      shift_end: null,
    });
  });

  it('lists the shifts across the change: the handoff, the override cutting the shift, the higher layer taking over', async () => {
    const res = await call(
      'GET',
      `/v1/on-call/schedules/${id}/shifts?from=2026-03-29T00:00:00.000Z&to=2026-04-02T00:00:00.000Z`,
    );
    expect(res.status).toBe(200);
    expect(res.body.truncated).toBe(false);
    expect(
      res.body.items.map((s: { user: { email: string }; source: string; start: string; end: string }) => [
        s.user.email,
        s.source,
        s.start,
        s.end,
      ]),
    ).toEqual([
      ['bob@example.com', 'layer', '2026-03-29T00:00:00.000Z', '2026-03-30T07:00:00.000Z'],
      ['alice@example.com', 'layer', '2026-03-30T07:00:00.000Z', '2026-03-30T12:00:00.000Z'],
      ['dave@example.com', 'override', '2026-03-30T12:00:00.000Z', '2026-03-30T18:00:00.000Z'],
      ['alice@example.com', 'layer', '2026-03-30T18:00:00.000Z', '2026-04-01T07:00:00.000Z'],
      ['carol@example.com', 'layer', '2026-04-01T07:00:00.000Z', '2026-04-02T00:00:00.000Z'],
    ]);
    const byDefault = await call('GET', `/v1/on-call/schedules/${id}/shifts`);
    expect(Date.parse(byDefault.body.to) - Date.parse(byDefault.body.from)).toBe(14 * 86_400_000);
  });

  it('refuses a window beyond 93 days or ending before it starts (400 at query.to)', async () => {
    const long = await call(
      'GET',
      `/v1/on-call/schedules/${id}/shifts?from=2026-01-01T00:00:00.000Z&to=2026-04-04T00:00:01.000Z`,
    );
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ path: 'query.to', message: 'Must be at most 93 days after from' }]);
    expect(
      (
        await call(
          'GET',
          `/v1/on-call/schedules/${id}/shifts?from=2026-01-01T00:00:00.000Z&to=2026-04-04T00:00:00.000Z`,
        )
      ).status,
    ).toBe(200);
    expect(
      paths(
        await call(
          'GET',
          `/v1/on-call/schedules/${id}/shifts?from=2026-01-02T00:00:00.000Z&to=2026-01-01T00:00:00.000Z`,
        ),
      ),
    ).toEqual(['query.to']);
    expect(paths(await call('GET', `/v1/on-call/schedules/${id}/on-call?at=yesterday`))).toEqual(['query.at']);
  });

  it('keeps a daily 09:00 America/New_York handoff at 09:00 across the US change (2026-03-08)', async () => {
    const ny = await call('POST', '/v1/on-call/schedules', {
      name: 'us',
      timezone: 'America/New_York',
      layers: [
        {
          name: 'daily',
          rotation: {
            kind: 'daily',
            handoff_time: '09:00',
            starts_on: '2026-03-01',
            participants: ['alice@example.com', 'bob@example.com'],
          },
        },
      ],
    });
    expect(ny.status).toBe(201);
    const shifts = await call(
      'GET',
      `/v1/on-call/schedules/${ny.body.id}/shifts?from=2026-03-07T00:00:00.000Z&to=2026-03-10T00:00:00.000Z`,
    );
    expect(shifts.body.items.map((s: { start: string }) => s.start)).toEqual([
      '2026-03-07T00:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
    ]);
  });

  it('answers 400 at each participant or override user who is not a console user, and at malformed fields', async () => {
    const res = await call('POST', '/v1/on-call/schedules', {
      ...BERLIN,
      layers: [
        {
          name: 'weekly',
          rotation: { ...BERLIN.layers[0]!.rotation, participants: ['alice@example.com', 'mallory@example.com'] },
        },
      ],
      overrides: [{ user: 'eve@example.com', start_at: '2026-03-30T12:00:00Z', end_at: '2026-03-30T13:00:00Z' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('validation_failed');
    expect(paths(res)).toEqual(['layers.0.rotation.participants.1', 'overrides.0.user']);
    expect(paths(await call('POST', '/v1/on-call/schedules', { ...BERLIN, timezone: 'Mars/Olympus' }))).toEqual([
      'timezone',
    ]);
    const badRotation = await call('POST', '/v1/on-call/schedules', {
      ...BERLIN,
      layers: [
        {
          name: 'x',
          rotation: {
            kind: 'hourly',
            handoff_time: '25:00',
            starts_on: '2026-03-02',
            participants: ['alice@example.com'],
          },
        },
      ],
    });
    expect(paths(badRotation)).toEqual(expect.arrayContaining(['layers.0.rotation.handoff_time']));
    const backwards = await call('POST', '/v1/on-call/schedules', {
      ...BERLIN,
      overrides: [{ user: 'dave@example.com', start_at: '2026-03-30T12:00:00Z', end_at: '2026-03-30T11:00:00Z' }],
    });
    expect(paths(backwards)).toEqual(['overrides.0.end_at']);
  });

  it('patches name and overrides (replaced whole), keeps the layers, and re-checks users', async () => {
    const created = (await call('POST', '/v1/on-call/schedules', { ...BERLIN, name: 'to patch' })).body;
    const patched = await call('PATCH', `/v1/on-call/schedules/${created.id}`, { name: 'patched', overrides: [] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'patched', overrides: [], layers: created.layers });
    expect(
      (await call('GET', `/v1/on-call/schedules/${created.id}/on-call?at=2026-03-30T12:00:00.000Z`)).body.user,
    ).toEqual({ email: 'alice@example.com' });
    expect(
      paths(
        await call('PATCH', `/v1/on-call/schedules/${created.id}`, {
          overrides: [{ user: 'nobody@example.com', start_at: '2026-03-30T12:00:00Z', end_at: '2026-03-30T13:00:00Z' }],
        }),
      ),
    ).toEqual(['overrides.0.user']);
    expect((await call('DELETE', `/v1/on-call/schedules/${created.id}`)).status).toBe(200);
    expect((await call('GET', `/v1/on-call/schedules/${created.id}/on-call`)).status).toBe(404);
  });
});
