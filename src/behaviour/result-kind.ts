import type { ToolResult } from './trajectory.js';

/**
 * What a tool result told the agent, read from its words as a reader would:
 * - `good`: an answer, not an error;
 * - `permanent`: an error that will not go away by itself (a 400/401/403/404/409/422
 *   status, "not found", "unauthorized", "invalid", "does not exist", advice not to retry);
 * - `transient`: an error that may (a timeout, a reset or refused connection, a 429 or a
 *   5xx, "unavailable", "temporarily", advice that a retry may succeed);
 * - `malformed`: a body that opens as JSON but does not parse, or an error saying so;
 * - `refusal`: the harness did not run the call, because it repeats an earlier one or a
 *   budget or limit on calls is spent;
 * - `error`: any other error (flagged, or text opening with "Error").
 */
export const RESULT_KINDS = ['good', 'permanent', 'transient', 'malformed', 'refusal', 'error'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];

// A refusal: the call said to be a repeat and not run, or past a spent limit on calls.
const SAME_CALL =
  /\b(?:identical|same (?:tool|call|arguments|request)|duplicates?|duplicated|repeat(?:s|ed|ing)?|already (?:made|called|sent|ran|run|tried|issued|executed|performed))\b/i;
const NOT_RUN =
  /\b(?:not (?:been )?(?:run|re-?run|executed|re-?executed|performed|sent|called)|skipped|blocked|refused to (?:run|execute)|declined|suppressed|(?:will|would|did) not (?:be )?(?:run|execute|re-?run)|(?:won't|didn't|wasn't) (?:be )?(?:run|execute|executed|re-?run)|without (?:running|executing)|result will be the same|same result)\b/i;
const CALL_LIMIT =
  /\b(?:budget|(?:tool|call)(?:[- ]call)?s?[- ](?:limit|quota|allowance|cap)|limit of \d+ (?:tool )?calls|max(?:imum)? (?:number of )?(?:tool )?calls)\b/i;
const LIMIT_REACHED = /\b(?:used up|exhausted|spent|reached|exceeded|no (?:tool )?calls (?:left|remain(?:ing)?))\b/i;
/** Words of a tool's own failure: a "connection refused" or "rate limit exceeded" is not a harness refusing to run a call. */
const TOOL_FAILURE =
  /\b(?:timed? ?out|timeout|HTTP \d{3}|status \d{3}|ECONN\w*|connection (?:refused|reset)|rate[- ]?limit\w*|too many requests|not found|unauthori[sz]ed|forbidden|server error|unavailable)\b/i;

// A malformed body, or an error about one.
const MALFORMED_WORDS =
  /\b(?:malformed (?:response|body|json|output|reply)|(?:response|body|output|reply) (?:that |which )?(?:is|was) not (?:valid )?JSON|returned (?:a body|something) that is not (?:valid )?JSON|invalid JSON (?:response|body))\b/i;

// Advice, in the harness's or the API's words.
const NO_RETRY_ADVICE =
  /\b(?:permanent(?:ly)?|non-?retryable|not retryable|(?:do not|don't|never|no point in|pointless to) (?:retry|retrying|try again|repeat|resend)|retry(?:ing)? (?:this |it |the same call )?(?:is pointless|is futile|will not help|won't help|will not succeed|won't succeed)|(?:will|would) (?:not|never) succeed (?:on|if|when) (?:a )?retr(?:y|ied))/i;
const RETRY_ADVICE =
  /\b(?:transient|temporar(?:y|ily)|safe to retry|retry-after|retry after|try again later|(?:may|might|could|should|will (?:probably|likely)) (?:succeed|work|go through) (?:if|when|on) (?:retried|you retry|tried again|trying again|a retry)|(?:a )?(?:retry|retrying|trying again|try again) (?:may|might|could|should|will (?:probably|likely)) (?:succeed|work|help))\b/i;

// What the failure itself says.
const TRANSIENT_WORDS =
  /\b(?:timed? ?out|timeout|deadline exceeded|ECONN(?:RESET|REFUSED|ABORTED)|ETIMEDOUT|EAI_AGAIN|EPIPE|connection (?:refused|reset|closed|aborted|dropped)|socket hang up|network (?:error|failure)|rate[- ]?limit(?:ed)?|too many requests|throttl\w*|overloaded|(?:service |server |temporarily )?unavailable|server error|bad gateway|gateway timeout|try again later|busy)\b/i;
const TRANSIENT_STATUS =
  /\b(?:HTTP|status(?: code)?|error)[ :]*(?:429|5\d\d)\b|^\s*(?:429|5\d\d)\b|\b(?:429|5\d\d) (?:Too Many|Internal|Bad Gateway|Service|Gateway|Overloaded)/i;
const PERMANENT_STATUS =
  /\b(?:HTTP|status(?: code)?|error)[ :]*(?:400|401|403|404|405|409|410|422)\b|^\s*(?:400|401|403|404|409|410|422)\b|\b(?:400|401|403|404|409|410|422) (?:Bad Request|Unauthori[sz]ed|Forbidden|Not Found|Conflict|Gone|Unprocessable)/i;
const PERMANENT_WORDS =
  /\b(?:not found|no such|no (?:\w+ ){1,2}(?:with (?:id|key|name|that|this)|matching|found)|does not exist|doesn't exist|unknown (?:id|user|record|key|tool|reservation|order|field)|unauthori[sz]ed|forbidden|not authori[sz]ed|access denied|permission|not permitted|not allowed|invalid|validation|not valid|bad request|unprocessable|conflict|already exists|expired|revoked|missing (?:required )?(?:field|argument|parameter))\b/i;

const ERROR_OPENING = /^\s*(?:error\b|exception\b|traceback\b|failed\b|failure\b)/i;

/** Whether a result reads as an error: flagged as one, or opening as one ("Error: user not found"). */
export function readsAsError(result: ToolResult): boolean {
  return result.is_error === true || ERROR_OPENING.test(result.text);
}

/** Whether an error carries explicit advice not to send the same call again. */
export function carriesNoRetryAdvice(text: string): boolean {
  return NO_RETRY_ADVICE.test(text);
}

/**
 * The kind of a tool result (see RESULT_KINDS). A refusal is read first (it names no
 * failure of the tool), then a malformed body, then explicit advice (an API's or a
 * harness's word about retrying outranks the guess from a status), then the failure's
 * own words; an error that says none of these is `error`.
 *
 * @example
 * resultKind({ text: 'Error: reservation not found', is_error: true }); // 'permanent'
 * resultKind({ text: '{"id": "u_1", "na' }); // 'malformed'
 */
export function resultKind(result: ToolResult): ResultKind {
  const { text } = result;
  if (isRefusal(text)) return 'refusal';
  const error = readsAsError(result);
  if (!error) return opensAsBrokenJson(text) ? 'malformed' : 'good';
  if (MALFORMED_WORDS.test(text)) return 'malformed';
  if (NO_RETRY_ADVICE.test(text)) return 'permanent';
  if (RETRY_ADVICE.test(text)) return 'transient';
  if (TRANSIENT_STATUS.test(text) || TRANSIENT_WORDS.test(text)) return 'transient';
  if (PERMANENT_STATUS.test(text) || PERMANENT_WORDS.test(text)) return 'permanent';
  return 'error';
}

function isRefusal(text: string): boolean {
  if (TOOL_FAILURE.test(text)) return false;
  if (CALL_LIMIT.test(text) && LIMIT_REACHED.test(text)) return true;
  return SAME_CALL.test(text) && NOT_RUN.test(text);
}

/** A body that starts as a JSON object or array and does not parse: cut short or corrupted on the way. */
function opensAsBrokenJson(text: string): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return false;
  try {
    JSON.parse(trimmed);
    return false;
  } catch {
    return true;
  }
}
