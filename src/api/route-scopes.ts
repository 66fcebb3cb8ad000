import type { Scope } from '../domain/scopes';

/**
 * The one table that says which scope each operation needs (keyed by operationId).
 * `public` operations need no key; `agent` operations take an agent token (`vgl_agt_…`), not a key. A test fails when a route is missing here; the OpenAPI
 * document's security requirements come from it, and a test keeps docs/api-guide.md in step.
 */
export const ROUTE_SCOPES: Readonly<Record<string, readonly Scope[] | 'public' | 'agent'>> = {
  getHealth: 'public',
  getReadiness: 'public',
  getOpenApi: 'public',
  getErrorCatalog: 'public',
  getPricing: 'public',

  listServices: ['read:metrics'],
  getService: ['read:metrics'],
  createService: ['write:config'],
  updateService: ['write:config'],
  deleteService: ['write:config'],

  listIncidents: ['read:incidents'],
  getIncident: ['read:incidents'],
  createIncident: ['write:incidents'],
  createIncidentFromMetric: ['write:incidents'],
  updateIncident: ['write:incidents'],
  deleteIncident: ['write:incidents'],
  addIncidentMessage: ['write:incidents'],
  publishIncident: ['write:incidents'],
  resolveIncident: ['write:incidents'],

  listMaintenances: ['read:incidents'],
  getMaintenance: ['read:incidents'],
  createMaintenance: ['write:incidents'],
  updateMaintenance: ['write:incidents'],
  startMaintenance: ['write:incidents'],
  completeMaintenance: ['write:incidents'],
  cancelMaintenance: ['write:incidents'],

  // Spec §5 reserves read:change_events (a key may carry it, nothing needs it yet): change events
  // are read and written with the incident scopes.
  listChangeEvents: ['read:incidents'],
  getChangeEvent: ['read:incidents'],
  createChangeEvent: ['write:incidents'],

  listCustomers: ['read:config'],
  getCustomer: ['read:config'],
  createCustomer: ['write:config'],
  updateCustomer: ['write:config'],
  deleteCustomer: ['write:config'],

  listWebhooks: ['read:config'],
  getWebhook: ['read:config'],
  createWebhook: ['write:config'],
  updateWebhook: ['write:config'],
  deleteWebhook: ['write:config'],
  rotateWebhookSecret: ['write:config'],
  listWebhookDeliveries: ['read:config'],
  getWebhookDelivery: ['read:config'],
  redeliverWebhookDelivery: ['write:config'],

  listAgents: ['read:config'],
  getAgent: ['read:config'],
  registerAgent: ['write:config'],
  revokeAgent: ['write:config'],

  listMetrics: ['read:metrics'],
  getMetric: ['read:metrics'],
  createMetric: ['write:metrics'],
  updateMetric: ['write:metrics'],
  deleteMetric: ['write:metrics'],
  setMetricStatus: ['write:metrics'],
  listSlos: ['read:metrics'],
  getSlo: ['read:metrics'],
  createSlo: ['write:config'],
  updateSlo: ['write:config'],
  deleteSlo: ['write:config'],
  pingHeartbeat: 'public',
  pingHeartbeatGet: 'public',
  receiveAlerts: 'public',

  listStatusPages: ['read:config'],
  getStatusPage: ['read:config'],
  createStatusPage: ['write:config'],
  updateStatusPage: ['write:config'],
  deleteStatusPage: ['write:config'],
  listSubscribers: ['read:config'],
  getSubscriber: ['read:config'],
  deleteSubscriber: ['write:config'],
  importSubscribers: ['write:config'],
  createViewerToken: ['write:config'],
  subscribeToStatusPage: 'public',

  testProbe: ['write:metrics', 'write:config'],
  getProbeTest: ['write:metrics', 'write:config'],

  agentHeartbeat: 'agent',
  pollAgentJobs: 'agent',
  postAgentJobResult: 'agent',
  getAgentConfig: 'agent',
  postAgentSamples: 'agent',
};
