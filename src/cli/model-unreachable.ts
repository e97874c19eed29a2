/**
 * A real sweep's model never answered (nothing listened, the key or the model id was
 * refused, every call failed). Not a crash and not a regression: main() prints the
 * message (the error, and how to resume) and exits with EXIT.modelUnavailable (4).
 */
export class ModelUnreachable extends Error {
  override readonly name = 'ModelUnreachable';
}
