// Maps a device's own millisecond counter to the host's monotonic time. A line reaches the host some
// time after the device stamped it, so (host arrival - device stamp) over-estimates the offset by the
// transmission delay; the smallest value seen recently is the best estimate. "Recently" is a window of
// host time (default 5 minutes): long enough to hold undelayed samples through bursts of latency, short
// enough that a crystal 50 ppm off moves the estimate by no more than 15 ms.

export class DeviceTimeline {
  private samples: Array<{ readonly hostMs: number; readonly offset: number }> = [];
  private readonly windowMs: number;

  constructor(windowMs = 300_000) {
    this.windowMs = windowMs;
  }

  get known(): boolean {
    return this.samples.length > 0;
  }

  sample(deviceMs: number, hostMs: number): void {
    this.samples.push({ hostMs, offset: hostMs - deviceMs });
    const oldest = hostMs - this.windowMs;
    if ((this.samples[0]?.hostMs ?? hostMs) < oldest) this.samples = this.samples.filter((s) => s.hostMs >= oldest);
  }

  /** Host time of a device stamp (integer ms). */
  toHost(deviceMs: number): number {
    let offset = Infinity;
    for (const sample of this.samples) offset = Math.min(offset, sample.offset);
    return deviceMs + offset;
  }

  reset(): void {
    this.samples = [];
  }
}
