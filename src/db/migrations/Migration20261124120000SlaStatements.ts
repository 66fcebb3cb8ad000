import { Migration } from '@mikro-orm/migrations';

/**
 * SLA statements: contracts, one row per statement revision (the signed RFC 8785
 * bytes in `document`), the audit trail of every transition, finance's exclusions, and the
 * statement-signing keys (private halves sealed under the master key). Audit rows are append-only:
 * a trigger refuses to change one.
 */
export class Migration20261124120000SlaStatements extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "contracts" ("id" uuid not null, "organization_id" uuid not null, "customer_id" uuid not null, "name" varchar(200) not null, "service_ids" uuid[] not null, "slo_ids" uuid[] not null, "sla_target_pct" varchar(20) not null, "timezone" varchar(64) not null, "currency" varchar(3) not null, "monthly_fee_minor" bigint not null, "effective_from" varchar(10) not null, "effective_to" varchar(10) null, "credit_terms" jsonb not null, "billing_email" varchar(320) null, "finance_contacts" text[] not null, "escalation_contacts" text[] not null, "grace_hours" int not null, "schedule_synced_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "deleted_at" timestamptz(3) null, constraint "contracts_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "contracts_organization_id_created_at_id_index" on "contracts" ("organization_id", "created_at", "id");`,
    );
    this.addSql(`create index "contracts_customer_id_index" on "contracts" ("customer_id");`);
    this.addSql(
      `create table "sla_exclusions" ("id" uuid not null, "organization_id" uuid not null, "contract_id" uuid not null, "period_label" varchar(7) not null, "starts_at" timestamptz(3) not null, "ends_at" timestamptz(3) not null, "justification" text not null, "added_by" varchar(64) not null, "created_at" timestamptz(3) not null, constraint "sla_exclusions_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "sla_exclusions_contract_id_period_label_index" on "sla_exclusions" ("contract_id", "period_label");`,
    );
    this.addSql(
      `create table "sla_statements" ("id" uuid not null, "organization_id" uuid not null, "contract_id" uuid not null, "customer_id" uuid not null, "customer_name" varchar(200) not null, "period_label" varchar(7) not null, "period_start" timestamptz(3) not null, "period_end" timestamptz(3) not null, "timezone" varchar(64) not null, "revision" int not null, "state" varchar(16) not null, "document" bytea not null, "sha256" varchar(64) not null, "signature" text not null, "signing_key_id" varchar(64) not null, "attainment_min" varchar(20) not null, "credit_pct" varchar(20) not null, "credit_amount_minor" bigint not null, "currency" varchar(3) not null, "generated_at" timestamptz(3) not null, "submitted_at" timestamptz(3) null, "submitted_by" varchar(64) null, "approved_at" timestamptz(3) null, "approved_by" varchar(64) null, "sent_at" timestamptz(3) null, "sent_to" varchar(320) null, "voided_at" timestamptz(3) null, "void_reason" text null, "superseded_at" timestamptz(3) null, "previous" uuid null, "reminded_at" timestamptz(3) null, "escalated_at" timestamptz(3) null, "review_note" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "sla_statements_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "sla_statements_organization_id_created_at_id_index" on "sla_statements" ("organization_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "sla_statements_organization_id_period_label_created_at_index" on "sla_statements" ("organization_id", "period_label", "created_at");`,
    );
    this.addSql(
      `alter table "sla_statements" add constraint "sla_statements_contract_id_period_label_revision_unique" unique ("contract_id", "period_label", "revision");`,
    );
    this.addSql(
      `create table "sla_audit_entries" ("id" uuid not null, "organization_id" uuid not null, "statement_id" uuid not null, "action" varchar(32) not null, "from_state" varchar(16) null, "to_state" varchar(16) not null, "revision" int not null, "sha256" varchar(64) not null, "actor" varchar(64) not null, "actor_name" varchar(200) null, "note" text null, "operation_id" varchar(200) null, "at" timestamptz(3) not null, constraint "sla_audit_entries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "sla_audit_entries_statement_id_at_index" on "sla_audit_entries" ("statement_id", "at");`,
    );
    this.addSql(
      `alter table "sla_audit_entries" add constraint "sla_audit_entries_organization_id_operation_id_unique" unique ("organization_id", "operation_id");`,
    );
    this.addSql(
      `create table "statement_signing_keys" ("kid" varchar(64) not null, "public_jwk" jsonb not null, "sealed_private_key" text not null, "created_at" timestamptz(3) not null, "retired_at" timestamptz(3) null, constraint "statement_signing_keys_pkey" primary key ("kid"));`,
    );
    this.addSql(
      `alter table "contracts" add constraint "contracts_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "contracts" add constraint "contracts_customer_id_foreign" foreign key ("customer_id") references "customers" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "sla_exclusions" add constraint "sla_exclusions_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "sla_exclusions" add constraint "sla_exclusions_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "sla_statements" add constraint "sla_statements_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "sla_statements" add constraint "sla_statements_contract_id_foreign" foreign key ("contract_id") references "contracts" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "sla_statements" add constraint "sla_statements_customer_id_foreign" foreign key ("customer_id") references "customers" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "sla_audit_entries" add constraint "sla_audit_entries_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "sla_audit_entries" add constraint "sla_audit_entries_statement_id_foreign" foreign key ("statement_id") references "sla_statements" ("id") on update cascade;`,
    );
    this.addSql(
      `create function sla_audit_entries_append_only() returns trigger language plpgsql as $$ begin raise exception 'sla_audit_entries are append-only'; end $$;`,
    );
    this.addSql(
      `create trigger sla_audit_entries_no_update before update on sla_audit_entries for each row execute function sla_audit_entries_append_only();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists sla_audit_entries cascade;`);
    this.addSql(`drop function if exists sla_audit_entries_append_only();`);
    this.addSql(`drop table if exists sla_exclusions cascade;`);
    this.addSql(`drop table if exists sla_statements cascade;`);
    this.addSql(`drop table if exists contracts cascade;`);
    this.addSql(`drop table if exists statement_signing_keys cascade;`);
  }
}
