/**
 * Readable actions: each legal action as a message for the seat that may take
 * it (engine/types.ts describeAction), where it sits in a menu of choices
 * (actionGroups), and the log entries as messages (logMessage). Pure functions
 * of the state: the wording lives in messages/<lang>/actions.json and log.json.
 *
 * Hidden information: a label is shown only to the acting seat, so it may name
 * that seat's own blocks and where they stand, and what the seat already sees:
 * blocks revealed in the battle being fought (charge and treason targets).
 * It never names anything else (test/games/richard-iii/labels.test.ts checks
 * every block a label names against the seat's view).
 */
import type { Message, MessageParam } from '../../engine/types.ts';
import { BLOCK_INDEX, type Side } from './data.ts';
import type { Action } from './flow.ts';
import { areaRef, blockIdRef, cardRef, msg, withStrength } from './msg.ts';
import { top, type LogEntry, type R3State } from './state.ts';

const B = (id: unknown): number => BLOCK_INDEX[id as string]!;
const blockAt = (s: R3State, id: unknown): Record<string, MessageParam> => ({ block: blockIdRef(id as string), area: areaRef(s.loc[B(id)]!) });

/** The frame the acting side answers (the top of the flow). */
function frameOf(s: R3State): Record<string, unknown> & { s: string } {
  return top(s) as Record<string, unknown> & { s: string };
}

export function describeAction(s: R3State, side: Side, a: Action): Message {
  if (a.type === 'undo') return msg('action.undo');
  const f = frameOf(s);
  switch (f.s) {
    case 'redeal_offer':
      return msg(a.type === 'demand_redeal' ? 'action.demandRedeal' : 'action.keepHand');
    case 'redeal_answer':
      return msg(a.type === 'new_hand' ? 'action.newHand' : 'action.keepHand');
    case 'play_card':
      return a.type === 'play' ? msg('action.play', { card: cardRef(a['card'] as string) }) : msg('action.takeBack');
    case 'action_phase':
      if (a.type === 'select') return msg('action.select', blockAt(s, a['block']));
      if (a.type === 'recruit') return msg('action.recruit', { block: blockIdRef(a['block'] as string) });
      return msg('action.endActionPhase');
    case 'move_to':
    case 'muster_move': {
      const block = blockIdRef(f['block'] as string);
      const path = f['path'] as string[];
      const here = areaRef(path[path.length - 1]!);
      if (a.type === 'step') return msg('action.step', { block, from: here, to: areaRef(a['area'] as string) });
      if (a.type === 'sea') return msg('action.sea', { block, from: here, zone: areaRef(a['zone'] as string) });
      if (a.type === 'stop') return msg('action.stop', { block, area: here });
      if (a.type === 'cancel') return msg('action.cancelMove', { block });
      return msg('action.endActionPhase');
    }
    case 'sea_move_to': {
      const block = blockIdRef(f['block'] as string);
      if (a.type === 'land') return msg('action.land', { block, zone: areaRef(f['zone'] as string), to: areaRef(a['area'] as string) });
      if (a.type === 'cancel') return msg('action.cancelMove', { block });
      return msg('action.endActionPhase');
    }
    case 'recruit_where': {
      const block = blockIdRef(f['block'] as string);
      if (a.type === 'place') return msg('action.place', { block, area: areaRef(a['area'] as string) });
      if (a.type === 'cancel') return msg('action.cancelRecruit', { block });
      return msg('action.endActionPhase');
    }
    case 'muster_event':
      return a.type === 'muster' ? msg('action.muster', { area: areaRef(a['area'] as string) }) : msg('action.endActionPhase');
    case 'muster_who':
      return a.type === 'select' ? msg('action.musterBlock', { ...blockAt(s, a['block']), to: areaRef(f['area'] as string) }) : msg('action.endActionPhase');
    case 'plague_event':
      return a.type === 'plague' ? msg('action.plague', { area: areaRef(a['area'] as string) }) : msg('action.noPlague');
    case 'battle_phase':
      return msg('action.battle', { area: areaRef(a['area'] as string) });
    case 'treason_event':
      return a.type === 'treason' ? msg('action.treasonCard', { target: withStrength(s, B(a['target'])) }) : msg('action.noTreason');
    case 'battle': {
      const b = B(a['block']);
      const block = withStrength(s, b);
      if (a.type === 'fire') return msg('action.fire', { block });
      if (a.type === 'pass') return msg('action.pass', { block });
      if (a.type === 'retreat') return msg('action.retreat', { block, to: areaRef(a['to'] as string) });
      if (a.type === 'charge') return msg('action.charge', { block, target: withStrength(s, B(a['target'])) });
      return msg('action.treachery', { block, target: withStrength(s, B(a['target'])) });
    }
    case 'battle_hits':
      return msg('action.hit', { block: withStrength(s, B(a['block'])) });
    case 'regroup':
      return a.type === 'regroup'
        ? msg('action.regroup', { block: blockIdRef(a['block'] as string), from: areaRef(f['area'] as string), to: areaRef(a['to'] as string) })
        : msg('action.endRegroup');
    case 'enter_heir':
      return msg('action.enterHeir', { block: blockIdRef(a['heir'] as string), area: areaRef(a['area'] as string) });
    case 'execute_defector':
      return msg(a.type === 'execute' ? 'action.execute' : 'action.spare', { block: blockIdRef(f['block'] as string) });
    case 'supply_limits':
      return a.type === 'reduce' ? msg('action.reduce', { ...blockAt(s, a['block']), steps: s.steps[B(a['block'])]! }) : msg('action.endSupplyLimits');
    case 'pretender_goes_home':
    case 'king_goes_home':
      return a.type === 'block' ? msg('action.goHome', blockAt(s, a['block'])) : msg('action.endGoHome');
    case 'pretender_goes_home_to':
    case 'king_goes_home_to': {
      const block = blockIdRef(f['block'] as string);
      if (a.type === 'area') return msg('action.homeTo', { block, to: areaRef(a['area'] as string) });
      if (a.type === 'pool') return msg('action.homePool', { block });
      return msg('action.cancelHome', { block });
    }
    case 'exile_limits_pretender':
    case 'exile_limits_king':
      return msg('action.exileToPool', blockAt(s, a['block']));
  }
  // A state this file does not know yet: the generic wording still names the verb.
  return msg('action.other', { type: a.type });
}

/**
 * Menu groups (outermost first) for long lists: a block, then what it does;
 * blocks to move by the area they stand in. Short lists need none.
 */
export function actionGroups(s: R3State, _side: Side, a: Action): Message[] {
  const f = frameOf(s);
  switch (f.s) {
    case 'action_phase':
      if (a.type === 'select') return [msg('group.move'), msg('group.area', { area: areaRef(s.loc[B(a['block'])]!) })];
      if (a.type === 'recruit') return [msg('group.recruit')];
      return [];
    case 'muster_who':
      return a.type === 'select' ? [msg('group.area', { area: areaRef(s.loc[B(a['block'])]!) })] : [];
    case 'battle':
      return [msg('group.block', { block: withStrength(s, B(a['block'])) })];
    case 'regroup':
      return a.type === 'regroup' ? [msg('group.block', { block: blockIdRef(a['block'] as string) })] : [];
    case 'enter_heir':
      return [msg('group.block', { block: blockIdRef(a['heir'] as string) })];
    case 'supply_limits':
      return a.type === 'reduce' ? [msg('group.area', { area: areaRef(s.loc[B(a['block'])]!) })] : [];
    case 'pretender_goes_home':
    case 'king_goes_home':
    case 'exile_limits_pretender':
    case 'exile_limits_king':
      return a.type === 'block' ? [msg('group.area', { area: areaRef(s.loc[B(a['block'])]!) })] : [];
  }
  return [];
}

/** The message of a log entry as that seat may read it, or null for an entry written before messages existed. */
export function logMessage(e: LogEntry, seat: Side | null): Message | null {
  if (seat !== null && e.own?.side === seat) return e.own.m ?? null;
  return e.m ?? null;
}
