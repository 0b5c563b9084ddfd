export type { Bus, BusHandler, Json, Unsubscribe } from './bus.ts';
export { BusClosedError } from './bus.ts';
export { createMemoryBus } from './memory.ts';
export { createRedisBus } from './redis.ts';
