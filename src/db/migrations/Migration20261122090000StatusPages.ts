import { Migration } from '@mikro-orm/migrations';

export class Migration20261122090000StatusPages extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table status_pages (
        id uuid primary key,
        organization_id uuid not null constraint status_pages_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        subdomain varchar(63) not null,
        title varchar(200) not null,
        description text null,
        time_zone varchar(64) not null,
        branding jsonb not null,
        links jsonb not null,
        layout jsonb not null,
        sealed_viewer_secret text not null,
        viewer_public_key text null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null,
        deleted_at timestamptz(3) null
      );`);
    this.addSql(
      `create index status_pages_organization_id_created_at_id_index on status_pages (organization_id, created_at, id);`,
    );
    this.addSql(
      `create unique index status_pages_subdomain_live_unique on status_pages (subdomain) where deleted_at is null;`,
    );
    this.addSql(
      `create trigger status_pages_notify_change after insert or update or delete on status_pages for each row execute function vigil_notify_change();`,
    );
    this.addSql(`
      create table status_page_subscribers (
        id uuid primary key,
        organization_id uuid not null constraint status_page_subscribers_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        page_id uuid not null constraint status_page_subscribers_page_id_foreign references status_pages (id) on update cascade on delete cascade,
        email varchar(320) not null,
        components uuid[] not null,
        customer_id uuid null constraint status_page_subscribers_customer_id_foreign references customers (id) on update cascade on delete set null,
        state varchar(16) not null,
        source varchar(16) not null,
        confirmation_sent_at timestamptz(3) null,
        confirmed_at timestamptz(3) null,
        unsubscribed_at timestamptz(3) null,
        created_at timestamptz(3) not null,
        updated_at timestamptz(3) not null
      );`);
    this.addSql(
      `create index status_page_subscribers_page_id_created_at_id_index on status_page_subscribers (page_id, created_at, id);`,
    );
    this.addSql(
      `alter table status_page_subscribers add constraint status_page_subscribers_page_id_email_unique unique (page_id, email);`,
    );
    this.addSql(
      `create index status_page_subscribers_confirmed_index on status_page_subscribers (organization_id) where state = 'confirmed';`,
    );
    this.addSql(`
      create table subscriber_emails (
        id uuid primary key,
        organization_id uuid not null constraint subscriber_emails_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        event_id uuid not null constraint subscriber_emails_event_id_foreign references outbox_events (id) on update cascade on delete cascade,
        subscriber_id uuid not null constraint subscriber_emails_subscriber_id_foreign references status_page_subscribers (id) on update cascade on delete cascade,
        state varchar(16) not null,
        attempts int not null,
        next_attempt_at timestamptz(3) not null,
        message_id varchar(255) null,
        last_error text null,
        created_at timestamptz(3) not null,
        sent_at timestamptz(3) null
      );`);
    this.addSql(
      `create index subscriber_emails_event_id_state_next_attempt_at_index on subscriber_emails (event_id, state, next_attempt_at);`,
    );
    this.addSql(
      `alter table subscriber_emails add constraint subscriber_emails_event_id_subscriber_id_unique unique (event_id, subscriber_id);`,
    );
    this.addSql(`
      create table notification_runs (
        event_id uuid primary key constraint notification_runs_event_id_foreign references outbox_events (id) on update cascade on delete cascade,
        organization_id uuid not null constraint notification_runs_organization_id_foreign references organizations (id) on update cascade on delete cascade,
        event_type varchar(64) not null,
        workflow_started_at timestamptz(3) null,
        created_at timestamptz(3) not null,
        completed_at timestamptz(3) null
      );`);
    this.addSql(
      `create index outbox_events_email_index on outbox_events (created_at) where type like 'incident.%' or type like 'maintenance.%' or type like 'subscriber.%';`,
    );
    this.addSql(
      `create index notification_runs_unstarted_index on notification_runs (created_at) where workflow_started_at is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists outbox_events_email_index;');
    for (const table of ['notification_runs', 'subscriber_emails', 'status_page_subscribers', 'status_pages'])
      this.addSql(`drop table if exists ${table} cascade;`);
  }
}
