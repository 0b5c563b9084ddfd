/**
 * Message builders for readable actions and log lines (engine/types.ts
 * Message): keys name the sentence, references name the game's things (areas,
 * blocks, cards, sides) so each language words them from its own catalogue
 * (messages/<lang>/*.json). Only ids go in: the catalogue holds every name.
 */
import type { Message, MessageParam } from '../../engine/types.ts';
import { BLOCKS, CARD, type Side } from './data.ts';
import type { R3State } from './state.ts';

export const msg = (key: string, params?: Record<string, MessageParam>): Message => (params ? { key, params } : { key });
export const areaRef = (id: string): MessageParam => ({ ref: 'area', id });
export const blockRef = (b: number): MessageParam => ({ ref: 'block', id: BLOCKS[b]!.id });
export const blockIdRef = (id: string): MessageParam => ({ ref: 'block', id });
export const sideRef = (side: Side): MessageParam => ({ ref: 'side', id: side });
export const list = (items: MessageParam[]): MessageParam => ({ list: items });
export const sub = (m: Message): MessageParam => ({ msg: m });

/** An event card by its event's name; an action card by its AP ("3 AP"). */
export function cardRef(id: string): MessageParam {
  const c = CARD[id]!;
  return c.kind === 'event' ? { ref: 'card', id: c.event! } : sub(msg('card.ap', { ap: c.ap }));
}

/** "Warwick (3)": a block shown with its current strength (blocks revealed in a battle). */
export const withStrength = (s: R3State, b: number): MessageParam => sub(msg('block.withStrength', { block: blockRef(b), steps: s.steps[b]! }));
