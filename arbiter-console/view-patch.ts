// Changes of a JSON view as a list of small operations, so a result sends the crosstable row and the
// standings it moved instead of the whole tournament view. Pure (the page applies what the server diffs).

/** Set `v` at path `p`; `d`: delete the key at `p`; `n`: cut the array at `p` to `n` items. */
export type PatchOp =
  | { readonly p: readonly (string | number)[]; readonly v: unknown }
  | { readonly p: readonly (string | number)[]; readonly d: 1 }
  | { readonly p: readonly (string | number)[]; readonly n: number };
export type ViewPatch = readonly PatchOp[];

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The operations that turn `before` into `after` (both plain JSON). */
export function diffView(before: unknown, after: unknown): PatchOp[] {
  const out: PatchOp[] = [];
  diff(before, after, [], out);
  return out;
}

function diff(a: unknown, b: unknown, path: (string | number)[], out: PatchOp[]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const common = Math.min(a.length, b.length);
    for (let i = 0; i < common; i++) diffOrReplace(a[i], b[i], [...path, i], out);
    if (b.length < a.length) out.push({ p: path, n: b.length });
    for (let i = common; i < b.length; i++) out.push({ p: [...path, i], v: b[i] });
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of Object.keys(b)) if (b[key] !== undefined) diffOrReplace(a[key], b[key], [...path, key], out);
    for (const key of Object.keys(a)) if (a[key] !== undefined && b[key] === undefined) out.push({ p: [...path, key], d: 1 });
    return;
  }
  if (typeof a === 'number' && typeof b === 'number' && Object.is(a, b)) return;
  out.push({ p: path, v: b });
}

/** A row that is another player's now is sent whole rather than field by field. */
function diffOrReplace(a: unknown, b: unknown, path: (string | number)[], out: PatchOp[]): void {
  if (!isObject(a) || !isObject(b)) return diff(a, b, path, out);
  const inner: PatchOp[] = [];
  diff(a, b, path, inner);
  if (inner.length > 1 && inner.length * 2 > Object.keys(b).length) out.push({ p: path, v: b });
  else out.push(...inner);
}

/** Applies `patch` to `view` in place and returns it (a patch of the empty path replaces the view). */
export function applyViewPatch<T>(view: T, patch: ViewPatch): T {
  let root: unknown = view;
  for (const op of patch) {
    if (op.p.length === 0) {
      if ('v' in op) root = structuredCloneJson(op.v);
      continue;
    }
    let parent = root as Record<string | number, unknown>;
    for (const key of op.p.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = op.p[op.p.length - 1]!;
    if ('v' in op) parent[last] = structuredCloneJson(op.v);
    else if ('d' in op) delete parent[last];
    else (parent[last] as unknown[]).length = op.n;
  }
  return root as T;
}

// Values from a patch are never shared with the patch itself (the server may reuse its objects).
function structuredCloneJson(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? JSON.parse(JSON.stringify(v)) : v;
}
