/**
 * The console's colours. They are chosen for WCAG AA: body text #1f2328 on #ffffff
 * (15.8:1), muted #57606a (6.4:1), links and buttons #0a58ca (6.3:1 on white; white on it 6.3:1),
 * status colours at least 4.5:1 on their tinted backgrounds (test/unit/console-contrast.test.ts).
 */
export const CONSOLE_COLOURS = {
  page: '#ffffff',
  text: '#1f2328',
  muted: '#57606a',
  border: '#d0d7de',
  link: '#0a58ca',
  buttonText: '#ffffff',
  danger: '#b42318',
  nav: '#f6f8fa',
  healthy: '#116329',
  healthyBg: '#dafbe1',
  degraded: '#7a4700',
  degradedBg: '#fff8c5',
  unhealthy: '#a40e26',
  unhealthyBg: '#ffebe9',
  neutral: '#424a53',
  neutralBg: '#eaeef2',
} as const;
