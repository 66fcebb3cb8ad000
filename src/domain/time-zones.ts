/**
 * The IANA zones a form offers: every zone this runtime knows (`Intl.supportedValuesOf`), UTC
 * first. Forms show them grouped by region (the part before the first slash); the server still
 * checks a posted zone with isValidTimeZone, so a zone typed or kept from before stays accepted.
 */
export function timeZoneChoices(): string[] {
  return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];
}

/** The zones by region, in the runtime's order: `[['Africa', ['Africa/Abidjan', …]], …]`; zones without a region under "Other". */
export function timeZonesByRegion(zones: readonly string[] = timeZoneChoices()): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const z of zones) {
    const region = z === 'UTC' ? 'UTC' : z.includes('/') ? z.slice(0, z.indexOf('/')) : 'Other';
    const list = groups.get(region) ?? [];
    list.push(z);
    groups.set(region, list);
  }
  return [...groups.entries()];
}
