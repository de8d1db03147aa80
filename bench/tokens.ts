// Owns benchmark 8: what a model reads, in o200k tokens (gpt-tokenizer), per tool result and per Exec read, beside the content's own tokens.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { http } from '../test/harness.js';
import { goal, table, type BenchReport, type Goal } from './report.js';
import { AGED_SUMMARY, ageHomeCounters } from './aged-ids.js';
import { BenchDaemon } from './setup.js';
import { knowledgeRows } from './tokens-knowledge.js';
import { workflowAndScheduleRows } from './tokens-workflow.js';
import { serverClient } from '../src/domains/registry.js';

/** Realistic one-line chat messages and short task titles (the content a model came to read). */
export const LINES = [
  'Deployed the fix to staging, please check.', 'Tests are green on main now.', 'Can you review PR 42?', 'I will take the flaky test.',
  'Lunch at noon?', 'The build is slow again today.', 'Merged, thanks!', 'Who owns the release notes?', 'Rebased onto main.',
  'Looks good to me.', 'Docs updated in README.', 'Found the bug: off by one in the pager.', 'Let us ship it tomorrow.',
  'Ping me when the server is up.', 'CI is red, investigating.', 'Fixed, rerunning now.', 'Please add a changelog entry.',
  'Done, see the thread.', 'Staging is down for ten minutes.', 'Thanks all, good work.',
];
export const TITLES = [
  'Write the release notes', 'Fix the flaky pager test', 'Review PR 42', 'Update the README', 'Bump pg to 8.23', 'Add a changelog entry',
  'Profile the MCP route', 'Rotate the staging key', 'Triage new issues', 'Draft the Q1 plan', 'Fix CI on Node 20', 'Remove dead code',
  'Document the cursor format', 'Add a PostgreSQL test', 'Shorten tool schemas', 'Check the backup job', 'Clean up old branches',
  'Write the migration guide', 'Measure token costs', 'Tag version 0.2.0',
];

/** Projects and teams as a small team names them (some with a one-line description, as they are in practice). */
export const PROJECTS = [
  { name: 'Website relaunch', description: 'New landing page and docs site.' },
  { name: 'Q1 release' },
  { name: 'CI speed-up', description: 'Get the test suite under five minutes.' },
  { name: 'PostgreSQL support' },
  { name: 'Onboarding guide', description: 'A first-day guide for new agents.' },
];
export const TEAMS = [
  { handle: 'web', displayName: 'Web team', description: 'Owns the website and the docs site.' },
  { handle: 'platform', displayName: 'Platform' },
  { handle: 'docs', displayName: 'Docs', description: 'Writes and reviews the guides.' },
];

const tok = (s: string) => encode(s).length;
const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0);
const projectContent = (p: { name: string; description?: string }) => tok(p.name) + (p.description ? tok(p.description) : 0);
const teamContent = (t: { handle: string; displayName: string; description?: string }) => tok(t.handle) + tok(t.displayName) + (t.description ? tok(t.description) : 0);

/**
 * The fixed envelope of a list result, measured: the same response with its list emptied (and its page's `authors`,
 * which an empty page has empty too), everything else as returned.
 */
function envelopeTokens(text: string, list: string): number {
  const v = JSON.parse(text);
  const page = list in v ? v : v.data;
  page[list] = [];
  if ('authors' in page) page.authors = {};
  return tok(JSON.stringify(v));
}

export async function benchTokens(): Promise<BenchReport> {
  const d = await BenchDaemon.launch();
  const server = serverClient({ baseUrl: d.serverUrl });
  try {
    await ageHomeCounters(d.d.home);
    const agentId = await d.addAgent('builder');
    const rt = await d.launchWithTokens(agentId);
    // A realistic small team, added through the real owner API: the owner, two more Humans (invite → join; one an
    // admin) and three agents (builder, the one the bench reads as, plus two more).
    const humans: Record<string, string> = {};
    for (const [name, role] of [['Ada', 'admin'], ['Grace', 'member']] as const) {
      const inv = await d.owner('POST', '/api/daemon/invites', { name, role });
      humans[name] = (await server.join(inv.code)).credential;
    }
    await d.addAgent('reviewer');
    await d.addAgent('docs-bot');
    const mcpPath = `/api/internal/mcp/servers/${d.serverId}/agents/${agentId}`;
    const execPath = (a: string) => `/api/internal/exec/servers/${d.serverId}/agents/${agentId}/${a}`;
    const host = `127.0.0.1:${d.port}`;
    let rpcId = 0;
    /** The text a model reads from one tools/call: the result's text content. */
    const mcp = async (name: string, args: Record<string, unknown>): Promise<{ text: string; structured: any }> => {
      const r = await http(d.port, 'POST', mcpPath, {
        headers: { authorization: `Bearer ${rt.mcpToken}`, host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } }),
      });
      const res = JSON.parse(r.body).result;
      if (!res || res.isError) throw new Error(`${name} failed: ${r.body.slice(0, 300)}`);
      return { text: res.content[0].text, structured: res.structuredContent };
    };
    /** The envelope `agentteam exec` prints: the route's body. */
    const exec = async (action: string, input: Record<string, unknown>): Promise<{ text: string; data: any }> => {
      const r = await http(d.port, 'POST', execPath(action), { headers: { authorization: `Bearer ${rt.execToken}`, host, 'content-type': 'application/json' }, body: JSON.stringify(input) });
      const env = JSON.parse(r.body);
      if (!env.ok) throw new Error(`${action} failed: ${r.body.slice(0, 300)}`);
      return { text: r.body.trim(), data: env.data };
    };

    for (const [i, content] of LINES.entries()) {
      if (i % 2 === 0) await d.owner('POST', '/api/daemon/messages', { target: 'channel:general', content });
      else await mcp('message_send', { target: 'channel:general', content });
    }
    const firstTask = (await exec('task/create', { title: TITLES[0]! })).data.task;
    for (const title of TITLES.slice(1)) await exec('task/create', { title });
    const reviewBodies = LINES.slice(0, 10);
    for (const body of reviewBodies) await exec('review/add', { target: `task:${firstTask.id}`, verdict: 'comment', body });
    const reasons = LINES.slice(10, 15);
    for (const reason of reasons) await exec('approval/request', { subject: `task:${firstTask.id}`, reason });

    // Projects and teams from several creators (the agent over Exec, the Humans over the server API); one project archived.
    const projectIds: string[] = [];
    for (const [i, p] of PROJECTS.entries()) {
      if (i % 2 === 0) projectIds.push((await exec('project/create', p)).data.project.id);
      else projectIds.push((await server.as(humans[i === 1 ? 'Ada' : 'Grace']!).projects.create(p)).id);
    }
    await server.as(humans.Grace!).projects.archive({ projectId: projectIds[3]! });
    const teamIds: string[] = [];
    for (const [i, t] of TEAMS.entries()) teamIds.push(i === 1 ? (await server.as(humans.Ada!).teams.create(t)).id : (await exec('team/create', t)).data.team.id);
    const members = (await exec('workspace/members', {})).data.members as { memberId: string }[];
    for (const m of members.slice(0, 4)) await exec('team/add-member', { teamId: teamIds[0]!, memberId: m.memberId });
    const history = await mcp('message_history_read', { target: 'channel:general', limit: 20 });
    const msgId = history.structured.messages[0].id;
    const rows: { what: string; text: string; items: number; content: number; list?: string }[] = [
      { what: 'MCP message_history_read (20 msgs)', text: history.text, items: 20, content: LINES.reduce((s, l) => s + tok(l), 0), list: 'messages' },
      { what: 'MCP message_send', text: (await mcp('message_send', { target: 'channel:general', content: LINES[1]! })).text, items: 1, content: 0 },
      { what: 'MCP message_react', text: (await mcp('message_react', { messageId: msgId, emoji: '👍' })).text, items: 1, content: 0 },
      { what: 'Exec task list (20 tasks)', text: (await exec('task/list', { limit: 20 })).text, items: 20, content: TITLES.reduce((s, t) => s + tok(t), 0), list: 'tasks' },
      { what: 'Exec task get', text: (await exec('task/get', { taskId: firstTask.id })).text, items: 1, content: tok(TITLES[0]!) },
      { what: 'Exec task create', text: (await exec('task/create', { title: TITLES[1]! })).text, items: 1, content: tok(TITLES[1]!) },
      { what: 'Exec review list (10 reviews)', text: (await exec('review/list', { filters: { target: `task:${firstTask.id}` } })).text, items: 10, content: reviewBodies.reduce((s, b) => s + tok(b), 0), list: 'reviews' },
      { what: 'Exec approval list (5 approvals)', text: (await exec('approval/list', {})).text, items: 5, content: reasons.reduce((s, r) => s + tok(r), 0), list: 'approvals' },
      { what: `Exec workspace members (${members.length})`, text: (await exec('workspace/members', {})).text, items: members.length, content: 0, list: 'members' },
      { what: 'Exec project get', text: (await exec('project/get', { projectId: projectIds[0]! })).text, items: 1, content: projectContent(PROJECTS[0]!) },
      { what: `Exec project list (${PROJECTS.length} projects)`, text: (await exec('project/list', {})).text, items: PROJECTS.length, content: sum(PROJECTS, projectContent), list: 'projects' },
      { what: 'Exec team get', text: (await exec('team/get', { teamId: teamIds[0]! })).text, items: 1, content: teamContent(TEAMS[0]!) },
      { what: `Exec team list (${TEAMS.length} teams)`, text: (await exec('team/list', {})).text, items: TEAMS.length, content: sum(TEAMS, teamContent), list: 'teams' },
      { what: 'Exec team members (4)', text: (await exec('team/members', { teamId: teamIds[0]! })).text, items: 4, content: 0, list: 'members' },
      { what: 'Exec profile get', text: (await exec('profile/get', {})).text, items: 1, content: 0 },
      ...(await knowledgeRows(tok)),
    ];
    rows.push(...(await workflowAndScheduleRows(exec, agentId, tok, LINES.slice(0, 10))));
    if (process.env.SHOW_TEXTS) for (const r of rows) console.error(r.what, r.text);
    const out = rows.map((r) => {
      const total = tok(r.text);
      const perItem = (total - r.content) / r.items;
      const envelope = r.list ? envelopeTokens(r.text, r.list) : NaN;
      // Beside (never instead of) overhead/item: what each item costs once the fixed envelope is set apart.
      const perItemBeyondEnvelope = r.list ? (total - r.content - envelope) / r.items : NaN;
      return { ...r, total, perItem, envelope, perItemBeyondEnvelope, ratio: r.content ? total / r.content : NaN };
    });
    const goals: Goal[] = [
      goal('message_history_read of 20 one-line messages, tokens', out[0]!.total, '<=', 600),
      goal('task list of 20 short tasks, tokens', out[3]!.total, '<=', 900),
      ...out.filter((r) => r.items > 1).map((r) => goal(`${r.what}: overhead per item beyond its content, tokens`, r.perItem, '<=', 25)),
    ];
    return {
      name: 'tokens',
      table:
        table(
          ['what the model reads (o200k, gpt-tokenizer 4.0.0)', 'tokens', 'content', 'overhead/item', 'envelope', 'item beyond envelope', 'total/content'],
          out.map((r) => [
            r.what,
            String(r.total),
            String(r.content),
            r.perItem.toFixed(1),
            Number.isNaN(r.envelope) ? '-' : String(r.envelope),
            Number.isNaN(r.perItemBeyondEnvelope) ? '-' : r.perItemBeyondEnvelope.toFixed(1),
            Number.isNaN(r.ratio) ? '-' : `${r.ratio.toFixed(2)}x`,
          ]),
        ) +
        `\noverhead/item = (tokens - content) / items, the goal's figure; envelope = the same response with its list emptied;` +
        ` item beyond envelope = (tokens - content - envelope) / items.` +
        `\nfixture: 20 one-line messages, 20 tasks, 10 reviews and 5 approvals on one task; a workspace of ${members.length} members` +
        ` (the owner, Humans Ada (admin) and Grace, agents builder (the reader), reviewer and docs-bot); ${PROJECTS.length} projects` +
        ` (3 by builder, 2 by the Humans, 1 archived), ${TEAMS.length} teams, 4 members in one; 10 weekday crons (content: the` +
        ` message text plus the cron and zone as written, not the target, id or next fire); id counters aged to a workspace` +
        ` some months in (${AGED_SUMMARY}).` +
        `\nsample message: ${JSON.stringify(history.structured.messages[0])}` +
        `\nsample run list item: ${JSON.stringify(JSON.parse(out.find((r) => r.list === 'runs')!.text).data.runs[0])}`,
      goals,
      json: { rows: out.map(({ text: _t, ...r }) => r) },
    };
  } finally {
    server.close();
    await d.dispose();
  }
}
