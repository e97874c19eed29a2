// The floor under a served run's cost (docs/performance.md): a bare node:http server in a
// second process answering ROUND_TRIPS JSON round trips a "run", made with fetch, RUNS runs
// with IN_FLIGHT at once. Nothing of spiralbench, the SDKs or MCP is in it.
//
//   node scripts/http-floor.mjs
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROUND_TRIPS = 33;
const RUNS = 200;
const IN_FLIGHT = 8;

if (process.argv[2] === 'server') {
  const { createServer } = await import('node:http');
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ received: body.length, content: [{ type: 'text', text: 'x'.repeat(300) }] }));
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
} else {
  const server = spawn(process.execPath, [fileURLToPath(import.meta.url), 'server'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((found) => server.stdout.once('data', (data) => found(Number(String(data).trim()))));
  // A request about the size of a model call's in the middle of a run.
  const body = JSON.stringify({ model: 'm', messages: Array.from({ length: 10 }, () => ({ role: 'user', content: 'y'.repeat(400) })) });
  const run = async () => {
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await response.json();
    }
  };
  for (let repeat = 1; repeat <= 3; repeat++) {
    const start = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => { while (next++ < RUNS) await run(); }));
    console.log(`repeat ${repeat}: ${((performance.now() - start) / RUNS).toFixed(2)} ms a run (${ROUND_TRIPS} round trips, ${IN_FLIGHT} in flight)`);
  }
  server.kill();
}
