import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type StatementVerifyFailure,
  canonicalStatement,
  sha256Hex,
  verifyStatement,
} from '../crypto/statement-signing';
import { CliUsageError, parse } from './args';

/**
 * `vigil sla verify`: checks a statement file and its detached JWS offline, against a JWKS (a saved
 * file or the service's `/.well-known/jwks.json`). No database, no configuration: a customer or an
 * auditor runs it on the files they received (docs/sla-verification.md).
 *
 * Checks, in this order, the first failing one being reported:
 *   1. the file is UTF-8 JSON (`not_json`) already in RFC 8785 canonical form (`not_canonical`):
 *      the signature covers the canonical bytes, so a reformatted file cannot verify;
 *   2. with `--sha256`, the file's SHA-256 is the expected one (`hash_mismatch`);
 *   3. the JWS (verifyStatement): its form, its kid in the JWKS, the signature over the file's bytes.
 *
 * Exit codes: 0 valid, 1 checked and not valid, 2 could not check (arguments, unreadable files, no JWKS).
 */

export const SLA_VERIFY_USAGE = `Usage: vigil sla verify STATEMENT_JSON STATEMENT_JWS [--jwks FILE|URL] [--sha256 HEX] [--json]

  STATEMENT_JSON  the statement file (statement.json), checked byte for byte
  STATEMENT_JWS   its detached signature (statement.jws)
  --jwks          the service's public keys: a file, or https://<vigil host>/.well-known/jwks.json
                  (default: jwks.json next to STATEMENT_JSON)
  --sha256        the SHA-256 the statement should have (from the API or the PDF)
  --json          one JSON line: {"valid","kid","sha256","canonical","reason"}

Exit status: 0 valid, 1 not valid, 2 could not check.`;

export const JWKS_FETCH_TIMEOUT_MS = 10_000;

export type SlaVerifyFailure = 'not_json' | 'not_canonical' | StatementVerifyFailure;

export type SlaVerifyReport = {
  valid: boolean;
  kid: string | null;
  /** Lowercase hex SHA-256 of the statement file's bytes as read. */
  sha256: string;
  /** Whether the file is byte for byte its RFC 8785 canonical form; null when it is not JSON. */
  canonical: boolean | null;
  reason: SlaVerifyFailure | null;
};

type Io = { out(line: string): void; err(line: string): void };

/** A problem that prevents checking at all (exit 2), shown without the usage text. */
class CannotVerify extends Error {
  constructor(
    message: string,
    readonly missingFile = false,
  ) {
    super(message);
  }
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
const URL_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;

async function readInput(file: string, what: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CannotVerify(`${what} ${file} does not exist.`, true);
    throw new CannotVerify(`Cannot read ${what} ${file}: ${(err as Error).message}`);
  }
}

function asJwks(value: unknown, source: string): { keys: unknown[] } {
  const keys = typeof value === 'object' && value !== null ? (value as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys)) throw new CannotVerify(`${source} is not a JWKS (a JSON object with a "keys" array).`);
  return { keys };
}

async function fetchJwks(url: string, fetchImpl: typeof fetch): Promise<{ keys: unknown[] }> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new CannotVerify(
        `Fetching the JWKS from ${url} failed: no answer within ${JWKS_FETCH_TIMEOUT_MS / 1000} s.`,
      );
    const cause = (err as { cause?: { message?: string } })?.cause?.message;
    throw new CannotVerify(`Fetching the JWKS from ${url} failed: ${cause ?? (err as Error)?.message ?? String(err)}.`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new CannotVerify(
      `Fetching the JWKS from ${url} failed: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    throw new CannotVerify(
      `Fetching the JWKS from ${url} failed while reading the body: ${(err as Error)?.message ?? String(err)}.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CannotVerify(
      `The answer from ${url} is not JSON (content-type ${response.headers.get('content-type') ?? 'none'}); is this the Vigil service's /.well-known/jwks.json?`,
    );
  }
  return asJwks(body, `The answer from ${url}`);
}

async function loadJwks(
  option: string | undefined,
  statementFile: string,
  fetchImpl: typeof fetch,
): Promise<{ jwks: { keys: unknown[] }; source: string }> {
  if (option !== undefined && URL_LIKE.test(option)) {
    if (!/^https?:\/\//i.test(option)) throw new CliUsageError(`--jwks takes a file or an http(s) URL, not ${option}`);
    return { jwks: await fetchJwks(option, fetchImpl), source: option };
  }
  const file = option ?? path.join(path.dirname(statementFile), 'jwks.json');
  const bytes = await readInput(file, 'JWKS file').catch((err: unknown) => {
    if (option !== undefined || !(err instanceof CannotVerify && err.missingFile)) throw err;
    throw new CannotVerify(
      `No JWKS given and no jwks.json next to ${statementFile}. Pass the service's public keys: --jwks https://<vigil host>/.well-known/jwks.json (or a saved copy of it).`,
    );
  });
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new CannotVerify(`JWKS file ${file} is not JSON.`);
  }
  return { jwks: asJwks(value, `JWKS file ${file}`), source: file };
}

/** Whether `bytes` are UTF-8 JSON, and if so whether they are exactly their RFC 8785 canonical form. */
function canonicalForm(bytes: Buffer): boolean | null {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
  try {
    return canonicalStatement(doc).bytes.equals(bytes);
  } catch {
    // Valid JSON that is not I-JSON (a lone surrogate escape, a number out of range) has no canonical form.
    return false;
  }
}

function explain(
  reason: SlaVerifyFailure,
  r: {
    statementFile: string;
    jwsFile: string;
    jwksSource: string;
    kid: string | null;
    sha256: string;
    expected?: string;
  },
): string {
  const kid = r.kid ?? '?';
  switch (reason) {
    case 'not_json':
      return `${r.statementFile} is not UTF-8 JSON text, so it is not a Vigil statement file.`;
    case 'not_canonical':
      return `${r.statementFile} is not in RFC 8785 canonical form. The signature covers the canonical bytes exactly as issued, so this file was reformatted or edited (an editor, a "pretty print", a re-save); use the statement.json file exactly as downloaded.`;
    case 'hash_mismatch':
      return `the SHA-256 of ${r.statementFile} is ${r.sha256}, not the expected ${r.expected}: this is not the statement you expected (or the file was changed).`;
    case 'malformed':
      return `${r.jwsFile} is not a detached JWS of the form <header>..<signature> with a kid in its header.`;
    case 'not_detached':
      return `${r.jwsFile} carries an embedded payload; Vigil statement signatures are detached (<header>..<signature>).`;
    case 'unsupported_alg':
      return `the signature in ${r.jwsFile} does not use EdDSA (Ed25519), the only algorithm Vigil signs statements with.`;
    case 'not_unencoded':
      return `the header of ${r.jwsFile} lacks "b64": false with "crit": ["b64"] (RFC 7797 unencoded payload), which Vigil statement signatures always carry.`;
    case 'unknown_kid':
      return `the JWKS (${r.jwksSource}) has no key with kid ${kid}. Use the JWKS of the Vigil service that issued the statement; it keeps retired keys, so a key missing from it was never one of that service's signing keys.`;
    case 'bad_key':
      return `the JWKS entry for kid ${kid} (${r.jwksSource}) is not an Ed25519 public key whose RFC 7638 thumbprint is ${kid}.`;
    case 'bad_signature':
      return `the signature (kid ${kid}) does not match the bytes of ${r.statementFile}: the statement was altered after signing, or the signature belongs to another statement.`;
  }
}

/** Checks the files; returns the report, or throws CliUsageError / CannotVerify when it cannot check. */
async function check(
  argv: string[],
  fetchImpl: typeof fetch,
): Promise<{ report: SlaVerifyReport; explanation: string | null; json: boolean }> {
  const { values, positionals } = parse(argv, { jwks: { type: 'string' }, sha256: { type: 'string' } });
  if (positionals.length !== 2)
    throw new CliUsageError(
      positionals.length < 2
        ? 'sla verify needs STATEMENT_JSON and STATEMENT_JWS'
        : `Unexpected argument "${positionals[2]}"`,
    );
  const [statementFile, jwsFile] = positionals as [string, string];
  const expected = values.sha256;
  if (expected !== undefined && (typeof expected !== 'string' || !SHA256_HEX.test(expected)))
    throw new CliUsageError('--sha256 takes 64 hexadecimal digits');
  const jwksOption = typeof values.jwks === 'string' ? values.jwks : undefined;
  if (jwksOption === '') throw new CliUsageError('--jwks needs a file or a URL');

  const bytes = await readInput(statementFile, 'Statement file');
  const jws = (await readInput(jwsFile, 'Signature file')).toString('utf8').trim();
  const { jwks, source: jwksSource } = await loadJwks(jwksOption, statementFile, fetchImpl);

  const sha256 = sha256Hex(bytes);
  const canonical = canonicalForm(bytes);
  const signature = await verifyStatement(bytes, jws, jwks);
  const reason: SlaVerifyFailure | null =
    canonical === null
      ? 'not_json'
      : !canonical
        ? 'not_canonical'
        : expected !== undefined && expected.toLowerCase() !== sha256
          ? 'hash_mismatch'
          : signature.valid
            ? null
            : (signature.reason ?? 'bad_signature');
  const report: SlaVerifyReport = { valid: reason === null, kid: signature.kid, sha256, canonical, reason };
  const explanation =
    reason &&
    explain(reason, {
      statementFile,
      jwsFile,
      jwksSource,
      kid: signature.kid,
      sha256,
      expected: expected?.toLowerCase(),
    });
  return { report, explanation, json: values.json === true };
}

/** `vigil sla verify …`; returns the exit code: 0 valid, 1 not valid, 2 could not check. */
export async function runSlaVerify(argv: string[], io: Io, deps: { fetch?: typeof fetch } = {}): Promise<number> {
  try {
    const { report, explanation, json } = await check(argv, deps.fetch ?? globalThis.fetch);
    if (json) io.out(JSON.stringify(report));
    else
      io.out(
        report.valid
          ? `OK: signature valid (kid ${report.kid}), sha256 ${report.sha256}`
          : `FAILED: ${report.reason}: ${explanation}`,
      );
    return report.valid ? 0 : 1;
  } catch (err) {
    if (err instanceof CliUsageError) {
      io.err(`${err.message}\n\n${SLA_VERIFY_USAGE}`);
      return 2;
    }
    if (err instanceof CannotVerify) {
      io.err(err.message);
      return 2;
    }
    throw err;
  }
}
