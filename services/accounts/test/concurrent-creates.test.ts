// Two requests creating the same user or team at once (the e2e suites' files do, in parallel): the look-up
// before the insert cannot see the other's row, so the database's unique key decides; the loser must hear
// the same conflict the look-up gives, never an internal error.
import { type AccountsHarness, startAccountsHarness } from './helpers';

describe('creating the same user or team at once', () => {
  let harness: AccountsHarness;
  beforeAll(async () => {
    harness = await startAccountsHarness();
  });
  afterAll(async () => {
    await harness?.stop();
  });

  /** Each call's outcome: 'created', or the error's code and message. */
  const outcomes = (calls: Promise<unknown>[]) =>
    Promise.all(
      calls.map((call) =>
        call.then(
          () => 'created',
          (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
        ),
      ),
    );

  it('should create one user and answer every other request for the same email with a conflict', async () => {
    for (let round = 0; round < 5; round++) {
      const email = `twice-${round}@same.test`;
      const results = await outcomes(
        Array.from({ length: 6 }, () => harness.client.CreateUser({ email, name: 'Twice', password: '' })),
      );
      expect(results.filter((result) => result === 'created')).toHaveLength(1);
      for (const result of results.filter((r) => r !== 'created'))
        expect(result).toMatch(/^conflict: .*already exists/);
    }
  });

  it('should create one team and answer every other request for the same slug with a conflict', async () => {
    for (let round = 0; round < 5; round++) {
      const slug = `same-team-${round}`;
      const results = await outcomes(
        Array.from({ length: 6 }, () => harness.client.CreateTeam({ slug, name: 'Same', plan: 'team' })),
      );
      expect(results.filter((result) => result === 'created')).toHaveLength(1);
      for (const result of results.filter((r) => r !== 'created'))
        expect(result).toMatch(/^conflict: .*already exists/);
    }
  });
});
