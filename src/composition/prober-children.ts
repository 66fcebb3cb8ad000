import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { demoSourceAddress } from '../domain/locations';

export interface ProberChild {
  id: string;
  sourceAddress: string;
  child: ChildProcess;
}

export interface ProberChildren {
  probers: ProberChild[];
  /** SIGTERM to each (its last heartbeat says it stops), SIGKILL after 10 s; resolves once all exited. */
  stop(): Promise<void>;
}

/** `prober.js` next to this build's CLI (or `prober.ts` when running from source under tsx). */
function proberScript(): string {
  const fromSource = __filename.endsWith('.ts');
  return path.join(__dirname, '..', 'cli', fromSource ? 'prober.ts' : 'prober.js');
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * `VIGIL_LOCATIONS=eu-central,us-east,ap-south npm start`: one `vigil-prober` process per name,
 * each with VIGIL_LOCATION=<name> and its own loopback source address (127.0.0.11, .12, …), on
 * this stack's Temporal. Their log lines go to this process's stdout. Resolves once every one
 * said it is running (its first heartbeat was accepted); a prober that exits early fails it.
 */
export async function startProberChildren(opts: {
  ids: string[];
  temporalAddress: string;
  env: NodeJS.ProcessEnv;
  onExit?: (id: string, code: number | null, signal: NodeJS.Signals | null) => void;
}): Promise<ProberChildren> {
  const script = proberScript();
  const probers: ProberChild[] = [];
  const started: Promise<void>[] = [];
  let stopping = false;
  opts.ids.forEach((id, i) => {
    const sourceAddress = demoSourceAddress(i);
    const env: NodeJS.ProcessEnv = {
      ...opts.env,
      TEMPORAL_ADDRESS: opts.temporalAddress,
      VIGIL_LOCATION: id,
      VIGIL_LOCATION_LABEL: id,
      VIGIL_PROBE_SOURCE_ADDRESS: sourceAddress,
    };
    delete env.VIGIL_LOCATIONS;
    // stdout and stderr as this process's; the IPC channel says when it is registered (whatever LOG_LEVEL), and its closing stops the prober should this process die.
    const child = spawn(process.execPath, [...process.execArgv, script], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    probers.push({ id, sourceAddress, child });
    started.push(
      new Promise<void>((resolve, reject) => {
        const early = (code: number | null) =>
          reject(new Error(`prober ${id} exited with ${code} before it was running`));
        child.on('message', (m: { type?: string }) => {
          if (m?.type !== 'prober-ready') return;
          child.off('exit', early);
          resolve();
        });
        child.once('exit', early);
      }),
    );
    child.on('exit', (code, signal) => {
      if (!stopping) opts.onExit?.(id, code, signal);
    });
  });
  const stop = async () => {
    stopping = true;
    await Promise.all(probers.map((p) => stopChild(p.child)));
  };
  try {
    await Promise.all(started);
  } catch (err) {
    await stop();
    throw err;
  }
  return { probers, stop };
}
