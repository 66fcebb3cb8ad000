/** The agent's version, reported with every heartbeat (probe tests need 1.7.0 or later). */
export const AGENT_VERSION = '1.8.0';
