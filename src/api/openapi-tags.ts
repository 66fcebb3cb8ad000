/**
 * The OpenAPI document's tags, in the order the reference lists them. Every operation's tag must
 * be one of these (the Spectral check in test/api/openapi-lint.test.ts fails otherwise).
 */
export const OPENAPI_TAGS: readonly { name: string; description: string }[] = [
  { name: 'Services', description: 'What you run, as your customers know it: its status rolls up from its metrics.' },
  {
    name: 'Metrics',
    description: 'Measured values (probes, pushes, manual status) and the health status they turn into.',
  },
  { name: 'Probe tests', description: 'Run one probe once, from an agent or the cloud, without storing anything.' },
  { name: 'Agents', description: 'Vigil agents inside your network that run probes and push samples.' },
  { name: 'Locations', description: 'Cloud probe locations and their quorum.' },
  {
    name: 'Inbound',
    description: 'Public URLs a heartbeat sender or an alert source calls; the secret in the URL is the credential.',
  },
  { name: 'SLOs', description: 'Service level objectives over metrics, with their error budgets.' },
  { name: 'Incidents', description: 'Incidents and their messages, as the status page and subscribers see them.' },
  { name: 'Incident templates', description: 'Reusable incident text.' },
  { name: 'Maintenances', description: 'Announced maintenance windows, each kept by a workflow.' },
  { name: 'Change events', description: 'Deployments and other changes, shown beside status.' },
  { name: 'Status pages', description: 'Public status pages, their feeds and subscribers.' },
  { name: 'Webhooks', description: 'Signed outbound webhooks and their deliveries.' },
  {
    name: 'Alerting',
    description: 'Notification channels, escalation policies, on-call schedules, alert rules and silences.',
  },
  { name: 'Alerts', description: 'Paging alerts raised by alert rules: acknowledge, snooze, resolve.' },
  { name: 'Customers', description: 'Customers of your SLA contracts.' },
  { name: 'Contracts', description: 'SLA contracts: what is promised, over which services, with which credits.' },
  { name: 'SLA statements', description: 'Signed monthly SLA statements and their review by finance.' },
  { name: 'Config as code', description: 'Export and apply an organization’s configuration as one document.' },
  { name: 'Agent protocol', description: 'What a Vigil agent calls, with its agent token.' },
  { name: 'Health', description: 'Liveness and readiness of the API process.' },
  { name: 'Docs', description: 'This document and the guides it links to.' },
];
