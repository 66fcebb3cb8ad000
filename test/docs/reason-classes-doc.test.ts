import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REASON_CODE_CLASSES } from '../../src/domain/reason-class';

/** The API guide's "Reason classes" lists name codes by class: each named code must have that class in src/domain/reason-class.ts. */
describe('docs/api/probe-tests.md, Reason classes', () => {
  const guide = readFileSync(path.join(__dirname, '..', '..', 'docs', 'api', 'probe-tests.md'), 'utf8');
  const section = guide.slice(guide.indexOf('### Reason classes'), guide.indexOf('### Source types'));
  const bullet = (name: string) => {
    const start = section.indexOf(`- **\`${name}\`**`);
    const next = section.indexOf('\n- **', start + 1);
    return section.slice(start, next < 0 ? section.indexOf('\n\n', start) : next);
  };
  // `no_data` is also the status word the bullets speak of.
  const named = (text: string) =>
    [...text.matchAll(/`([A-Za-z_]+)`/g)]
      .map((m) => m[1]!)
      .filter((c) => c !== 'no_data' && Object.hasOwn(REASON_CODE_CLASSES, c));
  // "the gRPC answers (`grpc_*` but …)": codes named as exceptions inside the target bullet belong to the other class.
  const exceptions = (text: string) =>
    [...text.matchAll(/but ((?:`[a-z_]+`(?:,\s+|\s+and\s+)?)+)/g)].flatMap((m) => named(m[1]!));

  it.each(['target', 'measurement'] as const)('every code the %s bullet names has that class', (cls) => {
    const text = bullet(cls);
    const except = new Set(exceptions(text));
    const wrong = named(text).filter(
      (c) => !except.has(c) && (REASON_CODE_CLASSES as Record<string, string>)[c] !== cls,
    );
    expect({ cls, wrong }).toEqual({ cls, wrong: [] });
    expect(named(text).length).toBeGreaterThan(10);
  });
});
