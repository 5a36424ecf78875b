// One start, one stop: a start registers each thing it opens (the journal, a bus connection, a device,
// a timer, a listening socket) here as soon as it is open, and its stop undoes them, last opened first.
// A start that fails half-way unwinds the same stack, so whatever it had opened is closed again and the
// process can end: nothing a failed start leaves behind keeps it up.

/** A step of the stack that failed while unwinding, and why. */
export interface TeardownFailure {
  readonly step: string;
  readonly error: unknown;
}

export class Teardown {
  readonly #steps: { readonly name: string; readonly undo: () => void | Promise<void> }[] = [];

  /** `undo` runs once, at the unwinding, after everything registered later has been undone. */
  defer(name: string, undo: () => void | Promise<void>): void {
    this.#steps.push({ name, undo });
  }

  /** Steps waiting to be undone (tests). */
  get size(): number {
    return this.#steps.length;
  }

  /**
   * Undoes every step, last registered first, each awaited before the next. A step that throws is
   * recorded and the unwinding goes on: one stuck device must not leave the journal open. Unwinding
   * twice undoes nothing the second time.
   */
  async unwind(): Promise<TeardownFailure[]> {
    const failures: TeardownFailure[] = [];
    for (const { name, undo } of this.#steps.splice(0).reverse()) {
      try {
        await undo();
      } catch (error) {
        failures.push({ step: name, error });
      }
    }
    return failures;
  }

  /** A stop: unwinds everything, then throws once if any step failed (each failure in the AggregateError). */
  async stop(what: string): Promise<void> {
    const failures = await this.unwind();
    if (failures.length > 0)
      throw new AggregateError(
        failures.map((f) => f.error),
        `stopping ${what}: ${describeFailures(failures)}`,
      );
  }

  /**
   * A failed start: unwinds what the start had opened and throws the start's own error (the cause the
   * operator must act on); a step that failed on the way is added to its message, not put in its place.
   */
  async abandon(error: unknown): Promise<never> {
    const failures = await this.unwind();
    if (failures.length > 0 && error instanceof Error) error.message += ` (and while undoing the start: ${describeFailures(failures)})`;
    throw error;
  }
}

function describeFailures(failures: readonly TeardownFailure[]): string {
  return failures.map((f) => `${f.step} failed: ${f.error instanceof Error ? f.error.message : String(f.error)}`).join('; ');
}
