import { describe, expect, it } from 'vitest';
import { ARM_PRESETS, peerArm } from '../arms/arms.js';
import { loadScenario } from '../scenarios/loader.js';
import { configChangeNotes, configChangeProblems } from './config-change-check.js';

const changing = loadScenario('config-reload-typo');
const withChange = (model: string) => ({
  ...changing,
  modelFaults: { ...changing.modelFaults, configChange: { atCall: 3, model } },
});

describe('configuration changes, checked against the run', () => {
  it('refuses a change to a model the run asks for itself: the configured one, or the fallback and summary model', () => {
    expect(configChangeProblems([{ scenario: changing, path: 'a.yaml' }], undefined)).toEqual([]);
    expect(configChangeProblems([{ scenario: withChange('claude-sonnet-5-5'), path: 'a.yaml' }], undefined)).toEqual([
      {
        source: 'a.yaml',
        field: 'model_faults.config_change.model',
        expected:
          "a model id the run does not otherwise use (a typo, a retired model), got 'claude-sonnet-5-5', which it asks for itself (claude-sonnet-5-5, claude-haiku-5-5)",
      },
    ]);
    expect(configChangeProblems([{ scenario: withChange('claude-haiku-5-5'), path: 'a.yaml' }], 'x')).toHaveLength(1);
    expect(configChangeProblems([{ scenario: withChange('my-model'), path: 'a.yaml' }], 'my-model')).toHaveLength(1);
  });

  it('says when arms that read their model id once meet a scenario whose configuration changes', () => {
    const none = ARM_PRESETS.get('none')!;
    expect(configChangeNotes([none], [changing])).toEqual([]);
    expect(configChangeNotes([none, peerArm('peer:vercel-ai')], [changing])).toEqual([
      "note: config-reload-typo changes the configuration mid-run (model_faults.config_change), which only spiralbench's own loop reads; peer:vercel-ai read their model id once and do not meet it",
    ]);
    expect(configChangeNotes([peerArm('peer:vercel-ai')], [loadScenario('fetch-transform-write')])).toEqual([]);
  });
});
