// Owns the closed error-code table (ARCHITECTURE §5): every typed error names one code and its HTTP status.
export const ERROR_CODES = {
  invalid_input: 400,
  validation_failed: 422,
  not_found: 404,
  denied: 403,
  conflict: 409,
  admission_rejected: 409,
  idempotency_conflict: 422,
  result_budget_exceeded: 422,
  payload_too_large: 413,
  request_timeout: 408,
  upstream_unavailable: 502,
  provider_unauthorized: 502,
  provider_failed: 502,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(v: unknown): v is ErrorCode {
  return typeof v === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, v);
}

/** A failure with a public, typed code. `message` must never carry secrets or credential paths. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, opts: { hint?: string; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.hint = opts.hint;
    this.details = opts.details;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  hint?: string;
  details?: Record<string, unknown>;
}

export function errorBody(e: AppError): ErrorBody {
  const b: ErrorBody = { code: e.code, message: e.message };
  if (e.hint !== undefined) b.hint = e.hint;
  if (e.details !== undefined) b.details = e.details;
  return b;
}
