import { DefaultLogger, type LogLevel, Runtime } from '@temporalio/worker';

let installed = false;

/** The SDK's process-wide runtime, installed once, so its own logging follows LOG_LEVEL. */
export function installTemporalRuntime(level: LogLevel): void {
  if (installed) return;
  Runtime.install({ logger: new DefaultLogger(level) });
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
