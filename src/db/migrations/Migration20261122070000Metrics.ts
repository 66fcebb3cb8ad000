import { Migration } from '@mikro-orm/migrations';

export class Migration20261122070000Metrics extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table metrics (
        id uuid primary key,
        organization_id uuid not null constraint metrics_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        service_id uuid not null constraint metrics_service_id_foreign references services (id) on update cascade on delete cascade,
        name varchar(200) not null,
        source_type varchar(32) not null,
        source_config jsonb not null,
        thresholds jsonb null,
        interval_seconds int not null,
        agent_id uuid null constraint metrics_agent_id_foreign references agents (id) on update cascade on delete set null,
        unit varchar(16) null,
        status varchar(16) not null,
        current_value double precision null,
        reason varchar(200) null,
        last_sample_at timestamptz(3) null,
        status_since timestamptz(3) null,
        manual_status varchar(16) null,
        inbound_token_hash varchar(64) null,
        push_state jsonb null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        deleted_at timestamptz(3) null
      );`);
    this.addSql(`create index metrics_service_id_index on metrics (service_id);`);
    this.addSql(`create index metrics_agent_id_index on metrics (agent_id);`);
    this.addSql(`alter table metrics add constraint metrics_inbound_token_hash_unique unique (inbound_token_hash);`);
    this.addSql(
      `create index metrics_organization_id_created_at_id_index on metrics (organization_id, created_at, id);`,
    );
    this.addSql(`
      create table metric_status_flips (
        id uuid primary key,
        organization_id uuid not null constraint metric_status_flips_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        metric_id uuid not null constraint metric_status_flips_metric_id_foreign references metrics (id) on update cascade on delete cascade,
        from_status varchar(16) not null,
        to_status varchar(16) not null,
        value double precision null,
        reason varchar(200) null,
        at timestamptz(3) not null
      );`);
    this.addSql(`create index metric_status_flips_metric_id_at_index on metric_status_flips (metric_id, at);`);
    // Samples: one row per measurement, range-partitioned by day so months of them stay cheap to
    // keep and to drop (housekeeping creates tomorrow's partitions and drops expired ones). The
    // default partition catches anything outside the prepared days, so no sample is ever refused.
    this.addSql(`
      create table metric_samples (
        metric_id uuid not null,
        organization_id uuid not null,
        sampled_at timestamptz(3) not null,
        value double precision null,
        status varchar(16) not null,
        reason varchar(200) null,
        primary key (metric_id, sampled_at)
      ) partition by range (sampled_at);`);
    this.addSql(`create table metric_samples_default partition of metric_samples default;`);
    // Per metric and UTC day: how many samples had each status, for uptime bars and SLO inputs.
    this.addSql(`
      create table metric_daily_rollups (
        metric_id uuid not null,
        organization_id uuid not null,
        day date not null,
        samples int not null default 0,
        healthy int not null default 0,
        degraded int not null default 0,
        unhealthy int not null default 0,
        no_data int not null default 0,
        primary key (metric_id, day)
      );`);
    // Agents' long polls wake when the metrics they run change (the same channel as their jobs).
    this.addSql(`
      create or replace function vigil_notify_agent_config() returns trigger language plpgsql as $$
        declare a uuid;
        begin
          for a in select distinct x from unnest(array[case when tg_op <> 'INSERT' then old.agent_id end, case when tg_op <> 'DELETE' then new.agent_id end]) x where x is not null loop
            perform pg_notify('vigil_probe_jobs', json_build_object('a', a, 's', 'config')::text);
          end loop;
          return null;
        end;
      $$;`);
    this.addSql(
      `create trigger metrics_notify_agent_config after insert or delete or update of source_type, source_config, interval_seconds, agent_id, deleted_at on metrics for each row execute function vigil_notify_agent_config();`,
    );
  }

  override async down(): Promise<void> {
    for (const table of ['metric_daily_rollups', 'metric_samples', 'metric_status_flips', 'metrics'])
      this.addSql(`drop table if exists ${table} cascade;`);
    this.addSql('drop function if exists vigil_notify_agent_config();');
  }
}
