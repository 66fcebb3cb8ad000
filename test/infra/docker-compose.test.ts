import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEMPORAL_SERVER_VERSION } from '../../src/launchers/temporal-postgres-server';
import { VIGIL_SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes';

/**
 * Checks docker-compose.yml through Docker Compose's own `config` (no Docker engine needed).
 * Compose v2 comes from scripts/install-test-peers.sh; without it these tests fail, never skip.
 */
const ROOT = path.resolve(__dirname, '../..');
const INSTALL_HINT = 'Docker Compose v2 (`docker compose`) is missing: run scripts/install-test-peers.sh';

interface Port {
  target: number;
  published?: string;
  protocol?: string;
}
interface Service {
  image?: string;
  extra_hosts?: string[];
  build?: { context: string; dockerfile: string };
  command?: string[] | null;
  environment?: Record<string, string | null>;
  ports?: Port[];
  volumes?: Array<{ type: string; source?: string; target: string }>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
interface ComposeConfig {
  services: Record<string, Service>;
}

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

const APP_SERVICES = ['migrate', 'api-1', 'api-2', 'worker'];
const SEARCH_ATTRIBUTES = [
  'VigilOrganizationId',
  'VigilResourceKind',
  'VigilResourceId',
  'VigilSlaContract',
  'VigilSlaPeriod',
  'VigilSlaState',
  'VigilSlaRevision',
  'VigilAlertRule',
  'VigilAlertSubject',
  'VigilAlertState',
];

describe('docker-compose.yml', () => {
  let config: ComposeConfig;
  const svc = (name: string): Service => {
    const s = config.services[name];
    if (!s) throw new Error(`service ${name} is not defined`);
    return s;
  };
  const mountedFile = (s: Service, target: string): string => {
    const v = s.volumes?.find((m) => m.target === target);
    if (!v?.source) throw new Error(`nothing is mounted at ${target}`);
    return v.source;
  };

  beforeAll(() => {
    requireCompose();
    const r = compose(['-f', 'docker-compose.yml', 'config', '--format', 'json']);
    if (r.status !== 0) throw new Error(`docker compose config failed:\n${r.stderr}`);
    config = JSON.parse(r.stdout) as ComposeConfig;
  });

  it('defines the production layout: two APIs behind a balancer, a worker, three probe locations, Temporal on its own PostgreSQL with its UI', () => {
    expect(Object.keys(config.services).sort()).toEqual(
      [
        'api',
        'api-1',
        'api-2',
        'migrate',
        'postgres',
        'prober-ap-south',
        'prober-eu-central',
        'prober-us-east',
        'temporal',
        'temporal-db',
        'temporal-schema',
        'temporal-setup',
        'temporal-ui',
        'worker',
      ].sort(),
    );
  });

  it('pins every third-party image to a version', () => {
    expect(svc('postgres').image).toMatch(/^postgres:16(\.\d+)*$/);
    expect(svc('temporal-db').image).toMatch(/^postgres:16(\.\d+)*$/);
    expect(svc('temporal').image).toMatch(/^temporalio\/server:\d+\.\d+\.\d+$/);
    expect(svc('temporal-schema').image).toMatch(/^temporalio\/admin-tools:\d+\.\d+\.\d+/);
    expect(svc('temporal-setup').image).toBe(svc('temporal-schema').image);
    expect(svc('temporal-ui').image).toMatch(/^temporalio\/ui:\d+\.\d+\.\d+$/);
    expect(svc('api').image).toMatch(/^nginx:\d+\.\d+\.\d+(-alpine)?$/);
  });

  it('runs the Temporal server and its tools at the version the dev server embeds', () => {
    const server = /^temporalio\/server:(.+)$/.exec(svc('temporal').image ?? '')?.[1];
    expect(server).toBe(TEMPORAL_SERVER_VERSION);
    expect(svc('temporal-schema').image).toMatch(
      new RegExp(`^temporalio/admin-tools:${TEMPORAL_SERVER_VERSION.replace(/\./g, '\\.')}-`),
    );
  });

  it('publishes the balanced API on 3000, each instance on 3001 and 3002, Temporal gRPC on 7233 and its Web UI on 8233', () => {
    expect(published(svc('api'))).toEqual(['3000:3000']);
    expect(published(svc('api-1'))).toEqual(['3001:3000']);
    expect(published(svc('api-2'))).toEqual(['3002:3000']);
    expect(published(svc('temporal'))).toEqual(['7233:7233']);
    expect(published(svc('temporal-ui'))).toEqual(['8233:8080']);
    expect(svc('temporal-ui').environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(published(svc('temporal-db'))).toEqual([]);
  });

  it('backs Temporal with PostgreSQL through the postgres12 plugin', () => {
    const t = svc('temporal');
    expect(t.environment).toMatchObject({
      DB: 'postgres12',
      POSTGRES_SEEDS: 'temporal-db',
      DB_PORT: '5432',
      BIND_ON_IP: '0.0.0.0',
    });
    expect(svc('temporal-schema').environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'temporal-db' });
    expect(t.healthcheck?.test.join(' ')).toContain('7233');
    expect(t.depends_on).toEqual({
      'temporal-db': expect.objectContaining({ condition: 'service_healthy' }),
      'temporal-schema': expect.objectContaining({ condition: 'service_completed_successfully' }),
    });
    expect(svc('temporal-setup').depends_on).toEqual({
      temporal: expect.objectContaining({ condition: 'service_healthy' }),
    });
  });

  it('sets up the schema, the namespace and every Vigil search attribute with committed scripts', () => {
    const schema = fs.readFileSync(mountedFile(svc('temporal-schema'), '/vigil') + '/setup-schema.sh', 'utf8');
    expect(svc('temporal-schema').command).toEqual(['/vigil/setup-schema.sh']);
    expect(schema).toContain('"temporal:temporal" "temporal_visibility:visibility"');
    expect(schema).toContain('update-schema -d "$SCHEMA/$dir/versioned"');
    const setup = fs.readFileSync(mountedFile(svc('temporal-setup'), '/vigil') + '/setup-namespace.sh', 'utf8');
    expect(svc('temporal-setup').command).toEqual(['/vigil/setup-namespace.sh']);
    expect(setup).toContain('operator namespace create');
    for (const key of SEARCH_ATTRIBUTES) expect(setup).toMatch(new RegExp(`--name ${key} --type (Keyword|Int)`));
    expect(SEARCH_ATTRIBUTES.sort()).toEqual(Object.keys(VIGIL_SEARCH_ATTRIBUTES).sort());
    for (const [name, type] of Object.entries(VIGIL_SEARCH_ATTRIBUTES))
      expect(setup).toContain(`--name ${name} --type ${type}`);
  });

  it('balances api-1 and api-2 with nginx, letting long polls run past 45 s', () => {
    const conf = fs.readFileSync(mountedFile(svc('api'), '/etc/nginx/conf.d/default.conf'), 'utf8');
    expect(conf).toMatch(/server api-1:3000/);
    expect(conf).toMatch(/server api-2:3000/);
    expect(conf).toMatch(/listen 3000;/);
    const readTimeout = Number(/proxy_read_timeout (\d+)s;/.exec(conf)?.[1]);
    expect(readTimeout).toBeGreaterThanOrEqual(45);
    expect(svc('api').depends_on).toEqual({
      'api-1': expect.objectContaining({ condition: 'service_healthy' }),
      'api-2': expect.objectContaining({ condition: 'service_healthy' }),
    });
  });

  it('gives both PostgreSQL servers a volume and a healthcheck', () => {
    for (const name of ['postgres', 'temporal-db']) {
      const pg = svc(name);
      expect(pg.volumes?.map((v) => v.target)).toContain('/var/lib/postgresql/data');
      expect(pg.healthcheck?.test.join(' ')).toContain('pg_isready');
    }
  });

  it.each(APP_SERVICES)('configures %s from the environment and the built image', (name) => {
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
    const role = name.replace(/-\d+$/, '');
    expect(s.command).toEqual(['node', `dist/src/cli/${role}.js`]);
    expect(s.extra_hosts).toContain('host.docker.internal=host-gateway');
  });

  it('runs three probe locations (vigil-prober) on Temporal alone, and no location inside the worker', () => {
    const ids = ['eu-central', 'us-east', 'ap-south'];
    for (const id of ids) {
      const s = svc(`prober-${id}`);
      expect(s.image).toBe(svc('migrate').image);
      expect(s.command).toEqual(['node', 'dist/src/cli/prober.js']);
      expect(s.environment).toMatchObject({
        TEMPORAL_ADDRESS: 'temporal:7233',
        TEMPORAL_NAMESPACE: 'default',
        TEMPORAL_TASK_QUEUE: 'vigil',
        VIGIL_LOCATION: id,
        NODE_ENV: 'production',
      });
      expect(s.environment?.VIGIL_LOCATION_LABEL).toEqual(expect.any(String));
      // Never the database: a location can run in any region or cloud.
      expect(Object.keys(s.environment ?? {}).filter((k) => /DATABASE|MASTER_KEY/.test(k))).toEqual([]);
      expect(s.depends_on).toMatchObject({
        temporal: expect.objectContaining({ condition: 'service_healthy' }),
        'temporal-setup': expect.objectContaining({ condition: 'service_completed_successfully' }),
      });
      expect(Object.keys(s.depends_on ?? {})).not.toContain('postgres');
    }
    expect(svc('worker').environment).toMatchObject({ VIGIL_WORKER_LOCATION: 'false' });
  });

  it('builds the app image from the repository Dockerfile', () => {
    const build = svc('migrate').build;
    expect(build?.context).toBe(ROOT);
    expect(fs.existsSync(path.join(ROOT, build?.dockerfile ?? 'missing'))).toBe(true);
  });

  it('starts the APIs and the worker after migrations, Temporal setup and healthy peers', () => {
    for (const name of ['api-1', 'api-2', 'worker']) {
      expect(svc(name).depends_on).toEqual({
        postgres: expect.objectContaining({ condition: 'service_healthy' }),
        temporal: expect.objectContaining({ condition: 'service_healthy' }),
        migrate: expect.objectContaining({ condition: 'service_completed_successfully' }),
        'temporal-setup': expect.objectContaining({ condition: 'service_completed_successfully' }),
      });
    }
    for (const name of ['api-1', 'api-2']) expect(svc(name).healthcheck?.test.join(' ')).toContain('/healthz');
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
