import { Client, Connection } from '@temporalio/client';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  namespace: string;
  taskQueue: string;
  close(): Promise<void>;
}

export async function connectTemporal(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
}): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address: opts.address });
  const client = new Client({ connection, namespace: opts.namespace });
  return {
    connection,
    client,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    close: () => connection.close(),
  };
}

/** Readiness: the frontend answers and our namespace exists. */
export async function checkTemporal(handle: TemporalHandle): Promise<void> {
  await handle.connection.workflowService.describeNamespace({ namespace: handle.namespace });
}
