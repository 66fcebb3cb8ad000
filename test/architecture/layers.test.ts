import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

function cruise(cwd: string): { status: number | null; out: string } {
  const run = spawnSync(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err'], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('the import graph (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  it('has no cycles and keeps every layer direction', () => {
    const { status, out } = cruise(ROOT);
    expect(out).toContain('no dependency violations found');
    expect(status).toBe(0);
  }, 120_000);

  it('would catch a route reaching Temporal, an impure domain module, a cycle, a workflow doing I/O, a use case importing an adapter, a circle between feature folders, a loose use case and an unlisted folder', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vigil-layers-'));
    try {
      const files: Record<string, string> = {
        'src/temporal/starter.ts': 'export const start = 1;',
        'src/api/routes/route.ts': "import { start } from '../../temporal/starter';\nexport const r = start;",
        'src/domain/rule.ts':
          "import { readFileSync } from 'node:fs';\nimport { useCase } from '../usecases/feature/use-case';\nexport const rule = [readFileSync, useCase];",
        'src/usecases/feature/use-case.ts': "import { rule } from '../../domain/rule';\nexport const useCase = rule;",
        'src/workflows/flow.ts':
          "import { useCase } from '../usecases/feature/use-case';\nexport const flow = useCase;",
        'src/infra/mailer.ts': 'export const send = 1;',
        'src/usecases/alerting/pager.ts': "import { send } from '../../infra/mailer';\nexport const page = send;",
        'src/usecases/metrics/metric.ts': "import { page } from '../alerting/pager';\nexport const metric = page;",
        'src/usecases/loose.ts': "import { metric } from './metrics/metric';\nexport const loose = metric;",
        'src/usecases/gadgets/gadget.ts': "import { metric } from '../metrics/metric';\nexport const gadget = metric;",
        'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2022' } }),
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const { status, out } = cruise(dir);
      expect(status).not.toBe(0);
      for (const rule of [
        'routes-are-thin',
        'api-reaches-temporal-through-ports',
        'domain-is-pure',
        'no-circular',
        'workflows-are-deterministic',
        'use-cases-own-their-ports',
        'feature-folders-form-no-circle',
        'use-cases-live-in-feature-folders',
        'feature-folders-are-listed',
      ])
        expect(out).toContain(`error ${rule}:`);
      expect(out).toContain('src/domain/rule.ts → fs');
      expect(out).toContain('src/usecases/alerting/pager.ts → src/infra/mailer.ts');
      expect(out).toContain('src/usecases/metrics/metric.ts → src/usecases/alerting/pager.ts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
