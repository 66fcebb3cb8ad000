import { RESERVED_SUBDOMAINS, subdomainOfHost, subdomainProblem } from '../../src/domain/status-page/subdomain';

describe('page hosts', () => {
  it('names the page a Host header asks for under STATUS_HOST, port and case aside', () => {
    expect(subdomainOfHost('acme.status.example.com', 'status.example.com')).toBe('acme');
    expect(subdomainOfHost('ACME.Status.Example.com:8080', 'status.example.com')).toBe('acme');
    expect(subdomainOfHost('acme.status.example.com.', 'status.example.com')).toBe('acme');
  });

  it('answers null for other hosts, nested or malformed labels, and reserved names (the service may serve its own hosts there)', () => {
    for (const host of [
      undefined,
      'status.example.com',
      'example.com',
      'a.b.status.example.com',
      '-ab.status.example.com',
      'ab.status.example.com',
      'acme.status.example.com.evil',
    ]) {
      expect(subdomainOfHost(host, 'status.example.com')).toBeNull();
    }
    for (const name of RESERVED_SUBDOMAINS) {
      expect(subdomainOfHost(`${name}.status.example.com`, 'status.example.com')).toBeNull();
      expect(subdomainProblem(name)).toMatch(/reserved/);
    }
  });
});
