// Owns the real-runtime suite fixture: one scripted model capture and one real daemon per test file, set up and torn down once.
import { after, before } from 'node:test';
import { startRuntimeDaemon, type RuntimeDaemon } from './daemon-runs.js';
import { cleanupTemp, ensureRuntimes } from './harness.js';
import { startModelCapture, type ModelCapture } from './model-capture.js';

export interface RuntimeSuite {
  rd: RuntimeDaemon;
  model: ModelCapture;
}

/**
 * Registers the file's before/after: installs the pinned runtimes, starts the model capture, then a daemon whose env is
 * `daemonEnv(modelUrl)` (the runtime's model endpoint and a key no API accepts); `ready` receives both once started.
 */
export function useRuntimeSuite(daemonEnv: (modelUrl: string) => Record<string, string>, ready: (s: RuntimeSuite) => void): void {
  let s: Partial<RuntimeSuite> = {};
  before(
    async () => {
      ensureRuntimes();
      s.model = await startModelCapture();
      s.rd = await startRuntimeDaemon(daemonEnv(s.model.url));
      ready(s as RuntimeSuite);
    },
    { timeout: 11 * 60_000 },
  );
  after(async () => {
    await s.rd?.dispose();
    await s.model?.close();
    s = {};
    cleanupTemp();
  });
}
