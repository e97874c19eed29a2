import { parentPort, workerData } from 'node:worker_threads';
import { indexRange, type RangeTask } from './runs-index-range.js';

// A worker thread of `indexRuns`: indexes one byte range of runs.jsonl and hands the columns over.
const port = parentPort;
if (port === null) throw new Error('runs-index-worker runs as a worker thread of indexRuns');
const result = indexRange(workerData as RangeTask, (bytes) => port.postMessage({ bytes }));
const transfer =
  'index' in result
    ? Object.values(result.index).flatMap((value) => (ArrayBuffer.isView(value) ? [value.buffer as ArrayBuffer] : []))
    : [];
port.postMessage({ result }, transfer);
