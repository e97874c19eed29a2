/**
 * A request the server turns down: its HTTP status, a short machine-readable type, and a
 * message saying what to do instead. Answered as `{"type":"error","error":{type,message}}`,
 * the Anthropic error shape, on every route.
 *
 * @example
 * throw new ServeRefusal(404, 'unknown_run', 'no run r-9; start one with POST /runs');
 */
export class ServeRefusal extends Error {
  override readonly name = 'ServeRefusal';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    /** Headers the answer carries besides its content type (`allow` on a 405), and the error's cause. */
    { headers = {}, ...options }: ErrorOptions & { readonly headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(message, options);
    this.headers = headers;
  }

  /** Headers the answer carries besides its content type. */
  readonly headers: Readonly<Record<string, string>>;

  /** The JSON body the server answers with. */
  body(): string {
    return JSON.stringify({ type: 'error', error: { type: this.type, message: this.message } });
  }
}
