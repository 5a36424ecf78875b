// `POST /api/import-trf`: the arbiter's TRF import (a registration list, rounds played elsewhere)
// over HTTP, for the desk page and `zeitnot import-trf`. The one route that changes anything: the
// credential is checked (Authorization: Bearer TOKEN, through the login gate like a WebSocket hello),
// the body is validated with zod, and the desk journals the import before the answer.
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import type { Arbiter } from '../contract/index.ts';
import type { Credentials } from '../team/index.ts';
import { json, type Answer } from './http-routes.ts';
import { arbiterOfToken, type LoginGate } from './login-gate.ts';
import type { TournamentDesk } from '../desk/index.ts';
import { refusalFor, type RefusalCode } from '../contract/index.ts';
import { refusalOfError } from './journal-health.ts';

/** A TRF of a 2,000-player Swiss over 13 rounds is about 500 kB. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export const trfImportRequestSchema = z.strictObject({
  /** The section to import into (default: the event's first). */
  section: z.string().min(1).max(40).optional(),
  /** The file's name, as the journal and the answers name it. */
  from: z.string().trim().min(1).max(200),
  trf: z.string().min(1).max(MAX_IMPORT_BYTES),
  /** Only say what would change; nothing is journaled. */
  preview: z.boolean().default(false),
  /** The chief's name (his printed token has none), as in a WebSocket hello. */
  name: z.string().trim().min(1).max(40).optional(),
});
export type TrfImportRequest = z.infer<typeof trfImportRequestSchema>;

export interface ImportContext {
  readonly credentials: Credentials;
  readonly gate: LoginGate;
  readonly deskFor: (section: string | undefined) => TournamentDesk | undefined;
  readonly sections: () => readonly string[];
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A refusal as the route answers it: the message and its code (refusal.ts). */
const refused = (status: number, code: RefusalCode, error: string): Answer => json(status, { error, code });

/** Who the bearer token names, or the refusal to answer with. */
async function arbiterOf(req: IncomingMessage, ctx: ImportContext): Promise<Arbiter | Answer> {
  const header = req.headers.authorization ?? '';
  const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
  if (!token)
    return { ...refused(401, 'unauthenticated', 'an arbiter token is needed: Authorization: Bearer TOKEN'), headers: { 'www-authenticate': 'Bearer' } };
  const checked = arbiterOfToken(ctx.credentials, ctx.gate, req.socket.remoteAddress ?? '?', token);
  if (!(checked instanceof Promise) && 'code' in checked) return refused(429, checked.code, checked.reason);
  const arbiter = await checked;
  return arbiter ?? refused(403, 'bad-token', 'the arbiter token is not valid (or was revoked)');
}

/** The answer to a POST of the import route. Never throws for anything the client sent. */
export async function answerImport(req: IncomingMessage, ctx: ImportContext): Promise<Answer> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return refused(415, 'malformed', 'send the import as application/json: {"section", "from", "trf", "preview"}');
  }
  const who = await arbiterOf(req, ctx);
  if ('status' in who) {
    req.resume();
    return who;
  }
  const denied = refusalFor(who, { type: 'importTrf' }, { boardOf: () => undefined, members: () => undefined });
  if (denied) {
    req.resume();
    return refused(403, denied.code, `${who.name} is a ${who.role} arbiter: a TRF import is the chief arbiter's or a deputy's`);
  }
  const body = await readBody(req, MAX_IMPORT_BYTES + 4096);
  if (body === undefined) return refused(413, 'too-large', `the import is larger than ${MAX_IMPORT_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return refused(400, 'malformed', 'the body is not JSON');
  }
  const parsed = trfImportRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return refused(400, 'malformed', `${issue.path.join('.') || '(body)'}: ${issue.message}`);
  }
  const request = parsed.data;
  const desk = ctx.deskFor(request.section);
  if (!desk)
    return json(404, {
      error: request.section === undefined ? 'this console runs no tournament section (start it with --event)' : `no section '${request.section}'`,
      code: 'no-section' satisfies RefusalCode,
      sections: ctx.sections(),
    });
  const acting = ctx.credentials.actingAs(who, request.name);
  if (!acting.ok)
    return json(403, {
      error: `'${request.name}' is the name of credential ${acting.holder.id} (${acting.holder.role}): the chief arbiter's token cannot import under it`,
      code: 'forbidden' satisfies RefusalCode,
    });
  const by = acting.arbiter.name;
  let outcome: ReturnType<TournamentDesk['importTrf']>;
  try {
    outcome = desk.importTrf({ trf: request.trf, from: request.from, preview: request.preview }, { name: by, credential: who.id });
  } catch (err) {
    // A journal that cannot write refuses the import with its code (503: try again later), like a command.
    const failed = refusalOfError(err);
    return refused(failed.code === 'journal-unavailable' ? 503 : 500, failed.code, failed.reason);
  }
  if (!outcome.ok) return json(422, { error: outcome.reason, code: outcome.code, ...(outcome.article !== undefined ? { article: outcome.article } : {}) });
  return json(200, {
    imported: !request.preview,
    by,
    ...(outcome.journalSeq !== undefined ? { journalSeq: outcome.journalSeq } : {}),
    preview: outcome.preview,
  });
}
