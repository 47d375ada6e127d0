import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// waitFor and findBy* give up after 1 s by default, which a busy machine can miss with nothing
// wrong; they return as soon as their condition holds, so a long limit costs nothing.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
});
