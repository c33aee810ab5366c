/**
 * Lighthouse CI's assertions for `npm run test:lighthouse` (scripts/bench/lighthouse.ts collects the reports
 * into .lighthouseci/, signed in per role; decision 0095). Desktop reports are of pages opened at
 * 127.0.0.1, mobile ones at localhost (the same server): one assertion set per preset.
 */
const everyPage = {
  'categories:accessibility': ['error', { minScore: 1 }],
  'categories:best-practices': ['error', { minScore: 1 }],
};

module.exports = {
  ci: {
    assert: {
      assertMatrix: [
        {
          matchingUrlPattern: '^http://127\\.0\\.0\\.1:',
          assertions: {
            ...everyPage,
            // A floor under the median runs' scores: 97–100 on one machine, 88–100 on another of the same kind
            // the same day (docs/benchmarks.md "Page budgets"). The target, 0.9, would fail runs for the
            // machine, not the pages (decision 0095).
            'categories:performance': ['error', { minScore: 0.8 }],
          },
        },
        {
          matchingUrlPattern: '^http://localhost:',
          assertions: {
            ...everyPage,
            // A floor under the median runs' scores: 77–98 on one machine, 53–74 on another of the same kind
            // the same day. The target, 0.75, would fail runs for the machine, not the pages (decision 0095).
            'categories:performance': ['error', { minScore: 0.45 }],
          },
        },
      ],
    },
  },
};
