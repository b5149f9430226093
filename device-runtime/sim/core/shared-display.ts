/**
 * The main display when the device cannot give each space a virtual display
 * (`--no-virtual-displays`): spaces take turns. A ui_* call on one space holds the display for
 * its duration; calls on other spaces queue first-come first-served instead of failing.
 */
export class SharedDisplay {
  private held = false;
  private queue: Array<() => void> = [];
  /** The space currently shown, for space_status and tests. */
  owner: string | null = null;
  /** Times the display changed hands. */
  switches = 0;

  /** Calls waiting for the display. */
  get waiting(): number {
    return this.queue.length;
  }

  async use<T>(spaceId: string, fn: () => Promise<T>): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.held = true;
    if (this.owner !== spaceId) {
      this.owner = spaceId;
      this.switches++;
    }
    try {
      return await fn();
    } finally {
      // Hand the display straight to the next caller (it stays held), or free it.
      const next = this.queue.shift();
      if (next) next();
      else this.held = false;
    }
  }
}
