/** The processes port: the server processes sharing the store (src/services/cluster). */

/** A server process sharing the store, as it registered itself (see src/services/cluster). */
export interface ProcessRecord {
  /** Colyseus processId. */
  id: string;
  /** Whether it shares presence (Redis) with its peers; a process without it must be alone on the store. */
  sharedPresence: boolean;
  /** host:port WebSocket clients use to reach it, when scaled out. */
  publicAddress?: string;
  pid: number;
  /** Machine it runs on (os.hostname()). */
  host: string;
  startedAt: string;
  /** Renewed every heartbeat; a process whose heartbeat is older than the dead-after time is dead. */
  heartbeatAt: string;
}

/** The server processes sharing the store, each with its heartbeat (src/services/cluster). */
export interface ProcessesPort {
  /** Inserts the process or replaces the record of the same id. */
  registerProcess(p: ProcessRecord): Promise<void>;
  /** Renews a heartbeat; false when the record is gone (another process declared this one dead). */
  touchProcess(id: string, heartbeatAt: string): Promise<boolean>;
  listProcesses(): Promise<ProcessRecord[]>;
  /** Removes the record only if its heartbeat is still `heartbeatAt`; true for the one caller that removed it. */
  removeProcessIf(id: string, heartbeatAt: string): Promise<boolean>;
}
