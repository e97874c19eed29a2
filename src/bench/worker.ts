// The pool's worker entry: piscina calls the default export with each ChunkTask.
export { runChunk as default } from './chunk-runner.js';
