import type { RouteOptions } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** OpenAPI form: /v1/services/{id} */
  path: string;
  operationId?: string;
  hidden: boolean;
}

/** An onRoute observer and the list it fills. */
export function routeCollector(): { onRoute: (r: RouteOptions) => void; routes: RegisteredRoute[] } {
  const routes: RegisteredRoute[] = [];
  const onRoute = (r: RouteOptions) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    const schema = r.schema as { operationId?: string; hide?: boolean } | undefined;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method, path: r.url.replace(/:(\w+)/g, '{$1}'), operationId: schema?.operationId, hidden: schema?.hide === true });
    }
  };
  return { onRoute, routes };
}
