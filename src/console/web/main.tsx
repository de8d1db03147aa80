// Owns the console page's shell: sections, the live event stream (SSE) and the state every section reads.
import { render } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { Boards } from './boards.js';
import { Conversations } from './conversations.js';
import { CredentialsView } from './credentials.js';
import { RuntimesView } from './runtimes.js';
import { Traffic } from './traffic.js';
import type { Message, State } from './types.js';
import { post } from './api.js';
import { parseVisible } from './format.js';

const SECTIONS = [
  ['conversations', 'Conversations'],
  ['runtimes', 'Runtimes'],
  ['credentials', 'Credentials'],
  ['boards', 'Boards'],
  ['traffic', 'Traffic'],
] as const;
type Section = (typeof SECTIONS)[number][0];

function sectionOf(hash: string): Section {
  const s = hash.replace(/^#/, '');
  return (SECTIONS.find(([k]) => k === s)?.[0] ?? 'conversations') as Section;
}

/** One event stream for the page: the state every second and the followed conversation's messages. */
function useEvents(target: string) {
  const [state, setState] = useState<State | undefined>();
  const [messages, setMessages] = useState<Message[]>([]);
  const [link, setLink] = useState<'connecting' | 'live' | 'ended' | 'retrying'>('connecting');
  useEffect(() => {
    setMessages([]);
    const es = new EventSource(`/console/api/events?target=${encodeURIComponent(target)}`);
    es.addEventListener('open', () => setLink('live'));
    es.addEventListener('error', () => setLink((l) => (l === 'ended' ? l : 'retrying')));
    es.addEventListener('state', (e) => setState(parseVisible<State>((e as MessageEvent).data)));
    es.addEventListener('history', (e) => setMessages(parseVisible<{ messages: Message[] }>((e as MessageEvent).data).messages));
    es.addEventListener('message', (e) => {
      const m = parseVisible<Message>((e as MessageEvent).data);
      setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m]));
    });
    es.addEventListener('ended', () => {
      setLink('ended');
      es.close();
    });
    return () => es.close();
  }, [target]);
  return { state, messages, link, addOwn: (m: Message) => setMessages((list) => (list.some((x) => x.id === m.id) ? list : [...list, m])) };
}

function App() {
  const [section, setSection] = useState<Section>(sectionOf(location.hash));
  const [target, setTarget] = useState('channel:general');
  const ev = useEvents(target);
  useEffect(() => {
    const on = () => setSection(sectionOf(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  useLayoutEffect(() => {
    // Moving to a section moves keyboard focus to its heading, in the same commit that draws it (never a frame later).
    document.querySelector<HTMLElement>('main h2')?.focus();
  }, [section]);
  const logout = async () => {
    await post('/console/api/logout').catch(() => undefined);
    location.reload();
  };
  return (
    <>
      <header class="top">
        <h1>AgentTeam console</h1>
        <p class={`link link-${ev.link}`} role="status">
          {ev.link === 'live' ? 'Live' : ev.link === 'ended' ? 'Session ended: run agentteam console for a new link' : ev.link === 'retrying' ? 'Reconnecting…' : 'Connecting…'}
        </p>
        <button type="button" class="quiet" onClick={logout}>Log out</button>
      </header>
      <nav aria-label="Sections" class="tabs">
        {SECTIONS.map(([k, label]) => (
          <a href={`#${k}`} aria-current={section === k ? 'page' : undefined}>{label}</a>
        ))}
      </nav>
      <main>
        {section === 'conversations' && <Conversations target={target} setTarget={setTarget} messages={ev.messages} turns={ev.state?.turns ?? []} addOwn={ev.addOwn} />}
        {section === 'runtimes' && <RuntimesView runtimes={ev.state?.runtimes} />}
        {section === 'credentials' && <CredentialsView credentials={ev.state?.credentials} />}
        {section === 'boards' && <Boards />}
        {section === 'traffic' && <Traffic series={ev.state?.metrics} />}
      </main>
    </>
  );
}

const root = document.getElementById('app')!;
root.textContent = ''; // the static "Loading…" line goes; Preact renders into an empty root
render(<App />, root);
