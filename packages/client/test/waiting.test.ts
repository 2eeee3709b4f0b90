// The wait loops' own rules, with a fake client standing in for the API (the real waits are covered
// against the embedded stack in client-endpoints and client-helpers).
import type { Conditional, Diagram, ProposalStatus } from '../src';
import { DssWaitTimeoutError } from '../src';
import { waitForImport, waitForProposal } from '../src/waiting';

const importing = { uuid: 'd1', status: 'importing' } as Diagram;

describe('waitForImport()', () => {
  it('should give up after timeoutMs with the last state seen', async () => {
    const client = { getDiagram: async () => importing };
    const error = await waitForImport(client, 'd1', { timeoutMs: 0, sleep: async () => undefined }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DssWaitTimeoutError);
    expect((error as DssWaitTimeoutError<Diagram>).last).toBe(importing);
  });

  it('should poll every pollAfterSeconds for a bare uuid', async () => {
    const answers = [importing, importing, { ...importing, status: 'failed' } as Diagram];
    const waits: number[] = [];
    const client = { getDiagram: async () => answers.shift()! };
    const final = await waitForImport(client, 'd1', {
      pollAfterSeconds: 3,
      sleep: async (milliseconds) => void waits.push(milliseconds),
    });
    expect(final.status).toBe('failed');
    expect(waits).toEqual([3000, 3000]);
  });
});

describe('waitForProposal()', () => {
  it('should send the ETag of the last 200 and keep it across 304s', async () => {
    const pending = { uuid: 'p1', state: 'pending' } as ProposalStatus;
    const sent: (string | undefined)[] = [];
    const answers: Conditional<ProposalStatus>[] = [
      { notModified: false, data: pending, etag: '"a"' },
      { notModified: true, etag: '"a"' },
      { notModified: false, data: { ...pending, state: 'declined' }, etag: '"b"' },
    ];
    const client = {
      getProposalIfChanged: async (_uuid: string, etag?: string) => {
        sent.push(etag);
        return answers.shift()!;
      },
    };
    const final = await waitForProposal(client, 'p1', { sleep: async () => undefined });
    expect(final.state).toBe('declined');
    expect(sent).toEqual([undefined, '"a"', '"a"']);
  });
});
