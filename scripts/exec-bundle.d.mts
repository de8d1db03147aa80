// Types of scripts/exec-bundle.mjs for the TypeScript tests that build the exec bundle with it.
export declare const EXTERNAL: string[];
export declare const BANNER: { js: string };
export declare function frozenExecDomains(): Promise<string>;
export declare function buildExec(outdir: string, extra?: Record<string, unknown>): Promise<string[]>;
