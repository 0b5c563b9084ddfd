// TRUST_PROXY: without it X-Forwarded-For is ignored (every client behind a
// proxy shares the proxy's rate-limit bucket, and no client can pick its own
// bucket by forging the header); with it, clients behind the trusted proxy
// are counted apart, and only the listed proxies are believed.
import t from 'tap';
import Fastify from 'fastify';
import { buildApp } from '../../src/http/app.ts';
import { loadConfig, type TrustProxy } from '../../src/config.ts';
import { openTestStore, testConfig } from '../helpers/services.ts';

const { store, databaseUrl } = await openTestStore(t);
// One anonymous request per client and window.
const limits = { max: 0, anonymousMax: 1, appMax: 0, windowMs: 60_000 };

async function appTrusting(trustProxy: TrustProxy) {
  const app = await buildApp(testConfig({ databaseUrl, rateLimit: limits, trustProxy }), { store });
  t.teardown(() => app.close());
  // light-my-request's default peer is 127.0.0.1: here, the proxy.
  return (forwardedFor: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'GET', url: '/games', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } });
}

t.test('TRUST_PROXY unset: X-Forwarded-For is ignored, the proxy is one client', async (t) => {
  const get = await appTrusting(loadConfig({}).trustProxy);
  t.equal((await get('203.0.113.1')).statusCode, 200);
  const second = await get('203.0.113.2');
  t.equal(second.statusCode, 429, 'another forwarded address counts in the same (the proxy’s) bucket');
  t.match(second.json(), { code: 'rate_limited', detail: /this address/ });
});

t.test('TRUST_PROXY set: two clients behind the proxy get separate buckets', async (t) => {
  const get = await appTrusting(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy);
  t.equal((await get('203.0.113.1')).statusCode, 200, 'client A');
  t.equal((await get('203.0.113.2')).statusCode, 200, 'client B has its own bucket');
  t.equal((await get('203.0.113.1')).statusCode, 429, 'client A’s second request');
  // The client is the nearest untrusted address: what it put in front of the header itself does not count.
  t.equal((await get('198.51.100.9, 203.0.113.2')).statusCode, 429, 'client B prepending a forged address is still client B');
});

t.test('only the listed proxies are believed', async (t) => {
  const get = await appTrusting(loadConfig({ TRUST_PROXY: '10.0.0.0/8' }).trustProxy);
  t.equal((await get('203.0.113.1', '10.1.2.3')).statusCode, 200, 'through the proxy: client A');
  t.equal((await get('203.0.113.2', '10.1.2.3')).statusCode, 200, 'through the proxy: client B');
  // A direct client (not in 10.0.0.0/8) cannot choose a bucket by sending the header.
  t.equal((await get('203.0.113.3', '198.51.100.7')).statusCode, 200);
  t.equal((await get('203.0.113.4', '198.51.100.7')).statusCode, 429, 'the direct client’s own address is its bucket');
});

t.test('every value the configuration accepts is one Fastify accepts', async (t) => {
  for (const value of ['true', '10.0.0.7', 'loopback,linklocal,uniquelocal', '10.0.0.0/8, 192.168.1.0/255.255.255.0, fd00::/8, ::1, 2001:db8::/32']) {
    const trustProxy = loadConfig({ TRUST_PROXY: value }).trustProxy;
    const app = Fastify({ trustProxy });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    const res = await app.inject({ url: '/ip', remoteAddress: '::1', headers: { 'x-forwarded-for': '203.0.113.5' } });
    t.equal(res.statusCode, 200, value);
    await app.close();
  }
});
