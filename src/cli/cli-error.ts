// Owns CliError: a command's failure with the exit code the CLI ends with (its own module: the entry loads no client for it).
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
