// Changes of a JSON view as a list of small operations, so a result sends the crosstable rows and the
// standings it moved instead of the whole tournament view. Pure (the page applies what the server diffs).
//
// Rows with an `id` (crosstable and standings rows; prize awards by player and prize) are matched by
// that key, not by position: a player who moves up is one `order` operation, not a thousand rows that
// "changed". A field that changes in many
// rows at once (the shared ranks after a result) goes as one column of values.

type Path = readonly (string | number)[];

/**
 * `v`: set the value at `p`; `d`: delete the key at `p`; `n`: cut the array at `p` to `n` items;
 * `order`: put the rows of the array at `p` in this order of keys (new keys get a null, set after);
 * `col` with `v`: set field `col` of every row of the array at `p`, in order.
 */
export type PatchOp =
  | { readonly p: Path; readonly v: unknown }
  | { readonly p: Path; readonly d: 1 }
  | { readonly p: Path; readonly n: number }
  | { readonly p: Path; readonly order: readonly (string | number)[] }
  | { readonly p: Path; readonly col: string; readonly v: readonly unknown[] };
export type ViewPatch = readonly PatchOp[];

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);
const isPrimitive = (x: unknown): boolean => x === null || typeof x !== 'object';

/** Rows matched by id from this many on. */
const KEYED_MIN = 8;
/** A field that changes in this many rows goes as a column. */
const COLUMN_MIN = 16;

/** The operations that turn `before` into `after` (both plain JSON). */
export function diffView(before: unknown, after: unknown): PatchOp[] {
  const out: PatchOp[] = [];
  diff(before, after, [], out);
  return out;
}

// `path` is one array for the whole walk, a key pushed on the way down and popped on the way up, and
// copied only into an operation: a walk of a 2,000-player view made a new path for every value it
// looked at (the view worker's allocations, and the GC's time, at the end of a round).

function diff(a: unknown, b: unknown, path: (string | number)[], out: PatchOp[], omit?: ReadonlySet<string>): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) return keyedIds(a) && keyedIds(b) ? diffKeyed(a as Json[], b as Json[], path, out) : diffArray(a, b, path, out);
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(b)) {
      if (b[key] === undefined || omit?.has(key)) continue;
      path.push(key);
      diffOrReplace(a[key], b[key], path, out);
      path.pop();
    }
    for (const key of Object.keys(a)) if (a[key] !== undefined && b[key] === undefined && !omit?.has(key)) out.push({ p: [...path, key], d: 1 });
    return;
  }
  out.push({ p: [...path], v: b });
}

function diffArray(a: readonly unknown[], b: readonly unknown[], path: (string | number)[], out: PatchOp[]): void {
  const common = Math.min(a.length, b.length);
  for (let i = 0; i < common; i++) {
    path.push(i);
    diffOrReplace(a[i], b[i], path, out);
    path.pop();
  }
  if (b.length < a.length) out.push({ p: [...path], n: b.length });
  for (let i = common; i < b.length; i++) out.push({ p: [...path, i], v: b[i] });
}

/** Rows' keys: each row's `id`, or its player and how many awards of that player came before it. */
function rowKeys(list: readonly unknown[]): (string | number)[] | undefined {
  const keys: (string | number)[] = [];
  const seen = new Map<number, number>();
  for (const row of list) {
    if (!isObject(row)) return undefined;
    if (typeof row.id === 'string' || typeof row.id === 'number') keys.push(row.id);
    else if (typeof row.player === 'number') {
      const n = seen.get(row.player) ?? 0;
      seen.set(row.player, n + 1);
      keys.push(`${row.player}#${n}`);
    } else return undefined;
  }
  return new Set(keys).size === keys.length ? keys : undefined;
}

/** Keys of an array of enough keyed rows, or undefined. */
function keyedIds(list: readonly unknown[]): (string | number)[] | undefined {
  return list.length < KEYED_MIN ? undefined : rowKeys(list);
}

function diffKeyed(a: readonly Json[], b: readonly Json[], path: (string | number)[], out: PatchOp[]): void {
  const keysA = rowKeys(a)!;
  const keysB = rowKeys(b)!;
  const before = new Map(a.map((row, i) => [keysA[i]!, row]));
  if (a.length !== b.length || keysB.some((k, i) => k !== keysA[i])) out.push({ p: [...path], order: keysB });
  const columns = new Set<string>();
  const changed = new Map<string, number>();
  b.forEach((row, i) => {
    const old = before.get(keysB[i]!);
    if (!old) return;
    for (const key of Object.keys(row)) if (isPrimitive(row[key]) && row[key] !== old[key]) changed.set(key, (changed.get(key) ?? 0) + 1);
  });
  for (const [key, count] of changed) {
    if (count < COLUMN_MIN || key === 'id' || key === 'player' || !b.every((row) => isPrimitive(row[key]) && row[key] !== undefined)) continue;
    columns.add(key);
    out.push({ p: [...path], col: key, v: b.map((row) => row[key]) });
  }
  b.forEach((row, i) => {
    const old = before.get(keysB[i]!);
    if (!old) out.push({ p: [...path, i], v: row });
    else {
      path.push(i);
      diffOrReplace(old, row, path, out, columns);
      path.pop();
    }
  });
}

/** A row that is another thing now is sent whole rather than field by field. */
function diffOrReplace(a: unknown, b: unknown, path: (string | number)[], out: PatchOp[], omit?: ReadonlySet<string>): void {
  if (!isObject(a) || !isObject(b)) return diff(a, b, path, out);
  const from = out.length;
  diff(a, b, path, out, omit);
  if (omit || out.length - from < 2) return;
  // Most of its own fields were set, and nothing deeper inside it changed: it is another thing now.
  for (let i = from; i < out.length; i++) {
    const op = out[i]!;
    if (op.p.length !== path.length + 1 || !(('v' in op && !('col' in op)) || 'd' in op)) return;
  }
  if ((out.length - from) * 2 <= Object.keys(b).length) return;
  out.length = from;
  out.push({ p: [...path], v: b });
}

/**
 * Applies `patch` to `view` and returns the new view (a patch of the empty path replaces it). `view`
 * is never changed: what the patch touches is copied on the way down, everything else is shared, so a
 * page tells a changed crosstable row from an unchanged one by identity (its vnode thunks do).
 */
export function applyViewPatch<T>(view: T, patch: ViewPatch): T {
  // Containers copied by this patch: changed in place from then on, never copied twice.
  const fresh = new WeakSet<object>();
  const own = <C extends object>(c: C): C => {
    if (fresh.has(c)) return c;
    const copied = (Array.isArray(c) ? c.slice() : { ...c }) as C;
    fresh.add(copied);
    return copied;
  };
  let root: unknown = view;
  for (const op of patch) {
    if (op.p.length === 0) {
      if ('v' in op && !('col' in op)) root = copy(op.v);
      continue;
    }
    root = own(root as object);
    let parent = root as Record<string | number, unknown>;
    for (const key of op.p.slice(0, -1)) parent = parent[key] = own(parent[key] as object) as Record<string | number, unknown>;
    const last = op.p[op.p.length - 1]!;
    if ('col' in op) {
      const list = (parent[last] = own(parent[last] as (Json | null)[]));
      list.forEach((row, i) => {
        if (row && row[op.col] !== op.v[i]) (list[i] = own(row))[op.col] = op.v[i];
      });
    } else if ('order' in op) {
      const list = parent[last] as Json[];
      const keys = rowKeys(list) ?? [];
      const rows = new Map(list.map((row, i) => [keys[i], row]));
      const ordered = op.order.map((key) => rows.get(key) ?? null);
      fresh.add(ordered);
      parent[last] = ordered;
    } else if ('v' in op) parent[last] = copy(op.v);
    else if ('d' in op) delete parent[last];
    else (parent[last] = own(parent[last] as unknown[])).length = op.n;
  }
  return root as T;
}

// Values from a patch are never shared with the patch itself (the server may reuse its objects).
function copy(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? JSON.parse(JSON.stringify(v)) : v;
}
