import { type ApiHarness, startApi } from '../support/api-harness';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';

let api: ApiHarness;
let org: OrgFixture<'reader', 'API' | 'Web'>;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { name: 'templates', keys: { reader: ['read:incidents'] }, services: ['API', 'Web'] });
});
afterAll(async () => api.close());

describe('/v1/incident-templates', () => {
  it('creates, reads, lists, patches and soft-deletes a template, with impacts chosen or from the severity', async () => {
    const { API, Web } = org.services;
    const created = await org.call('POST', '/v1/incident-templates', {
      name: 'Payment provider down',
      title: 'Card payments failing',
      body: 'We are investigating failed card payments.',
      severity: 'major',
      affected_services: [Web],
      service_impacts: [{ service_id: API, impact: 'major_outage' }],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Payment provider down',
      title: 'Card payments failing',
      body: 'We are investigating failed card payments.',
      severity: 'major',
      message_type: 'Investigating',
      // A service given an impact is affected too; Web follows the severity (major → partial_outage).
      affected_services: [Web, API],
      service_impacts: [
        { service_id: Web, impact: 'partial_outage' },
        { service_id: API, impact: 'major_outage' },
      ],
      deleted_at: null,
    });
    const id = created.body.id;
    expect((await org.keys.reader.call('GET', `/v1/incident-templates/${id}`)).body).toEqual(created.body);

    // The severity moves the derived impact only; the chosen one stays.
    const patched = await org.call('PATCH', `/v1/incident-templates/${id}`, {
      severity: 'critical',
      body: null,
      message_type: 'Identified',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      body: null,
      message_type: 'Identified',
      service_impacts: [
        { service_id: Web, impact: 'major_outage' },
        { service_id: API, impact: 'major_outage' },
      ],
    });
    // Dropping a service drops its chosen impact.
    const narrowed = await org.call('PATCH', `/v1/incident-templates/${id}`, {
      affected_services: [Web],
      severity: 'minor',
    });
    expect(narrowed.body).toMatchObject({
      affected_services: [Web],
      service_impacts: [{ service_id: Web, impact: 'degraded_performance' }],
    });

    expect(
      (await org.keys.reader.call('GET', '/v1/incident-templates')).body.items.map((t: { id: string }) => t.id),
    ).toContain(id);
    const del = await org.call('DELETE', `/v1/incident-templates/${id}`);
    expect([del.status, typeof del.body.deleted_at]).toEqual([200, 'string']);
    expect((await org.call('DELETE', `/v1/incident-templates/${id}`)).body.deleted_at).toBe(del.body.deleted_at);
    expect((await org.call('GET', `/v1/incident-templates/${id}`)).status).toBe(404);
    expect((await org.call('GET', '/v1/incident-templates')).body.items.map((t: { id: string }) => t.id)).not.toContain(
      id,
    );
  });

  it('answers problems with their tokens and field paths, writing nothing', async () => {
    const { API } = org.services;
    const before = (await org.call('GET', '/v1/incident-templates?limit=200')).body.items.length;
    const cases: [unknown, number, string, string[]][] = [
      [{ title: 'No name' }, 400, 'validation_failed', ['name']],
      [{ name: 'x', title: '' }, 400, 'validation_failed', ['title']],
      [{ name: 'x', title: 'y', severity: 'huge' }, 400, 'validation_failed', ['severity']],
      [{ name: 'x', title: 'y', message_type: 'Panic' }, 400, 'validation_failed', ['message_type']],
      [
        { name: 'x', title: 'y', service_impacts: [{ service_id: API, impact: 'on_fire' }] },
        400,
        'validation_failed',
        ['service_impacts.0.impact'],
      ],
      [
        {
          name: 'x',
          title: 'y',
          service_impacts: [
            { service_id: API, impact: 'partial_outage' },
            { service_id: API, impact: 'major_outage' },
          ],
        },
        400,
        'validation_failed',
        ['service_impacts.1.service_id'],
      ],
      [
        { name: 'x', title: 'y', affected_services: ['00000000-0000-4000-8000-000000000000'] },
        400,
        'unknown_services',
        ['affected_services.0'],
      ],
      [{ name: 'x', title: 'y', colour: 'red' }, 400, 'validation_failed', ['colour']],
    ];
    for (const [body, status, token, paths] of cases) {
      const res = await org.call('POST', '/v1/incident-templates', body);
      expect([
        JSON.stringify(body),
        res.status,
        res.body.title,
        res.body.errors.map((e: { path: string }) => e.path),
      ]).toEqual([JSON.stringify(body), status, token, paths]);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await org.call('GET', '/v1/incident-templates?limit=200')).body.items.length).toBe(before);
    expect(
      (await org.keys.reader.call('POST', '/v1/incident-templates', { name: 'x', title: 'y' })).body,
    ).toMatchObject({ title: 'forbidden' });
    expect((await org.call('GET', '/v1/incident-templates/not-a-uuid')).status).toBe(404);
  });

  it('pages newest first with a cursor', async () => {
    const own = await orgWithKeys(api, { name: 'templates-paging' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await own.call('POST', '/v1/incident-templates', { name: `T${i}`, title: `Title ${i}` })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { items: { id: string }[]; next_cursor: string | null } } = await own.call(
        'GET',
        `/v1/incident-templates?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.items.map((t) => t.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await own.call('GET', '/v1/incident-templates?cursor=forged')).body).toMatchObject({
      title: 'validation_failed',
      errors: [{ path: 'query.cursor' }],
    });
  });

  it("never shows or changes another organization's templates", async () => {
    const stranger = await orgWithKeys(api, { name: 'templates-stranger' });
    const t = (await org.call('POST', '/v1/incident-templates', { name: 'Private', title: 'Private' })).body.id;
    expect((await stranger.call('GET', `/v1/incident-templates/${t}`)).status).toBe(404);
    expect((await stranger.call('PATCH', `/v1/incident-templates/${t}`, { name: 'stolen' })).status).toBe(404);
    expect((await stranger.call('DELETE', `/v1/incident-templates/${t}`)).status).toBe(404);
    expect((await stranger.call('GET', '/v1/incident-templates')).body.items).toEqual([]);
    // Nor name its services.
    const res = await stranger.call('POST', '/v1/incident-templates', {
      name: 'x',
      title: 'y',
      service_impacts: [{ service_id: org.services.API, impact: 'partial_outage' }],
    });
    expect([res.status, res.body.title, res.body.errors]).toEqual([
      400,
      'unknown_services',
      [{ path: 'service_impacts.0.service_id', message: 'No such service' }],
    ]);
    expect((await org.call('GET', `/v1/incident-templates/${t}`)).body.name).toBe('Private');
  });
});
