// A fan-out subscription on JetStream: one ordered consumer per stream the filter touches. Ordered
// consumers are ephemeral, need no ack, and recreate themselves from their last position after a
// reconnect, so a subscriber neither misses nor repeats messages across a NATS restart.
import { DeliverPolicy, type JetStreamClient, type JetStreamManager, type JsMsg } from 'nats';
import { InFlight } from './delivery';
import { handlerFailureLog } from './handler-failures';
import type { BusLogger, BusMessage } from './types';

export interface SubscriptionPart {
  streamName: string;
  wireFilter: string;
}

export class NatsFanOutSubscription {
  private readonly inFlight = new InFlight();
  private readonly closers: (() => Promise<unknown>)[] = [];
  private active = true;
  private readonly subscriberFailed: ReturnType<typeof handlerFailureLog>;

  constructor(
    private readonly logger: BusLogger,
    private readonly handler: (message: BusMessage) => Promise<void> | void,
    private readonly toMessage: (msg: JsMsg) => BusMessage,
  ) {
    this.subscriberFailed = handlerFailureLog(logger, 'bus subscriber failed', 'error');
  }

  async start(js: JetStreamClient, jsm: JetStreamManager, parts: SubscriptionPart[]): Promise<void> {
    for (const part of parts) {
      // Start right after the stream's current last message: everything published after subscribe()
      // resolved is delivered, even though the server-side consumer is created lazily.
      const { state } = await jsm.streams.info(part.streamName);
      const consumer = await js.consumers.get(part.streamName, {
        filterSubjects: part.wireFilter,
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: state.last_seq + 1,
      });
      const messages = await consumer.consume();
      this.closers.push(() => messages.close());
      this.inFlight.track(this.deliver(messages));
    }
  }

  async stop(): Promise<void> {
    this.active = false;
    await Promise.all(this.closers.map((close) => close().catch(() => undefined)));
    await this.inFlight.drain();
  }

  private async deliver(messages: AsyncIterable<JsMsg>): Promise<void> {
    try {
      await this.deliverEach(messages);
    } catch (error) {
      // Only when the stream itself is gone for good; reconnects are handled by the ordered consumer.
      if (this.active) this.logger.error({ err: error }, 'bus subscription ended');
    }
  }

  private async deliverEach(messages: AsyncIterable<JsMsg>): Promise<void> {
    for await (const msg of messages) {
      if (!this.active) return;
      const message = this.toMessage(msg);
      try {
        await this.handler(message);
      } catch (error) {
        // Fan-out has no redelivery: a subscriber that must not miss work uses consume().
        this.subscriberFailed(error, { subject: message.subject });
      }
    }
  }
}
