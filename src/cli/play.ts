/**
 * Choosing an action from the server's labelled legal list: the grouped tree
 * (GET /games/{id}/actions?group=tree), at most 25 choices a step, one
 * numbered menu per step, and the pick submitted by its id with the version it
 * was offered at (a stale pick is refused by the server, never applied).
 */
import type { ChoiceNode } from './api.ts';
import type { Asker } from './prompt.ts';

export interface Picked {
  id: string;
  /** The labels from the root to the leaf, e.g. ["Move a block", "Move Warwick from Kent", "To Sussex"]. */
  path: string[];
}

/** Walks the tree with numbered menus; null when the user quits (q, or end of input). */
export async function pickFromTree(tree: ChoiceNode, asker: Asker, print: (line: string) => void): Promise<Picked | null> {
  const stack: ChoiceNode[] = [];
  let node: ChoiceNode = tree.id !== undefined ? { label: '', children: [tree] } : tree;
  for (;;) {
    const kids = node.children ?? [];
    if (node.label) print(`${stack.map((n) => n.label).filter(Boolean).concat(node.label).join(' › ')}:`);
    kids.forEach((k, i) => print(`  ${String(i + 1).padStart(2)}. ${k.label}${k.children ? ' …' : ''}`));
    if (stack.length) print('   0. back');
    const answer = await asker.ask(`Choose 1-${kids.length}${stack.length ? ', 0 to go back' : ''}, q to quit: `);
    if (answer === null || answer.toLowerCase() === 'q') return null;
    const n = Number(answer);
    if (answer === '0' && stack.length) {
      node = stack.pop()!;
      continue;
    }
    if (!Number.isInteger(n) || n < 1 || n > kids.length) {
      print(`Type a number from 1 to ${kids.length}.`);
      continue;
    }
    const child = kids[n - 1]!;
    if (child.id !== undefined) return { id: child.id, path: [...stack, node].map((s) => s.label).filter(Boolean).concat(child.label) };
    stack.push(node);
    node = child;
  }
}
