/** An error the CLI reports as `inkwell: <message>` before exiting with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * The command line itself is wrong: exit 2, and the help follows the message. The help is added
 * where the error is reported, so commands need not import the text that is built from them.
 */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
  }
}
