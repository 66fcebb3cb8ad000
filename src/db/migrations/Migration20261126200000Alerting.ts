import { Migration } from '@mikro-orm/migrations';

/**
 * Alerting and on-call. Channels (secrets sealed), escalation policies, on-call
 * schedules, alert rules and silences are configuration; alerts, their timeline and every
 * notification send (with its attempts) are the record of what happened. `alert_signals` is the
 * outbox fan-out of events to the rules that watch them: written by the outbox dispatch, marked
 * once the alert workflow has been signalled (the sweep resends the rest). `alert_action_uses`
 * makes each one-click link usable once per action. (SQL as the schema generator writes it for
 * src/db/entities/alerting.ts.)
 */
export class Migration20261126200000Alerting extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table "on_call_schedules" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "timezone" text not null, "layers" jsonb not null, "overrides" jsonb not null, "deleted_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "on_call_schedules_pkey" primary key ("id"));
      create index "on_call_schedules_organization_id_created_at_id_index" on "on_call_schedules" ("organization_id", "created_at", "id");
      create table "notification_channels" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "type" varchar(16) not null, "settings" jsonb not null, "sealed_secret" text null, "secret_hint" text null, "disabled_at" timestamptz(3) null, "deleted_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "notification_channels_pkey" primary key ("id"));
      create index "notification_channels_organization_id_created_at_id_index" on "notification_channels" ("organization_id", "created_at", "id");
      create table "escalation_policies" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "levels" jsonb not null, "repeat" int not null, "deleted_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "escalation_policies_pkey" primary key ("id"));
      create index "escalation_policies_organization_id_created_at_id_index" on "escalation_policies" ("organization_id", "created_at", "id");
      create table "alert_rules" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "kind" varchar(32) not null, "subject_id" text null, "include_degraded" boolean not null, "severity" varchar(16) not null, "escalation_policy_id" uuid not null, "auto_resolve" boolean not null, "settings" jsonb not null, "disabled_at" timestamptz(3) null, "deleted_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "alert_rules_pkey" primary key ("id"));
      create index "alert_rules_organization_id_created_at_id_index" on "alert_rules" ("organization_id", "created_at", "id");
      create index alert_rules_subject_index on alert_rules (organization_id, kind, subject_id) where deleted_at is null and disabled_at is null;
      create table "alert_signals" ("id" uuid not null, "organization_id" uuid not null, "rule_id" uuid not null, "subject_kind" varchar(32) not null, "subject_id" text not null, "event_id" uuid null, "firing" boolean not null, "created_at" timestamptz(3) not null, "signalled_at" timestamptz(3) null, constraint "alert_signals_pkey" primary key ("id"));
      create index alert_signals_unsignalled_index on alert_signals (created_at) where signalled_at is null;
      create table "alerts" ("id" uuid not null, "organization_id" uuid not null, "rule_id" uuid not null, "subject_kind" varchar(32) not null, "subject_id" text not null, "subject_name" text not null, "workflow_id" text not null, "state" varchar(16) not null, "severity" varchar(16) not null, "title" text not null, "summary" text not null, "level" int not null, "trigger_count" int not null, "suppressed_by" jsonb null, "snoozed_until" timestamptz(3) null, "triggered_at" timestamptz(3) not null, "last_triggered_at" timestamptz(3) not null, "acknowledged_at" timestamptz(3) null, "acknowledged_by" text null, "resolved_at" timestamptz(3) null, "resolved_by" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "alerts_pkey" primary key ("id"));
      create index "alerts_organization_id_created_at_id_index" on "alerts" ("organization_id", "created_at", "id");
      create index "alerts_rule_id_created_at_index" on "alerts" ("rule_id", "created_at");
      create unique index alerts_open_unique on alerts (rule_id, subject_id) where state <> 'resolved';
      create table "notification_sends" ("id" uuid not null, "organization_id" uuid not null, "channel_id" uuid null, "alert_id" uuid null, "key" text not null, "action" varchar(16) not null, "level" int not null, "recipient" text null, "state" varchar(16) not null, "attempt_count" int not null, "last_status_code" int null, "last_error" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, "completed_at" timestamptz(3) null, constraint "notification_sends_pkey" primary key ("id"));
      alter table "notification_sends" add constraint "notification_sends_key_unique" unique ("key");
      create index "notification_sends_channel_id_created_at_id_index" on "notification_sends" ("channel_id", "created_at", "id");
      create index "notification_sends_alert_id_created_at_index" on "notification_sends" ("alert_id", "created_at");
      create table "notification_attempts" ("id" uuid not null, "organization_id" uuid not null, "send_id" uuid not null, "number" int not null, "attempted_at" timestamptz(3) not null, "status_code" int null, "latency_ms" int not null, "error" text null, "response" text null, "succeeded" boolean not null, constraint "notification_attempts_pkey" primary key ("id"));
      alter table "notification_attempts" add constraint "notification_attempts_send_id_number_unique" unique ("send_id", "number");
      create table "alert_timeline" ("id" uuid not null, "organization_id" uuid not null, "alert_id" uuid not null, "key" text not null, "at" timestamptz(3) not null, "kind" varchar(32) not null, "actor" text null, "detail" jsonb not null, constraint "alert_timeline_pkey" primary key ("id"));
      create index "alert_timeline_alert_id_at_id_index" on "alert_timeline" ("alert_id", "at", "id");
      alter table "alert_timeline" add constraint "alert_timeline_alert_id_key_unique" unique ("alert_id", "key");
      create table "alert_action_uses" ("token_id" text not null, "alert_id" uuid not null, "action" varchar(16) not null, "used_at" timestamptz(3) not null, constraint "alert_action_uses_pkey" primary key ("token_id"));
      create table "silences" ("id" uuid not null, "organization_id" uuid not null, "rule_ids" uuid[] not null, "service_ids" uuid[] not null, "starts_at" timestamptz(3) not null, "ends_at" timestamptz(3) not null, "reason" text not null, "created_by" text null, "deleted_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "silences_pkey" primary key ("id"));
      create index "silences_organization_id_created_at_id_index" on "silences" ("organization_id", "created_at", "id");
      alter table "on_call_schedules" add constraint "on_call_schedules_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "notification_channels" add constraint "notification_channels_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "escalation_policies" add constraint "escalation_policies_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "alert_rules" add constraint "alert_rules_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "alert_rules" add constraint "alert_rules_escalation_policy_id_foreign" foreign key ("escalation_policy_id") references "escalation_policies" ("id") on update cascade;
      alter table "alert_signals" add constraint "alert_signals_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "alert_signals" add constraint "alert_signals_rule_id_foreign" foreign key ("rule_id") references "alert_rules" ("id") on update cascade on delete cascade;
      alter table "alerts" add constraint "alerts_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "alerts" add constraint "alerts_rule_id_foreign" foreign key ("rule_id") references "alert_rules" ("id") on update cascade on delete cascade;
      alter table "notification_sends" add constraint "notification_sends_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "notification_sends" add constraint "notification_sends_channel_id_foreign" foreign key ("channel_id") references "notification_channels" ("id") on update cascade on delete cascade;
      alter table "notification_sends" add constraint "notification_sends_alert_id_foreign" foreign key ("alert_id") references "alerts" ("id") on update cascade on delete cascade;
      alter table "notification_attempts" add constraint "notification_attempts_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "notification_attempts" add constraint "notification_attempts_send_id_foreign" foreign key ("send_id") references "notification_sends" ("id") on update cascade on delete cascade;
      alter table "alert_timeline" add constraint "alert_timeline_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;
      alter table "alert_timeline" add constraint "alert_timeline_alert_id_foreign" foreign key ("alert_id") references "alerts" ("id") on update cascade on delete cascade;
      alter table "alert_action_uses" add constraint "alert_action_uses_alert_id_foreign" foreign key ("alert_id") references "alerts" ("id") on update cascade on delete cascade;
      alter table "silences" add constraint "silences_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `drop table alert_action_uses, alert_signals, notification_attempts, notification_sends, alert_timeline, alerts, silences, alert_rules, on_call_schedules, escalation_policies, notification_channels cascade;`,
    );
  }
}
