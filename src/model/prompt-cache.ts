import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Message, ModelRequest } from './model-client.js';
import { minCacheTokensOf } from './model-table.js';
import {
  blockTokens,
  MESSAGE_OVERHEAD,
  messageTokens,
  requestTokens,
  systemTextTokens,
  toolTokens,
  withoutCacheControl,
} from './token-estimate.js';
import { sharedPrefix } from './transcript-prefix.js';

/** The API's limit of blocks marked with `cache_control` in one request. */
export const MAX_BREAKPOINTS = 4;
/** How many blocks, the breakpoint's own included, the API looks back for a prefix it already holds. */
export const LOOKBACK_BLOCKS = 20;
const LIFETIME_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/** Entries one cache keeps before it forgets the expired and the oldest. A run writes about one a call. */
const MAX_ENTRIES = 256;

type Lifetime = keyof typeof LIFETIME_MS;
type Control = { readonly type?: unknown; readonly ttl?: unknown } | null | undefined;

/** A marked block: its position (in the prompt, or within the messages), and the lifetime asked for. */
interface Mark {
  readonly at: number;
  readonly lifetime: Lifetime;
}

/** What the cache did for one request: tokens read from it and written to it, by lifetime. */
export interface CacheAccount {
  readonly read: number;
  readonly written5m: number;
  readonly written1h: number;
}

/** A mark's lifetime, or what is wrong with it. */
function lifetimeOf(control: NonNullable<Control>): Lifetime | { problem: string } {
  if (control.type !== 'ephemeral') return { problem: "type: Input should be 'ephemeral'" };
  const ttl = control.ttl ?? '5m';
  return ttl === '5m' || ttl === '1h' ? ttl : { problem: "ttl: Input should be '5m' or '1h'" };
}

/** The marks of a list of blocks (tools, system blocks, a message's content), positions from `from`; or the problem. */
function marksOf(blocks: readonly unknown[], from: number, into: Mark[], path: (i: number) => string): string | null {
  for (let i = 0; i < blocks.length; i++) {
    const control = (blocks[i] as { cache_control?: Control }).cache_control;
    if (control === undefined || control === null) continue;
    const lifetime = lifetimeOf(control);
    if (typeof lifetime !== 'string') return `${path(i)}.cache_control.${lifetime.problem}`;
    into.push({ at: from + i, lifetime });
  }
  return null;
}

const blocksIn = (message: MessageParam): number => (typeof message.content === 'string' ? 1 : message.content.length);

/** Each tool list's marks, read once per list (the loop sends one list a run). */
const toolMarks = new WeakMap<readonly object[], readonly Mark[] | string>();

function marksOfTools(tools: readonly object[]): readonly Mark[] | string {
  let marks = toolMarks.get(tools);
  if (marks === undefined) {
    const found: Mark[] = [];
    marks = marksOf(tools, 0, found, (i) => `tools.${i}`) ?? found;
    toolMarks.set(tools, marks);
  }
  return marks;
}

/** The JSON of a block or definition as the cache compares it (its own mark left out), once per object. */
const canonical = new WeakMap<object, string>();

function sameBlock(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return canonicalOf(a) === canonicalOf(b);
}

function canonicalOf(value: object): string {
  let text = canonical.get(value);
  if (text === undefined) {
    text = withoutCacheControl(value);
    canonical.set(value, text);
  }
  return text;
}

/** Whether two messages hold the same first `blocks` blocks (all of them for string content). */
function sameMessage(mine: MessageParam, theirs: MessageParam, blocks: number): boolean {
  if (mine === theirs) return true; // messages are never edited in place
  if (mine.role !== theirs.role) return false;
  if (typeof mine.content === 'string' || typeof theirs.content === 'string') return mine.content === theirs.content;
  if (mine.content.length < blocks) return false;
  for (let j = 0; j < blocks; j++) if (!sameBlock(mine.content[j], theirs.content[j])) return false;
  return true;
}

/**
 * A written prefix: the tools and system prompt it began with, its messages (the cache's
 * scanned messages as they were, then the one holding its breakpoint), how many of that
 * message's blocks it holds, and what it cost to write. A class: one shape for every entry.
 */
class Entry {
  constructor(
    /** Where its prefix ends: in the tool definitions, the system prompt, or the messages. */
    readonly kind: 'tools' | 'system' | 'messages',
    readonly model: string,
    readonly tools: readonly object[],
    readonly system: readonly (string | object)[],
    /** Messages before `lastIndex`: an array never changed below that index once written. */
    readonly earlier: readonly MessageParam[],
    readonly lastIndex: number,
    readonly last: MessageParam | null,
    /** Blocks of `last` it holds. */
    readonly lastBlocks: number,
    readonly tokens: number,
    readonly lifetime: Lifetime,
    public expiresAt: number,
  ) {}
}

function sameList(mine: readonly unknown[], theirs: readonly unknown[], count: number): boolean {
  if (mine === theirs) return true;
  for (let i = 0; i < count; i++) if (!sameBlock(mine[i], theirs[i])) return false;
  return true;
}

/**
 * A prompt cache as the Messages API keeps one, for the simulated endpoint. A request's
 * breakpoints (`cache_control` on a block, or at the top level for its last block) write
 * the prompt up to them; a later request whose prompt starts with a written prefix, ending
 * at one of its own breakpoints or up to 19 blocks before one, reads it. The prompt is
 * read in the API's order: tool definitions, system prompt, messages. A prefix shorter
 * than the model's minimum is not written; an entry lives 5 minutes (or an hour) on the
 * clock from its last write or read; entries are per model.
 *
 * One cache is one run's: runs do not share a cache, so a sweep's figures do not depend
 * on the order runs ran in (a real organisation's runs of one scenario would share the
 * tools and system prompt: a small saving this leaves out). Matching compares blocks by
 * content without their marks, so a guard that rebuilds a message with the same content
 * reads the cache as the API would. What it has read of a transcript it resumes on the
 * next request, as the model's own readings are (transcript-prefix.ts).
 */
export class PromptCache {
  readonly #now: () => number;
  readonly #entries = new Map<number, Entry[]>();
  #count = 0;
  /** Messages read so far, all but the last of the latest request; replaced, not cut, when a request diverges. */
  #scanned: MessageParam[] = [];
  /** Where each scanned message's first block is, counted within the messages. */
  #starts: number[] = [];
  /** Marks within the scanned messages, positions counted within the messages. */
  #marks: Mark[] = [];
  /** A malformed mark in a scanned message: its index and what is wrong. */
  #problem: { readonly index: number; readonly text: string } | null = null;

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * What the cache reads and writes for `request`, remembering what it writes; null for a
   * request without breakpoints (none of the cache's business), a string for one the API
   * refuses (more than four breakpoints, a malformed mark). `promptTokens`: the request's
   * input tokens when the caller has counted them already (the reply's usage).
   */
  account(request: ModelRequest, promptTokens: number = requestTokens(request)): CacheAccount | string | null {
    const tools = (request.tools ?? NO_TOOLS) as readonly object[];
    const { system: given, messages } = request;
    const system: readonly (string | object)[] =
      given === undefined ? NO_TOOLS : typeof given === 'string' ? [given] : given;
    const messagesStart = tools.length + system.length;
    this.#scan(messages);
    if (this.#problem !== null) return this.#problem.text;
    const last = messages.at(-1);
    const lastStart = this.#blocksScanned();
    const length = messagesStart + lastStart + (last === undefined ? 0 : blocksIn(last));

    // In prompt order: the tools', the system prompt's, the scanned messages', the last message's.
    const ofTools = marksOfTools(tools);
    if (typeof ofTools === 'string') return ofTools;
    const marks = ofTools.slice();
    const ofSystem = marksOf(system, tools.length, marks, (i) => `system.${i}`);
    if (ofSystem !== null) return ofSystem;
    for (const mark of this.#marks) marks.push({ at: mark.at + messagesStart, lifetime: mark.lifetime });
    if (last !== undefined && typeof last.content !== 'string') {
      const ofLast = marksOf(
        last.content,
        messagesStart + lastStart,
        marks,
        (i) => `messages.${messages.length - 1}.content.${i}`,
      );
      if (ofLast !== null) return ofLast;
    }
    const top = (request as { cache_control?: Control }).cache_control;
    if (top !== undefined && top !== null && length > 0) {
      const lifetime = lifetimeOf(top);
      if (typeof lifetime !== 'string') return `cache_control.${lifetime.problem}`;
      if (marks.at(-1)?.at !== length - 1) marks.push({ at: length - 1, lifetime });
    }
    if (marks.length === 0) return null;
    if (marks.length > MAX_BREAKPOINTS)
      return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marks.length}.`;

    const prompt: PromptView = { model: request.model, tools, system, messages, messagesStart, lastStart };
    const now = this.#now();
    let readAt = -1;
    let read = 0;
    for (let k = marks.length - 1; k >= 0 && this.#count > 0; k--) {
      const end = marks[k]!.at;
      const stop = Math.max(readAt + 1, end - LOOKBACK_BLOCKS + 1, 0);
      for (let p = end; p >= stop; p--) {
        const hit = this.#hit(prompt, p, now);
        if (hit === undefined) continue;
        readAt = p;
        read = hit.tokens;
        hit.expiresAt = now + LIFETIME_MS[hit.lifetime];
        break;
      }
    }

    // Tokens up to each breakpoint past what was read: counted from the start in the tools
    // and system prompt, and in the messages as the whole prompt less what follows it.
    const total = promptTokens;
    const minimum = minCacheTokensOf(request.model);
    const written = { '5m': 0, '1h': 0 };
    let covered = read;
    let from = length;
    let after = 0;
    const upTo: number[] = [];
    for (let k = marks.length - 1; k >= 0 && marks[k]!.at > readAt; k--) {
      const { at } = marks[k]!;
      if (at < messagesStart) {
        let tokens = 0;
        for (let p = 0; p <= at; p++) tokens += this.#tokensAt(prompt, p);
        upTo[k] = tokens;
        continue;
      }
      while (from > at + 1) after += this.#tokensAt(prompt, --from);
      upTo[k] = total - after;
    }
    for (let k = 0; k < marks.length; k++) {
      const mark = marks[k]!;
      if (mark.at <= readAt || upTo[k]! < minimum) continue;
      written[mark.lifetime] += upTo[k]! - covered;
      covered = upTo[k]!;
      this.#write(prompt, mark, upTo[k]!, now);
    }
    return { read, written5m: written['5m'], written1h: written['1h'] };
  }

  /** Brings the scan up to all but the last of `messages`, resuming from what it shares with the last one. */
  #scan(messages: readonly MessageParam[]): void {
    const keep = Math.max(0, Math.min(sharedPrefix(this.#scanned, messages), messages.length - 1));
    if (keep < this.#scanned.length) {
      const cut = this.#starts[keep]!;
      // A copy: entries written from the old array keep reading it as it was.
      this.#scanned = this.#scanned.slice(0, keep);
      this.#starts.length = keep;
      this.#marks = this.#marks.filter((mark) => mark.at < cut);
      if (this.#problem !== null && this.#problem.index >= keep) this.#problem = null;
    }
    for (let i = this.#scanned.length; i < messages.length - 1; i++) {
      const message = messages[i]!;
      const start = this.#blocksScanned();
      if (typeof message.content !== 'string' && this.#problem === null) {
        const problem = marksOf(message.content, start, this.#marks, (j) => `messages.${i}.content.${j}`);
        if (problem !== null) this.#problem = { index: i, text: problem };
      }
      this.#scanned.push(message);
      this.#starts.push(start);
    }
  }

  /** Blocks in the scanned messages. */
  #blocksScanned(): number {
    const n = this.#scanned.length;
    return n === 0 ? 0 : this.#starts[n - 1]! + blocksIn(this.#scanned[n - 1]!);
  }

  /** The message of `prompt` holding message-block `at` (counted within the messages). */
  #messageAt(prompt: PromptView, at: number): number {
    if (at >= prompt.lastStart) return prompt.messages.length - 1;
    const starts = this.#starts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Tokens of the block at prompt position `p`, a message's framing counted with its first block. */
  #tokensAt(prompt: PromptView, p: number): number {
    if (p < prompt.tools.length) return toolTokens(prompt.tools[p]!);
    if (p < prompt.messagesStart) {
      const block = prompt.system[p - prompt.tools.length]!;
      return typeof block === 'string' ? systemTextTokens(block) : blockTokens(block as ContentBlockParam);
    }
    const at = p - prompt.messagesStart;
    const index = this.#messageAt(prompt, at);
    const message = prompt.messages[index]!;
    if (typeof message.content === 'string') return messageTokens(message);
    const offset = at - (index === prompt.messages.length - 1 ? prompt.lastStart : this.#starts[index]!);
    return blockTokens(message.content[offset]!) + (offset === 0 ? MESSAGE_OVERHEAD : 0);
  }

  /** A live entry that ends at `p` and that `prompt` starts with. */
  #hit(prompt: PromptView, p: number, now: number): Entry | undefined {
    const here = this.#entries.get(p);
    if (here === undefined) return undefined;
    for (const entry of here) if (entry.expiresAt > now && this.#holds(prompt, entry)) return entry;
    return undefined;
  }

  /** Whether `prompt` starts with the entry's prefix, block for block (its position already matches). */
  #holds(prompt: PromptView, entry: Entry): boolean {
    if (prompt.model !== entry.model) return false;
    const { tools, system } = entry;
    if (entry.kind === 'tools') return sameList(prompt.tools, tools, tools.length);
    if (prompt.tools.length !== tools.length || !sameList(prompt.tools, tools, tools.length)) return false;
    if (entry.kind === 'system') return sameList(prompt.system, system, system.length);
    if (prompt.system.length !== system.length || !sameList(prompt.system, system, system.length)) return false;
    const { messages } = prompt;
    if (messages.length <= entry.lastIndex) return false;
    // Written from the scan as it stands, which holds the request's own messages: the same objects.
    const scanned = entry.earlier === this.#scanned && entry.lastIndex <= this.#scanned.length;
    for (let i = scanned ? entry.lastIndex : 0; i < entry.lastIndex; i++) {
      const mine = messages[i]!;
      const theirs = entry.earlier[i]!;
      if (mine === theirs) continue;
      if (blocksIn(mine) !== blocksIn(theirs) || !sameMessage(mine, theirs, blocksIn(theirs))) return false;
    }
    return sameMessage(messages[entry.lastIndex]!, entry.last!, entry.lastBlocks);
  }

  #write(prompt: PromptView, mark: Mark, tokens: number, now: number): void {
    const expiresAt = now + LIFETIME_MS[mark.lifetime];
    const same = this.#hit(prompt, mark.at, now);
    if (same !== undefined) {
      same.expiresAt = Math.max(same.expiresAt, expiresAt);
      return;
    }
    if (this.#count >= MAX_ENTRIES) this.#forget(now);
    const entry = this.#entryAt(prompt, mark, tokens, expiresAt);
    const here = this.#entries.get(mark.at);
    if (here === undefined) this.#entries.set(mark.at, [entry]);
    else here.unshift(entry);
    this.#count += 1;
  }

  #entryAt(prompt: PromptView, mark: Mark, tokens: number, expiresAt: number): Entry {
    const { model, tools, system } = prompt;
    if (mark.at < prompt.messagesStart) {
      const inTools = mark.at < tools.length;
      return new Entry(
        inTools ? 'tools' : 'system',
        model,
        inTools ? tools.slice(0, mark.at + 1) : tools,
        inTools ? NO_TOOLS : system.slice(0, mark.at + 1 - tools.length),
        NO_MESSAGES,
        -1,
        null,
        0,
        tokens,
        mark.lifetime,
        expiresAt,
      );
    }
    const at = mark.at - prompt.messagesStart;
    const index = this.#messageAt(prompt, at);
    const start = index === prompt.messages.length - 1 ? prompt.lastStart : this.#starts[index]!;
    return new Entry(
      'messages',
      model,
      tools,
      system,
      this.#scanned,
      index,
      prompt.messages[index]!,
      at - start + 1,
      tokens,
      mark.lifetime,
      expiresAt,
    );
  }

  /** Drops expired entries, then the soonest to expire until half the room is free. */
  #forget(now: number): void {
    const all = [...this.#entries.values()].flat().sort((a, b) => b.expiresAt - a.expiresAt);
    const keep = all.filter((entry) => entry.expiresAt > now).slice(0, MAX_ENTRIES / 2);
    this.#entries.clear();
    for (const entry of keep) {
      const at = positionOf(entry);
      const here = this.#entries.get(at);
      if (here === undefined) this.#entries.set(at, [entry]);
      else here.push(entry);
    }
    this.#count = keep.length;
  }
}

/** Where an entry's prefix ends in any prompt that starts with it. */
function positionOf(entry: Entry): number {
  if (entry.kind !== 'messages') return entry.tools.length + entry.system.length - 1;
  let at = entry.tools.length + entry.system.length;
  for (let i = 0; i < entry.lastIndex; i++) at += blocksIn(entry.earlier[i]!);
  return at + entry.lastBlocks - 1;
}

/** A request's prompt as the cache reads it. */
interface PromptView {
  readonly model: string;
  readonly tools: readonly object[];
  readonly system: readonly (string | object)[];
  readonly messages: readonly MessageParam[];
  /** Where the messages' first block is, in the prompt. */
  readonly messagesStart: number;
  /** Where the last message's first block is, counted within the messages. */
  readonly lastStart: number;
}

const NO_TOOLS: readonly never[] = Object.freeze([]);
const NO_MESSAGES: readonly MessageParam[] = Object.freeze([]);

/**
 * `message` with its usage split as the API reports a cached call: `input_tokens` only
 * those read afresh, the cache's reads and writes apart (by lifetime in `cache_creation`).
 * Changes the message in place: it is the model's new reply, not yet anyone else's.
 */
export function withCacheUsage(message: Message, account: CacheAccount | null): Message {
  if (account === null) return message;
  const written = account.written5m + account.written1h;
  const { usage } = message;
  usage.input_tokens -= account.read + written;
  usage.cache_read_input_tokens = account.read;
  usage.cache_creation_input_tokens = written;
  usage.cache_creation = { ephemeral_5m_input_tokens: account.written5m, ephemeral_1h_input_tokens: account.written1h };
  return message;
}
