import { connectTemporal, checkTemporal } from '../../src/temporal/connection';
import { type ApiHarness, startApi } from '../support/api-harness';
import { testTemporalAddress } from '../support/env';

describe('/healthz and /readyz', () => {
  it('answers ready when PostgreSQL and Temporal answer', async () => {
    const temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'default', taskQueue: 'unused' });
    const api = await startApi({ readiness: [{ name: 'temporal', check: () => checkTemporal(temporal) }] });
    try {
      expect((await api.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
      const ready = await api.request('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', checks: { database: { status: 'ok' }, temporal: { status: 'ok' } } });
    } finally {
      await api.close();
      await temporal.close();
    }
  });

  it('answers 503 naming the failing dependency when Temporal does not answer', async () => {
    const temporal = await connectTemporal({ address: testTemporalAddress(), namespace: 'no-such-namespace', taskQueue: 'unused' });
    let api: ApiHarness | undefined;
    try {
      api = await startApi({ readiness: [{ name: 'temporal', check: () => checkTemporal(temporal) }] });
      const ready = await api.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not_ready');
      expect(ready.body.checks.database).toEqual({ status: 'ok' });
      expect(ready.body.checks.temporal.status).toBe('failing');
      expect((await api.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await api?.close();
      await temporal.close();
    }
  });
});
