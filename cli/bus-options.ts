// The bus options every role takes: `--bus nats://...` and its credentials and TLS files
// (docs/hall.md, "Credentials" and "TLS").
import { BusUsageError, parseBusUrl, type BusOptions } from '../bus/options/index.ts';
import { UsageError } from './command.ts';
import { readInput } from './inputs.ts';

export const busOptionSpecs = {
  bus: { type: 'string' },
  'bus-nkey': { type: 'string' },
  'bus-ca': { type: 'string' },
  'bus-cert': { type: 'string' },
  'bus-key': { type: 'string' },
} as const;

export const busHelp = `  --bus nats://HOST:PORT  the NATS servers (several separated by commas; user:password@ in the
                         first applies to all; tls:// for TLS)
  --bus-nkey FILE        sign in with this nkey seed (made by zeitnot bus users)
  --bus-ca FILE          trust the servers' certificates signed by this CA (PEM); implies TLS
  --bus-cert FILE, --bus-key FILE  a client certificate, where the servers verify clients`;

export interface BusValues {
  readonly bus?: string | undefined;
  readonly 'bus-nkey'?: string | undefined;
  readonly 'bus-ca'?: string | undefined;
  readonly 'bus-cert'?: string | undefined;
  readonly 'bus-key'?: string | undefined;
}

/** The bus a role was given, or undefined without `--bus` (the embedded default). */
export function busOptionsFrom(values: BusValues, name: string): BusOptions | undefined {
  const given = ['bus-nkey', 'bus-ca', 'bus-cert', 'bus-key'] as const;
  if (values.bus === undefined) {
    const stray = given.find((k) => values[k] !== undefined);
    if (stray) throw new UsageError(`--${stray} needs --bus`);
    return undefined;
  }
  let options: BusOptions;
  try {
    options = parseBusUrl(values.bus);
  } catch (err) {
    if (err instanceof BusUsageError) throw new UsageError(err.message);
    throw err;
  }
  if ((values['bus-cert'] === undefined) !== (values['bus-key'] === undefined)) throw new UsageError('--bus-cert and --bus-key go together');
  const tls = {
    ...options.tls,
    ...(values['bus-ca'] ? { ca: readInput('--bus-ca', values['bus-ca']) } : {}),
    ...(values['bus-cert'] ? { cert: readInput('--bus-cert', values['bus-cert']) } : {}),
    ...(values['bus-key'] ? { key: readInput('--bus-key', values['bus-key']) } : {}),
  };
  const useTls = options.tls !== undefined || Object.keys(tls).length > 0;
  return {
    ...options,
    name,
    ...(values['bus-nkey'] ? { nkeySeed: readInput('--bus-nkey', values['bus-nkey']) } : {}),
    ...(useTls ? { tls } : {}),
  };
}
