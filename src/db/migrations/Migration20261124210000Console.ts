import { Migration } from '@mikro-orm/migrations';

/** The web console: its users, their one-time sign-in links and their sessions. */
export class Migration20261124210000Console extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table console_users (
      id uuid not null primary key,
      organization_id uuid not null,
      email varchar(320) not null,
      role varchar(16) not null,
      created_at timestamptz(3) not null,
      last_sign_in_at timestamptz(3) null,
      disabled_at timestamptz(3) null);`);
    this.addSql('create unique index console_users_org_email_unique on console_users (organization_id, email);');
    this.addSql(
      'alter table console_users add constraint console_users_organization_id_foreign foreign key (organization_id) references organizations (id) on update cascade on delete cascade;',
    );
    this.addSql(`create table console_sign_in_tokens (
      id uuid not null primary key,
      user_id uuid not null,
      token_hash varchar(64) not null,
      created_at timestamptz(3) not null,
      expires_at timestamptz(3) not null,
      used_at timestamptz(3) null);`);
    this.addSql(
      'alter table console_sign_in_tokens add constraint console_sign_in_tokens_token_hash_unique unique (token_hash);',
    );
    this.addSql('create index console_sign_in_tokens_user_id_index on console_sign_in_tokens (user_id);');
    this.addSql(
      'alter table console_sign_in_tokens add constraint console_sign_in_tokens_user_id_foreign foreign key (user_id) references console_users (id) on update cascade on delete cascade;',
    );
    this.addSql(`create table console_sessions (
      id uuid not null primary key,
      user_id uuid not null,
      token_hash varchar(64) not null,
      created_at timestamptz(3) not null,
      last_seen_at timestamptz(3) not null,
      expires_at timestamptz(3) not null,
      ended_at timestamptz(3) null);`);
    this.addSql('alter table console_sessions add constraint console_sessions_token_hash_unique unique (token_hash);');
    this.addSql('create index console_sessions_user_id_index on console_sessions (user_id);');
    this.addSql(
      'alter table console_sessions add constraint console_sessions_user_id_foreign foreign key (user_id) references console_users (id) on update cascade on delete cascade;',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists console_sessions;');
    this.addSql('drop table if exists console_sign_in_tokens;');
    this.addSql('drop table if exists console_users;');
  }
}
