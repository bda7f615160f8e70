import ipaddr from 'ipaddr.js';

/**
 * Which addresses the research tool may connect to (docs/debate.md, "Research"). Only addresses
 * ipaddr.js classes as `unicast` — the public internet — are allowed: loopback, private (10/8,
 * 172.16/12, 192.168/16), link-local (169.254/16, where cloud metadata lives, and fe80::/10),
 * CGNAT (100.64/10), multicast, unspecified, broadcast, reserved and documentation ranges,
 * unique-local IPv6 (fc00::/7, e.g. AWS's fd00:ec2::254), and every IPv6 form that embeds an IPv4
 * address (IPv4-mapped ::ffff:0:0/96, NAT64, 6to4, Teredo) are refused.
 */

export interface AddressPolicy {
  /** Unsafe, for tests and local development only: allow every address. */
  allowPrivate: boolean;
  /** Unsafe, for tests and local development only: hostnames allowed whatever they resolve to. */
  allowHosts: ReadonlySet<string>;
}

export const STRICT_POLICY: AddressPolicy = { allowPrivate: false, allowHosts: new Set() };

/** The policy from `DB8_RESEARCH_ALLOW_PRIVATE=1` and `DB8_RESEARCH_ALLOW_HOSTS=a,b` (both unsafe). */
export function policyFromEnv(env: Record<string, string | undefined>): AddressPolicy {
  return {
    allowPrivate: env.DB8_RESEARCH_ALLOW_PRIVATE === '1',
    allowHosts: new Set(
      (env.DB8_RESEARCH_ALLOW_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  };
}

/** The range name of a refused address, or null when the address is public unicast. */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.parse(address).range();
  return range === 'unicast' ? null : range;
}

/** A URL's hostname without IPv6 brackets, lowercased. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** Whether `host` skips the address check under `policy`. */
export function hostExempt(policy: AddressPolicy, host: string): boolean {
  return policy.allowPrivate || policy.allowHosts.has(bareHost(host));
}
