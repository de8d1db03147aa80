// Owns the names of the App-hosted Extensions the server knows (small on purpose: the owner CLI loads it at start).
export const EXTENSION_NAMES = ['github', 'gitea'] as const;
export type ExtensionName = (typeof EXTENSION_NAMES)[number];
