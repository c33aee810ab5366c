import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * One closing line for the run's log: how many tests passed at once, how many needed a retry (flaky: a
 * CI retry absorbed a failure, which should not happen) and how many failed. With more than one project
 * (E2E_DATABASE_URL) a test counts once per project, and the line says how many each project ran.
 */
export default class RetryReporter implements Reporter {
  private readonly tests = new Set<TestCase>();

  onTestEnd(test: TestCase, _result: TestResult): void {
    this.tests.add(test);
  }

  onEnd(result: FullResult): void {
    let passed = 0;
    let flaky = 0;
    let failed = 0;
    let skipped = 0;
    const perProject = new Map<string, number>();
    for (const test of this.tests) {
      const project = test.parent.project()?.name ?? '';
      perProject.set(project, (perProject.get(project) ?? 0) + 1);
      const outcome = test.outcome();
      if (outcome === 'expected') passed++;
      else if (outcome === 'flaky') flaky++;
      else if (outcome === 'unexpected') failed++;
      else skipped++;
    }
    const notRun = skipped ? `, ${skipped} not run` : '';
    const projects =
      perProject.size > 1 ? `; ${[...perProject].map(([name, n]) => `${name} ${n}`).join(', ')}` : '';
    console.log(
      `== browser tests: ${passed} passed, ${flaky} retried (flaky), ${failed} failed${notRun} (${result.status}, ${Math.round(result.duration / 1000)} s${projects})`,
    );
  }
}
