/**
 * The plain text of a message's content: a string as it is, or its text blocks joined
 * (tool calls, results and other blocks say nothing here). A final answer, a transcript
 * line and a framework's reply are all read this way.
 */
export function contentText(content: string | readonly { readonly type: string; readonly text?: string }[]): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const block of content) if (block.type === 'text') text += block.text ?? '';
  return text;
}
