/** The processes collection of the MongoDB adapter: a record per server process sharing the store, with its heartbeat. */
import type { Model } from "mongoose";
import type { ProcessesPort, ProcessRecord } from "../port";
import { copy } from "../shared";
import type { Doc } from "./models";
import { NO_ID } from "./records";
import { DURABLY, retryingUpsert } from "./writes";

export class MongoProcesses implements ProcessesPort {
  constructor(private readonly processes: Model<Doc>) {}

  async registerProcess(p: ProcessRecord): Promise<void> {
    await retryingUpsert(() => this.processes.replaceOne({ id: p.id }, copy(p), { upsert: true, ...DURABLY }).exec());
  }
  async touchProcess(id: string, heartbeatAt: string): Promise<boolean> {
    return (await this.processes.updateOne({ id }, { $set: { heartbeatAt } }, DURABLY).exec()).matchedCount > 0;
  }
  async listProcesses(): Promise<ProcessRecord[]> {
    return this.processes.find({}, NO_ID).sort({ id: 1 }).lean<ProcessRecord[]>().exec();
  }
  async removeProcessIf(id: string, heartbeatAt: string): Promise<boolean> {
    return (await this.processes.deleteOne({ id, heartbeatAt }, DURABLY).exec()).deletedCount > 0;
  }
}
