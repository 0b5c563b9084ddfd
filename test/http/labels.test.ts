// Readable actions over REST and GraphQL (issue 16), on the real database:
// labels in the language of `lang` / Accept-Language (English when unknown),
// the choice tree, submitting by action id through the one write path (an
// unknown or stale id is 422 illegal_action and changes nothing), and log
// lines in each language.
import t from 'tap';
import { restApp, signup, type Client } from './rest-helpers.ts';
import { client as gqlClient, ok } from './graphql-helpers.ts';

const app = await restApp(t);
const york = await signup(app, 'York');
const lancaster = await signup(app, 'Lancaster');
const watcher = await signup(app, 'Watcher');
const seat: Record<string, Client> = { York: york, Lancaster: lancaster };

async function newGame(seed: string): Promise<string> {
  const res = await york.req('POST', '/games', { gameType: 'richard-iii', scenario: 'richard-iii', seed, roles: ['York'] });
  const id = res.json().id as string;
  await lancaster.req('POST', `/games/${id}/join`, {});
  return id;
}

interface Choices { version: number; role: string; lang: string; actions: unknown[]; choices: { id: string; label: string; action: unknown }[]; tree?: unknown }
const actions = async (c: Client, id: string, qs = '', headers: Record<string, string> = {}): Promise<Choices> =>
  (await c.req('GET', `/games/${id}/actions${qs}`, undefined, headers)).json();
const version = async (id: string): Promise<number> => (await watcher.req('GET', `/games/${id}`)).json().version;

t.test('labels in four languages, beside the machine form', async (t) => {
  const id = await newGame('labels-lang');
  const en = await actions(york, id);
  t.equal(en.lang, 'en', 'English by default');
  t.same(en.choices.map((c) => c.action), en.actions, 'the same actions in the same order');
  t.ok(en.choices.every((c) => c.id && c.label && !c.label.includes('{')), 'each with an id and a label');
  const byLang: Record<string, Choices> = {
    pl: await actions(york, id, '?lang=pl'),
    cs: await actions(york, id, '', { 'accept-language': 'de-DE, cs;q=0.8, en;q=0.5' }),
    ru: await actions(york, id, '?lang=ru', { 'accept-language': 'pl' }),
    en: await actions(york, id, '?lang=xx'),
  };
  for (const [lang, r] of Object.entries(byLang)) {
    t.equal(r.lang, lang, `${lang}: lang parameter, else Accept-Language, else English`);
    t.same(r.choices.map((c) => c.id), en.choices.map((c) => c.id), `${lang}: the same ids`);
  }
  t.notSame(byLang.pl!.choices.map((c) => c.label), en.choices.map((c) => c.label), 'Polish labels differ from English');
  t.match(byLang.ru!.choices.map((c) => c.label).join(' '), /[А-Яа-я]/, 'Russian labels are in Cyrillic');
  const again = await actions(york, id, '?lang=pl');
  t.same(again.choices, byLang.pl!.choices, 'the same ids and labels when asked again at the same version');
  const bad = await york.req('GET', `/games/${id}/actions?group=list`);
  t.equal(bad.statusCode, 400);
  t.equal(bad.json().code, 'invalid_request');
});

t.test('the tree: every action once, at most 25 per step', async (t) => {
  const id = await newGame('labels-tree');
  const r = await actions(york, id, '?group=tree&lang=cs');
  type Node = { label: string; id?: string; children?: Node[] };
  const leaves: string[] = [];
  const walk = (n: Node): void => {
    if (n.id) leaves.push(n.id);
    t.ok((n.children ?? []).length <= 25);
    (n.children ?? []).forEach(walk);
  };
  walk(r.tree as Node);
  t.same(leaves.sort(), r.choices.map((c) => c.id).sort(), 'each action is one leaf');
  t.equal((await actions(york, id)).tree, undefined, 'no tree unless asked');
});

t.test('submitting by id: the one write path; stale and unknown ids change nothing', async (t) => {
  const id = await newGame('labels-submit');
  // Play by ids until one side acts alone, recording an id that goes stale.
  let stale: { role: string; id: string } | null = null;
  for (let i = 0; i < 40; i++) {
    const sum = (await watcher.req('GET', `/games/${id}`)).json();
    const role = sum.activeRoles[0] as string;
    const list = await actions(seat[role]!, id);
    const pick = list.choices[i % list.choices.length]!;
    const v = sum.version;
    const res = await seat[role]!.req('POST', `/games/${id}/actions`, { actionId: pick.id, expectedVersion: v });
    t.equal(res.statusCode, 200, `${role} plays ${pick.id}`);
    const log = (await seat[role]!.req('GET', `/games/${id}/log`)).json();
    const last = log.entries[log.entries.length - 1];
    t.same(last.action, pick.action, 'the log holds the machine form the id named');
    if (i === 0) stale = { role, id: pick.id };
    if (i >= 3) break;
  }
  const before = await version(id);
  const stillLegal = new Set((await actions(seat[stale!.role]!, id)).choices.map((c) => c.id));
  const unknown = stillLegal.has(stale!.id) ? 'play:no-such-card' : stale!.id;
  const res = await seat[stale!.role]!.req('POST', `/games/${id}/actions`, { actionId: unknown });
  t.equal(res.statusCode, 422);
  t.match(res.json(), { code: 'illegal_action', actionId: unknown, currentVersion: before });
  t.equal(await version(id), before, 'nothing committed');
  const both = await york.req('POST', `/games/${id}/actions`, { actionId: 'end', action: { type: 'end' } });
  t.equal(both.statusCode, 400, 'action and actionId together');
  t.equal(both.json().code, 'invalid_request');
  const wrongType = await york.req('POST', `/games/${id}/actions`, { actionId: 7 });
  t.equal(wrongType.statusCode, 400);
  t.equal(await version(id), before, 'still nothing committed');
});

t.test('log lines in each language', async (t) => {
  const id = await newGame('labels-log');
  const lines: Record<string, string[]> = {};
  for (const lang of ['en', 'pl', 'cs', 'ru']) {
    const r = (await watcher.req('GET', `/games/${id}/log?lang=${lang}`)).json();
    t.equal(r.lang, lang);
    lines[lang] = r.lines;
  }
  t.ok(lines.en!.length > 0);
  for (const lang of ['pl', 'cs', 'ru']) {
    t.equal(lines[lang]!.length, lines.en!.length, `${lang}: as many lines`);
    t.notSame(lines[lang], lines.en, `${lang}: other words`);
  }
  t.match(lines.en![0], /Richard III \(1483\): York holds the throne\./);
  t.match(lines.ru![0], /Ричард III \(1483\): трон у стороны Йорк\./);
  const header = (await app.inject({ method: 'GET', url: `/games/${id}/log`, headers: { 'accept-language': 'pl-PL,pl;q=0.9' } })).json();
  t.equal(header.lang, 'pl', 'Accept-Language without a key');
});

t.test('GraphQL: choices, tree, lang and actionId', async (t) => {
  const id = await newGame('labels-graphql');
  const sum = (await watcher.req('GET', `/games/${id}`)).json();
  const role = sum.activeRoles[0] as string;
  const gql = gqlClient(app, seat[role]!.key);
  const q = await ok(gql(`query($id: ID!) { legalActions(gameId: $id, lang: "ru", tree: true) { version lang actions choices { id label action } tree } }`, { id }));
  const la = q.legalActions;
  t.equal(la.lang, 'ru');
  t.equal(la.choices.length, la.actions.length);
  t.ok(la.tree && Array.isArray(la.tree.children));
  const rest = await actions(seat[role]!, id, '?lang=ru');
  t.same(la.choices, rest.choices, 'the same ids and labels as REST');
  const r = await ok(gql(`mutation($id: ID!, $a: String!) { submitAction(gameId: $id, actionId: $a) { version } }`, { id, a: la.choices[0].id }));
  t.equal(r.submitAction.version, la.version + 1);
  const now = (await watcher.req('GET', `/games/${id}`)).json();
  const active = gqlClient(app, seat[now.activeRoles[0] as string]!.key);
  const stale = await active(`mutation($id: ID!, $a: String!) { submitAction(gameId: $id, actionId: $a) { version } }`, { id, a: 'play:no-such-card' });
  t.equal(stale.errors?.[0]?.extensions?.code, 'illegal_action');
  t.equal(stale.errors?.[0]?.extensions?.actionId, 'play:no-such-card');
  t.equal((await watcher.req('GET', `/games/${id}`)).json().version, now.version, 'nothing committed');
  const log = await ok(gqlClient(app, null)(`query($id: ID!) { log(gameId: $id, lang: "cs") { lang lines } }`, { id }));
  t.equal(log.log.lang, 'cs');
  t.ok(log.log.lines.length > 0);
});
