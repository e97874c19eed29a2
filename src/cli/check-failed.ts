/**
 * A check the user asked for did not pass (a CI gate found a regression). Not a usage
 * error and not a crash: main() prints the message and exits with code 1.
 */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
}
