/** A person, named in a tool's name: request_human_help, ask_human, transfer_to_human_agents, escalate_to_operator. */
const PERSON = /(?:^|_|-|\b)(?:human|humans|person|operator|supervisor|support|people)(?:$|_|-|\b)/i;
/** ...and asking them: help, ask, transfer, escalate, hand off. */
const ASKING = /(?:^|_|-|\b)(?:help|ask|request|transfer|escalate|escalation|handoff|hand_off|contact)(?:$|_|-|\b)/i;
/** Tools that are a plea for help whatever they say about a person: signal_stuck, request_help. */
const STUCK = /(?:^|_|-|\b)(?:stuck|request_help|get_help|need_help)(?:$|_|-|\b)/i;

/**
 * Whether a tool, by its name alone, is a way to stop and ask a person: a trajectory
 * carries no tool descriptions, so the name is read by meaning (a person and the asking,
 * in any order and spelling), not matched against a list.
 *
 * @example
 * isHelpTool('transfer_to_human_agents'); // true
 * isHelpTool('get_user'); // false
 */
export function isHelpTool(name: string): boolean {
  const words = name.replace(/([a-z])([A-Z])/g, '$1_$2');
  return STUCK.test(words) || (PERSON.test(words) && ASKING.test(words));
}
