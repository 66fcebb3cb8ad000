/**
 * The fuzzer's deterministic randomness: every draw comes from a generator seeded by the run's
 * seed and a label (an operation, a status-host route), so a run sends the same requests each
 * time and one operation's draws do not shift when another's change.
 */

/** VIGIL_FUZZ_SEED and VIGIL_FUZZ_RANDOM explore further (other draws, more of them); the suite runs the fixed ones. */
export const SEED = Number(process.env.VIGIL_FUZZ_SEED ?? 0x5eed18);
/** Field mutations drawn at random per operation, on top of the fixed cases every operation gets. */
export const RANDOM_CASES_PER_OP = Number(process.env.VIGIL_FUZZ_RANDOM ?? 16);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seeded(label: string): Rng {
  let h = SEED;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619);
  const next = mulberry32(h);
  return {
    next,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    shuffle: <T>(list: readonly T[]): T[] => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}

export interface Rng {
  next(): number;
  pick<T>(list: readonly T[]): T;
  shuffle<T>(list: readonly T[]): T[];
}
