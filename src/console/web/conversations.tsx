// Owns the Conversations section: channels, DMs and threads, the live message list with agent turns inline, and posting as the owner.
import { useEffect, useState } from 'preact/hooks';
import { get, post } from './api.js';
import { clock, duration } from './format.js';
import type { Conversations as Convs, Message, Turn } from './types.js';

interface Props {
  target: string;
  setTarget: (t: string) => void;
  messages: Message[];
  turns: Turn[];
  addOwn: (m: Message) => void;
}

function TurnBadge({ t }: { t: Turn }) {
  const failed = t.status === 'failed';
  const text = t.status === 'running' ? `working for ${duration(t.durationMs)}` : t.status === 'queued' ? 'queued' : `${t.outcome ?? t.status}${t.durationMs !== null ? ` in ${duration(t.durationMs)}` : ''}`;
  return (
    <li class={`turn turn-${t.status}`}>
      <span class="agent">{t.agentName}</span> {text}
      {failed && t.detail ? <span class="detail">: {t.detail}</span> : null}
    </li>
  );
}

export function Conversations({ target, setTarget, messages, turns, addOwn }: Props) {
  const [convs, setConvs] = useState<Convs | undefined>();
  const [draft, setDraft] = useState('');
  const [other, setOther] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    get<Convs>('/console/api/conversations').then(setConvs, (e: Error) => setError(e.message));
  }, []);
  const send = async (e: Event) => {
    e.preventDefault();
    if (!draft.trim()) return;
    setError('');
    try {
      addOwn(await post<Message>('/console/api/messages', { target, content: draft }));
      setDraft('');
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const dm = async (name: string) => {
    setError('');
    try {
      const { target: t } = await post<{ target: string }>('/console/api/dms', { with: name });
      setConvs((c) => (c && !c.others.includes(t) ? { ...c, others: [...c.others, t].sort() } : c));
      setTarget(t);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const open = (e: Event) => {
    e.preventDefault();
    if (other.trim()) setTarget(other.trim());
  };
  const byMessage = new Map<string, Turn[]>();
  for (const t of turns) if (t.target === target) byMessage.set(t.messageId, [...(byMessage.get(t.messageId) ?? []), t]);
  const item = (t: string, label: string) => (
    <li>
      <button type="button" class="conv" aria-current={t === target ? 'true' : undefined} onClick={() => setTarget(t)}>{label}</button>
    </li>
  );
  return (
    <section class="conversations" aria-labelledby="conv-h">
      <h2 id="conv-h" tabIndex={-1}>Conversations</h2>
      <div class="split">
        <aside aria-label="Conversation list">
          <h3>Channels</h3>
          <ul class="plain">{(convs?.channels ?? []).map((c) => item(c.target, `#${c.name}`))}</ul>
          <h3>Agents</h3>
          <ul class="plain">
            {(convs?.agents ?? []).map((a) => (
              <li key={a.id}>
                <button type="button" class="conv" onClick={() => void dm(a.name)} aria-label={`Direct message ${a.name}`}>@{a.name} <span class="hint">{a.runtime}{a.enabled ? '' : ', disabled'}</span></button>
              </li>
            ))}
          </ul>
          <h3>DMs and threads</h3>
          <ul class="plain">{(convs?.others ?? []).map((t) => item(t, t))}</ul>
          <form onSubmit={open} class="open">
            <label for="open-target">Open a target</label>
            <input id="open-target" value={other} onInput={(e) => setOther((e.target as HTMLInputElement).value)} placeholder="dm:… or thread:…/…" />
            <button type="submit">Open</button>
          </form>
        </aside>
        <div class="thread">
          <h3 id="target-h">{target}</h3>
          <div class="messages" role="log" aria-live="polite" aria-labelledby="target-h" tabIndex={0}>
          <ol class="plain">
            {messages.map((m) => (
              <li key={m.id} class={`msg ${m.notice ? 'notice' : ''} ${m.author.kind}`} data-id={m.id}>
                <div class="meta">
                  <span class="author">{m.author.name}</span>
                  {m.author.kind === 'agent' ? <span class="tag">agent</span> : null}
                  {m.notice ? <span class="tag warn">notice</span> : null}
                  <time dateTime={m.createdAt}>{clock(m.createdAt)}</time>
                </div>
                <p class="content">{m.content}</p>
                {m.files ? <p class="files">Files: {m.files.join(', ')}</p> : null}
                {target.startsWith('channel:') ? (
                  <button type="button" class="quiet small" aria-label={`Open the thread of ${m.author.name}'s message at ${clock(m.createdAt)}`} onClick={() => setTarget(`thread:${target.slice(8)}/${m.id}`)}>
                    Thread
                  </button>
                ) : null}
                {byMessage.has(m.id) ? <ul class="turns" aria-label="Agent turns for this message">{byMessage.get(m.id)!.map((t) => <TurnBadge t={t} />)}</ul> : null}
              </li>
            ))}
          </ol>
          </div>
          <form class="composer" onSubmit={send}>
            <label for="composer-text">Message to {target} as the owner</label>
            <textarea
              id="composer-text"
              value={draft}
              rows={3}
              maxLength={8000}
              onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send(e);
              }}
            />
            <button type="submit">Send</button>
            {error ? <p role="alert" class="error">{error}</p> : null}
          </form>
        </div>
      </div>
    </section>
  );
}
