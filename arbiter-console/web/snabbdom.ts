// The page's one view library (docs/console.md: why snabbdom): one patch function, and helpers that
// make conditional children read naturally, as in lichess ui/lib/src/view/snabbdom.ts.
import { attributesModule, classModule, eventListenersModule, h, init, propsModule, type VNode, type VNodeChildElement, type VNodeData } from 'snabbdom';

export type { VNode };

export const patch = init([classModule, attributesModule, propsModule, eventListenersModule]);

/** Children that are false, null or undefined are left out. */
type Child = VNodeChildElement | false | readonly Child[];

export function hl(sel: string, dataOrChildren?: VNodeData | Child, children?: Child): VNode {
  const isData = dataOrChildren !== null && typeof dataOrChildren === 'object' && !Array.isArray(dataOrChildren) && !('sel' in dataOrChildren);
  const data = isData ? (dataOrChildren as VNodeData) : {};
  const kids = isData ? children : (dataOrChildren as Child);
  return h(sel, data, flatten(kids));
}

function flatten(children: Child | undefined): (VNode | string)[] {
  if (children === undefined || children === null || children === false) return [];
  if (Array.isArray(children)) return (children as readonly Child[]).flatMap(flatten);
  if (typeof children === 'number') return [String(children)];
  return [children as VNode | string];
}
