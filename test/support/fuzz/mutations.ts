/**
 * Mutations of a valid body: its fields found by schema (or example), and per field the hostile
 * values of its type and format (null, wrong types, odd strings, foreign and deleted ids, dates,
 * emails, URLs, hostile numbers, odd arrays and objects), set one at a time.
 */
import { Raw } from './encoding';
import type { Holdings, Kind } from './holdings';
import { BAD_ID_VALUES, DATE_TIMES, EMAILS, HOSTILE_NUMBERS, ODD_STRINGS, URLS } from './hostile-values';
import { HTTP_THRESHOLDS } from './holdings';
import { type JsonSchema, componentSchema, nonNull, typeOf } from './operations';
import { SOURCE_CONFIGS } from './valid-bodies';

const componentName = (type: string) =>
  `${type.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}SourceConfigInput`;

/** Operations that take a source_config: one source type's config with one field made hostile. */
export function sourceConfigCandidates(
  op: string,
  base: unknown,
  own: Holdings,
  foreign: Holdings,
): { label: string; body: unknown }[] {
  if (!['createMetric', 'updateMetric', 'testProbe'].includes(op)) return [];
  const out: { label: string; body: unknown }[] = [];
  for (const [type, config] of Object.entries(SOURCE_CONFIGS)) {
    const schema = componentSchema(componentName(type));
    const props = new Set([...Object.keys(schema?.properties ?? {}), ...Object.keys(config)]);
    const body =
      op === 'updateMetric'
        ? { ...(base as object), source_config: config }
        : {
            ...(base as object),
            source_type: type,
            source_config: config,
            agent_id: own.live.agent,
            thresholds: HTTP_THRESHOLDS,
          };
    for (const prop of props) {
      for (const v of hostileValues(
        { path: [prop], schema: schema?.properties?.[prop], example: config[prop] },
        foreign,
        own,
      )) {
        out.push({
          label: `source_config (${type}).${prop}: ${v.label}`,
          body: setIn(body, ['source_config', prop], v.value),
        });
      }
    }
  }
  return out;
}

export interface Field {
  path: (string | number)[];
  schema: JsonSchema | undefined;
  example: unknown;
}

/** The body's fields: top level, and one level into objects and the first item of arrays of objects. */
export function fieldsOf(schema: JsonSchema | null, example: unknown): Field[] {
  const out: Field[] = [];
  const visit = (s: JsonSchema | undefined, value: unknown, path: (string | number)[], depth: number) => {
    const d = nonNull(s);
    const keys = new Set([
      ...Object.keys(d?.properties ?? {}),
      ...(value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []),
    ]);
    for (const key of keys) {
      const sub = d?.properties?.[key];
      const v = (value as Record<string, unknown> | undefined)?.[key];
      out.push({ path: [...path, key], schema: sub, example: v });
      if (depth > 0) continue;
      if (v && typeof v === 'object' && !Array.isArray(v)) visit(sub, v, [...path, key], depth + 1);
      if (Array.isArray(v) && v[0] && typeof v[0] === 'object')
        visit(nonNull(sub)?.items, v[0], [...path, key, 0], depth + 1);
    }
  };
  visit(schema ?? undefined, example, [], 0);
  return out;
}

export function setIn(target: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(target) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = typeof key === 'number' ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  }
  at[path[path.length - 1]!] = value;
  return copy;
}

export function wrongTypeFor(type: string): unknown {
  return (
    (
      {
        string: 12345,
        integer: 'twelve',
        number: 'twelve',
        boolean: 'true',
        array: { not: 'a list' },
        object: ['not', 'an', 'object'],
      } as Record<string, unknown>
    )[type] ?? {}
  );
}

/** Hostile values for one field, by its schema (or, without one, the example's type). */
export function hostileValues(f: Field, foreign: Holdings, own: Holdings): { label: string; value: unknown }[] {
  const s = nonNull(f.schema);
  const type = typeOf(f.schema, f.example);
  const out: { label: string; value: unknown }[] = [
    { label: 'null', value: null },
    { label: 'wrong type', value: wrongTypeFor(type) },
  ];
  if (type === 'string') {
    out.push(
      { label: 'empty', value: '' },
      { label: 'blank', value: '   ' },
      { label: 'over maxLength', value: 'y'.repeat((s?.maxLength ?? 300) + 1) },
    );
    for (const odd of ODD_STRINGS) out.push({ label: `odd ${JSON.stringify(odd).slice(0, 20)}`, value: odd });
    if (s?.enum)
      out.push(
        { label: 'not in enum', value: 'BOGUS' },
        { label: 'enum upper-cased', value: String(s.enum[0]).toUpperCase() },
      );
    if (s?.format === 'uuid' || /id$|_id$/.test(String(f.path[f.path.length - 1]))) {
      for (const bad of BAD_ID_VALUES) out.push({ label: `id ${bad.slice(0, 12)}`, value: bad });
      for (const kind of Object.keys(foreign.live) as Kind[])
        out.push({ label: `foreign ${kind}`, value: foreign.live[kind] });
      for (const [kind, id] of Object.entries(own.deleted)) out.push({ label: `deleted ${kind}`, value: id });
    }
    if (s?.format === 'date-time' || /_at$/.test(String(f.path[f.path.length - 1])))
      for (const d of DATE_TIMES) out.push({ label: `date ${d}`, value: d });
    if (s?.format === 'email' || /email/.test(String(f.path[f.path.length - 1])))
      for (const e of EMAILS) out.push({ label: `email ${e.slice(0, 16)}`, value: e });
    if (s?.format === 'uri' || /url$/.test(String(f.path[f.path.length - 1])))
      for (const u of URLS) out.push({ label: `url ${u.slice(0, 20)}`, value: u });
    if (s?.pattern)
      out.push(
        { label: 'pattern-ish', value: '999999.999999' },
        { label: 'pattern-ish', value: '0000-01' },
        { label: 'pattern-ish', value: '9999-12' },
        { label: 'pattern-ish', value: '1e5' },
      );
    if (/zone|timezone/.test(String(f.path[f.path.length - 1])))
      out.push(
        { label: 'zone', value: 'Mars/Olympus_Mons' },
        { label: 'zone', value: 'Etc/GMT+14' },
        { label: 'zone', value: 'EST5EDT' },
        { label: 'zone', value: 'UTC\u0000' },
      );
    if (/^effective_|period/.test(String(f.path[f.path.length - 1])))
      out.push(
        { label: 'date', value: '2026-02-30' },
        { label: 'date', value: '99999-01-01' },
        { label: 'date', value: '0000-01-01' },
        { label: 'date', value: '2026-1-1' },
      );
  }
  if (type === 'integer' || type === 'number') {
    for (const n of HOSTILE_NUMBERS)
      out.push({ label: `number ${n instanceof Raw ? n.json : JSON.stringify(n)}`, value: n });
    if (s?.minimum !== undefined) out.push({ label: 'below minimum', value: s.minimum - 1 });
    if (s?.maximum !== undefined) out.push({ label: 'above maximum', value: s.maximum + 1 });
  }
  if (type === 'boolean') out.push({ label: 'string true', value: 'true' }, { label: 'one', value: 1 });
  if (type === 'array') {
    const item = Array.isArray(f.example) ? f.example[0] : 'x';
    out.push(
      { label: 'empty array', value: [] },
      { label: '[null]', value: [null] },
      { label: 'duplicates', value: [item, item, item] },
      { label: 'items of wrong type', value: [42, true, {}] },
      { label: 'nested arrays', value: [[item]] },
    );
    if (nonNull(s?.items)?.format === 'uuid')
      out.push(
        { label: 'foreign ids', value: [foreign.live.service, foreign.live.customer, foreign.live.metric] },
        { label: 'deleted ids', value: Object.values(own.deleted).slice(0, 5) },
      );
  }
  if (type === 'object')
    out.push(
      { label: 'empty object', value: {} },
      { label: '__proto__', value: new Raw('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}') },
      { label: 'unknown key', value: { unknown_field: 1 } },
    );
  return out;
}

/** Every string field, replaced by `make(i)`; null when the body has none. */
export function everyString(fields: Field[], base: unknown, make: (i: number) => unknown): unknown | null {
  const strings = fields.filter((f) => typeOf(f.schema, f.example) === 'string');
  if (!strings.length) return null;
  return strings.reduce((b, f, i) => setIn(b, f.path, make(i)), base);
}
