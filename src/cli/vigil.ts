import type { EntityManager } from '@mikro-orm/postgresql';
import { PLAN_IDS } from '../domain/plans';
import { SCOPES, type Scope, unknownScopesMessage } from '../domain/scopes';
import { UsageError, listApiKeys, mintApiKey, revokeApiKey } from '../usecases/organizations/api-keys';
import { createOrganization, updateOrganization } from '../usecases/organizations/organizations';
import { CliUsageError, limitOption, parse, requireOption } from './args';
import { openDatabase } from './database';
import { loadConfig } from '../config';
import { secretBox } from '../composition/adapters';
import { rotateSigningKey, signingKeys } from '../usecases/sla/signing-keys';
import { runSlaVerify } from './sla-verify';
import { createConsoleUser, disableConsoleUser, findConsoleUser, listConsoleUsers } from '../usecases/console/users';
import { inviteConsoleUser } from '../usecases/console/sign-in';
import { createMailer } from '../infra/mailer';
import { mailOutboxDir } from '../composition/adapters';

/** Sends a console invitation with the service's mail settings (SMTP_URL, or the outbox folder) and answers the link. */
async function inviteWithMail(em: EntityManager, user: Parameters<typeof inviteConsoleUser>[2]) {
  const config = loadConfig();
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL ?? null,
    from: config.MAIL_FROM,
    outboxDir: mailOutboxDir(config),
  });
  try {
    return await inviteConsoleUser(em, mailer, user, `${config.publicBaseUrl}/console`, new Date());
  } finally {
    await mailer.close();
  }
}
import { runConfigCommand } from './config-command';

const HELP = `vigil — manage Vigil organizations and API keys (uses the service's own database settings)

  vigil org create --name NAME --plan PLAN [--json]
  vigil org update --org ORG_ID [--plan PLAN] [--rate-limit-minute N|default] [--rate-limit-day N|default] [--json]
  vigil key create --org ORG_ID [--scopes a,b] [--name NAME] [--expires 90d|2027-01-31T00:00:00Z] [--json]
  vigil key list --org ORG_ID [--json]
  vigil key revoke KEY_ID [--json]
  vigil sla keys [--json]                  statement-signing keys (newest signs; retired ones stay in the JWKS)
  vigil sla rotate-key [--json]            a new signing key; the current one is retired but stays published
  vigil user create --org ORG_ID --email EMAIL --role owner|operator|finance|viewer [--json]   a console user, invited by email (the link is printed too)
  vigil user list --org ORG_ID [--json]
  vigil user invite USER_ID [--json]     a new sign-in link, by email and printed
  vigil user disable USER_ID [--json]    ends the user's sessions; links stop working
  vigil migrate
  vigil sla verify STATEMENT_JSON STATEMENT_JWS [--jwks FILE|URL] [--sha256 HEX] [--json]   (offline, no database)
  vigil config plan --file FILE [--prune] [--json]    what applying FILE (.yaml, .yml, .json, - for stdin) would change: exit 0 none, 2 some
  vigil config apply --file FILE [--prune] [--json]   make the configuration match FILE
  vigil config export [--file FILE] [--format yaml|json] [--include-unmanaged] [--json]   (config: over the API, --url/VIGIL_URL, --api-key/VIGIL_API_KEY)

Plans: ${PLAN_IDS.join(', ')}
Scopes: ${SCOPES.join(', ')}`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

function scopesOption(value: unknown): Scope[] | undefined {
  if (value === undefined) return undefined;
  const list = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = unknownScopesMessage(list);
  if (unknown) throw new CliUsageError(unknown);
  if (!list.length) throw new CliUsageError('--scopes needs at least one scope');
  return list as Scope[];
}

/** --expires: days from now (`90d`) or an instant with its offset (`2027-01-31T00:00:00Z`); past it the key answers 401. */
function expiresOption(value: unknown, now: Date): Date | null {
  if (value === undefined) return null;
  const text = String(value).trim();
  const days = /^(\d{1,5})d$/.exec(text);
  const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)
    ? new Date(text)
    : null;
  const at = days ? new Date(now.getTime() + Number(days[1]) * 86_400_000) : instant;
  if (!at || Number.isNaN(at.getTime()))
    throw new CliUsageError(
      `--expires takes days from now (90d) or an instant with its offset (2027-01-31T00:00:00Z), not "${text}"`,
    );
  if (at.getTime() <= now.getTime())
    throw new CliUsageError(
      `--expires must be in the future (${at.toISOString()} is not); leave it out for a key that does not expire`,
    );
  return at;
}

type Command = (em: EntityManager, argv: string[], io: CliIo) => Promise<void>;

function emit(io: CliIo, json: boolean | undefined, data: object, human: string): void {
  io.out(json ? JSON.stringify(data) : human);
}

const COMMANDS: Record<string, Command> = {
  'org create': async (em, argv, io) => {
    const { values } = parse(argv, { name: { type: 'string' }, plan: { type: 'string' } });
    const { organization, key } = await createOrganization(
      em,
      { name: requireOption(values, 'name'), plan: requireOption(values, 'plan') },
      new Date(),
    );
    emit(
      io,
      values.json,
      { organization_id: organization.id, api_key: key.plaintext, api_key_id: key.record.id, plan: organization.plan },
      `Organization ${organization.id} (${organization.plan})\nAPI key (shown once): ${key.plaintext}`,
    );
  },
  'org update': async (em, argv, io) => {
    const { values } = parse(argv, {
      org: { type: 'string' },
      plan: { type: 'string' },
      'rate-limit-minute': { type: 'string' },
      'rate-limit-day': { type: 'string' },
    });
    const org = await updateOrganization(
      em,
      requireOption(values, 'org'),
      {
        plan: typeof values.plan === 'string' ? values.plan : undefined,
        rateLimitPerMinute: limitOption(values['rate-limit-minute'], 'rate-limit-minute'),
        rateLimitPerDay: limitOption(values['rate-limit-day'], 'rate-limit-day'),
      },
      new Date(),
    );
    emit(
      io,
      values.json,
      {
        organization_id: org.id,
        plan: org.plan,
        rate_limit_per_minute: org.rateLimitPerMinute,
        rate_limit_per_day: org.rateLimitPerDay,
      },
      `Organization ${org.id}: plan ${org.plan}`,
    );
  },
  'key create': async (em, argv, io) => {
    const { values } = parse(argv, {
      org: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      expires: { type: 'string' },
    });
    const now = new Date();
    const expiresAt = expiresOption(values.expires, now);
    const key = await mintApiKey(
      em,
      {
        organizationId: requireOption(values, 'org'),
        name: typeof values.name === 'string' ? values.name : undefined,
        scopes: scopesOption(values.scopes),
        expiresAt,
      },
      now,
    );
    emit(
      io,
      values.json,
      {
        api_key_id: key.record.id,
        api_key: key.plaintext,
        scopes: key.record.scopes,
        expires_at: expiresAt?.toISOString() ?? null,
      },
      `API key ${key.record.id} (shown once): ${key.plaintext}\nScopes: ${key.record.scopes.join(', ')}\nExpires: ${expiresAt?.toISOString() ?? 'never'}`,
    );
  },
  'key list': async (em, argv, io) => {
    const { values } = parse(argv, { org: { type: 'string' } });
    const keys = await listApiKeys(em, requireOption(values, 'org'));
    const now = Date.now();
    const rows = keys.map((k) => ({
      api_key_id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: k.scopes,
      created_at: k.createdAt.toISOString(),
      expires_at: k.expiresAt?.toISOString() ?? null,
      revoked_at: k.revokedAt?.toISOString() ?? null,
      last_used_at: k.lastUsedAt?.toISOString() ?? null,
    }));
    const state = (r: (typeof rows)[number]) =>
      r.revoked_at
        ? 'revoked'
        : r.expires_at && Date.parse(r.expires_at) <= now
          ? 'expired'
          : r.expires_at
            ? `active until ${r.expires_at}`
            : 'active';
    emit(
      io,
      values.json,
      rows,
      rows.map((r) => `${r.api_key_id}  ${r.prefix}…  ${state(r)}  ${r.scopes.join(',')}`).join('\n') || 'No keys.',
    );
  },
  'key revoke': async (em, argv, io) => {
    const { values, positionals } = parse(argv, {});
    const id = positionals[0];
    if (!id) throw new CliUsageError('key revoke needs KEY_ID');
    const key = await revokeApiKey(em, id, new Date());
    emit(io, values.json, { api_key_id: key.id, revoked_at: key.revokedAt?.toISOString() }, `Revoked ${key.id}`);
  },
  'sla keys': async (em, argv, io) => {
    const { values } = parse(argv, {});
    const keys = await signingKeys(em);
    const rows = keys.map((k) => ({
      kid: k.kid,
      created_at: k.createdAt.toISOString(),
      retired_at: k.retiredAt?.toISOString() ?? null,
    }));
    emit(
      io,
      values.json,
      rows,
      rows
        .map((r) => `${r.kid}  ${r.retired_at ? `retired ${r.retired_at}` : 'signing'}  created ${r.created_at}`)
        .join('\n') || 'No signing key yet (the first statement creates one).',
    );
  },
  'sla rotate-key': async (em, argv, io) => {
    const { values } = parse(argv, {});
    const rotated = await rotateSigningKey(em, secretBox(loadConfig()), new Date());
    emit(
      io,
      values.json,
      rotated,
      `New signing key ${rotated.kid}${rotated.retired.length ? `; retired ${rotated.retired.join(', ')} (still published in the JWKS)` : ''}`,
    );
  },
  'user create': async (em, argv, io) => {
    const { values } = parse(argv, { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } });
    const user = await createConsoleUser(
      em,
      {
        organizationId: requireOption(values, 'org'),
        email: requireOption(values, 'email'),
        role: requireOption(values, 'role'),
      },
      new Date(),
    );
    const link = await inviteWithMail(em, user);
    emit(
      io,
      values.json,
      {
        user_id: user.id,
        email: user.email,
        role: user.role,
        sign_in_url: link.url,
        expires_at: link.expiresAt.toISOString(),
      },
      `Console user ${user.id}: ${user.email} (${user.role})\nInvitation sent; sign-in link (works once, until ${link.expiresAt.toISOString()}): ${link.url}`,
    );
  },
  'user list': async (em, argv, io) => {
    const { values } = parse(argv, { org: { type: 'string' } });
    const users = await listConsoleUsers(em, requireOption(values, 'org'));
    const rows = users.map((u) => ({
      user_id: u.id,
      email: u.email,
      role: u.role,
      created_at: u.createdAt.toISOString(),
      last_sign_in_at: u.lastSignInAt?.toISOString() ?? null,
      disabled_at: u.disabledAt?.toISOString() ?? null,
    }));
    emit(
      io,
      values.json,
      rows,
      rows.map((r) => `${r.user_id}  ${r.email}  ${r.role}  ${r.disabled_at ? 'disabled' : 'active'}`).join('\n') ||
        'No console users.',
    );
  },
  'user invite': async (em, argv, io) => {
    const { values, positionals } = parse(argv, {});
    const user = await findConsoleUser(em, positionals[0]);
    const link = await inviteWithMail(em, user);
    emit(
      io,
      values.json,
      { user_id: user.id, sign_in_url: link.url, expires_at: link.expiresAt.toISOString() },
      `Sign-in link for ${user.email} (sent; works once, until ${link.expiresAt.toISOString()}): ${link.url}`,
    );
  },
  'user disable': async (em, argv, io) => {
    const { values, positionals } = parse(argv, {});
    if (!positionals[0]) throw new CliUsageError('user disable needs USER_ID');
    const user = await disableConsoleUser(em, positionals[0], new Date());
    emit(io, values.json, { user_id: user.id, disabled_at: user.disabledAt?.toISOString() }, `Disabled ${user.email}`);
  },
  migrate: async (_em, _argv, io) => io.out('Migrations are up to date.'),
};

/** Returns the process exit code: 0 done, 1 refused (bad input, unknown ids), 2 usage. */
export async function main(
  argv: string[],
  io: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) },
): Promise<number> {
  const [a, b] = argv;
  const name = a && b && COMMANDS[`${a} ${b}`] ? `${a} ${b}` : a && COMMANDS[a] ? a : null;
  if (a === 'help' || argv.includes('--help')) {
    io.out(HELP);
    return 0;
  }
  // Offline: checks files a customer received, so it never opens the database.
  if (a === 'sla' && b === 'verify') return runSlaVerify(argv.slice(2), io);
  // A client of the HTTP API (URL and API key), so it never opens the database either.
  if (a === 'config') return runConfigCommand(argv.slice(1), io);
  if (!name) {
    io.err(a ? `Unknown command "${argv.slice(0, 2).join(' ')}".\n\n${HELP}` : HELP);
    return 2;
  }
  const rest = argv.slice(name.split(' ').length);
  const db = await openDatabase();
  try {
    await COMMANDS[name]!(db.orm.em.fork(), rest, io);
    return 0;
  } catch (err) {
    if (err instanceof CliUsageError) {
      io.err(`${err.message}\n\n${HELP}`);
      return 2;
    }
    if (err instanceof UsageError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
