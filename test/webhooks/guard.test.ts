// The SSRF guard: only http(s), only public unicast addresses (IPv4 and IPv6, IPv4-mapped too),
// for literal addresses and for names (localhost resolves to loopback); the operator's setting
// lets private ones through.
import t from 'tap';
import { checkedAddress, isPublicAddress, parseWebhookUrl, UnsafeUrl } from '../../src/webhooks/guard.ts';

t.test('address ranges', async (t) => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1']) {
    t.notOk(isPublicAddress(a), `${a} is refused`);
  }
  for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) t.ok(isPublicAddress(a), `${a} is public`);
  t.notOk(isPublicAddress('not an address'));
});

t.test('URLs', async (t) => {
  t.throws(() => parseWebhookUrl('ftp://example.com/x'), UnsafeUrl);
  t.throws(() => parseWebhookUrl('file:///etc/passwd'), UnsafeUrl);
  t.throws(() => parseWebhookUrl('not a url'), UnsafeUrl);
  t.throws(() => parseWebhookUrl('https://user:pw@example.com/'), UnsafeUrl);
  t.throws(() => parseWebhookUrl(42), UnsafeUrl);
  t.equal(parseWebhookUrl('https://example.com/hook').hostname, 'example.com');
  for (const u of ['http://127.0.0.1/', 'http://10.0.0.5/', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/', 'http://[::ffff:127.0.0.1]/', 'http://localhost:9/', 'http://0x7f000001/']) {
    await t.rejects(checkedAddress(parseWebhookUrl(u), false), UnsafeUrl, `${u} is refused`);
  }
  t.same(await checkedAddress(parseWebhookUrl('http://127.0.0.1:9/'), true), { address: '127.0.0.1', family: 4 }, 'allowed by the operator');
  t.same(await checkedAddress(parseWebhookUrl('http://[::1]:9/'), true), { address: '::1', family: 6 });
  t.same(await checkedAddress(parseWebhookUrl('http://93.184.215.14/'), false), { address: '93.184.215.14', family: 4 });
});
