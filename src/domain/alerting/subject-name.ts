/**
 * What an alert about a metric calls its subject. A metric's name alone rarely says which service
 * is in trouble ("p95 latency"), so the service comes first ("Checkout API: p95 latency") — unless
 * the metric's name already starts with the service's name or its first word ("Checkout health"
 * of "Checkout API"), where the prefix would only repeat it ("Checkout API: Checkout health").
 */
export function metricSubjectName(serviceName: string | null, metricName: string): string {
  if (!serviceName) return metricName;
  const service = serviceName.trim().toLowerCase();
  const metric = metricName.trim().toLowerCase();
  const firstWord = service.split(/\s+/)[0] ?? '';
  const startsWith = (prefix: string) =>
    prefix !== '' &&
    (metric === prefix ||
      metric.startsWith(`${prefix} `) ||
      metric.startsWith(`${prefix}:`) ||
      metric.startsWith(`${prefix}-`));
  if (startsWith(service) || (firstWord.length >= 3 && startsWith(firstWord))) return metricName;
  return `${serviceName}: ${metricName}`;
}
