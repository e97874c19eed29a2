import type {
  ContentBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { ModelRequest } from '../model-client.js';

/*
 * Requests between the project's one message shape (Anthropic Messages) and OpenAI Chat
 * Completions. The two directions are inverse on what either side's model reads (roles,
 * text, tool calls and results, tools, tool_choice, the output limit, stop sequences), with two
 * differences the Chat API forces: tool arguments travel as text, and a tool message has
 * no error flag, so an error result says so in its words ("Error: ...").
 */

export type ChatRequest = ChatCompletionCreateParamsNonStreaming;

/** A block the Chat Completions edge cannot carry (images, documents, thinking, server tools). */
export class UnsupportedAtChatEdge extends Error {
  override readonly name = 'UnsupportedAtChatEdge';
}

function textOf(content: ToolResultBlockParam['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** An error result's text as a Chat model reads it: it must say it is an error, since nothing else will. */
function toolMessageText(block: ToolResultBlockParam): string {
  const text = textOf(block.content);
  return block.is_error === true && !text.toLowerCase().startsWith('error') ? `Error: ${text}` : text;
}

function argumentsText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/*
 * Translations are remembered per message object (messages are never edited once sent):
 * the in-process path then hands the model the same objects turn after turn, so the
 * per-message caches downstream (token counts, transcript readings) keep working.
 */
const chatOfMessage = new WeakMap<MessageParam, readonly ChatCompletionMessageParam[]>();
const chatOfTool = new WeakMap<object, ChatCompletionFunctionTool>();

function chatMessages(message: MessageParam): readonly ChatCompletionMessageParam[] {
  let chat = chatOfMessage.get(message);
  if (chat === undefined) {
    chat = translateMessage(message);
    chatOfMessage.set(message, chat);
  }
  return chat;
}

function translateMessage(message: MessageParam): ChatCompletionMessageParam[] {
  if (message.role === 'user') {
    if (typeof message.content === 'string') return [{ role: 'user', content: message.content }];
    const out: ChatCompletionMessageParam[] = [];
    const parts: ChatCompletionContentPartText[] = [];
    for (const block of message.content) {
      if (block.type === 'tool_result')
        out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolMessageText(block) });
      else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
      else throw new UnsupportedAtChatEdge(`a user '${block.type}' block`);
    }
    // Chat wants a call's tool messages right after it, so the user's own words follow them.
    if (parts.length > 0) out.push({ role: 'user', content: parts });
    return out;
  }
  if (typeof message.content === 'string') return [{ role: 'assistant', content: message.content }];
  const parts: ChatCompletionContentPartText[] = [];
  const calls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of blocksOf(message)) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use')
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: argumentsText(block.input) },
      });
    else throw new UnsupportedAtChatEdge(`an assistant '${block.type}' block`);
  }
  return [
    { role: 'assistant', content: parts.length > 0 ? parts : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
  ];
}

type AnyTool = ModelRequest['tools'] extends readonly (infer T)[] | undefined ? T : never;

function chatTool(tool: AnyTool): ChatCompletionFunctionTool {
  if (!('input_schema' in tool)) throw new UnsupportedAtChatEdge(`a server tool (${tool.type})`);
  let chat = chatOfTool.get(tool);
  if (chat === undefined) {
    const custom = tool as Tool;
    chat = {
      type: 'function',
      function: {
        name: custom.name,
        ...(custom.description === undefined ? {} : { description: custom.description }),
        parameters: custom.input_schema as Record<string, unknown>,
      },
    };
    chatOfTool.set(tool, chat);
  }
  return chat;
}

function chatToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

/** The Chat Completions request for a Messages request. */
export function toChatRequest(request: ModelRequest): ChatRequest {
  const messages: ChatCompletionMessageParam[] = [];
  const { system } = request;
  if (system !== undefined)
    messages.push({
      role: 'system',
      content: typeof system === 'string' ? system : system.map((block) => block.text).join('\n\n'),
    });
  for (const message of request.messages) messages.push(...chatMessages(message));
  const choice = request.tool_choice;
  return {
    model: request.model,
    messages,
    max_completion_tokens: request.max_tokens,
    ...(request.tools === undefined ? {} : { tools: request.tools.map(chatTool) }),
    ...(choice === undefined ? {} : { tool_choice: chatToolChoice(choice) }),
    ...(choice !== undefined && choice.type !== 'none' && choice.disable_parallel_tool_use === true
      ? { parallel_tool_calls: false }
      : {}),
    ...(request.stop_sequences === undefined ? {} : { stop: request.stop_sequences }),
  };
}

function partsText(
  content: string | readonly { readonly type: string; readonly text?: string }[] | null | undefined,
): TextBlockParam[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.flatMap((part) =>
    part.type === 'text' && typeof part.text === 'string' ? [{ type: 'text' as const, text: part.text }] : [],
  );
}

function anthropicToolChoice(
  choice: ChatCompletionToolChoiceOption,
  parallel: boolean | undefined,
): ToolChoice | undefined {
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...single };
  if (choice === 'required') return { type: 'any', ...single };
  if (choice.type === 'function') return { type: 'tool', name: choice.function.name, ...single };
  return undefined;
}

/** One Messages turn's worth of Chat messages: a run of tool messages and the user message right after them, or one message. */
type Group = readonly ChatCompletionMessageParam[];

const messageOfGroup = new WeakMap<
  ChatCompletionMessageParam,
  { readonly group: Group; readonly message: MessageParam }
>();
const toolOfChat = new WeakMap<ChatCompletionFunctionTool, Tool>();

function groups(messages: readonly ChatCompletionMessageParam[]): Group[] {
  const out: Group[] = [];
  let results: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    if (message.role === 'tool') {
      results.push(message);
      continue;
    }
    if (message.role === 'user') {
      out.push([...results, message]);
    } else {
      if (results.length > 0) out.push(results);
      out.push([message]);
    }
    results = [];
  }
  if (results.length > 0) out.push(results);
  return out;
}

function translateGroup(group: Group): MessageParam {
  const results: ToolResultBlockParam[] = [];
  for (const message of group) {
    if (message.role === 'tool')
      results.push({
        type: 'tool_result',
        tool_use_id: message.tool_call_id,
        content: partsText(message.content)
          .map((part) => part.text)
          .join(''),
      });
  }
  const last = group.at(-1)!;
  switch (last.role) {
    case 'tool':
      return { role: 'user', content: results };
    case 'user':
      if (results.length > 0) return { role: 'user', content: [...results, ...partsText(last.content)] };
      return { role: 'user', content: typeof last.content === 'string' ? last.content : partsText(last.content) };
    case 'assistant': {
      const calls = (last.tool_calls ?? []).flatMap((call): ToolUseBlockParam[] =>
        call.type === 'function'
          ? [{ type: 'tool_use', id: call.id, name: call.function.name, input: call.function.arguments }]
          : [],
      );
      if (typeof last.content === 'string' && calls.length === 0) return { role: 'assistant', content: last.content };
      return { role: 'assistant', content: [...partsText(last.content), ...calls] };
    }
    default:
      throw new UnsupportedAtChatEdge(`a '${last.role}' message`);
  }
}

function messageOf(group: Group): MessageParam {
  const cached = messageOfGroup.get(group[0]!);
  if (
    cached !== undefined &&
    cached.group.length === group.length &&
    cached.group.every((member, i) => member === group[i])
  )
    return cached.message;
  const message = translateGroup(group);
  messageOfGroup.set(group[0]!, { group, message });
  return message;
}

function toolOf(tool: ChatCompletionFunctionTool): Tool {
  let translated = toolOfChat.get(tool);
  if (translated === undefined) {
    const { name, description, parameters } = tool.function;
    translated = {
      name,
      ...(description === undefined ? {} : { description }),
      input_schema: (parameters ?? { type: 'object' }) as Tool['input_schema'],
    };
    toolOfChat.set(tool, translated);
  }
  return translated;
}

/**
 * The Messages request a Chat Completions request stands for, as the simulated model
 * behind the Chat endpoint reads it. A call's tool messages and the user message right
 * after them become one user turn; tool arguments stay the text that was sent.
 */
export function fromChatRequest(chat: ChatRequest): ModelRequest {
  const system = chat.messages.flatMap((message) =>
    message.role === 'system' || message.role === 'developer'
      ? [
          partsText(message.content)
            .map((part) => part.text)
            .join(''),
        ]
      : [],
  );
  const messages = groups(chat.messages).map(messageOf);
  const choice =
    chat.tool_choice === undefined ? undefined : anthropicToolChoice(chat.tool_choice, chat.parallel_tool_calls);
  const stop = typeof chat.stop === 'string' ? [chat.stop] : chat.stop;
  return {
    model: chat.model,
    max_tokens: chat.max_completion_tokens ?? chat.max_tokens ?? 4096,
    messages,
    ...(system.length === 0 ? {} : { system: system.join('\n\n') }),
    ...(chat.tools === undefined
      ? {}
      : {
          tools: chat.tools.flatMap((tool): Tool[] => (tool.type === 'function' ? [toolOf(tool)] : [])),
        }),
    ...(choice === undefined ? {} : { tool_choice: choice }),
    ...(stop === undefined || stop === null ? {} : { stop_sequences: stop }),
  };
}
