/**
 * The main display when the device cannot give each space a virtual display
 * (`--no-virtual-displays`): spaces take turns. A ui_* call on one space holds the display for
 * its duration; calls on other spaces queue first-come first-served instead of failing.
 */
export class SharedDisplay {
  private tail: Promise<void> = Promise.resolve();
  /** The space currently shown, for space_status and tests. */
  owner: string | null = null;
  /** Times the display changed hands. */
  switches = 0;
  private queued = 0;

  get waiting(): number {
    return this.queued;
  }

  async use<T>(spaceId: string, fn: () => Promise<T>): Promise<T> {
    const before = this.tail;
    let done!: () => void;
    this.tail = new Promise<void>((r) => (done = r));
    this.queued++;
    await before;
    this.queued--;
    if (this.owner !== spaceId) {
      this.owner = spaceId;
      this.switches++;
    }
    try {
      return await fn();
    } finally {
      done();
    }
  }
}
