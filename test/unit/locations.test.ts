import { loadConfig } from '../../src/config';
import {
  demoSourceAddress,
  heartbeatSeenAt,
  isLocationId,
  locationStatus,
  locationWorkflowId,
  parseLocationList,
} from '../../src/domain/locations';
import { sourceAddressFor } from '../../src/probes/source-address';

const now = new Date('2026-11-26T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('locationStatus', () => {
  it('is online while the last heartbeat is younger than 3 heartbeats', () => {
    expect(locationStatus({ lastSeenAt: ago(0), heartbeatSeconds: 10 }, now)).toBe('online');
    expect(locationStatus({ lastSeenAt: ago(29_999), heartbeatSeconds: 10 }, now)).toBe('online');
    expect(locationStatus({ lastSeenAt: ago(30_000), heartbeatSeconds: 10 }, now)).toBe('offline');
    expect(locationStatus({ lastSeenAt: ago(2_999), heartbeatSeconds: 1 }, now)).toBe('online');
    expect(locationStatus({ lastSeenAt: ago(3_001), heartbeatSeconds: 1 }, now)).toBe('offline');
    expect(locationStatus({ lastSeenAt: null, heartbeatSeconds: 10 }, now)).toBe('offline');
  });

  it('is offline from a stopping heartbeat on, online again after a newer one', () => {
    expect(locationStatus({ lastSeenAt: ago(1_000), stoppedAt: ago(1_000), heartbeatSeconds: 10 }, now)).toBe(
      'offline',
    );
    expect(locationStatus({ lastSeenAt: ago(1_000), stoppedAt: ago(5_000), heartbeatSeconds: 10 }, now)).toBe('online');
  });
});

describe('heartbeatSeenAt', () => {
  it('takes the time the heartbeat was sent, never later than now', () => {
    expect(heartbeatSeenAt(ago(1_500).toISOString(), now)).toEqual(ago(1_500));
    expect(heartbeatSeenAt(new Date(now.getTime() + 60_000).toISOString(), now)).toEqual(now);
    expect(heartbeatSeenAt('not a time', now)).toEqual(now);
  });
});

describe('location ids and lists', () => {
  it('accepts lower-case ids starting with a letter, up to 40 characters', () => {
    for (const ok of ['eu-central', 'local', 'a', 'ap-south-1', 'x'.repeat(40)])
      expect([ok, isLocationId(ok)]).toEqual([ok, true]);
    for (const bad of ['', 'EU', '1eu', 'eu central', 'agent:1', 'eu_central', 'x'.repeat(41)])
      expect([bad, isLocationId(bad)]).toEqual([bad, false]);
  });

  it('parses VIGIL_LOCATIONS in order, and refuses bad or repeated names', () => {
    expect(parseLocationList('')).toEqual({ ok: true, ids: [] });
    expect(parseLocationList(' eu-central, us-east ,ap-south,')).toEqual({
      ok: true,
      ids: ['eu-central', 'us-east', 'ap-south'],
    });
    expect(parseLocationList('eu-central,EU')).toMatchObject({ ok: false, message: expect.stringContaining('EU') });
    expect(parseLocationList('eu,eu')).toMatchObject({ ok: false, message: expect.stringContaining('twice') });
  });

  it('names the workflow per installation and location, and the demo source addresses 127.0.0.11, .12, …', () => {
    expect(locationWorkflowId('vigil', 'eu-central')).toBe('location:vigil:eu-central');
    expect([0, 1, 2].map(demoSourceAddress)).toEqual(['127.0.0.11', '127.0.0.12', '127.0.0.13']);
  });

  it('checks the location settings when the configuration loads', () => {
    const c = loadConfig({});
    expect([
      c.VIGIL_LOCATION,
      c.VIGIL_LOCATION_LABEL,
      c.VIGIL_PROBE_SOURCE_ADDRESS,
      c.LOCATION_HEARTBEAT_SECONDS,
      c.VIGIL_WORKER_LOCATION,
      c.VIGIL_LOCATIONS,
    ]).toEqual(['local', undefined, '', 10, true, '']);
    expect(() => loadConfig({ VIGIL_LOCATION: 'Frankfurt' })).toThrow(/VIGIL_LOCATION/);
    expect(() => loadConfig({ VIGIL_LOCATIONS: 'eu,eu' })).toThrow(/VIGIL_LOCATIONS: Location eu is named twice/);
    expect(() => loadConfig({ VIGIL_PROBE_SOURCE_ADDRESS: 'localhost' })).toThrow(/VIGIL_PROBE_SOURCE_ADDRESS/);
    expect(() => loadConfig({ LOCATION_HEARTBEAT_SECONDS: '0' })).toThrow(/LOCATION_HEARTBEAT_SECONDS/);
    expect(loadConfig({ VIGIL_WORKER_LOCATION: 'false' }).VIGIL_WORKER_LOCATION).toBe(false);
  });
});

describe('sourceAddressFor', () => {
  it('binds a loopback source only towards loopback targets', () => {
    expect(sourceAddressFor('127.0.0.1', '127.0.0.12')).toBe('127.0.0.12');
    expect(sourceAddressFor('93.184.216.34', '127.0.0.12')).toBeUndefined();
    expect(sourceAddressFor('::1', '::1')).toBe('::1');
  });

  it('binds another address to every target of its family, never across families', () => {
    expect(sourceAddressFor('93.184.216.34', '192.0.2.10')).toBe('192.0.2.10');
    expect(sourceAddressFor('2001:db8::1', '192.0.2.10')).toBeUndefined();
    expect(sourceAddressFor('93.184.216.34', '2001:db8::10')).toBeUndefined();
    expect(sourceAddressFor('2001:db8::1', '2001:db8::10')).toBe('2001:db8::10');
  });

  it('binds nothing without a source address or to a name', () => {
    expect(sourceAddressFor('127.0.0.1', undefined)).toBeUndefined();
    expect(sourceAddressFor('127.0.0.1', '')).toBeUndefined();
    expect(sourceAddressFor('example.com', '127.0.0.12')).toBeUndefined();
  });
});
