// How fast `spiralbench view` opens a sweep (docs/performance.md): starts the viewer on a
// folder, then times its API as the page calls it: the sweep and its first page, the index
// built (filters ready), a filtered and sorted page, and the viewer's peak memory (Linux).
//
//   node scripts/view-open-time.mjs <results folder> [bin/spiralbench.js] [port]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [folder, bin = fileURLToPath(new URL('../bin/spiralbench.js', import.meta.url)), port = '8799'] =
  process.argv.slice(2);
if (folder === undefined) {
  console.error('usage: node scripts/view-open-time.mjs <results folder> [bin/spiralbench.js] [port]');
  process.exit(2);
}
const started = performance.now();
const viewer = spawn(process.execPath, [bin, 'view', folder, '--port', port], { stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
const get = async (path) => {
  const response = await fetch(base + path);
  return { status: response.status, body: await response.json() };
};
const seconds = (from, to) => Number(((to - from) / 1000).toFixed(3));
try {
  for (;;) {
    try {
      await get('/api/sweeps');
      break;
    } catch {
      await new Promise((next) => setTimeout(next, 20));
    }
  }
  const up = performance.now();
  const sweep = await get('/api/sweeps/0');
  const first = await get('/api/sweeps/0/runs?offset=0&limit=50');
  const opened = performance.now();
  let index = sweep.body.index;
  while (index !== undefined && !index.ready) {
    await new Promise((next) => setTimeout(next, 50));
    const answer = await get('/api/sweeps/0/index');
    if (answer.status !== 200) throw new Error(answer.body.error.message);
    index = answer.body;
  }
  const indexed = performance.now();
  const filtered = await get('/api/sweeps/0/runs?verdict=failure&sort=tool_calls&order=desc&limit=50');
  const paged = performance.now();
  const peak = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${viewer.pid}/status`, 'utf8'))?.[1];
  console.log(
    JSON.stringify({
      runs: first.body.total,
      viewer_up_s: seconds(started, up),
      open_and_first_page_s: seconds(up, opened),
      filters_ready_s: seconds(up, indexed),
      filtered_page_s: seconds(indexed, paged),
      failures: filtered.body.total,
      peak_rss_mb: peak === undefined ? null : Math.round(Number(peak) / 1024),
    }),
  );
} finally {
  viewer.kill();
}
