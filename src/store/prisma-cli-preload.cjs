// Preloaded (node --require) into the Prisma CLI child process. Prisma 6.19's
// Wasm schema engine leaves a 10 s setTimeout pending after `migrate deploy`
// has finished, so the CLI lingers 10 s before exiting. Unref'ing timers
// created from Wasm lets it exit as soon as its work (sockets, queries) is done.
'use strict';
const originalSetTimeout = global.setTimeout;
global.setTimeout = function setTimeout(fn, ms, ...args) {
  const timer = originalSetTimeout.call(this, fn, ms, ...args);
  if (typeof ms === 'number' && ms >= 1000 && timer && typeof timer.unref === 'function') {
    const stack = new Error().stack || '';
    if (stack.includes('wasm://')) timer.unref();
  }
  return timer;
};
