import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from './cli-helpers.js';

describe('spiralbench validate', () => {
  it('prints ok for every bundled scenario and exits 0', () => {
    const result = cli(['validate', 'scenarios']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('ok scenarios/fetch-transform-write.yaml\n');
    expect(result.stdout).toContain('ok scenarios/research-8-sources.yaml\n');
    expect(result.stderr).toBe('');
  });

  it('lists every problem of two bad files, each with file, field and expectation, and exits 2', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'x.yaml'),
      'id: x\ntitle: X\nprompt: p\ntools: [get_users]\nbudget_class: standard\nworld: {}\nfaults: { rates: { timeout: 1.5 } }\nplan: { steps: [{ id: s, tool: get_user, args: {} }], final: f }\ncheck: { outbox: [{ key: k, value: v }] }\n',
    );
    writeFileSync(
      join(dir, 'y.yaml'),
      'id: y\ntitle: Y\ntools: [get_user]\nbudget_class: standard\nworld: {}\nplan: { steps: [{ id: s, tool: get_user, args: { user_id: $t } }], final: f }\ncheck: { outbox: [{ key: k, value: v }] }\n',
    );
    const result = cli(['validate', dir]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    const x = join(dir, 'x.yaml');
    const y = join(dir, 'y.yaml');
    expect(result.stderr.split('\n')).toEqual([
      'error: 5 problems',
      `  - ${x}: faults.rates.timeout: Too big: expected number to be <=1`,
      expect.stringMatching(
        new RegExp(
          `^  - ${x}: tools\\.0: a catalogue tool \\(get_user, search_users, .*\\) or one of your own \\(made with defineTool, exported by the module named in tools_module\\), got 'get_users'$`,
        ),
      ),
      `  - ${x}: plan.steps.0.tool: one of the scenario's tools, got 'get_user'`,
      `  - ${y}: prompt: Invalid input: expected string, received undefined`,
      `  - ${y}: plan.steps.0.args.user_id: a reference to an earlier step ($<step id> or $<step id>.<field>...), got '$t'`,
      '',
    ]);
  });
});
