/**
 * The pure core of leagues (issue 14): no I/O, no service, store or HTTP imports. The service
 * layer stores entrants, rounds and results and calls these functions to schedule, pair, rank
 * and rate.
 */
export * from './results.ts';
export * from './standings.ts';
export * from './ratings.ts';
export * from './round-robin.ts';
export * from './swiss.ts';
export * from './knockout.ts';
export * from './calendar.ts';
