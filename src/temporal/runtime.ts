import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';

let installed = false;

/**
 * The SDK's process-wide runtime, installed once, so its own logging follows LOG_LEVEL. It handles
 * no signals: every entry point stops in its own order on SIGINT/SIGTERM (onShutdown). Left to
 * the SDK, SIGTERM also shut the workers down at once, beside that order: a prober's worker
 * stopped, its connection closed, and the stopping heartbeat in flight was dropped ("Native
 * Promise was dropped without being settled"), so the location read online for 3 more heartbeats.
 */
export function installTemporalRuntime(level: LogLevel): void {
  if (installed) return;
  Runtime.install({ logger: new DefaultLogger(level), shutdownSignals: [] });
  installed = true;
}

export function temporalLogLevel(level: string): LogLevel {
  switch (level) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info': // the SDK's INFO lines (bundle builds, state changes) are noise at the service's info level
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR';
  }
}
