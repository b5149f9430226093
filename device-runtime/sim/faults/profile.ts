/**
 * Fault profiles (issue 5): how hostile the simulated device is, chosen once per run and fully
 * deterministic from a seed. `instant` is for unit tests of nestwright itself; `realistic` has the
 * latencies and animation times of a mid-range phone; `hostile` adds the failures real devices
 * produce now and then, so auto-waiting, retries and verification are proven against them.
 */
export type FaultProfileName = 'instant' | 'realistic' | 'hostile';

export interface FaultProfile {
  name: FaultProfileName;
  seed: number;
  /** Multiplies each channel's latency range (the channel latencies of docs/protocol.md#channels). 0 = answers immediately. */
  latencyScale: number;
  /** Latency is multiplied by 1 + jitter × U[0,1). */
  jitter: number;
  /** Length of activity/task transitions and view animations, ms. 0 = complete at once. */
  animationMs: number;
  /** Multiplies app loading delays (server calls, page loads). 0 = data is there at once. */
  loadScale: number;
  /** Chance that an observation during a transition finds the accessibility root null. */
  treeMissingDuringTransition: number;
  /** Chance that a mutating UI action answers ok but does nothing (the caller must verify). */
  dropAction: number;
  /**
   * How much longer than on a phone things take here, for clients' timeouts (runtime_info
   * `timing.timeout_scale`): 1 for `instant` and `realistic`, 3 for `hostile` (its latencies are
   * ~2.6× and its loads 3× a mid-range phone's), the factor of Playwright's test.slow().
   */
  timeoutScale: number;
}

const PROFILES: Record<FaultProfileName, Omit<FaultProfile, 'name' | 'seed'>> = {
  instant: {
    latencyScale: 0,
    jitter: 0,
    animationMs: 0,
    loadScale: 0,
    treeMissingDuringTransition: 0,
    dropAction: 0,
    timeoutScale: 1,
  },
  realistic: {
    latencyScale: 1,
    jitter: 0.2,
    animationMs: 300,
    loadScale: 1,
    treeMissingDuringTransition: 0,
    dropAction: 0,
    timeoutScale: 1,
  },
  hostile: {
    latencyScale: 1.5,
    jitter: 1.5,
    animationMs: 450,
    loadScale: 3,
    treeMissingDuringTransition: 0.6,
    dropAction: 0.05,
    timeoutScale: 3,
  },
};

export const FAULT_PROFILE_NAMES = Object.keys(PROFILES) as FaultProfileName[];

export function faultProfile(name: FaultProfileName = 'instant', seed = 1): FaultProfile {
  const base = PROFILES[name];
  if (!base) {
    throw new Error(
      `faultProfile: unknown profile ${JSON.stringify(name)}; use one of ${FAULT_PROFILE_NAMES.join(', ')}`,
    );
  }
  return { name, seed, ...base };
}

/**
 * The profile named by `NESTWRIGHT_FAULTS` (default `instant`) with the seed of `NESTWRIGHT_SEED`
 * (default 1). Read by whoever starts the simulator, so one run's faults can be replayed exactly.
 */
export function faultProfileFromEnv(env: Record<string, string | undefined> = process.env): FaultProfile {
  const name = (env.NESTWRIGHT_FAULTS ?? 'instant').trim() || 'instant';
  if (!(FAULT_PROFILE_NAMES as string[]).includes(name)) {
    throw new Error(`NESTWRIGHT_FAULTS=${name} is not a fault profile; use one of ${FAULT_PROFILE_NAMES.join(', ')}`);
  }
  const rawSeed = env.NESTWRIGHT_SEED?.trim();
  const seed = rawSeed ? Number(rawSeed) : 1;
  if (!Number.isInteger(seed)) throw new Error(`NESTWRIGHT_SEED=${rawSeed} is not an integer seed`);
  return faultProfile(name as FaultProfileName, seed);
}
