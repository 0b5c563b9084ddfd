/**
 * What a seat may see of commanders and orders, by allow-list like view.ts:
 * the commanders (one's own always; the other's once deployment ends, A37,
 * or with 'first-order' once it has issued an order), the orders issued this
 * turn, paralysed units, the order window (in full to the player whose it
 * is; to anyone else only that one is open), what the current activation
 * got from orders, and what this seat alone looked at (Reconnaissance,
 * Rafael's special order; A54).
 */
import { ARMIES, type Army } from './data-format.ts';
import type { BWState } from './state.ts';
import { copyJson } from './state.ts';

/** What orders gave the current activation (not the bookkeeping of its attacks). */
function activationEffects(s: BWState): Record<string, unknown> | null {
  const o = s.act?.orders;
  if (!o) return null;
  const out: Record<string, unknown> = {};
  if (o.extraMove) out.extraMove = o.extraMove;
  if (o.surge) out.surge = true;
  if (o.frenzy) out.frenzy = true;
  if (o.second) out.second = true;
  return Object.keys(out).length ? out : null;
}

export function ordersView(s: BWState, seat: Army | null): unknown {
  if (!s.options.commanders) return null;
  const o = s.orders;
  const playing = s.phase === 'play' || s.phase === 'over';
  const commander: Record<string, string | null> = {};
  for (const a of ARMIES) {
    const visible = a === seat || (playing && (s.options.a37Commander === 'public' || o.shown[a]));
    commander[a] = visible ? o.commander[a] : null;
  }
  const learned: Record<string, string> = {};
  if (seat) {
    for (const id of o.learned[seat]) {
      const u = s.units.find((x) => x.id === id);
      if (u && u.hex !== null) learned[id] = u.kind;
    }
  }
  return {
    choices: { Thargaton: o.choices.Thargaton.slice(), Vesania: o.choices.Vesania.slice() },
    commander,
    issued: o.issued.map((x) => ({ ...x })),
    paralysed: o.paralysed.filter((p) => p.turn >= s.turn).map((p) => ({ ...p })),
    window: o.window ? (seat !== null && seat === s.player ? copyJson(o.window) : { at: o.window.at }) : null,
    activation: activationEffects(s),
    learned,
  };
}
