// How every GET answer is served (docs/protocol.md, "Polling the feeds"): a feed's body is rendered
// once per change of what it depends on and kept, with its strong ETag and its compressed forms made
// on first demand, so a thousand pollers cost one render and one compression per change; a poller
// that sends the ETag back gets a 304 with no body. The routes say what each feed depends on
// (http-routes.ts, feedDepends); this file owns the cache, the validators and the content coding.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Answer } from './http-routes.ts';

export type Coding = 'br' | 'gzip' | 'identity';

/** One feed's answer as rendered: its bytes, their ETag, and the compressed forms made so far. */
export interface Rendered {
  readonly status: number;
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** The strong validator of the identity body; a compressed form's is this with `-gzip`/`-br` inside the quotes. */
  readonly etag: string;
  readonly coded: Map<Exclude<Coding, 'identity'>, Buffer>;
}

/** Counters of the cache since start (in /health, `http`): renders are what a poller costs when nothing changed. */
export interface FeedCounters {
  renders: number;
  served: number;
  notModified: number;
}

/** Below this a compressed body saves less than its headers cost. */
const COMPRESS_FROM_BYTES = 1024;
/**
 * Feeds kept at once, and their bytes (identity bodies; a compressed form is smaller): enough for every
 * board's own PGN at 1,000 boards and each section's feeds, bounded whatever targets clients ask for.
 */
const MAX_ENTRIES = 4096;
const MAX_BYTES = 64 << 20;

const etagOf = (body: Buffer): string => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

export function rendered(answer: Answer): Rendered {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : answer.body;
  return { status: answer.status, type: answer.type, headers: answer.headers ?? {}, body, etag: etagOf(body), coded: new Map() };
}

const sameDepends = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

export class FeedCache {
  readonly counters: FeedCounters = { renders: 0, served: 0, notModified: 0 };
  readonly #entries = new Map<string, { readonly depends: readonly unknown[]; readonly rendered: Rendered }>();
  #bytes = 0;
  /** The page's files are fixed for the server's life: rendered once, by identity of their bytes. */
  readonly #fixed = new WeakMap<Buffer, Rendered>();

  /**
   * The answer for `target` (path and query) as last rendered while its `depends` were the same
   * values (compared with ===), else rendered now. A failed answer (not 200) is not kept.
   */
  feed(target: string, depends: readonly unknown[], render: () => Answer): Rendered {
    const kept = this.#entries.get(target);
    if (kept && sameDepends(kept.depends, depends)) return kept.rendered;
    const answer = render();
    this.counters.renders += 1;
    const made = rendered(answer);
    this.#drop(target);
    if (answer.status === 200) {
      // The oldest rendering goes first: a feed rendered again after a change is the newest.
      while (this.#entries.size > 0 && (this.#entries.size >= MAX_ENTRIES || this.#bytes + made.body.length > MAX_BYTES))
        this.#drop(this.#entries.keys().next().value!);
      this.#entries.set(target, { depends, rendered: made });
      this.#bytes += made.body.length;
    }
    return made;
  }

  #drop(target: string): void {
    const kept = this.#entries.get(target);
    if (!kept) return;
    this.#bytes -= kept.rendered.body.length;
    this.#entries.delete(target);
  }

  /** A page file: its Buffer never changes, so its ETag and compressed forms are made once. */
  fixed(answer: Answer): Rendered {
    if (typeof answer.body === 'string') return rendered(answer);
    const kept = this.#fixed.get(answer.body);
    if (kept && kept.status === answer.status && kept.type === answer.type) return kept;
    const made = rendered(answer);
    this.#fixed.set(answer.body, made);
    return made;
  }

  /** The body in `coding`, compressed once per rendering. */
  coded(feed: Rendered, coding: Coding): Buffer {
    if (coding === 'identity') return feed.body;
    let body = feed.coded.get(coding);
    if (!body) {
      // Brotli at quality 5 compresses about as fast as gzip's default and smaller; 11 (its default) is far slower.
      body = coding === 'br' ? brotliCompressSync(feed.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(feed.body);
      feed.coded.set(coding, body);
    }
    return body;
  }
}

/** Whether a body this size is worth compressing at all. */
export const compressible = (feed: Rendered): boolean => feed.status === 200 && feed.body.length >= COMPRESS_FROM_BYTES;

/** The coding to answer `Accept-Encoding` with: br, else gzip, else none (RFC 9110 §12.5.3: `q=0` refuses one). */
export function chooseCoding(acceptEncoding: string | undefined): Coding {
  if (!acceptEncoding) return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const weight = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((w) => w !== undefined);
    q.set(name.trim(), weight === undefined ? 1 : Number(weight));
  }
  const accepts = (coding: string): boolean => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/** The ETag of the body as sent in `coding`: each coding is its own representation (RFC 9110 §8.8.3). */
export const codedEtag = (feed: Rendered, coding: Coding): string => (coding === 'identity' ? feed.etag : `${feed.etag.slice(0, -1)}-${coding}"`);

/**
 * Whether `If-None-Match` names this body (in any coding: weak comparison, RFC 9110 §13.1.2), so the
 * client's copy is current and a 304 answers.
 */
export function stillCurrent(ifNoneMatch: string | undefined, feed: Rendered): boolean {
  if (ifNoneMatch === undefined || feed.status !== 200) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = feed.etag.slice(1, -1);
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === `"${bare}"` || t === `"${bare}-gzip"` || t === `"${bare}-br"`;
  });
}
