import { buildApp, missingAppDeps } from '../../src/api/app';
import { loadConfig } from '../../src/config';
import { createOrm, type Orm } from '../../src/db/orm';
import { withoutTemporal } from '../support/app-deps';
import { testDatabaseUrl, testLinkKey, testSecretBox } from '../support/env';

let orm: Orm;
beforeAll(async () => {
  orm = await createOrm({ url: testDatabaseUrl(), poolMax: 1 });
});
afterAll(async () => {
  await orm.close();
});

const config = loadConfig({ DOCS_URL: 'https://docs.vigil.test' });
const complete = () => ({
  orm,
  config,
  secretBox: testSecretBox(),
  linkKey: testLinkKey(),
  ...withoutTemporal(config.publicBaseUrl),
});

describe('the API refuses to start without a dependency it needs', () => {
  it('names nothing when every dependency is there, and starts', async () => {
    expect(missingAppDeps(complete())).toEqual([]);
    const app = await buildApp(complete());
    await app.close();
  });

  it.each([
    'metricScheduler',
    'maintenanceScheduler',
    'probeTestRunner',
    'sla',
    'alerts',
    'console',
    'linkKey',
  ] as const)('stops at start naming deps.%s when it is missing', async (name) => {
    const deps = { ...complete(), [name]: undefined };
    // A caller outside TypeScript (or a composition root that forgot one) gets the name, not an inert feature.
    await expect(buildApp(deps as unknown as Parameters<typeof buildApp>[0])).rejects.toThrow(
      `buildApp: missing deps.${name}`,
    );
  });

  it('asks for webhookStarter explicitly: null (the outbox sweep starts deliveries) is a choice, absent is not', () => {
    const { webhookStarter: _, ...rest } = complete();
    expect(missingAppDeps(rest)).toEqual(['webhookStarter']);
    expect(missingAppDeps({ ...rest, webhookStarter: null })).toEqual([]);
  });
});

describe('the doubles of a test without Temporal refuse loudly instead of pretending', () => {
  it('a probe test, an SLA statement and an alert action each say which double answered', async () => {
    const offline = withoutTemporal(config.publicBaseUrl);
    await expect(offline.probeTestRunner.run({} as never)).rejects.toThrow('test/support/app-deps.ts');
    await expect(offline.sla.workflows.startStatement({} as never, undefined as never)).rejects.toThrow(
      'test/support/app-deps.ts',
    );
    await expect(offline.alerts.control.act({} as never, undefined as never, undefined as never)).rejects.toMatchObject(
      { token: 'alert_busy' },
    );
  });

  it('the schedulers record what they were asked', async () => {
    const offline = withoutTemporal(config.publicBaseUrl);
    await offline.metricScheduler.sync({ id: 'm1' } as never);
    expect(offline.metricScheduler.calls).toEqual([[{ id: 'm1' }]]);
  });
});
