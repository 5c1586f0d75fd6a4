/*
 * Our part of a quota that other programs use too, learned window by window: how many of the
 * requests the server counted in a window were ours. Programs that share a token know nothing of
 * each other; each keeps no more of its requests unanswered than its part of what the server says
 * is left, so together they fill the window without overrunning it.
 */

/** However little we sent, a part this large still lets a request go now and then. */
const MIN_SHARE = 1 / 16;

export class WindowShare {
  /** From the windows seen whole; undefined until one is. */
  #learned: number | undefined;
  #ours = 0;
  #used = 0;

  /**
   * One of our answers; `used`: what the server says was counted in its window so far. A refused
   * request is not part of what we got: counted as ours, a storm of refusals would make our part
   * look largest just when the window was overrun.
   */
  answer(used: number, refused: boolean): void {
    if (!refused) this.#ours++;
    this.#used = Math.max(this.#used, used);
  }

  /** A new window began: the one before is seen whole. */
  newWindow(): void {
    if (this.#used > 0) {
      const sample = clamp(this.#ours / this.#used);
      this.#learned = this.#learned === undefined ? sample : (this.#learned + sample) / 2;
    }
    this.#ours = 0;
    this.#used = 0;
  }

  /** Our part, 1/16 to 1: of the windows seen whole, else of this one so far. */
  get value(): number {
    if (this.#learned !== undefined) return this.#learned;
    return this.#used > 0 ? clamp(this.#ours / this.#used) : 1;
  }
}

const clamp = (x: number) => Math.min(1, Math.max(MIN_SHARE, x));
