import type { HealthStatus } from '../domain/thresholds';
import { accessibleAccent, isHexColor, normalizeHex, readableTextOn } from './contrast';
import type { PageBranding } from '../domain/status-page/model';

/**
 * Every colour the page CSS uses. Text colours are derived (accessibleAccent / readableTextOn)
 * so that operator branding can never push a text/background pair under 4.5:1;
 * `themeTextPairs` lists those pairs for the contrast test.
 */
export interface Theme {
  page: string;
  text: string;
  muted: string;
  border: string;
  /** Links on the page background: the accent, adjusted. */
  link: string;
  /** The operator's accent as given: only the (non-text) stripe under the header. */
  stripe: string;
  headerBg: string;
  headerText: string;
  buttonBg: string;
  buttonText: string;
  inputBg: string;
  inputText: string;
  inputBorder: string;
  /** Status text on the page background, and the banner background. */
  status: Record<HealthStatus, string>;
  bannerText: Record<HealthStatus, string>;
  /** Badge backgrounds; badge text is readableTextOn(background). */
  badges: Record<BadgeKind, string>;
  /** Uptime day colours (graphics, not text; each day also has a text label). */
  uptime: Record<UptimeLevel, string>;
}

export type BadgeKind = 'minor' | 'major' | 'critical' | 'neutral' | 'ongoing' | 'resolved' | 'maintenance' | 'private';
export type UptimeLevel = 'good' | 'minor' | 'degraded' | 'bad' | 'none';

export const DEFAULT_ACCENT = '#0969da';
export const DEFAULT_HEADER = '#1f2328';
const PAGE = '#ffffff';

const STATUS: Record<HealthStatus, string> = {
  healthy: '#1a7f37',
  degraded: '#9a6700',
  unhealthy: '#d1242f',
  no_data: '#59636e',
};
const BADGES: Record<BadgeKind, string> = {
  minor: '#9a6700',
  major: '#bc4c00',
  critical: '#d1242f',
  neutral: '#59636e',
  ongoing: '#d1242f',
  resolved: '#1a7f37',
  maintenance: '#0550ae',
  private: '#8250df',
};
const UPTIME: Record<UptimeLevel, string> = {
  good: '#1a7f37',
  minor: '#6c9a1f',
  degraded: '#bf8700',
  bad: '#d1242f',
  none: '#d1d9e0',
};

function mapValues<K extends string>(rec: Record<K, string>, f: (v: string) => string): Record<K, string> {
  return Object.fromEntries(Object.entries<string>(rec).map(([k, v]) => [k, f(v)])) as Record<K, string>;
}

export function resolveTheme(branding: PageBranding | null): Theme {
  const accent =
    branding?.accent_color && isHexColor(branding.accent_color) ? normalizeHex(branding.accent_color) : DEFAULT_ACCENT;
  const headerBg =
    branding?.header_color && isHexColor(branding.header_color) ? normalizeHex(branding.header_color) : DEFAULT_HEADER;
  const link = accessibleAccent(accent, PAGE);
  return {
    page: PAGE,
    text: '#1f2328',
    muted: '#59636e',
    border: '#d1d9e0',
    link,
    stripe: accent,
    headerBg,
    headerText: readableTextOn(headerBg),
    buttonBg: link,
    buttonText: readableTextOn(link),
    inputBg: '#ffffff',
    inputText: '#1f2328',
    inputBorder: '#59636e',
    status: STATUS,
    bannerText: mapValues(STATUS, readableTextOn),
    badges: BADGES,
    uptime: UPTIME,
  };
}

export interface TextPair {
  use: string;
  fg: string;
  bg: string;
}

/** Every text colour the CSS below sets, with the background it is read on. */
export function themeTextPairs(t: Theme): TextPair[] {
  return [
    { use: 'body text', fg: t.text, bg: t.page },
    { use: 'muted text', fg: t.muted, bg: t.page },
    { use: 'links', fg: t.link, bg: t.page },
    { use: 'header text and links', fg: t.headerText, bg: t.headerBg },
    { use: 'subscribe button', fg: t.buttonText, bg: t.buttonBg },
    { use: 'email input', fg: t.inputText, bg: t.inputBg },
    { use: 'skip link', fg: t.link, bg: t.page },
    ...Object.entries(t.status).map(([s, c]) => ({ use: `${s} status text`, fg: c, bg: t.page })),
    ...Object.entries(t.status).map(([s, c]) => ({ use: `${s} banner`, fg: t.bannerText[s as HealthStatus], bg: c })),
    ...Object.entries(t.badges).map(([b, c]) => ({ use: `${b} badge`, fg: readableTextOn(c), bg: c })),
    { use: 'partial outage status text', fg: t.badges.major, bg: t.page },
    { use: 'maintenance status text', fg: t.badges.maintenance, bg: t.page },
  ];
}

export function renderStyles(t: Theme): string {
  const statusRules = Object.entries(t.status)
    .map(([s, c]) => `.s-${s}{color:${c}}.banner.s-${s}{background:${c};color:${t.bannerText[s as HealthStatus]}}`)
    .join('');
  // Shown states beyond the health statuses (page-state.ts): partial outage and maintenance, in their badges' colours.
  const stateRules = (
    [
      ['partial', t.badges.major],
      ['maintenance', t.badges.maintenance],
    ] as const
  )
    .map(([s, c]) => `.s-${s}{color:${c}}.banner.s-${s}{background:${c};color:${readableTextOn(c)}}`)
    .join('');
  const badgeRules = Object.entries(t.badges)
    .map(([b, c]) => `.badge-${b}{background:${c};color:${readableTextOn(c)}}`)
    .join('');
  const uptimeRules = Object.entries(t.uptime)
    .map(([l, c]) => `.day-${l}{background:${c}}`)
    .join('');
  return `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:${t.text};background:${t.page};overflow-wrap:anywhere}
.wrap{max-width:48rem;margin:0 auto;padding:0 1rem}
a{color:${t.link}}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid #000000;outline-offset:0;box-shadow:0 0 0 6px #ffffff}
.skip-link{position:absolute;left:-10000px;top:0}
.skip-link:focus{left:1rem;top:1rem;z-index:1;padding:.5rem 1rem;background:${t.page};color:${t.link}}
.vh{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.site-header{background:${t.headerBg};color:${t.headerText};border-bottom:4px solid ${t.stripe};padding:1rem 0}
.site-header a{color:${t.headerText}}
.brand{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem}
.logo{display:block;height:40px;width:auto;max-width:100%}
.site-title{margin:0;font-size:1.5rem;line-height:1.2;font-weight:700}
.site-title a{text-decoration:none}
.site-header p{margin:.5rem 0 0}
.links{list-style:none;margin:.75rem 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.subscribe{margin-top:1rem}
.subscribe label{display:block;font-weight:600;margin-bottom:.25rem}
.subscribe-row{display:flex;flex-wrap:wrap;gap:.5rem}
.subscribe input{flex:1 1 12rem;min-width:0;font:inherit;padding:.5rem;border:2px solid ${t.inputBorder};border-radius:4px;background:${t.inputBg};color:${t.inputText}}
button{font:inherit;font-weight:600;padding:.5rem 1rem;border:2px solid ${t.buttonText};border-radius:4px;background:${t.buttonBg};color:${t.buttonText};cursor:pointer}
main{display:block;padding:1.5rem 0 2rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1rem}
h2{font-size:1.25rem;line-height:1.3;margin:2rem 0 .75rem}
h3{font-size:1.05rem;line-height:1.35;margin:0}
.banner{display:flex;align-items:center;gap:.75rem;padding:1rem;border-radius:6px;font-size:1.2rem;font-weight:700}
.banner p{margin:0}
.icon{width:1.25em;height:1.25em;flex:none;vertical-align:-.2em}
.card{border:1px solid ${t.border};border-radius:6px;padding:1rem;margin:0 0 1rem}
.badges{display:flex;flex-wrap:wrap;gap:.4rem;margin:.4rem 0}
.badge{display:inline-block;padding:.05rem .55rem;border-radius:999px;font-size:.8rem;font-weight:700;line-height:1.6}
.muted{color:${t.muted}}
.card p,.entry p{margin:.25rem 0}
.text{white-space:pre-line}
.timeline{list-style:none;margin:.75rem 0 0;padding:0 0 0 .75rem;border-left:3px solid ${t.border}}
.entry{margin:0 0 .75rem}
.entry:last-child{margin-bottom:0}
.group{margin:0 0 1.5rem}
.group-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:baseline;gap:.25rem .75rem;margin-bottom:.25rem}
.components{list-style:none;margin:0;padding:0}
.component{padding:.75rem 0;border-top:1px solid ${t.border}}
.component-head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.25rem .75rem}
.component-name{font-weight:600}
.status-text{display:inline-flex;align-items:center;gap:.35rem;font-weight:600}
.uptime-bar{display:flex;gap:1px;list-style:none;margin:.5rem 0 .25rem;padding:0;height:2rem}
.uptime-bar li{flex:1 1 0;min-width:0;border-radius:1px}
.uptime-legend{display:flex;justify-content:space-between;gap:.75rem;margin:0;font-size:.85rem;color:${t.muted}}
.uptime-total{margin:.25rem 0 0;font-size:.9rem}
.days-short{display:none}
.pager{margin-top:2rem}
.site-footer{border-top:1px solid ${t.border};color:${t.muted};padding:1rem 0;font-size:.9rem}
.site-footer p{margin:.25rem 0}
${statusRules}${stateRules}
${badgeRules}
${uptimeRules}
@media (max-width:40rem){.uptime-bar li:nth-last-child(n+31){display:none}.days-long{display:none}.days-short{display:inline}}`;
}
