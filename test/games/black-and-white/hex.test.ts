// The hex geometry of a Black & White board (src/games/black-and-white/hex.ts):
// neighbours in all four offset layouts (checked against the usual offset
// tables, edges and corners included), distance (against a breadth-first
// search), straight rows, `within`, and line of sight with RULES.md §15 and
// A21's readings: a line through a blocking hex is blocked, a line along the
// edge between two hexes only when both block (off the board counts as
// blocking), a corner touch never, a line across an off-board or excluded
// half hex always; the two hexes' own contents never block; a→b is b→a.
import t from 'tap';
import type { BoardData, BoardLayout } from '../../../src/games/black-and-white/data-format.ts';
import { BOARD_LAYOUTS } from '../../../src/games/black-and-white/data-format.ts';
import { HexGrid, hexId, parseHexId } from '../../../src/games/black-and-white/hex.ts';

/** [dcol, drow] of the six neighbours, by the parity (0-based) of the column (flat) or row (pointy). */
const OFFSETS: Record<BoardLayout, { axis: 'column' | 'row'; even: [number, number][]; odd: [number, number][] }> = {
  // Columns 2, 4… (0-based odd) lower.
  'flat-even-down': { axis: 'column', even: [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [0, 1]], odd: [[1, 1], [1, 0], [0, -1], [-1, 0], [-1, 1], [0, 1]] },
  // Columns 1, 3… (0-based even) lower.
  'flat-odd-down': { axis: 'column', even: [[1, 1], [1, 0], [0, -1], [-1, 0], [-1, 1], [0, 1]], odd: [[1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [0, 1]] },
  // Rows 2, 4… (0-based odd) to the right.
  'pointy-even-right': { axis: 'row', even: [[1, 0], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1]], odd: [[1, 0], [1, -1], [0, -1], [-1, 0], [0, 1], [1, 1]] },
  // Rows 1, 3… (0-based even) to the right.
  'pointy-odd-right': { axis: 'row', even: [[1, 0], [1, -1], [0, -1], [-1, 0], [0, 1], [1, 1]], odd: [[1, 0], [0, -1], [-1, -1], [-1, 0], [-1, 1], [0, 1]] },
};

function tableNeighbours(board: BoardData, id: string): string[] {
  const { column, row } = parseHexId(id)!;
  const o = OFFSETS[board.layout];
  const parity = ((o.axis === 'column' ? column : row) - 1) % 2;
  return (parity === 0 ? o.even : o.odd)
    .map(([dc, dr]) => [column + dc, row + dr])
    .filter(([c, r]) => c! >= 1 && c! <= board.columns && r! >= 1 && r! <= board.rows)
    .map(([c, r]) => hexId(c!, r!))
    .filter((h) => !(board.excluded ?? []).includes(h));
}

const sorted = (xs: readonly string[]) => [...xs].sort();
const never = () => false;

t.test('names: "column,row" from 1', async (t) => {
  t.same(parseHexId('3,12'), { column: 3, row: 12 });
  for (const bad of ['0,1', '1,0', '01,2', '1, 2', 'a,b', '1,2,3', '']) t.equal(parseHexId(bad), null, bad);
  const g = new HexGrid({ columns: 3, rows: 2, layout: 'flat-even-down', excluded: ['2,2'] });
  t.same(g.hexes, ['1,1', '1,2', '2,1', '3,1', '3,2']);
  t.ok(g.has('3,2'));
  t.notOk(g.has('2,2'), 'excluded');
  t.notOk(g.has('4,1'), 'off the board');
  t.throws(() => g.distance('2,2', '1,1'), /not a hex of this board/);
});

t.test('neighbours in all four layouts, every hex of a board, edges and corners included', async (t) => {
  for (const layout of BOARD_LAYOUTS) {
    const board: BoardData = { columns: 6, rows: 5, layout };
    const g = new HexGrid(board);
    for (const h of g.hexes) t.same(sorted(g.neighbours(h)), sorted(tableNeighbours(board, h)), `${layout} ${h}`);
    t.ok(g.hexes.every((h) => g.neighbours(h).every((n) => g.neighbours(n).includes(h))), `${layout}: neighbours are mutual`);
    t.equal(g.neighbours('3,3').length, 6, `${layout}: an inner hex has six`);
  }
  // The corners, spelled out (direction order), and an excluded half hex.
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'flat-even-down' }).neighbours('1,1'), ['2,1', '1,2']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'flat-even-down' }).neighbours('2,1'), ['3,2', '3,1', '1,1', '1,2', '2,2']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'flat-even-down' }).neighbours('4,3'), ['4,2', '3,3']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'flat-odd-down' }).neighbours('1,1'), ['2,2', '2,1', '1,2']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'pointy-even-right' }).neighbours('1,1'), ['2,1', '1,2']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'pointy-even-right' }).neighbours('1,2'), ['2,2', '2,1', '1,1', '1,3', '2,3']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'pointy-odd-right' }).neighbours('1,1'), ['2,1', '1,2', '2,2']);
  t.same(new HexGrid({ columns: 4, rows: 3, layout: 'flat-even-down', excluded: ['2,3'] }).neighbours('1,3'), ['2,2', '1,2']);
});

t.test('distance is the number of steps (breadth-first search), in every layout', async (t) => {
  for (const layout of BOARD_LAYOUTS) {
    const g = new HexGrid({ columns: 6, rows: 5, layout });
    let agree = true;
    for (const a of g.hexes) {
      const steps = new Map([[a, 0]]);
      const queue = [a];
      while (queue.length > 0) {
        const h = queue.shift()!;
        for (const n of g.neighbours(h)) if (!steps.has(n)) (steps.set(n, steps.get(h)! + 1), queue.push(n));
      }
      for (const b of g.hexes) if (g.distance(a, b) !== steps.get(b) || g.distance(b, a) !== steps.get(b)) agree = false;
    }
    t.ok(agree, layout);
  }
  const g = new HexGrid({ columns: 9, rows: 7, layout: 'flat-even-down' });
  t.equal(g.distance('1,1', '1,7'), 6);
  t.equal(g.distance('1,1', '9,1'), 8);
  t.equal(g.distance('5,4', '5,4'), 0);
});

t.test('straight rows: step and direction', async (t) => {
  for (const layout of BOARD_LAYOUTS) {
    const g = new HexGrid({ columns: 9, rows: 9, layout });
    for (let d = 0; d < 6; d++) {
      let h = '5,5';
      for (let k = 1; k <= 3; k++) {
        h = g.step(h, d)!;
        t.equal(g.direction('5,5', h), d, `${layout}: ${k} steps in direction ${d}`);
        t.equal(g.direction(h, '5,5'), (d + 3) % 6, `${layout}: and back`);
        t.equal(g.distance('5,5', h), k);
      }
      t.ok(g.neighbours('5,5').includes(g.step('5,5', d)!));
      t.equal(g.step(g.step('5,5', d)!, d + 3), '5,5', 'the opposite direction comes back');
      t.equal(g.step('5,5', d + 6), g.step('5,5', d), 'directions wrap');
    }
    t.equal(g.direction('5,5', '5,5'), null, 'no direction to itself');
    // Two steps in neighbouring directions: not a straight row.
    t.equal(g.direction('5,5', g.step(g.step('5,5', 0)!, 1)!), null, `${layout}: not straight`);
  }
  const g = new HexGrid({ columns: 3, rows: 3, layout: 'flat-even-down', excluded: ['1,3'] });
  t.equal(g.step('1,1', 2), null, 'off the board');
  t.equal(g.step('1,2', 5), null, 'onto an excluded hex');
});

t.test('within: every hex at most that far, itself included', async (t) => {
  for (const layout of BOARD_LAYOUTS) {
    const g = new HexGrid({ columns: 9, rows: 7, layout, excluded: ['2,7'] });
    for (const [h, r] of [['5,4', 0], ['5,4', 1], ['5,4', 2], ['1,1', 3], ['9,7', 2], ['1,7', 4]] as const) {
      t.same(sorted(g.within(h, r)), sorted(g.hexes.filter((x) => g.distance(h, x) <= r)), `${layout} ${h} ${r}`);
    }
    t.equal(g.within('5,4', 1).length, 7);
    t.equal(g.within('5,4', 2).length, 19);
  }
});

t.test('line of sight', async (t) => {
  const board: BoardData = { columns: 9, rows: 7, layout: 'flat-even-down', excluded: ['3,1'] };
  const g = new HexGrid(board);
  const blocking = (...hexes: string[]) => (h: string) => hexes.includes(h);
  /** The hex reached from `from` by steps in these directions. */
  const walk = (from: string, ...dirs: number[]) => dirs.reduce((h, d) => g.step(h, d)!, from);

  t.test('a straight row: clear, and blocked by any hex between', async (t) => {
    const a = '2,4';
    const b = walk(a, 0, 0, 0);
    const between = [walk(a, 0), walk(a, 0, 0)];
    t.same(g.crossing(a, b), { through: between, alongEdges: [], offBoard: false });
    t.ok(g.lineOfSight(a, b, never));
    for (const h of between) t.notOk(g.lineOfSight(a, b, blocking(h)), `${h} blocks`);
    t.ok(g.lineOfSight(a, b, blocking(a, b)), 'its own two hexes never block');
    t.ok(g.lineOfSight(a, walk(a, 0), (h) => h !== 'x'), 'neighbours always see each other');
    t.ok(g.lineOfSight(a, b, blocking(walk(a, 1), walk(a, 5))), 'hexes beside the line do not block');
  });

  t.test('along the edge between two hexes: blocked only when both block (A21)', async (t) => {
    const a = '4,4';
    const b = walk(a, 0, 5);
    const [p, q] = [walk(a, 0), walk(a, 5)];
    const x = g.crossing(a, b);
    t.same(x.through, []);
    t.equal(x.alongEdges.length, 1);
    t.same(sorted(x.alongEdges[0] as string[]), sorted([p, q]));
    t.ok(g.lineOfSight(a, b, never));
    t.ok(g.lineOfSight(a, b, blocking(p)), 'one side blocks: clear');
    t.ok(g.lineOfSight(a, b, blocking(q)), 'the other side blocks: clear');
    t.notOk(g.lineOfSight(a, b, blocking(p, q)), 'both block: blocked');
  });

  t.test('a hex touched only at a corner does not block', async (t) => {
    // From a, four steps in direction 0 and one in direction 1: the line passes exactly through
    // the corner shared by walk(a, 0), walk(a, 0, 0) (both crossed) and walk(a, 0, 1) (touched only there).
    const a = '1,2';
    const b = walk(a, 0, 0, 0, 0, 1);
    const corner = walk(a, 0, 1);
    const x = g.crossing(a, b);
    t.notOk(x.through.includes(corner), JSON.stringify(x));
    t.notOk(x.alongEdges.flat().includes(corner));
    t.ok(x.through.includes(walk(a, 0)) && x.through.includes(walk(a, 0, 0)), 'the hexes on either side of the corner are crossed');
    t.ok(g.lineOfSight(a, b, blocking(corner)));
    t.notOk(g.lineOfSight(a, b, blocking(walk(a, 0))));
  });

  t.test('off the board: an edge with nothing beyond counts as blocking; a line across an excluded half hex is blocked', async (t) => {
    // Along the top edge: 1,1 to 5,1 crosses the excluded 3,1 (a half hex): blocked whatever stands there.
    t.match(g.crossing('1,1', '5,1'), { offBoard: true });
    t.notOk(g.lineOfSight('1,1', '5,1', never));
    // 2,1 to 4,1 runs along the edge between the excluded 3,1 and 3,2: blocked when 3,2 blocks.
    t.same(g.crossing('2,1', '4,1'), { through: [], alongEdges: [[null, '3,2']], offBoard: false });
    t.ok(g.lineOfSight('2,1', '4,1', never));
    t.notOk(g.lineOfSight('2,1', '4,1', blocking('3,2')));
    // The same on a board without the exclusion: the edge is then between two playable hexes.
    const whole = new HexGrid({ ...board, excluded: [] });
    t.ok(whole.lineOfSight('1,1', '5,1', never));
    t.ok(whole.lineOfSight('2,1', '4,1', blocking('3,2')));
    t.notOk(whole.lineOfSight('2,1', '4,1', blocking('3,2', '3,1')));
    // Along the board's real edge: 5,1 to 9,1 passes 6,1 and 8,1 along edges with nothing beyond.
    t.ok(whole.lineOfSight('5,1', '9,1', never));
    t.notOk(whole.lineOfSight('5,1', '9,1', blocking('6,1')), 'the other side of the edge is off the board');
  });

  t.test('symmetric: a sees b exactly when b sees a, in every layout', async (t) => {
    for (const layout of BOARD_LAYOUTS) {
      const grid = new HexGrid({ columns: 7, rows: 6, layout, excluded: ['1,6', '7,1'] });
      const blocked = new Set(grid.hexes.filter((_, i) => i % 5 === 2 || i % 7 === 3));
      const blocks = (h: string) => blocked.has(h);
      let symmetric = true;
      let clear = 0;
      for (const a of grid.hexes) {
        for (const b of grid.hexes) {
          const ab = grid.lineOfSight(a, b, blocks);
          if (ab !== grid.lineOfSight(b, a, blocks)) symmetric = false;
          if (ab) clear++;
        }
      }
      t.ok(symmetric, layout);
      t.ok(clear > grid.hexes.length && clear < grid.hexes.length ** 2, `${layout}: some lines clear, some blocked`);
    }
  });
});
