import { resolve } from 'node:path';
import type { Command } from 'commander';
import { mergeShards } from '../../sweep/merge-shards.js';
import { wallClock } from '../../clock/wall-clock.js';
import { renderCellTables } from '../../report/terminal-table.js';
import { concludeSweep } from '../sweep-conclusions.js';
import { writeSweepMeta } from '../sweep-meta.js';
import { colourStdout } from '../terminal-capabilities.js';
import { outputFolder } from '../output-folder.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('Combine the folders of `run --shard 1/n` … `n/n` into one sweep, identical to running it unsharded.')
    .argument('<shard-dirs...>', 'the shard result folders, in any order')
    .requiredOption('-o, --out <dir>', 'folder for the merged runs.jsonl, runs.csv and summary.json', outputFolder)
    .option(
      '--overwrite',
      'replace the sweep --out holds (without it, a folder holding a sweep, finished or not, is refused)',
      false,
    )
    .addHelpText(
      'after',
      [
        '',
        'Example (a CI matrix of 3 machines, then one merge job):',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, printed as it is
        '  spiralbench run -s fetch-transform-write -a none,article -n 50000 --shard ${{ matrix.shard }}/3 -o results/shard-${{ matrix.shard }}',
        '  spiralbench merge results/shard-1 results/shard-2 results/shard-3 -o results/full',
        '',
        'Every shard must be a whole, finished shard of the same sweep. Nothing in the -o folder',
        'changes until the merged sweep is complete, so a failed merge leaves it as it was. A folder',
        'already holding a sweep is refused unless --overwrite says to replace it.',
      ].join('\n'),
    )
    .action(async (dirs: string[], flags: { readonly out: string; readonly overwrite: boolean }) => {
      const outDir = resolve(flags.out);
      const startedAt = wallClock.iso();
      const started = wallClock.ms();
      const merged = await mergeShards(
        dirs.map((dir) => resolve(dir)),
        outDir,
        { overwrite: flags.overwrite },
      );
      const { summary } = await concludeSweep(outDir, merged);
      const seconds = Math.round(wallClock.ms() - started) / 1000;
      writeSweepMeta(outDir, {
        started_at: startedAt,
        finished_at: wallClock.iso(),
        wall_seconds: seconds,
        workers: 1,
      });
      process.stdout.write(`${renderCellTables(summary.cells, { color: colourStdout() })}\n`);
      process.stdout.write(`\nmerged ${dirs.length} shard(s) → ${outDir}/{runs.jsonl,runs.csv,summary.json}\n`);
    });
}
