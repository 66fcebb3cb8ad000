import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { SlaStatementSchema } from '../../src/db/entities';
import { verifyStatement } from '../../src/crypto/statement-signing';
import { draftStatement } from '../../src/usecases/sla/statements';
import { type ApiHarness, startApi } from '../support/api-harness';
import { compiledBuildEnv, testDatabaseUrl, testSecretBox } from '../support/env';
import { type OrgFixture, orgWithKeys } from '../support/org-fixture';

/** Key rotation with the CLI: new statements take the new kid, old ones keep verifying from the published JWKS. */
const BIN = path.join(__dirname, '..', '..', 'bin', 'vigil.js');
const vigil = (...args: string[]) => {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...compiledBuildEnv(), DATABASE_URL: testDatabaseUrl() },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr, json: () => JSON.parse(run.stdout) };
};

let api: ApiHarness;
let org: OrgFixture<never, 'api'>;
beforeAll(async () => {
  api = await startApi();
  org = await orgWithKeys(api, { services: ['api'] });
});
afterAll(async () => api.close());

async function statementFor(period: string) {
  const customer = (await org.call('POST', '/v1/customers', { name: 'Keys Inc' })).body.id;
  const contract = await org.call('POST', '/v1/contracts', {
    customer_id: customer,
    name: `keys ${period}`,
    service_ids: [org.services.api],
    sla_target_pct: '99.9',
    timezone: 'America/St_Johns',
    currency: 'KWD',
    monthly_fee_minor: 123_456,
    effective_from: '2026-01-01',
    credit_terms: { type: 'proportional', multiplier: '10', maintenance_notice_hours: 24, rounding: 'up' },
  });
  expect(contract.status).toBe(201);
  const facts = await draftStatement(
    api.orm.em.fork(),
    { box: testSecretBox(), tzDataVersion: process.versions.tz ?? '2025b' },
    { organizationId: org.id, contractId: contract.body.id, period },
    new Date(),
  );
  return api.orm.em.fork().findOneOrFail(SlaStatementSchema, { id: facts!.statementId });
}

describe('vigil sla keys / rotate-key', () => {
  it('rotates the signing key; statements signed before stay verifiable through the JWKS', async () => {
    const before = await statementFor('2026-09');
    const rotated = vigil('sla', 'rotate-key', '--json');
    expect([rotated.code, rotated.err]).toEqual([0, '']);
    const { kid, retired } = rotated.json();
    expect(retired).toContain(before.signingKeyId);
    expect(kid).not.toBe(before.signingKeyId);

    const after = await statementFor('2026-10');
    expect(after.signingKeyId).toBe(kid);
    const listed = vigil('sla', 'keys', '--json').json();
    expect(listed[0]).toMatchObject({ kid, retired_at: null });
    expect(listed.find((k: { kid: string }) => k.kid === before.signingKeyId).retired_at).toEqual(expect.any(String));

    const jwks = (await api.request('GET', '/.well-known/jwks.json')).body;
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining([kid, before.signingKeyId]));
    for (const s of [before, after])
      expect(await verifyStatement(Buffer.from(s.document), s.signature, jwks, { expectedSha256: s.sha256 })).toEqual({
        valid: true,
        kid: s.signingKeyId,
      });
    // Nothing private is published.
    expect(JSON.stringify(jwks)).not.toMatch(/"d"/);
  }, 60_000);
});
