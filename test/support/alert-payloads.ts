/**
 * Alertmanager webhook payloads (webhook_config, payload version "4",
 * prometheus.io/docs/alerting/latest/configuration/#webhook_config), built the way Alertmanager
 * builds them from a group of alerts: the envelope's status, common labels and annotations and
 * group key follow from the alerts, so a test states only the alerts and what differs.
 */

/** Go's zero time: the `endsAt` Alertmanager sends for an alert still firing. */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

export interface AlertmanagerAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
  /** Sent since Alertmanager 0.19; older ones leave it out. */
  fingerprint?: string;
}

export interface AlertmanagerWebhook {
  receiver: string;
  status: 'firing' | 'resolved';
  alerts: AlertmanagerAlert[];
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string;
  version: '4';
  groupKey: string;
  truncatedAlerts?: number;
}

/** An alert as a test gives it: labels at least; firing, started now and with no end unless said. */
export type AlertInput = Partial<AlertmanagerAlert> & Pick<AlertmanagerAlert, 'labels'>;

export interface WebhookOptions {
  /** The receiver's name in the Alertmanager configuration. Default `vigil`. */
  receiver?: string;
  /** The route's group_by labels. Default: the first alert's `alertname`. */
  groupLabels?: Record<string, string>;
  /** The matching route's part of the group key, e.g. `{}/{severity="critical"}`. Default `{}` (the root route). */
  route?: string;
  externalURL?: string;
  /** Default 0; null leaves the field out, as Alertmanager before 0.22 does. */
  truncatedAlerts?: number | null;
}

/** The labels (or annotations) every one of `maps` has with the same value. */
function common(maps: Record<string, string>[]): Record<string, string> {
  const [first, ...rest] = maps;
  return Object.fromEntries(Object.entries(first ?? {}).filter(([k, v]) => rest.every((m) => m[k] === v)));
}

/** One Alertmanager webhook carrying `alerts`, as the notifier of `opts.receiver` posts it. */
export function alertmanagerWebhook(alerts: readonly AlertInput[], opts: WebhookOptions = {}): AlertmanagerWebhook {
  const full: AlertmanagerAlert[] = alerts.map((a) => ({
    status: a.status ?? 'firing',
    labels: a.labels,
    annotations: a.annotations ?? {},
    startsAt: a.startsAt ?? new Date().toISOString(),
    endsAt: a.endsAt ?? GO_ZERO_TIME,
    generatorURL: a.generatorURL ?? '',
    ...(a.fingerprint !== undefined ? { fingerprint: a.fingerprint } : {}),
  }));
  const groupLabels =
    opts.groupLabels ?? (alerts[0]?.labels.alertname ? { alertname: alerts[0].labels.alertname } : {});
  const groupKey = `${opts.route ?? '{}'}:{${Object.entries(groupLabels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ')}}`;
  const truncatedAlerts = opts.truncatedAlerts === undefined ? 0 : opts.truncatedAlerts;
  return {
    receiver: opts.receiver ?? 'vigil',
    status: full.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    alerts: full,
    groupLabels,
    commonLabels: common(full.map((a) => a.labels)),
    commonAnnotations: common(full.map((a) => a.annotations)),
    externalURL: opts.externalURL ?? 'http://alertmanager.example.com:9093',
    version: '4',
    groupKey,
    ...(truncatedAlerts === null ? {} : { truncatedAlerts }),
  };
}
