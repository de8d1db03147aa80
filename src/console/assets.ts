// Owns the console's front-end files: read once from dist/console (built by `npm run build`), served from memory.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };
/** The CSRF placeholder in index.html (a meta tag's content; the token is base64url, safe in an attribute). */
const CSRF = '__CSRF_TOKEN__';

/** dist/console beside the bundle (dist/cli.mjs), or the repository's dist/console when run from source. */
export function defaultAssetsDir(base: string = import.meta.url): string {
  return fileURLToPath(base.endsWith('.ts') ? new URL('../../dist/console/', base) : new URL('./console/', base));
}

export class ConsoleAssets {
  private readonly files = new Map<string, { body: Buffer; type: string }>();
  private readonly index: string | undefined;

  constructor(dir: string = defaultAssetsDir()) {
    for (const [name, type] of Object.entries(TYPES)) {
      try {
        this.files.set(name, { body: readFileSync(`${dir}/${name}`), type });
      } catch {
        /* not built: the page says so */
      }
    }
    try {
      this.index = readFileSync(`${dir}/index.html`, 'utf8');
    } catch {
      this.index = undefined;
    }
  }

  /** The page with this session's CSRF token, or undefined when the console was not built. */
  page(csrf: string): string | undefined {
    return this.index?.replace(CSRF, csrf);
  }

  /** A named asset (only the fixed set), or undefined. */
  file(name: string): { body: Buffer; type: string } | undefined {
    return this.files.get(name);
  }
}
