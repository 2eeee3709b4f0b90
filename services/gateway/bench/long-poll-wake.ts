// Benchmark (npm run bench, never a timed test) of GET /v1/proposals/{uuid}?wait=N, the long-poll an agent
// waits on instead of polling, through the gateway of the embedded system:
//
// 1. Wake latency: a long-poll is waiting; a reviewer acts (a comment through the API, a request for changes
//    or an apply through the proposals service, as the web app does); the time from the act's answer to the
//    long-poll's answer (the outbox relay, the bus, the gateway's waiter, one more read). BENCH_WAKE_SAMPLES
//    (20) of each.
// 2. Fan-out: BENCH_WAITERS (500) long-polls on one proposal, one comment: the time until the last answers.
// 3. A quiet wait=1: how long past the second it answers (the timer, one more read, 304).
//
// Loopback only; rate limits raised by configuration; a fresh database, dropped at the end.
import { createServiceClient } from '@dss/platform';
import { startTestSystem, TestPeople } from '@dss/system';
import { positiveInteger } from './load';

const SAMPLES = positiveInteger('BENCH_WAKE_SAMPLES', 20);
const WAITERS = positiveInteger('BENCH_WAITERS', 500);
const RAISED = '10000000';

type Json = { data: Record<string, unknown> };

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const summary = (values: number[]) =>
  `median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

async function main(): Promise<void> {
  const system = await startTestSystem({
    DSS_RATE_LIMIT_IP_PER_MIN: RAISED,
    DSS_RATE_LIMIT_READ_PER_MIN: RAISED,
    DSS_RATE_LIMIT_WRITE_PER_MIN: RAISED,
  });
  const people = new TestPeople(system.grpc.accounts);
  const proposals = createServiceClient('Proposals', system.grpc.proposals);
  try {
    const agent = await people.member({ team: 'bench', role: 'editor', write: true });
    const reviewer = await people.member({ team: 'bench', role: 'owner' });
    const api = async (
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${system.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${agent.token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return {
        status: response.status,
        etag: response.headers.get('etag') ?? '',
        text: await response.text(),
      };
    };
    let diagrams = 0;
    const propose = async () => {
      diagrams += 1;
      const created = await api('POST', '/diagrams', {
        name: `Bench ${diagrams}`,
        driver: 'pgsql',
        schema: {
          strategy: 'merge',
          tables: [{ name: 'orders', columns: [{ name: 'id', type: 'bigint' }] }],
        },
      });
      const diagramUuid = (JSON.parse(created.text) as Json).data.uuid as string;
      const proposed = await api('POST', `/diagrams/${diagramUuid}/proposals`, {
        title: 'Status',
        message: 'Bench',
        schema: {
          strategy: 'additive',
          tables: [{ name: 'orders', columns: [{ name: 'status', type: 'text' }] }],
        },
      });
      return (JSON.parse(proposed.text) as Json).data.uuid as string;
    };
    const acts: Record<string, (uuid: string) => Promise<unknown>> = {
      comment: (uuid) => api('POST', `/proposals/${uuid}/comments`, { body: 'A question' }),
      'request changes': (uuid) =>
        proposals.RequestChanges({ uuid, user_id: reviewer.userId, message: 'Please' }),
      apply: (uuid) => proposals.ApplyProposal({ uuid, user_id: reviewer.userId, team_id: '', reason: '' }),
    };
    console.log(
      `long-poll wake latency, ${SAMPLES} samples each (from the act's answer to the long-poll's answer):`,
    );
    for (const [name, act] of Object.entries(acts)) {
      const latencies: number[] = [];
      for (let sample = 0; sample < SAMPLES; sample++) {
        const uuid = await propose();
        let answeredAt = 0;
        const waiting = api('GET', `/proposals/${uuid}?wait=30`).then((answer) => {
          answeredAt = performance.now();
          return answer;
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await act(uuid);
        const actedAt = performance.now();
        await waiting;
        latencies.push(Math.max(0, answeredAt - actedAt));
      }
      console.log(`  ${name.padEnd(16)} ${summary(latencies)}`);
    }

    const uuid = await propose();
    const first = await api('GET', `/proposals/${uuid}`);
    const answeredAt: number[] = [];
    const waits = Array.from({ length: WAITERS }, () =>
      api('GET', `/proposals/${uuid}?wait=30`, undefined, { 'if-none-match': first.etag }).then((answer) => {
        answeredAt.push(performance.now());
        return answer;
      }),
    );
    // Time for every long-poll to reach its wait (500 connections opened at once on a shared machine).
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const early = answeredAt.length;
    await acts.comment!(uuid);
    const commentedAt = performance.now();
    const answers = await Promise.all(waits);
    const ok = answers.filter((answer) => answer.status === 200).length;
    const after = answeredAt.slice(early).map((at) => at - commentedAt);
    console.log(
      `fan-out: ${WAITERS} long-polls on one proposal (${early} answered before the comment), one comment, ` +
        `${ok} × 200; answered after it: first ${Math.min(...after).toFixed(0)} ms, ${summary(after)}`,
    );

    const overruns: number[] = [];
    const current = await api('GET', `/proposals/${uuid}`);
    for (let sample = 0; sample < SAMPLES; sample++) {
      const started = performance.now();
      const quiet = await api('GET', `/proposals/${uuid}?wait=1`, undefined, {
        'if-none-match': current.etag,
      });
      if (quiet.status !== 304) throw new Error(`a quiet wait answered ${quiet.status}`);
      overruns.push(performance.now() - started - 1000);
    }
    console.log(`quiet wait=1 (304), time past the second: ${summary(overruns)}`);
  } finally {
    proposals.close();
    people.close();
    await system.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
