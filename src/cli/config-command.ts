import { readFile, writeFile } from 'node:fs/promises';
import { CliUsageError, type Parsed, parse } from './args';
import { type ConfigPlan, type Problem, formatPlan, formatProblem, hasChanges, wantsColour } from './config-diff';

/**
 * `vigil config plan|apply|export`: config as code against a running Vigil API
 * (`POST /v1/config/apply`, `GET /v1/config/export`). A client of the HTTP API only, so it never
 * opens the database; it needs the service's URL and an API key (write:config, read:config).
 *
 * Exit codes: 0 done (plan: nothing to change), 1 failed, 2 usage (plan: changes are planned,
 * like `terraform plan -detailed-exitcode`).
 */

export const CONFIG_USAGE = `Usage:
  vigil config plan --file FILE [--prune] [--json]      what applying FILE would change (exit 0 none, 2 some, 1 error)
  vigil config apply --file FILE [--prune] [--json]     make the configuration match FILE
  vigil config export [--file FILE] [--format yaml|json] [--include-unmanaged] [--json]

  --file               the document: .yaml/.yml (YAML), .json (JSON), or - for stdin; export: where to write (default stdout)
  --prune              delete items that carry a config_key but are not in the document (only the kinds it has a section for)
  --format             export format (default: from the file's extension, else yaml; json with --json)
  --include-unmanaged  export also the items created outside config as code (applying the export adopts them)
  --url                the Vigil API's base URL (default: $VIGIL_URL)
  --api-key            an API key (default: $VIGIL_API_KEY)
  --json               print the API's answer as JSON`;

export const REQUEST_TIMEOUT_MS = 120_000;

/** vigil.ts's CliIo, restated: importing it from there would make an import cycle. */
type CliIo = { out(line: string): void; err(line: string): void };

type Env = Record<string, string | undefined>;
type ExportFormat = 'yaml' | 'json';

/** A failure already explained in its message (exit 1). */
class CommandFailed extends Error {}

interface Connection {
  baseUrl: string;
  apiKey: string;
}

interface ApiAnswer {
  url: string;
  status: number;
  ok: boolean;
  contentType: string;
  text: string;
}

interface DocumentBody {
  text: string;
  contentType: 'application/json' | 'application/yaml';
}

const CONNECTION_OPTIONS = { url: { type: 'string' }, 'api-key': { type: 'string' } } as const;
const APPLY_OPTIONS = { ...CONNECTION_OPTIONS, file: { type: 'string' }, prune: { type: 'boolean' } } as const;
const EXPORT_OPTIONS = {
  ...CONNECTION_OPTIONS,
  file: { type: 'string' },
  format: { type: 'string' },
  'include-unmanaged': { type: 'boolean' },
} as const;

function stringOption(values: Parsed['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function refuseArguments(positionals: string[]): void {
  if (positionals.length) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
}

function connectionFrom(values: Parsed['values'], env: Env): Connection {
  const url = stringOption(values, 'url') ?? (env.VIGIL_URL || undefined);
  const apiKey = stringOption(values, 'api-key') ?? (env.VIGIL_API_KEY || undefined);
  if (!url) throw new CliUsageError('No Vigil URL: pass --url or set VIGIL_URL.');
  if (!apiKey) throw new CliUsageError('No API key: pass --api-key or set VIGIL_API_KEY.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliUsageError(`--url (or VIGIL_URL) is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new CliUsageError(`--url (or VIGIL_URL) must be http or https: ${url}`);
  return { baseUrl: url.replace(/\/+$/, ''), apiKey };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON when the text starts with `{` (after a byte order mark and blank space), YAML otherwise. */
function sniffContentType(text: string): DocumentBody['contentType'] {
  return /^\uFEFF?\s*\{/.test(text) ? 'application/json' : 'application/yaml';
}

function contentTypeOf(file: string, text: string): DocumentBody['contentType'] {
  if (/\.ya?ml$/i.test(file)) return 'application/yaml';
  if (/\.json$/i.test(file)) return 'application/json';
  return sniffContentType(text);
}

async function readDocument(file: string): Promise<DocumentBody> {
  if (file === '-') {
    const text = await readStdin();
    return { text, contentType: sniffContentType(text) };
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CommandFailed(
      code === 'ENOENT' ? `${file} does not exist.` : `cannot read ${file}: ${(err as Error).message}`,
    );
  }
  return { text, contentType: contentTypeOf(file, text) };
}

function connectionFailure(baseUrl: string, err: unknown): CommandFailed {
  const name = (err as Error)?.name;
  if (name === 'TimeoutError' || name === 'AbortError')
    return new CommandFailed(`no answer from the Vigil API at ${baseUrl} within ${REQUEST_TIMEOUT_MS / 1000} s.`);
  // undici reports "fetch failed" with the socket error as its cause (an AggregateError with a code for localhost).
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const reason = cause?.message || cause?.code || (err as Error)?.message || String(err);
  return new CommandFailed(
    `cannot reach the Vigil API at ${baseUrl}: ${reason}. Check --url (or VIGIL_URL) and that the service is running.`,
  );
}

async function request(
  conn: Connection,
  method: 'GET' | 'POST',
  pathAndQuery: string,
  init: { accept: string; body?: DocumentBody },
): Promise<ApiAnswer> {
  const url = `${conn.baseUrl}${pathAndQuery}`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${conn.apiKey}`,
    accept: `${init.accept}, application/problem+json`,
  };
  if (init.body) headers['content-type'] = init.body.contentType;
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: init.body?.text,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (err) {
    throw connectionFailure(conn.baseUrl, err);
  }
  return {
    url,
    status: response.status,
    ok: response.ok,
    contentType: response.headers.get('content-type') ?? '',
    text,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asProblem(answer: ApiAnswer): Problem | undefined {
  if (!/json/i.test(answer.contentType)) return undefined;
  const body = parseJson(answer.text);
  const title = typeof body === 'object' && body !== null ? (body as { title?: unknown }).title : undefined;
  return typeof title === 'string' ? (body as Problem) : undefined;
}

/** An error answer: the problem's title, detail and details (or, with --json, its body on stdout). */
function reportFailure(answer: ApiAnswer, io: CliIo, json: boolean): number {
  const problem = asProblem(answer);
  if (problem && json) io.out(JSON.stringify(problem));
  else if (problem) io.err(formatProblem(problem).join('\n'));
  else
    io.err(
      `error: HTTP ${answer.status} from ${answer.url}${answer.text.trim() ? `: ${answer.text.trim().slice(0, 200)}` : ''}`,
    );
  return 1;
}

function asPlan(answer: ApiAnswer): ConfigPlan {
  const body = parseJson(answer.text) as Partial<ConfigPlan> | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.changes) || typeof body.summary !== 'object') {
    throw new CommandFailed(
      `unexpected answer from ${answer.url} (HTTP ${answer.status}, ${answer.contentType || 'no content type'}): not a config plan.`,
    );
  }
  return body as ConfigPlan;
}

function printPlan(plan: ConfigPlan, io: CliIo, env: Env): void {
  const { out, err } = formatPlan(plan, { colour: wantsColour(process.stdout.isTTY, env) });
  if (err.length) io.err(err.join('\n'));
  if (out.length) io.out(out.join('\n'));
}

async function planOrApply(argv: string[], io: CliIo, env: Env, dryRun: boolean): Promise<number> {
  const { values, positionals } = parse(argv, APPLY_OPTIONS);
  refuseArguments(positionals);
  const file = stringOption(values, 'file');
  if (!file) throw new CliUsageError('--file is required (a .yaml, .yml or .json document, or - for stdin).');
  const conn = connectionFrom(values, env);
  const document = await readDocument(file);
  const query = `dry_run=${dryRun}&prune=${values.prune === true}`;
  const answer = await request(conn, 'POST', `/v1/config/apply?${query}`, {
    accept: 'application/json',
    body: document,
  });
  if (!answer.ok) return reportFailure(answer, io, values.json === true);
  const plan = asPlan(answer);
  if (values.json) io.out(JSON.stringify(plan));
  else printPlan(plan, io, env);
  return dryRun && hasChanges(plan) ? 2 : 0;
}

function exportFormat(values: Parsed['values'], file: string | undefined): ExportFormat {
  const format = stringOption(values, 'format');
  if (format !== undefined && format !== 'yaml' && format !== 'json')
    throw new CliUsageError(`--format takes yaml or json, not "${format}".`);
  if (!file && values.json && format === 'yaml')
    throw new CliUsageError('--json prints JSON: it cannot be combined with --format yaml without --file.');
  if (format) return format;
  if (file && /\.json$/i.test(file)) return 'json';
  if (!file && values.json) return 'json';
  return 'yaml';
}

async function writeExport(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (err) {
    throw new CommandFailed(`cannot write ${file}: ${(err as Error).message}`);
  }
}

async function exportConfig(argv: string[], io: CliIo, env: Env): Promise<number> {
  const { values, positionals } = parse(argv, EXPORT_OPTIONS);
  refuseArguments(positionals);
  const fileOption = stringOption(values, 'file');
  const file = fileOption === '-' ? undefined : fileOption;
  const format = exportFormat(values, file);
  const conn = connectionFrom(values, env);
  const accept = format === 'yaml' ? 'application/yaml' : 'application/json';
  const query = `format=${format}${values['include-unmanaged'] ? '&include_unmanaged=true' : ''}`;
  const answer = await request(conn, 'GET', `/v1/config/export?${query}`, { accept });
  if (!answer.ok) return reportFailure(answer, io, values.json === true);
  if (file) {
    await writeExport(file, answer.text);
    if (values.json) io.out(JSON.stringify({ file, format, bytes: Buffer.byteLength(answer.text) }));
    else io.out(`Wrote the configuration to ${file} (${format}).`);
  } else if (values.json) {
    const document = parseJson(answer.text);
    if (document === undefined)
      throw new CommandFailed(
        `unexpected answer from ${answer.url}: not JSON (${answer.contentType || 'no content type'}).`,
      );
    io.out(JSON.stringify(document));
  } else {
    io.out(answer.text.replace(/\n$/, ''));
  }
  return 0;
}

const SUBCOMMANDS: Record<string, (argv: string[], io: CliIo, env: Env) => Promise<number>> = {
  plan: (argv, io, env) => planOrApply(argv, io, env, true),
  apply: (argv, io, env) => planOrApply(argv, io, env, false),
  export: exportConfig,
};

/** `vigil config …` without the word `config`; returns the exit code. */
export async function runConfigCommand(argv: string[], io: CliIo, env: Env = process.env): Promise<number> {
  const [name, ...rest] = argv;
  try {
    const subcommand = name && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
    if (!subcommand)
      throw new CliUsageError(name ? `Unknown command "config ${name}".` : 'vigil config needs plan, apply or export.');
    return await subcommand(rest, io, env);
  } catch (err) {
    if (err instanceof CliUsageError) {
      io.err(`${err.message}\n\n${CONFIG_USAGE}`);
      return 2;
    }
    if (err instanceof CommandFailed) {
      io.err(`error: ${err.message}`);
      return 1;
    }
    throw err;
  }
}
