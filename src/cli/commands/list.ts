import type { Command } from 'commander';
import { ARM_GROUPS, ARM_PRESETS, BUILT_IN_GUARDS } from '../../arms/arms.js';
import { listScenarioIds, loadScenario } from '../../scenarios/loader.js';
import { installCommand, missingPackages, PEERS } from '../../peers/peer-registry.js';
import { escapeControl } from '../../report/terminal-text.js';

/** `list --json` (README, "Machine-readable output"). */
export interface ListJson {
  /** Bumped when a field changes meaning or goes away; new fields may appear without it. */
  readonly version: 1;
  readonly scenarios: ReadonlyArray<{
    readonly id: string;
    readonly title: string;
    readonly api: string;
    readonly budget_class: string;
    readonly tool_budget: number;
    readonly persona: string;
    readonly tools: readonly string[];
  }>;
  readonly arms: ReadonlyArray<{ readonly name: string; readonly guards: readonly string[] }>;
  readonly arm_groups: ReadonlyArray<{ readonly name: string; readonly arms: readonly string[] }>;
  readonly guards: ReadonlyArray<{
    readonly name: string;
    readonly defaults: Readonly<Record<string, unknown>>;
    readonly events: readonly string[];
  }>;
  /** `missing` packages make a peer unavailable until `install` is run. */
  readonly peers: ReadonlyArray<{
    readonly arm: string;
    readonly title: string;
    readonly missing: readonly string[];
    readonly install: string | null;
  }>;
}

function listJson(): ListJson {
  return {
    version: 1,
    scenarios: listScenarioIds().map((id) => {
      const scenario = loadScenario(id);
      return {
        id,
        title: scenario.title,
        api: scenario.api,
        budget_class: scenario.budgetClass,
        tool_budget: scenario.toolBudget,
        persona: scenario.persona.id,
        tools: scenario.tools.map((tool) => tool.definition.name),
      };
    }),
    arms: [...ARM_PRESETS.values()].map((arm) => ({ name: arm.name, guards: arm.guards.map((guard) => guard.guard) })),
    arm_groups: [...ARM_GROUPS].map(([name, expand]) => ({ name, arms: expand().map((arm) => arm.name) })),
    guards: BUILT_IN_GUARDS.map((guard) => ({ name: guard.name, defaults: guard.defaults, events: [...guard.events] })),
    peers: PEERS.map((peer) => {
      const missing = missingPackages(peer);
      return { arm: peer.arm, title: peer.title, missing, install: missing.length === 0 ? null : installCommand(peer) };
    }),
  };
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('List the bundled scenarios, the arm presets and the built-in guards.')
    .option('--json', 'print them as JSON instead', false)
    .action((flags: { json: boolean }) => {
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(listJson(), null, 2)}\n`);
        return;
      }
      const lines = ['Scenarios:'];
      for (const id of listScenarioIds()) {
        const scenario = loadScenario(id);
        const api = scenario.api === 'anthropic' ? '' : `, api ${scenario.api}`;
        lines.push(
          `  ${id}  (${scenario.budgetClass}, budget ${scenario.toolBudget} calls, persona ${scenario.persona.id}${api})`,
        );
        lines.push(
          `      ${escapeControl(scenario.title)}; tools: ${scenario.tools.map((tool) => tool.definition.name).join(', ')}`,
        );
      }
      lines.push('', 'Arms:');
      for (const arm of ARM_PRESETS.values()) {
        lines.push(
          `  ${arm.name.padEnd(12)} ${arm.guards.length === 0 ? '(no safeguards; iteration ceiling 250)' : arm.guards.map((guard) => guard.guard).join(' + ')}`,
        );
      }
      for (const [name, expand] of ARM_GROUPS)
        lines.push(
          `  ${name.padEnd(12)} group: ${expand()
            .map((arm) => arm.name)
            .join(', ')}`,
        );
      lines.push('', 'Guards (settings with their defaults; events emitted):');
      for (const guard of BUILT_IN_GUARDS) {
        const settings = Object.entries(guard.defaults).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
        const events = guard.events.length === 0 ? '' : `; events ${guard.events.join(', ')}`;
        lines.push(
          `  ${guard.name.padEnd(12)} ${settings.length === 0 ? '(no settings)' : settings.join(', ')}${events}`,
        );
      }
      lines.push(
        '',
        "Peer frameworks (arms that run the scenario through another framework's loop; see docs/peers.md):",
      );
      for (const peer of PEERS) {
        const missing = missingPackages(peer);
        lines.push(
          `  ${peer.arm.padEnd(26)} ${peer.title}${missing.length === 0 ? '' : ` — unavailable: ${missing.join(', ')} not installed; add with: ${installCommand(peer)}`}`,
        );
      }
      lines.push(
        '',
        'Custom arms: --arms-file <yaml> (see `spiralbench run --help`), with these guards or your own by module path (docs/guards.md).',
      );
      lines.push('Your own agent loop: --agent ./my-agent.ts, as the arm agent:<name> (see docs/agents.md).');
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
