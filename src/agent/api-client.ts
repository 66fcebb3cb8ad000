import { Agent as Dispatcher, request } from 'undici';

export interface AgentJob {
  job_id: string;
  source_type: string;
  source_config: Record<string, unknown>;
  expires_at: string;
}

export class AgentApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
  ) {
    super(`Vigil API answered ${status} ${title}`);
  }
}

/** The agent's only way out: HTTPS (or HTTP on loopback) to the Vigil API with its token. */
export class AgentApiClient {
  private readonly dispatcher = new Dispatcher({ keepAliveTimeout: 60_000, bodyTimeout: 0, headersTimeout: 0 });

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = 15_000): Promise<T> {
    const res = await request(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      dispatcher: this.dispatcher,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.body.text();
    if (res.statusCode >= 400) {
      let title = 'error';
      try {
        title = (JSON.parse(text) as { title?: string }).title ?? title;
      } catch {
        // not a problem document
      }
      throw new AgentApiError(res.statusCode, title);
    }
    return JSON.parse(text) as T;
  }

  /** `session` names this process: a new one tells the API that jobs the previous process held will never be answered. */
  heartbeat(
    version: string,
    hostname: string,
    session?: string,
  ): Promise<{ agent_id: string; organization_id: string; server_time: string }> {
    return this.call('POST', '/v1/agent/heartbeat', { version, hostname, ...(session ? { session } : {}) });
  }

  poll(
    waitSeconds: number,
    configVersion?: string,
    session?: string,
  ): Promise<{ jobs: AgentJob[]; config_changed: boolean }> {
    const version = configVersion ? `&config_version=${encodeURIComponent(configVersion)}` : '';
    const own = session ? `&session=${encodeURIComponent(session)}` : '';
    return this.call(
      'GET',
      `/v1/agent/jobs?wait_seconds=${waitSeconds}${version}${own}`,
      undefined,
      (waitSeconds + 15) * 1000,
    );
  }

  config(): Promise<{
    version: string;
    metrics: {
      metric_id: string;
      source_type: string;
      source_config: Record<string, unknown>;
      interval_seconds: number;
    }[];
  }> {
    return this.call('GET', '/v1/agent/config');
  }

  postSamples(
    samples: unknown[],
  ): Promise<{ accepted: number; rejected?: { index: number; metric_id: string; reason?: string }[] }> {
    return this.call('POST', '/v1/agent/samples', { samples });
  }

  postResult(jobId: string, result: unknown): Promise<{ accepted: boolean }> {
    return this.call('POST', `/v1/agent/jobs/${jobId}/result`, result);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
