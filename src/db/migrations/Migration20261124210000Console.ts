import { Migration } from '@mikro-orm/migrations';

/** The web console (issue 17): its users, their one-time sign-in links and their sessions. */
export class Migration20261124210000Console extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table console_users (
      id uuid not null primary key,
      organization_id uuid not null references organizations (id) on update cascade on delete cascade,
      email varchar(320) not null,
      role varchar(16) not null check (role in ('owner', 'operator', 'finance', 'viewer')),
      created_at timestamptz(3) not null,
      last_sign_in_at timestamptz(3) null,
      disabled_at timestamptz(3) null);`);
    this.addSql('create unique index console_users_org_email_unique on console_users (organization_id, email);');
    this.addSql(`create table console_sign_in_tokens (
      id uuid not null primary key,
      user_id uuid not null references console_users (id) on update cascade on delete cascade,
      token_hash varchar(64) not null,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3) not null,
      used_at timestamptz(3) null);`);
    this.addSql('alter table console_sign_in_tokens add constraint console_sign_in_tokens_token_hash_unique unique (token_hash);');
    this.addSql('create index console_sign_in_tokens_user_id_index on console_sign_in_tokens (user_id);');
    this.addSql(`create table console_sessions (
      id uuid not null primary key,
      user_id uuid not null references console_users (id) on update cascade on delete cascade,
      token_hash varchar(64) not null,
      created_at timestamptz(3) not null,
      last_seen_at timestamptz(3) not null,
      expires_at timestamptz(3) not null,
      ended_at timestamptz(3) null);`);
    this.addSql('alter table console_sessions add constraint console_sessions_token_hash_unique unique (token_hash);');
    this.addSql('create index console_sessions_user_id_index on console_sessions (user_id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists console_sessions;');
    this.addSql('drop table if exists console_sign_in_tokens;');
    this.addSql('drop table if exists console_users;');
  }
}
