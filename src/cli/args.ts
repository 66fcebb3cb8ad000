import { parseArgs } from 'node:util';

export class CliUsageError extends Error {}

export interface Parsed {
  values: Record<string, string | boolean | undefined> & { json?: boolean };
  positionals: string[];
}

export function parse(argv: string[], options: Record<string, { type: 'string' | 'boolean' }>): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...options, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values, positionals };
  } catch (err) {
    throw new CliUsageError(err instanceof Error ? err.message : String(err));
  }
}

export function requireOption(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new CliUsageError(`--${name} is required`);
  return v;
}

/** "default" (or "plan") restores the plan's own limit. */
export function limitOption(value: unknown, name: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default' || value === 'plan') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`--${name} takes a positive integer or "default"`);
  return n;
}
