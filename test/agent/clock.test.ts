import { AgentClock } from '../../src/agent/clock';

describe('the agent clock: server time from heartbeats', () => {
  it('uses this host’s clock until the first heartbeat answer', () => {
    const clock = new AgentClock(
      300_000,
      () => 0,
      () => 1_000_000,
    );
    expect(clock.now()).toBe(1_300_000);
    expect(clock.offsetMs()).toBeNull();
  });

  it('takes server_time as the midpoint of the exchange, and runs on monotonically from there', () => {
    let mono = 10_000;
    let wall = 1_000_000 + 300_000; // 5 minutes ahead of the server
    const clock = new AgentClock(
      0,
      () => mono,
      () => wall,
    );
    clock.observe(10_000, 10_400, new Date(1_000_200).toISOString()); // RTT 400 ms: the server answered at its 1_000_200
    mono = 10_400;
    wall += 400;
    expect(clock.now()).toBe(1_000_400);
    expect(clock.offsetMs()).toBe(300_000);
    expect(clock.uncertaintyMs()).toBe(200);
    // This host's clock is stepped back by NTP: server time does not jump with it.
    mono += 1_000;
    wall = 1_001_400;
    expect(clock.now()).toBe(1_001_400);
    expect(clock.offsetMs()).toBe(0);
  });

  it('honours the test-only skew for this host’s clock, and corrects it all the same; ignores answers it cannot use', () => {
    let mono = 0;
    const clock = new AgentClock(
      -300_000,
      () => mono,
      () => 2_000_000,
    );
    expect(clock.now()).toBe(1_700_000);
    clock.observe(0, 100, 'not a time');
    clock.observe(100, 50, new Date(0).toISOString());
    expect(clock.offsetMs()).toBeNull();
    clock.observe(0, 100, new Date(2_000_050).toISOString());
    mono = 100;
    expect(clock.now()).toBe(2_000_100);
    expect(clock.offsetMs()).toBe(-300_100);
  });
});
