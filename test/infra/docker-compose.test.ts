import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Checks docker-compose.yml through Docker Compose's own `config` (no Docker engine needed).
 * Compose v2 comes from scripts/install-test-peers.sh; without it these tests fail, never skip.
 */
const ROOT = path.resolve(__dirname, '../..');
const INSTALL_HINT = 'Docker Compose v2 (`docker compose`) is missing: run scripts/install-test-peers.sh';

interface Port { target: number; published?: string; protocol?: string }
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[] | null;
  environment?: Record<string, string | null>;
  ports?: Port[];
  volumes?: Array<{ type: string; source?: string; target: string }>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
interface ComposeConfig { services: Record<string, Service> }

function compose(args: string[], cwd = ROOT) {
  const r = spawnSync('docker', ['compose', ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

function requireCompose(): void {
  const r = compose(['version']);
  if (r.status !== 0) {
    const why = r.error?.message ?? r.stderr.trim();
    throw new Error(`${INSTALL_HINT}${process.env.CI === 'true' ? ' in CI before the tests' : ''} (${why})`);
  }
}

const published = (s: Service | undefined): string[] => (s?.ports ?? []).map((p) => `${p.published}:${p.target}`);

describe('docker-compose.yml', () => {
  let config: ComposeConfig;
  const svc = (name: string): Service => {
    const s = config.services[name];
    if (!s) throw new Error(`service ${name} is not defined`);
    return s;
  };

  beforeAll(() => {
    requireCompose();
    const r = compose(['-f', 'docker-compose.yml', 'config', '--format', 'json']);
    if (r.status !== 0) throw new Error(`docker compose config failed:\n${r.stderr}`);
    config = JSON.parse(r.stdout) as ComposeConfig;
  });

  it('defines postgres, temporal, migrate, api and worker', () => {
    expect(Object.keys(config.services).sort()).toEqual(['api', 'migrate', 'postgres', 'temporal', 'worker']);
  });

  it('pins every third-party image to a version', () => {
    expect(svc('postgres').image).toMatch(/^postgres:16(\.\d+)*$/);
    expect(svc('temporal').image).toMatch(/^temporalio\/temporal:\d+\.\d+\.\d+$/);
  });

  it('publishes the API on 3000 and Temporal gRPC on 7233 and its Web UI on 8233', () => {
    expect(published(svc('api'))).toContain('3000:3000');
    expect(published(svc('temporal'))).toEqual(expect.arrayContaining(['7233:7233', '8233:8233']));
  });

  it('runs a persistent Temporal dev server with the Vigil search attributes', () => {
    const t = svc('temporal');
    const cmd = (t.command ?? []).join(' ');
    expect(cmd).toMatch(/^server start-dev /);
    expect(cmd).toContain('--ip=0.0.0.0');
    expect(cmd).toMatch(/--db-filename=\/home\/temporal\//);
    for (const key of ['VigilOrganizationId', 'VigilResourceKind', 'VigilResourceId']) {
      expect(cmd).toContain(`--search-attribute=${key}=Keyword`);
    }
    expect(t.volumes?.map((v) => v.target)).toContain('/home/temporal');
    expect(t.healthcheck?.test).toEqual(expect.arrayContaining(['temporal', 'health']));
  });

  it('gives postgres a volume and a healthcheck', () => {
    const pg = svc('postgres');
    expect(pg.volumes?.map((v) => v.target)).toContain('/var/lib/postgresql/data');
    expect(pg.healthcheck?.test.join(' ')).toContain('pg_isready');
  });

  it.each(['migrate', 'api', 'worker'])('configures %s from the environment and the built image', (name) => {
    const s = svc(name);
    expect(s.environment).toMatchObject({
      DATABASE_URL: 'postgres://postgres:postgres@postgres:5432/vigil',
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'vigil',
      HOST: '0.0.0.0',
      PORT: '3000',
      NODE_ENV: 'production',
    });
    expect(s.image).toBe(svc('migrate').image);
    expect(s.command).toEqual(['node', `dist/src/cli/${name}.js`]);
  });

  it('builds the app image from the repository Dockerfile', () => {
    const build = svc('migrate').build;
    expect(build?.context).toBe(ROOT);
    expect(fs.existsSync(path.join(ROOT, build?.dockerfile ?? 'missing'))).toBe(true);
  });

  it('starts api and worker after migrations and healthy peers', () => {
    for (const name of ['api', 'worker']) {
      expect(svc(name).depends_on).toEqual({
        postgres: expect.objectContaining({ condition: 'service_healthy' }),
        temporal: expect.objectContaining({ condition: 'service_healthy' }),
        migrate: expect.objectContaining({ condition: 'service_completed_successfully' }),
      });
    }
  });
});

describe('docker compose config', () => {
  beforeAll(requireCompose);

  it('rejects a broken compose file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-compose-'));
    try {
      const broken = 'services:\n  api:\n    image: busybox:1.36\n    depends_on: [nowhere]\n';
      fs.writeFileSync(path.join(dir, 'docker-compose.yml'), broken);
      const r = compose(['-f', 'docker-compose.yml', 'config', '--format', 'json'], dir);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/nowhere/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
