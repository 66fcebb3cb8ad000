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
    const schema = () => r.schema as { operationId?: string; hide?: boolean } | undefined;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      // Read when asked: a plugin's own onRoute hook (the console's) may hide the route after this observer saw it.
      routes.push({
        method,
        path: r.url.replace(/:(\w+)/g, '{$1}'),
        get operationId() {
          return schema()?.operationId;
        },
        get hidden() {
          return schema()?.hide === true;
        },
      });
    }
  };
  return { onRoute, routes };
}
