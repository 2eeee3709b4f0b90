// SSRF protection of outbound webhook requests: only http(s), and no private, loopback, link-local,
// unique-local or otherwise special address unless the operator allows it (DSS_WEBHOOK_ALLOW_HOSTS). Every
// address a name resolves to is checked, and the request is then sent to the checked address, so a name
// that resolves differently the second time (DNS rebinding) cannot slip through.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Ranges no webhook may reach without the operator's consent (RFC 6890 special-purpose and friends). */
const SPECIAL_V4 = [
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
] as const;
const SPECIAL_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

const special = new BlockList();
for (const [network, prefix] of SPECIAL_V4) special.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of SPECIAL_V6) special.addSubnet(network, prefix, 'ipv6');

export interface AllowList {
  hosts: ReadonlySet<string>;
  ranges: BlockList;
  /** As configured, for logs. */
  text: string;
}

/** `DSS_WEBHOOK_ALLOW_HOSTS`: comma-separated host names, addresses and CIDR ranges. */
export function parseAllowList(text: string): AllowList {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const raw of text.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const [address, prefix] = entry.split('/');
    const family = isIP(address.replace(/^\[|\]$/g, ''));
    if (prefix !== undefined) {
      const bits = Number(prefix);
      const max = family === 4 ? 32 : 128;
      if (family === 0 || !/^\d+$/.test(prefix) || bits > max)
        throw new Error(`has a bad CIDR range "${entry}"`);
      ranges.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
    } else if (family !== 0) {
      const bare = address.replace(/^\[|\]$/g, '');
      ranges.addAddress(bare, family === 4 ? 'ipv4' : 'ipv6');
    } else if (/^[a-z0-9.-]+$/.test(entry)) hosts.add(entry);
    else throw new Error(`has an entry that is neither a host nor a CIDR range: "${entry}"`);
  }
  return { hosts, ranges, text };
}

export class TargetRefused extends Error {}

export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** An IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
function normalise(address: string, family: number): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], type: 'ipv4' };
  return { address, type: family === 4 ? 'ipv4' : 'ipv6' };
}

function isAllowed(allow: AllowList, host: string, address: string, family: number): boolean {
  if (allow.hosts.has(host)) return true;
  const judged = normalise(address, family);
  return allow.ranges.check(judged.address, judged.type);
}

/** Checks the URL's form only (no DNS): what registration refuses at once. */
export function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TargetRefused('must use http or https');
  if (url.username || url.password) throw new TargetRefused('must not carry credentials');
  return url;
}

/**
 * Resolves the URL's host and checks every address; answers the first one to connect to. Throws
 * TargetRefused for a target the policy forbids (or a name that does not resolve).
 */
export async function checkTarget(text: string, allow: AllowList): Promise<CheckedTarget> {
  const url = parseTargetUrl(text);
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new TargetRefused(`host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new TargetRefused(`host ${host} does not resolve`);
  for (const { address, family } of addresses) {
    const judged = normalise(address, family);
    if (special.check(judged.address, judged.type) && !isAllowed(allow, host, address, family))
      throw new TargetRefused(
        `resolves to ${address}, a private, loopback, link-local or reserved address; ` +
          'the operator may allow it with DSS_WEBHOOK_ALLOW_HOSTS',
      );
  }
  const first = addresses[0];
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
