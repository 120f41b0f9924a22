/** Operations configuration (docs/operations.md "Metrics", "Backups"): shapes and parsing, for config.ts. */

export interface MetricsConfig {
  /** Bearer token `GET /metrics` requires (secret, never logged); absent → `/metrics` answers 401. */
  readonly token: string | undefined;
  /** A separate listener without the token, on a loopback or private address only; null when unset. */
  readonly listen: { readonly host: string; readonly port: number } | null;
}

export interface BackupConfig {
  /** Folder of scheduled backups; null: the server schedules none (`muster backup` still works). */
  readonly dir: string | null;
  /** Hours between scheduled backups. */
  readonly intervalHours: number;
  /** Scheduled backups kept in `dir` (the oldest beyond this are deleted). */
  readonly keep: number;
  /** Encrypts backups with this passphrase (Argon2id) instead of a key derived from MUSTER_SECRET_KEY. */
  readonly passphrase: string | undefined;
}

/**
 * `host:port` of the token-less metrics listener. Only loopback and private addresses (RFC 1918,
 * fc00::/7): the listener has no credential, so it must not face the internet.
 */
export function parseMetricsListen(value: string | undefined): MetricsConfig['listen'] | string {
  if (!value) return null;
  const cut = value.lastIndexOf(':');
  const host = value.slice(0, cut).replace(/^\[|\]$/g, '');
  const port = Number(value.slice(cut + 1));
  const privateHost =
    /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2[0-9]|3[01])\.)/.test(host) ||
    host === '::1' ||
    /^f[cd]/i.test(host);
  if (!privateHost || port < 1 || port > 65535)
    return 'MUSTER_METRICS_LISTEN must be a loopback or private address with a port (e.g. 127.0.0.1:9464)';
  return Object.freeze({ host, port });
}
