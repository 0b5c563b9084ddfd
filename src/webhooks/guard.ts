// The SSRF guard of webhook URLs: a webhook makes the server send requests to a URL a user chose,
// so without a guard anyone could make it reach the operator's private network (a database's
// HTTP port, a cloud's metadata service at 169.254.169.254). Only http(s) URLs whose host resolves
// to public unicast addresses only are accepted: the ranges come from ipaddr.js (its `range()`
// names every special-purpose block, IPv4-mapped IPv6 included via `process`), and anything it
// does not call 'unicast' is refused (private, loopback, link-local, unique-local, CGNAT,
// multicast, unspecified, NAT64/6to4 forms that can embed a private IPv4 address, reserved).
// The check runs at registration and again before each delivery, and the delivery connects to
// the address checked here (send.ts pins it), so a DNS answer that changes between the check and
// the connection (DNS rebinding) cannot move the request to a private address.
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export class UnsafeUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeUrl';
  }
}

/** True when the address may be sent to: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** A URL that parses, is http(s) and carries no credentials; otherwise UnsafeUrl with the reason. */
export function parseWebhookUrl(raw: unknown): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) throw new UnsafeUrl('url must be an http(s) URL of at most 2000 characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrl('url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeUrl(`url must be http or https (got ${url.protocol})`);
  if (url.username || url.password) throw new UnsafeUrl('url must not carry a user name or password');
  return url;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The address to connect to for `url`: every address its host resolves to must be public (one
 * private answer among public ones is refused too: which one a client picks is not ours to know),
 * unless `allowPrivate` (HERALD_WEBHOOK_ALLOW_PRIVATE, for operators and tests). UnsafeUrl otherwise.
 */
export async function checkedAddress(url: URL, allowPrivate: boolean): Promise<CheckedAddress> {
  // URL keeps IPv6 literals in brackets.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new UnsafeUrl(`the host ${host} does not resolve (${(err as { code?: string }).code ?? 'error'})`);
    }
  }
  if (addresses.length === 0) throw new UnsafeUrl(`the host ${host} does not resolve`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new UnsafeUrl(`the host ${host} resolves to ${bad.address}, which is not a public address`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
