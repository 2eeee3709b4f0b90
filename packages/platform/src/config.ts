// The one configuration loader. Every setting is an environment variable read and validated once at
// start; a bad value stops the process with one line that names the variable and what is wrong, instead
// of a stack trace or a failure minutes later. Empty values count as unset (as compose and Helm write them).

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Source = Record<string, string | undefined>;

function read(name: string, source: Source = process.env): string | undefined {
  const value = source[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function missing(name: string): ConfigError {
  return new ConfigError(`${name} is required but not set`);
}

function rangeText(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function parseInteger(name: string, raw: string, min?: number, max?: number): number {
  const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (
    !Number.isSafeInteger(value) ||
    (min !== undefined && value < min) ||
    (max !== undefined && value > max)
  )
    throw new ConfigError(`${name} must be an integer${rangeText(min, max)}, got "${raw}"`);
  return value;
}

// A URL may carry a password; never echo it back in an error message.
function maskCredentials(raw: string): string {
  return raw.replace(/\/\/([^@/]*)@/, (_match, userInfo: string) =>
    userInfo.includes(':') ? `//${userInfo.split(':')[0]}:***@` : `//${userInfo}@`,
  );
}

function parseUrl(name: string, raw: string, protocols?: readonly string[]): string {
  const wanted = protocols?.map((p) => (p.endsWith(':') ? p : `${p}:`));
  const expectation = wanted
    ? `a URL with scheme ${wanted.map((p) => p.slice(0, -1)).join(' or ')}`
    : 'a URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be ${expectation}, got "${maskCredentials(raw)}"`);
  }
  if (wanted && !wanted.includes(url.protocol))
    throw new ConfigError(`${name} must be ${expectation}, got "${maskCredentials(raw)}"`);
  return raw;
}

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

export const env = {
  /** A required string, or one of `allowed`. */
  string<const T extends string = string>(
    name: string,
    options: { default?: T; allowed?: readonly T[] } = {},
    source?: Source,
  ): T {
    const raw = read(name, source);
    if (raw === undefined) {
      if (options.default !== undefined) return options.default;
      throw missing(name);
    }
    if (options.allowed && !options.allowed.includes(raw as T))
      throw new ConfigError(`${name} must be one of ${options.allowed.join(', ')}, got "${raw}"`);
    return raw as T;
  },

  optionalString(name: string, source?: Source): string | undefined {
    return read(name, source);
  },

  int(name: string, options: { default?: number; min?: number; max?: number } = {}, source?: Source): number {
    const raw = read(name, source);
    if (raw === undefined) {
      if (options.default !== undefined) return options.default;
      throw missing(name);
    }
    return parseInteger(name, raw, options.min, options.max);
  },

  bool(name: string, options: { default: boolean }, source?: Source): boolean {
    const raw = read(name, source);
    if (raw === undefined) return options.default;
    const word = raw.toLowerCase();
    if (TRUE_WORDS.includes(word)) return true;
    if (FALSE_WORDS.includes(word)) return false;
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  },

  url(
    name: string,
    options: { default?: string; protocols?: readonly string[] } = {},
    source?: Source,
  ): string {
    const raw = read(name, source);
    if (raw === undefined) {
      if (options.default !== undefined) return options.default;
      throw missing(name);
    }
    return parseUrl(name, raw, options.protocols);
  },

  optionalUrl(
    name: string,
    options: { protocols?: readonly string[] } = {},
    source?: Source,
  ): string | undefined {
    const raw = read(name, source);
    return raw === undefined ? undefined : parseUrl(name, raw, options.protocols);
  },

  /**
   * The `trust proxy` setting of an HTTP app behind an ingress: false when unset (X-Forwarded-For ignored),
   * true, a hop count, or addresses, CIDRs and names such as `loopback` as written.
   */
  trustProxy(name: string, source?: Source): boolean | number | string {
    const raw = read(name, source) ?? 'false';
    if (raw === 'false') return false;
    if (raw === 'true') return true;
    if (/^\d+$/.test(raw)) return Number(raw);
    return raw;
  },

  /** A `host:port` listen or dial address; port 0 means any free port. */
  address(name: string, defaultValue: string, source?: Source): string {
    const raw = read(name, source) ?? defaultValue;
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
    if (!match || Number(match[2]) > 65535)
      throw new ConfigError(`${name} must be host:port with a port from 0 to 65535, got "${raw}"`);
    return raw;
  },

  /**
   * Where a caller reaches a gRPC service: a `host:port` as `address` takes, or one of grpc-js's target
   * URIs that name several replicas, which the client's round_robin policy spreads calls over:
   * `ipv4:127.0.0.1:15052,127.0.0.1:15062` (ipv6: likewise) or `dns:///diagrams-headless:15052` (every
   * address the name resolves to). A `unix:` socket path is taken as written.
   */
  grpcTarget(name: string, defaultValue: string, source?: Source): string {
    const raw = read(name, source) ?? defaultValue;
    const hostPort = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;
    const valid = (target: string): boolean => {
      const match = hostPort.exec(target);
      return match !== null && Number(match[2]) > 0 && Number(match[2]) <= 65535;
    };
    const list = /^(ipv4|ipv6):(.+)$/.exec(raw);
    const dns = /^dns:(?:\/\/[^/]*\/)?(.+)$/.exec(raw);
    const ok = list
      ? list[2].split(',').every(valid)
      : dns
        ? valid(dns[1])
        : raw.startsWith('unix:')
          ? raw.length > 'unix:'.length
          : valid(raw);
    if (!ok)
      throw new ConfigError(
        `${name} must be host:port, ipv4:host:port,host:port,…, ipv6:[addr]:port,… or dns:///host:port, got "${raw}"`,
      );
    return raw;
  },
};

/**
 * Runs the service's config reader at start. A ConfigError ends the process with exit code 1 and one
 * line on stderr; any other error is a bug and is rethrown with its stack.
 */
export function loadConfig<T>(readConfig: () => T): T {
  try {
    return readConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`config error: ${error.message}\n`);
    process.exit(1);
  }
}
