import { METRIC_SUBJECT_RULE_KINDS } from '../domain/alerting/rule-matching';

/*
 * Alert-rule matching for a batch of outbox events, in SQL: the `alert_fanout` step of
 * dispatchOutbox (src/db/repositories/outbox-repository.ts). It is statusEventSignal of
 * src/domain/alerting/rule-matching.ts (which rules watch a metric's status change, the alert's
 * subject via subjectOf, whether it fires via ruleFires) for every event at once, inside the
 * statement that dispatches them; test/db/hot-path-rules.test.ts runs both on the same cases.
 * It reads `taken_events` and takes one bind parameter (created_at).
 */

/** The rule kinds whose subject is the metric, as a SQL list: written from the domain's list, never by hand. */
const metricKinds = METRIC_SUBJECT_RULE_KINDS.map((kind) => `'${kind}'`).join(', ');

export const ALERT_FANOUT_SQL = `       insert into alert_signals (id, organization_id, rule_id, subject_kind, subject_id, event_id, firing, created_at)
       select gen_random_uuid(), event.organization_id, rule.id,
              case when rule.kind in (${metricKinds}) then 'metric' else 'service' end,
              case when rule.kind in (${metricKinds}) then event.resource_id::text else event.payload->>'service_id' end,
              event.id,
              -- ruleFires in src/domain/alerting/rule-matching.ts; a payload without a status or an
              -- availability (an event written before they existed) does not fire, rather than
              -- failing the whole batch on firing's not-null constraint.
              coalesce(event.payload->>'status' = 'unhealthy' or event.payload->>'availability' = 'down'
                       or (rule.include_degraded and event.payload->>'status' = 'degraded'), false),
              ?
         from taken_events event join alert_rules rule
           on rule.organization_id = event.organization_id and rule.deleted_at is null and rule.disabled_at is null
        where event.type = 'metric.status_changed'
          and ((rule.kind = 'metric_status' and rule.subject_id = event.resource_id::text)
               or (rule.kind = 'heartbeat_missed' and event.payload->>'source_type' = 'heartbeat' and (rule.subject_id is null or rule.subject_id = event.resource_id::text))
               or (rule.kind = 'service_status' and (rule.subject_id is null or rule.subject_id = event.payload->>'service_id'))
               or (rule.kind = 'status_page_status' and exists (
                     select 1 from status_pages page, jsonb_array_elements(page.layout->'groups') grp, jsonb_array_elements(grp->'components') component
                      where page.organization_id = event.organization_id and page.id::text = rule.subject_id and page.deleted_at is null
                        and ((component->>'kind' = 'service' and component->>'id' = event.payload->>'service_id')
                             or (component->>'kind' = 'metric' and component->>'id' = event.resource_id::text)))))
       returning id, organization_id, rule_id, subject_id, firing, created_at
`;
