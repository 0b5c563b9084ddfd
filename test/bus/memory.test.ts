import t from 'tap';
import { createMemoryBus } from '../../src/bus/index.ts';
import { busContract } from '../helpers/bus-contract.ts';

t.test('in-process bus: Bus contract', async (t) => {
  busContract(t, () => createMemoryBus());
});
