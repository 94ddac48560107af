import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/config';
import { telemetrySettings } from '../../src/telemetry/config';

const fromFile = (telemetry: unknown) => ConfigSchema.parse({ telemetry }).telemetry;

describe('when tracing is on, and where it exports', () => {
  it('is off with neither OTEL_EXPORTER_OTLP_ENDPOINT nor telemetry: in teamrun.yaml', () => {
    expect(telemetrySettings(undefined, {}, 'worker')).toBeNull();
  });

  it('follows the standard variables: endpoint, service name, and the ways to turn it off', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_SERVICE_NAME: 'docs-worker' };
    expect(telemetrySettings(undefined, env, 'worker')).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      metricsUrl: null,
      serviceName: 'docs-worker',
      headers: {},
    });
    expect(telemetrySettings(undefined, { ...env, OTEL_SDK_DISABLED: 'true' }, 'worker')).toBeNull();
    expect(telemetrySettings(undefined, { ...env, OTEL_TRACES_EXPORTER: 'none' }, 'worker')).toBeNull();
    expect(
      telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://tempo:4318/otlp/traces' }, 'client'),
    ).toMatchObject({ tracesUrl: 'http://tempo:4318/otlp/traces', serviceName: 'teamrun-client' });
  });

  it('sends protobuf unless the protocol variables ask for JSON, and refuses gRPC by name', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(telemetrySettings(undefined, env, 'worker')?.protocol).toBe('http/protobuf');
    expect(telemetrySettings(undefined, { ...env, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'worker')?.protocol).toBe(
      'http/json',
    );
    // The traces' own variable wins over the general one.
    const both = {
      ...env,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    };
    expect(telemetrySettings(undefined, both, 'worker')?.protocol).toBe('http/protobuf');
    expect(() => telemetrySettings(undefined, { ...env, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'worker')).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not sent by teamrun; use http/protobuf or http/json',
    );
  });

  it('takes the config file when no variable says otherwise, header values from the environment', () => {
    const telemetry = fromFile({ endpoint: 'https://otlp.example.com', headersEnv: { 'x-api-key': 'OTLP_KEY' } });
    expect(telemetrySettings(telemetry, { OTLP_KEY: 'k-123' }, 'worker')).toEqual({
      tracesUrl: 'https://otlp.example.com/v1/traces',
      protocol: 'http/protobuf',
      metricsUrl: null,
      serviceName: 'teamrun-worker',
      headers: { 'x-api-key': 'k-123' },
    });
    expect(() => telemetrySettings(telemetry, {}, 'worker')).toThrow(
      'telemetry.headersEnv.x-api-key: environment variable OTLP_KEY is not set',
    );
    const metrics = fromFile({ endpoint: 'http://c:4318', metrics: true });
    expect(telemetrySettings(metrics, {}, 'worker')?.metricsUrl).toBe('http://c:4318/v1/metrics');
  });

  it('refuses an endpoint that is not an http(s) URL, saying where', () => {
    expect(() => fromFile({ endpoint: 'collector:4318' })).toThrow(/http\(s\) URL/);
    expect(() => telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'x'.repeat(5000) }, 'worker')).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT: longer than 4096 characters',
    );
  });
});
