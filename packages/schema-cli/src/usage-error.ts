/** A mistake on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {}
