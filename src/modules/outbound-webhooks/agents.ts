/**
 * Kept-alive connections for webhook attempts (docs/webhooks.md "Delivery"): one agent per
 * protocol, checked address, port and TLS name, so a connection is only ever reused for the
 * address that targets.ts approved for this attempt (a name that now resolves elsewhere gets
 * another agent). Idle connections close after IDLE_MS; at most MAX_AGENTS agents are kept (the
 * oldest is closed first) and MAX_SOCKETS connections per agent.
 */
import http from 'node:http';
import https from 'node:https';

export const IDLE_MS = 4_000;
export const MAX_AGENTS = 256;
export const MAX_SOCKETS = 16;

const agents = new Map<string, http.Agent>();

/** The agent for `protocol` (`http:`/`https:`) to `address`:`port` (`''` = default) named `servername`. */
export function agentFor(protocol: string, address: string, port: string, servername: string): http.Agent {
  const key = `${protocol}//${address}:${port}/${servername}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key);
    agents.set(key, agent); // most recently used last
    return agent;
  }
  const options = { keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS, timeout: IDLE_MS };
  agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  if (agents.size > MAX_AGENTS) {
    const first = agents.entries().next();
    if (!first.done) {
      const [oldest, old] = first.value;
      agents.delete(oldest);
      old.destroy();
    }
  }
  return agent;
}

/** Closes every kept connection (the dispatcher stopping). */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
