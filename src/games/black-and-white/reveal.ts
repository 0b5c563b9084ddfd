/**
 * Revealing a kind (§9.4, §16.8, A54): the block is known from then on, and
 * its kind card lies face up; a hidden shooter (§16.8.3) shows the card only.
 */
import type { KindId } from './data-format.ts';
import { logLine } from './msg.ts';
import type { BWState, Unit } from './state.ts';

/** Shows the kind's card (the opponent learns the army has this kind). */
export function showCard(s: BWState, u: Unit): void {
  if (!s.cardsShown[u.army].includes(u.kind)) s.cardsShown[u.army].push(u.kind as KindId);
}

/** Reveals the block's kind to the opponent; `key` is the log line that says so (none when the caller logs it). */
export function reveal(s: BWState, u: Unit, key: string | null = 'log.revealed'): void {
  showCard(s, u);
  if (s.unseen.includes(u.id)) s.unseen = s.unseen.filter((id) => id !== u.id);
  if (u.revealed) return;
  u.revealed = true;
  if (key) logLine(s, key, { unit: u });
}
