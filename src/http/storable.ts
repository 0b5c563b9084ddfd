// Strings PostgreSQL cannot store: text and jsonb refuse U+0000 ("unsupported
// Unicode escape sequence", a 500 when it reaches a query), and a lone UTF-16
// surrogate (half of a pair, e.g. JSON "\ud800") is not Unicode text at all:
// its UTF-8 encoding silently becomes U+FFFD, so what is stored differs from
// what was sent. Client input is checked here once, at the edge (see
// plugins/input-guard.ts and graphql/input.ts), so no such string reaches the
// service.

/**
 * No U+0000 and no surrogate that is not half of a pair: what /[\u0000\ud800-\udfff]/u does
 * not match (the u flag matches pairs as one code point), by two native scans, as every string of
 * every request passes here (a lone surrogate is what makes a string not well-formed).
 */
export function isStorable(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed() && !s.includes('\u0000');
}

/** What is wrong with an unstorable string, for error messages. */
export function unstorableReason(s: string): string {
  return s.includes('\u0000') ? 'contains U+0000 (NUL)' : 'contains a lone UTF-16 surrogate';
}

export interface Unstorable {
  /** Where, e.g. body.record.actions[3].type (a key's own name is reported as its path). */
  path: string;
  reason: string;
}

function member(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key.slice(0, 40))}]`;
}

/**
 * The first unstorable string (a value or an object key) in a parsed JSON
 * value, or null. Iterative with an explicit stack: a body nested 100,000
 * levels deep cannot overflow the call stack here.
 */
export function findUnstorable(value: unknown, root: string): Unstorable | null {
  // Every request's input passes here and nearly all of it is clean: a walk
  // without paths says so; paths are built only to name what was found.
  if (!containsUnstorable(value)) return null;
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: root }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorable(v)) return { path, reason: unstorableReason(v) };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        if (!isStorable(k)) return { path: member(path, k.replace(/[\u0000\ud800-\udfff]/gu, '?')), reason: `has a key that ${unstorableReason(k)}` };
        stack.push({ v: child, path: member(path, k) });
      }
    }
  }
  return null;
}

/** Whether any string (value or key) in a parsed JSON value is unstorable; iterative, builds nothing. */
function containsUnstorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!isStorable(v)) return true;
    } else if (Array.isArray(v)) {
      for (const child of v) stack.push(child);
    } else if (v !== null && typeof v === 'object') {
      for (const k in v as Record<string, unknown>) {
        if (!Object.hasOwn(v, k)) continue;
        if (!isStorable(k)) return true;
        stack.push((v as Record<string, unknown>)[k]);
      }
    }
  }
  return false;
}
