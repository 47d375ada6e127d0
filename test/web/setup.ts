import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { ConsoleLogger } from 'aws-amplify/utils';
import { afterEach } from 'vitest';

// waitFor and findBy* give up after 1 s by default, which a busy machine can miss with nothing
// wrong; they return as soon as their condition holds, so a long limit costs nothing.
configure({ asyncUtilTimeout: 15_000 });

// Amplify warns at every configure that a user-pool endpoint of its own is set. The tests configure
// the app as the local stack does, which sets one on purpose: expected, and not a failure to read
// past in the test output. Amplify's errors still show.
ConsoleLogger.LOG_LEVEL = 'ERROR';

afterEach(() => {
  cleanup();
});
