/**
 * Safe webhook targets (docs/webhooks.md "Outbound", "Safe targets"). A URL is accepted when it is
 * https (http only to a loopback host, and only with MUSTER_WEBHOOKS_ALLOW_PRIVATE=true), carries
 * no credentials, and its host resolves only to public addresses: private, loopback, link-local,
 * unspecified, shared (CGNAT), multicast and reserved ranges are refused, IPv4-mapped IPv6 included.
 * The same check runs at creation and before every attempt; the attempt then connects to the
 * address that was checked (send.ts), so a name that re-resolves elsewhere (DNS rebinding) cannot
 * redirect it.
 */
import { promises as dns } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { OutboundWebhooksConfig } from '../../lib/outbound-webhooks-config.js';

export class TargetRefused extends Error {}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  ['100::', 64],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

const MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** True for an address no webhook may reach without MUSTER_WEBHOOKS_ALLOW_PRIVATE (see above). */
export function isPrivateAddress(address: string): boolean {
  const mapped = MAPPED.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6') || address.toLowerCase().startsWith('::ffff:');
  return true;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
export const URL_MAX = 2000;

/** Checks the URL's form (no DNS); returns the parsed URL or throws TargetRefused with the reason. */
export function checkUrl(raw: string, cfg: OutboundWebhooksConfig): URL {
  const url = raw.length <= URL_MAX ? URL.parse(raw) : null;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new TargetRefused('Webhook URL must be an absolute https URL');
  if (url.username || url.password) throw new TargetRefused('Webhook URL must not contain credentials');
  if (url.protocol === 'http:' && !(cfg.allowPrivate && LOOPBACK_NAMES.has(url.hostname)))
    throw new TargetRefused('Webhook URL must use https');
  return url;
}

/** A host's addresses: the literal itself, else A and AAAA records (configured servers) or the system resolver. */
async function resolve(
  host: string,
  cfg: OutboundWebhooksConfig,
): Promise<{ address: string; family: 4 | 6 }[]> {
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  const family = isIP(literal);
  if (family) return [{ address: literal, family: family === 6 ? 6 : 4 }];
  if (cfg.dnsServers.length > 0) {
    const resolver = new dns.Resolver({ timeout: 3000, tries: 2 });
    resolver.setServers([...cfg.dnsServers]);
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => []),
      resolver.resolve6(host).catch(() => []),
    ]);
    return [
      ...v4.map((a) => ({ address: a, family: 4 as const })),
      ...v6.map((a) => ({ address: a, family: 6 as const })),
    ];
  }
  const all = await dns.lookup(host, { all: true, verbatim: true }).catch(() => []);
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/**
 * Resolves the URL's host once and returns the address to connect to. Throws TargetRefused when it
 * does not resolve or when ANY of its addresses is private (unless allowed): a name with one public
 * and one private address is refused, since the other address might be the one used.
 */
export async function resolveTarget(
  url: URL,
  cfg: OutboundWebhooksConfig,
): Promise<{ address: string; family: 4 | 6 }> {
  const addresses = await resolve(url.hostname, cfg);
  if (addresses.length === 0) throw new TargetRefused('Webhook URL host does not resolve');
  if (!cfg.allowPrivate && addresses.some((a) => isPrivateAddress(a.address)))
    throw new TargetRefused('Webhook URL must not point to a private, loopback or link-local address');
  return addresses[0]!;
}
