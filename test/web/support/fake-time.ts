import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** Moves fake time on, running due timers and the promises they settle, inside React's act. */
export async function advance(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** Lets pending work settle without moving time, until the check passes (Testing Library's
 * findBy* would wait on timers that fake time never runs). */
export async function settleUntil(check: () => void, attempts = 200): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      check();
      return;
    } catch {
      await advance(0);
    }
  }
  check();
}
