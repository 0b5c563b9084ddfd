/**
 * What one seat may see of every frame of the flow stack (view.ts `flow`), built
 * by allow-list like the rest of the view. The prompt shows only the top frame;
 * a computer player that rebuilds full states from its view (sample-state.ts)
 * also needs the frames below it and the public or own-seat parts of each one.
 *
 * Each frame kind lists its fields on purpose, with the reason a seat may know
 * them; a frame kind not listed here shows only `s` and `side`. Blocks are
 * named by id only when the seat may see them: its own blocks and the blocks
 * face-up in the battle being fought (6.1). Other blocks in battle lists are
 * given as counts per side (how many blocks stand there is public: views count
 * blocks per area).
 */
import { AREA, BLOCK_INDEX, BLOCKS, SIDES, type Side } from './data.ts';
import { battleReveal } from './view.ts';
import { ownerOf, type Frame, type R3State } from './state.ts';

/** A frame as one seat sees it: its state name, who acts, and the fields below. */
export interface FrameView {
  s: string;
  side: Side | 'both' | null;
  [k: string]: unknown;
}

const idOf = (b: number): string => BLOCKS[b]!.id;
const ids = (list: readonly unknown[] | undefined): string[] => [...((list ?? []) as string[])];

/**
 * The frames of `s.flow` for `seat` (null = spectator), bottom first.
 */
export function flowView(s: R3State, seat: Side | null): FrameView[] {
  const reveal = battleReveal(s);
  const faceUp = new Set(reveal ? reveal.blocks : []);
  // May the seat name block b? Its own blocks, and blocks face-up in the battle (6.1).
  const visible = (b: number): boolean => (seat !== null && ownerOf(s, b) === seat) || faceUp.has(b);
  return s.flow.map((f) => frameView(s, f, seat, visible));
}

function frameView(s: R3State, f: Frame, seat: Side | null, visible: (b: number) => boolean): FrameView {
  const out: FrameView = { s: f.s, side: f.side };
  const mine = seat !== null && f.side === seat;
  switch (f.s) {
    case 'redeal_offer': {
      // Who was asked is public (both are asked after every deal, cards.ts); who has
      // answered is public too (a side that answered is no longer active: prompt.active).
      // What the other side answered stays hidden until both have answered.
      const answers = f['answers'] as Partial<Record<Side, string>>;
      out['ask'] = [...(f['ask'] as Side[])];
      out['answered'] = SIDES.filter((x) => answers[x] !== undefined);
      if (seat !== null && answers[seat] !== undefined) out['answer'] = answers[seat];
      break;
    }
    case 'redeal_answer': {
      // The demander revealed its hand to demand the redeal (5.1; cards.ts
      // revealDemand logs it publicly), and that hand is still its hand now.
      const d = f['demander'] as Side;
      out['demander'] = d;
      out['demanderHand'] = [...s.hands[d]];
      break;
    }
    case 'action_phase':
      // The played card is revealed, so its event and AP are public; areas activated and
      // AP spent follow from the moves, which are made in the open (5.2) and logged
      // publicly with their areas; port-to-port followers follow from the public sea-move
      // lines (5.31: from, to and "port-to-port").
      out['phase'] = true;
      out['ev'] = f['ev'];
      out['ap'] = f['ap'];
      out['active'] = ids(f['active'] as string[]);
      out['ports'] = { ...(f['ports'] as Record<string, number>) };
      break;
    case 'move_to': {
      // The block is hidden from the opponent. Once it has stepped, its path is public
      // (the block moves across the board in the open; each step changes the public
      // counts and border use). A block picked but not moved yet can still be put back.
      const path = f['path'] as string[];
      if (mine) {
        out['block'] = f['block'];
        out['path'] = [...path];
      } else if (path.length > 1) out['path'] = [...path];
      break;
    }
    case 'sea_move_to':
      // Picking a sea zone moves nothing yet (it can be cancelled): only its owner knows.
      if (mine) {
        out['block'] = f['block'];
        out['from'] = f['from'];
        out['zone'] = f['zone'];
      }
      break;
    case 'recruit_where':
      if (mine) out['block'] = f['block'];
      break;
    case 'muster_event':
    case 'plague_event':
      out['phase'] = true;
      break;
    case 'muster_who':
      // The muster area is announced (muster.ts logs it publicly).
      out['phase'] = true;
      out['area'] = f['area'];
      break;
    case 'muster_move': {
      // As move_to: the muster area is public, the path once the block has stepped.
      const path = f['path'] as string[];
      out['area'] = f['area'];
      if (mine) {
        out['block'] = f['block'];
        out['path'] = [...path];
      } else if (path.length > 1) out['path'] = [...path];
      break;
    }
    case 'battle':
      Object.assign(out, battleView(s, f, visible));
      break;
    case 'battle_hits':
      // Also in the prompt: the number of hits of a public roll.
      out['hits'] = f['hits'];
      break;
    case 'regroup': {
      // Regroup moves are logged publicly with their areas (retreat.ts); the entries are
      // the public s.attacks record's. Which blocks were seen in the battle and which
      // attacked by Piracy: by id for the victor (its own blocks), else only how many
      // pirates stand in the area (they arrived by sea in the open, counted in attacks):
      // once the battle is over its blocks stand upright again (6.1), unnamed.
      const pirates = f['pirates'] as number[];
      out['area'] = f['area'];
      out['entries'] = ids(f['entries'] as string[]);
      out['use'] = { ...(f['use'] as Record<string, number>) };
      if (mine) {
        out['seen'] = (f['seen'] as number[]).map(idOf);
        out['pirates'] = pirates.map(idOf);
      } else out['hiddenPirates'] = pirates.filter((b) => s.loc[b] === f['area']).length;
      break;
    }
    case 'enter_heir':
      // The heir is named in every seat's prompt; the areas follow from public area
      // statuses (crown areas that are Friendly or Vacant, else exile areas, 6.82).
      out['stage'] = f['stage'];
      out['heir'] = f['heir'];
      out['areas'] = ids(f['areas'] as string[]);
      break;
    case 'execute_defector':
      // The stage says which block is offered (3: a defected Clarence, 4: a defected
      // Exeter, supply.ts); named for its holder only, as in the prompt.
      out['stage'] = f['stage'];
      if (mine) out['block'] = f['block'];
      break;
    case 'supply_limits': {
      out['stage'] = f['stage'];
      const reduced = f['reduced'] as number[];
      if (mine) out['reduced'] = reduced.map(idOf);
      else {
        // "<side> loses a step in <area>" is logged publicly for each reduction: how many
        // blocks were reduced in each area, not which.
        const byArea: Record<string, number> = {};
        for (const b of reduced) {
          const at = s.loc[b]!;
          if (AREA[at] && !s.down[b]) byArea[at] = (byArea[at] ?? 0) + 1;
        }
        out['reducedIn'] = byArea;
      }
      break;
    }
    case 'pretender_goes_home':
    case 'king_goes_home':
      // Which blocks went home is the owner's knowledge (the public log gives only areas).
      if (mine) out['moved'] = ids(f['moved'] as string[]);
      break;
    case 'pretender_goes_home_to':
    case 'king_goes_home_to':
      if (mine) out['block'] = f['block'];
      break;
    default:
      // play_card, battle_phase, treason_event, exile_limits_*, game_over: nothing but
      // `s` and `side`.
      break;
  }
  return out;
}

/**
 * The battle frame (battle-state.ts): block lists by id for blocks the seat may
 * name, and per side the number of the others that stand in the battle area.
 * Every list is public battle record: who stood in it face-up (6.1), who joined
 * from the Reserves (round 2 or on early deployment, 6.3), who acted this round
 * (battle turns are taken in the open), who defected (treason rolls are public,
 * 6.9), which once-per-battle rolls were used, the rolls per target, retreat
 * crossings (retreats are logged with their areas), the entry points (the public
 * s.attacks record). A Reserve that has not joined is hidden: only counted.
 */
function battleView(s: R3State, f: Frame, visible: (b: number) => boolean): Record<string, unknown> {
  const area = f['area'] as string;
  const named = (key: string): string[] => ((f[key] as number[] | undefined) ?? []).filter((b) => s.loc[b] === area && visible(b)).map(idOf);
  const hidden = (key: string): { York: number; Lancaster: number } => {
    const n = { York: 0, Lancaster: 0 };
    for (const b of (f[key] as number[] | undefined) ?? []) if (s.loc[b] === area && !s.down[b] && !visible(b)) n[ownerOf(s, b)]++;
    return n;
  };
  const entries = (f['entries'] as { York: string[]; Lancaster: string[] } | undefined) ?? { York: [], Lancaster: [] };
  return {
    area,
    attacker: f['attacker'],
    round: f['round'],
    members: named('members'),
    revealed: named('revealed'),
    reserves: named('reserves'),
    hiddenReserves: hidden('reserves'),
    acted: named('acted'),
    fromReserve: named('fromReserve'),
    defectedNow: named('defectedNow'),
    turned: named('turned'),
    pirates: named('pirates'),
    hiddenPirates: hidden('pirates'),
    used: ids(f['used'] as string[] | undefined),
    // Rolls count only against blocks in the battle line; kept for those the seat can name.
    rolls: Object.fromEntries(Object.entries((f['rolls'] as Record<string, number> | undefined) ?? {})
      .filter(([id]) => BLOCK_INDEX[id] !== undefined && s.loc[BLOCK_INDEX[id]!] === area && visible(BLOCK_INDEX[id]!))),
    retreatUse: { ...(f['retreatUse'] as Record<string, number> | undefined) },
    entries: { York: [...entries.York], Lancaster: [...entries.Lancaster] },
  };
}
