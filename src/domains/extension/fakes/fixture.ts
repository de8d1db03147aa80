// Owns the extension tests' shared set-up: a real server on a fake clock, one agent in #general, the fake providers,
// and the helpers every test uses (pins of an installed App, one Extension call, one poll interval, #general's lines).
import type { ServerApi } from '../../../server-client/api.js';
import { FakeClock } from '../../../shared/clock.js';
import { startTestServer, type TestServer } from '../../test-server.js';
import type { CallOutcome } from '../contract.js';
import { TICK_MS } from '../watcher.js';
import { FakeProvider } from './fake-provider.js';

export const POLL = 5000;
export type ProviderName = 'github' | 'gitea';
export type Pins = { digest: string; version: string };

export interface ExtensionFixture {
  t: TestServer;
  clock: FakeClock;
  /** The agent's API (a member of #general). */
  agent: ServerApi;
  providers: Partial<Record<ProviderName, FakeProvider>>;
  pinsOf(name: ProviderName): Promise<Pins>;
  call(action: string, input: unknown, pins: Pins, ext?: ProviderName): Promise<CallOutcome>;
  /** Lets the poll interval pass, then one watcher tick run at the new time (a timer armed earlier fires first). */
  poll(): Promise<void>;
  /** #general's message texts, oldest first. */
  general(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startExtensionFixture(opts: { agentName: string; providers: readonly ProviderName[] }): Promise<ExtensionFixture> {
  const clock = new FakeClock(Date.now());
  const t = await startTestServer({ clock });
  const providers: Partial<Record<ProviderName, FakeProvider>> = {};
  // The providers' clock is the server's fake clock: their Date headers and Gitea's event times move with it.
  for (const p of opts.providers) providers[p] = await FakeProvider.start(p, { now: () => clock.now() });
  const a = await t.owner.members.createAgent({ name: opts.agentName });
  await t.owner.channels.addMember({ channelId: 'general', memberId: a.agent.id });
  const agent = t.client.as(a.credential);
  return {
    t,
    clock,
    agent,
    providers,
    async pinsOf(name) {
      const s = await agent.extensions.snapshot();
      return { digest: s.definitions.find((d) => d.name === name)!.digest, version: s.catalogVersion };
    },
    call: (action, input, pins, ext = 'github') => agent.extensions.call({ extension: ext, action, definitionDigest: pins.digest, catalogVersion: pins.version, input }),
    async poll() {
      await t.server.idle!();
      clock.advance(POLL);
      await t.server.idle!();
      clock.advance(TICK_MS);
      await t.server.idle!();
    },
    general: async () => (await agent.messages.list({ target: 'channel:general', limit: 100 })).messages.map((m) => m.content).reverse(),
    async close() {
      await t.stop();
      for (const p of Object.values(providers)) await p.close();
    },
  };
}
