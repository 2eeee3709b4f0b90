import { readFileSync } from 'node:fs';
import { DEFAULT_GRPC_ADDRESSES, grpcAddress } from '../src/service-addresses';

// Linux hands out source ports for outgoing connections from this range; a default listening port inside
// it can be taken by any connection (one in TIME_WAIT is enough) and the service then fails to start.
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [32768, 60999];
  }
}

describe('service addresses', () => {
  describe('DEFAULT_GRPC_ADDRESSES', () => {
    it('should put every default gRPC port on loopback below the ephemeral port range', () => {
      const [low] = ephemeralRange();
      for (const address of Object.values(DEFAULT_GRPC_ADDRESSES)) {
        const [host, port] = address.split(':');
        expect(host).toBe('127.0.0.1');
        expect(Number(port)).toBeLessThan(Math.min(low, 32768));
      }
    });

    it('should give each service its own port', () => {
      const ports = Object.values(DEFAULT_GRPC_ADDRESSES).map((address) => address.split(':')[1]);
      expect(new Set(ports).size).toBe(ports.length);
    });
  });

  describe('grpcAddress()', () => {
    it('should prefer DSS_<SERVICE>_GRPC_ADDR over the default', () => {
      expect(grpcAddress('diagrams', { DSS_DIAGRAMS_GRPC_ADDR: '127.0.0.1:7000' })).toBe('127.0.0.1:7000');
      expect(grpcAddress('diagrams', {})).toBe(DEFAULT_GRPC_ADDRESSES.diagrams);
    });
  });
});
