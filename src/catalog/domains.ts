// Owns the one-line summaries of the built-in domains shown by `agentteam exec --help`.
export const DOMAIN_SUMMARIES: Readonly<Record<string, string>> = Object.freeze({
  task: 'Create, read and move tasks through their lifecycle.',
  review: 'Add, read, resolve and reopen reviews on tasks and threads.',
});

export function domainSummary(domain: string): string {
  return DOMAIN_SUMMARIES[domain] ?? 'Extension actions.';
}
