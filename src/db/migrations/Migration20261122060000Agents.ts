import { Migration } from '@mikro-orm/migrations';

export class Migration20261122060000Agents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table agents (
        id uuid primary key,
        organization_id uuid not null constraint agents_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        name varchar(200) not null,
        token_hash varchar(64) not null,
        token_prefix varchar(16) not null,
        version varchar(32) null,
        hostname varchar(255) null,
        last_seen_at timestamptz(3) null,
        revoked_at timestamptz(3) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );`);
    this.addSql(`alter table agents add constraint agents_token_hash_unique unique (token_hash);`);
    this.addSql(`create index agents_organization_id_created_at_id_index on agents (organization_id, created_at, id);`);
    this.addSql(`
      create table probe_test_jobs (
        id uuid primary key,
        organization_id uuid not null constraint probe_test_jobs_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        agent_id uuid null constraint probe_test_jobs_agent_id_foreign references agents (id) on update cascade on delete cascade,
        mode varchar(8) not null,
        source_type varchar(32) not null,
        source_config jsonb not null,
        thresholds jsonb null,
        state varchar(16) not null,
        outcome jsonb null,
        failure_reason varchar(200) null,
        created_at timestamptz(3) not null,
        claimed_at timestamptz(3) null,
        completed_at timestamptz(3) null,
        expires_at timestamptz(3) not null
      );`);
    this.addSql(`create index probe_test_jobs_agent_id_state_index on probe_test_jobs (agent_id, state);`);
    this.addSql(
      `create index probe_test_jobs_organization_id_created_at_index on probe_test_jobs (organization_id, created_at);`,
    );
    // Wakes agents' long polls when a job is queued, and API waiters when a job finishes.
    this.addSql(`
      create or replace function vigil_notify_probe_job() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' or new.state is distinct from old.state then
            perform pg_notify('vigil_probe_jobs', json_build_object('j', new.id, 'a', new.agent_id, 's', new.state)::text);
          end if;
          return null;
        end;
      $$;`);
    this.addSql(
      `create trigger probe_test_jobs_notify after insert or update of state on probe_test_jobs for each row execute function vigil_notify_probe_job();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists probe_test_jobs cascade;');
    this.addSql('drop function if exists vigil_notify_probe_job();');
    this.addSql('drop table if exists agents cascade;');
  }
}
