// JSON texts of values that go out more than once. A seat's view after an
// action goes out in the action's answer and again, moments later, in the
// acting seat's SSE version event (the stream reads the view kept with the
// cached row: the very same object, service/game-cache.ts rememberView):
// serialised once, not twice. Views are never mutated once built (rows and
// their views are shared), so a text stays right for as long as its object
// lives. Only the texts of the last RECENT objects are kept (the event follows
// its answer within milliseconds): the views kept with finished games' rows
// do not keep a text each.
import type { SubmitActionResult } from '../service/api.ts';
import type { VersionEvent } from '../notify/game-feed.ts';

const RECENT = 64;
const texts = new Map<object, string>();

/** JSON.stringify(value), computed once for an object serialised again soon after. */
export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
    if (texts.size > RECENT) texts.delete(texts.keys().next().value!);
  }
  return text;
}

/** The answer to POST /games/{id}/actions as JSON, the view's text shared (what JSON.stringify(answer) gives). */
export function actionAnswerText(answer: Omit<SubmitActionResult, 'replayed'>): string {
  const { version, role, game, view, legalActions, ...rest } = answer;
  // A field added to the answer must be added here too (this fails to compile until it is).
  const none: Record<string, never> = rest;
  void none;
  return `{"version":${JSON.stringify(version)},"role":${JSON.stringify(role)},"game":${JSON.stringify(game)},"view":${jsonText(view)},"legalActions":${JSON.stringify(legalActions)}}`;
}

/** A game feed's version event as JSON, the view's text shared (what JSON.stringify(event) gives). */
export function versionEventText(e: VersionEvent): string {
  const { gameId, version, type, role, playerId, status, activeRoles, seat, view, clock, at, ...rest } = e;
  const none: Record<string, never> = rest;
  void none;
  const head = JSON.stringify({ gameId, version, type, role, playerId, status, activeRoles, seat });
  return `${head.slice(0, -1)},"view":${jsonText(view)},"clock":${JSON.stringify(clock)}${at === undefined ? '' : `,"at":${JSON.stringify(at)}`}}`;
}
